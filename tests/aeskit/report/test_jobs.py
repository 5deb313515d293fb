"""The report's jobs on Dask: a scheduler and two worker processes on loopback give the
same results as the local run, and a worker killed mid-job loses nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from aeskit import BUILD_ROOT
from aeskit.report.jobs import Job, JobOutput, executor, merge
from aeskit.store import Store, activate

#: small registered primitives (about 7 s each through the whole flow)
VARIANTS = ("affine", "inv_affine", "mix_column", "gf_inv")
#: what must agree between two runs of one design (nextpnr with a fixed seed is
#: deterministic on one machine)
FIGURES = ("lut4", "ff", "ebr", "fmax_mhz", "ge", "depth", "source_hash", "flow_version")


def _designs() -> list[Any]:
    from aeskit.report.primitive_table import VARIANTS as ALL
    from aeskit.report.primitive_table import lane_wrapper
    from aeskit.synth import Design

    out = []
    for v in ALL:
        if v.name in VARIANTS:
            w = lane_wrapper(v)
            out.append(Design(f"dask_{v.name}", w.stem, (*v.files, w)))
    assert len(out) == len(VARIANTS)
    return out


def _figures(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d.get(k) for k in FIGURES}


def _wait_for(cond: Any, timeout: float, what: str) -> Any:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def loopback_cluster(tmp_path: Path) -> Any:
    """``dask scheduler`` and two ``dask worker`` processes (no nanny: a killed worker
    stays dead) on 127.0.0.1; yields (address, worker processes)."""
    dask = Path(sys.executable).parent / "dask"
    sfile = tmp_path / "scheduler.json"
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False")
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(sfile)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)]
    try:
        _wait_for(sfile.is_file, 60, "the scheduler file")
        address = json.loads(sfile.read_text())["address"]
        workers = [subprocess.Popen([str(dask), "worker", address, "--nthreads", "1",
                                     "--no-nanny", "--no-dashboard", "--name", f"w{i}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    env=env) for i in (1, 2)]
        procs += workers
        yield address, workers
    finally:
        for p in procs:
            p.kill()
            p.wait()


@pytest.mark.slow  # 120 s: two workers and a scheduler on loopback (make test-full)
def test_dask_loopback_same_results_and_a_killed_worker_loses_nothing(
        loopback_cluster: Any) -> None:
    from distributed import Client

    address, workers = loopback_cluster
    run = BUILD_ROOT / "tests" / "dask" / uuid.uuid4().hex[:8]
    designs = _designs()
    try:
        # the local run (this process's threads), into its own output folders
        local_ex = executor(None, 2, None, None)
        try:
            futs = [local_ex.submit(Job("synth", d, device="LFE5U-85F", root=str(run / "local")))
                    for d in designs]
            local = {d.name: local_ex.result(f) for d, f in zip(designs, futs)}
        finally:
            local_ex.close()
        assert all(o.error is None for o in local.values()), local

        # the same jobs on the loopback cluster, into other folders, with a store
        store = Store(run / "results", writable=True)
        with Client(address) as probe:
            _wait_for(lambda: len(probe.scheduler_info()["workers"]) == 2, 60, "two workers")
            pids = probe.run(os.getpid)
        ex = executor(address, 1, None, store.root)
        killed: list[str] = []
        try:
            futs = [ex.submit(Job("synth", d, device="LFE5U-85F", root=str(run / "dask")))
                    for d in designs]

            def busy_worker() -> str | None:
                proc = ex.client.processing()  # type: ignore[attr-defined]
                return next((w for w, keys in proc.items() if keys), None)

            victim = _wait_for(busy_worker, 60, "a worker running a job")
            os.kill(pids[victim], signal.SIGKILL)
            killed.append(victim)
            outs: list[JobOutput] = [ex.result(f) for f in futs]
            alive = list(ex.client.scheduler_info()["workers"])  # type: ignore[attr-defined]
        finally:
            ex.close()
        assert killed and victim not in alive and len(alive) == 1
        assert any(p.poll() is not None for p in workers)  # one worker process is gone

        # nothing lost: every job has its result, equal to the local run's
        assert all(o.error is None for o in outs), [o.error for o in outs]
        for d, o in zip(designs, outs):
            assert _figures(o.value) == _figures(local[d.name].value), d.name
        # ... and the store keeps each record once, written from the returned records
        with activate(store):
            for o in outs:
                merge(o, store)
        files = sorted(p.relative_to(store.root).as_posix() for p in store.root.rglob("*.json"))
        expected = sorted(f"tests/dask/{run.name}/dask/{d.name}.json" for d in designs)
        assert files == expected
        for d, o in zip(designs, outs):
            rec = store.read(f"tests/dask/{run.name}/dask/{d.name}")
            assert rec is not None and _figures(rec.data) == _figures(o.value)
        assert all(p.status == "measured" for p in store.used.values())
    finally:
        shutil.rmtree(run, ignore_errors=True)


def test_scheduler_argument_errors() -> None:
    for bad in ("local:0", "local:x", "somewhere"):
        with pytest.raises(ValueError, match="scheduler"):
            executor(bad, 1, None, None)
