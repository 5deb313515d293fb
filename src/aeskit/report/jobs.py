"""The report's independent jobs and where they run.

A :class:`Job` is one unit of the report's work: a core's simulation measurement, one
synthesis (a design, a device, a seed), or a section's ``collect``. :func:`execute`
runs one anywhere -- in a thread of the report's process or in a Dask worker -- and
returns a :class:`JobOutput`: the value, the results-store records the job wrote and
how it obtained each figure (reused or measured).

Executors (:func:`executor`):

* ``None``: today's pool, threads of the report's process (``jobs`` of them); every
  job sees the process's active store directly;
* ``"local:N"``: a Dask ``LocalCluster`` of N worker processes on this machine;
* ``"tcp://host:port"`` (any Dask scheduler address): an existing cluster. Each worker
  needs the project's setup (``make setup`` in a checkout of the same commit); it reads
  the store of its own checkout and returns what it measured, which the report writes
  into its own store (once per ident; one file per ident).

Dask reruns the job of a worker that dies on another worker; the job's records come
back with the run that finished, so nothing is lost and nothing is kept twice.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from aeskit.store import Provenance, Record, Store, active, set_active

__all__ = ["Executor", "Job", "JobOutput", "execute", "executor", "merge"]

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Job:
    """One unit of work. ``kind``: ``sim`` (``target``: a core), ``synth`` (``target``:
    a core or :class:`aeskit.synth.Design`, on ``device`` with ``seed``) or ``collect``
    (``target``: a section module's name, over ``cores``; its systems are placed with
    ``seeds`` too)."""

    kind: str
    target: Any
    seeds: tuple[int, ...] = (1,)
    device: str = ""
    force: bool = False
    cores: tuple[Any, ...] = ()
    #: synthesis output root below build/ (None: the flow's default, build/synth)
    root: str | None = None

    @property
    def label(self) -> str:
        name = self.target if isinstance(self.target, str) else self.target.name
        if self.kind == "synth":
            s = "s" if len(self.seeds) > 1 else ""
            return f"{name} synth {self.device} seed{s} {', '.join(map(str, self.seeds))}"
        return f"{name} {self.kind}"


@dataclass
class JobOutput:
    """What :func:`execute` returns: the job's value (or its error text), the store
    records it wrote and the provenance of every figure it used."""

    value: Any = None
    error: str | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    provenance: list[Provenance] = field(default_factory=list)


def _run(job: Job, progress: Progress | None) -> Any:
    say = progress or (lambda _m: None)
    if job.kind == "sim":
        from aeskit.report import measure

        return measure.measure_core(job.target, _build_root() / "cache" / job.target.name,
                                   force=job.force, progress=say)
    if job.kind == "synth":
        from aeskit.synth.seeds import synthesize_seeds

        return synthesize_seeds(job.target, job.device, job.seeds,
                                Path(job.root) if job.root else None, force=job.force,
                                progress=say)
    if job.kind == "collect":
        mod = importlib.import_module(f"aeskit.report.sections.{job.target}")
        return mod.collect(list(job.cores), say, job.force, device=job.device,
                           seeds=job.seeds)
    raise ValueError(f"unknown job kind {job.kind!r}")


def _build_root() -> Path:
    from aeskit import BUILD_ROOT

    return BUILD_ROOT


_worker_lock = threading.Lock()
_worker_store: Store | None = None


def execute(job: Job, store_root: str | None = None,
            progress: Progress | None = None) -> JobOutput:
    """Run ``job``. ``store_root``: in a worker process, the store to read and write
    (made the worker's active store on its first job); None in the report's own
    process, whose active store the job uses. A failing job returns its error text
    (the report shows it) instead of raising."""
    import traceback

    global _worker_store
    st = active()
    if store_root is not None:
        with _worker_lock:
            if _worker_store is None or _worker_store.root != _resolve(store_root):
                _worker_store = Store(_resolve(store_root))
                set_active(_worker_store)  # the worker's store from now on
            st = _worker_store
    n_log, n_written = (len(st.log), len(st.written)) if st is not None else (0, 0)
    out = JobOutput()
    try:
        out.value = _run(job, progress)
    except Exception as exc:  # noqa: BLE001 - reported by the report, not fatal
        out.error = f"{exc}\n{traceback.format_exc()}"
    if st is not None and store_root is not None:
        out.records = [r.to_json() for r in st.written[n_written:]]
        out.provenance = list(st.log[n_log:])
    return out


def merge(out: JobOutput, store: Store | None) -> None:
    """Take a worker's records and provenance into the report's ``store``: a record
    is written unless the store already holds it (same ident and key), so a job that
    ran twice (its first worker died) is kept once."""
    if store is None:
        return
    for d in out.records:
        rec = Record.from_json(d)
        have = store.read(rec.ident)
        if have is None or have.key != rec.key:
            store.write(rec)
    for p in out.provenance:
        store.note(p.ident, p.status, p.commit)


class Executor(Protocol):
    """Where jobs run: ``submit`` returns a future of a :class:`JobOutput`."""

    def submit(self, job: Job) -> Any: ...

    def result(self, fut: Any) -> JobOutput: ...

    def close(self) -> None: ...


class ThreadExecutor:
    """Today's pool: threads of this process sharing its active store."""

    def __init__(self, jobs: int, progress: Progress | None) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        self._progress = progress

    def submit(self, job: Job) -> Future[JobOutput]:
        return self._pool.submit(execute, job, None, self._progress)

    def result(self, fut: Any) -> JobOutput:
        return fut.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)


class DaskExecutor:
    """Jobs as Dask tasks on a scheduler (``local:N`` starts a LocalCluster of N worker
    processes with one thread each). Each task may be retried on another worker if its
    worker dies (``retries``)."""

    def __init__(self, address: str, store_root: Path | None, retries: int = 2) -> None:
        from distributed import Client, LocalCluster

        self._cluster = None
        if address.startswith("local:"):
            n = int(address.split(":", 1)[1])
            self._cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                         dashboard_address=None)
            self.client = Client(self._cluster)
        else:
            self.client = Client(address)
        self._store_root = _portable(store_root if store_root is not None else _scratch_store())
        self._retries = retries

    def submit(self, job: Job) -> Any:
        return self.client.submit(execute, job, self._store_root, None, pure=False,
                                  retries=self._retries, key=f"aeskit-{job.label}-{id(job)}")

    def result(self, fut: Any) -> JobOutput:
        return fut.result()

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def _portable(root: Path) -> str:
    """A store folder as a worker resolves it: ``repo:<relative>`` below the
    repository (each worker's own checkout), else the absolute path."""
    from aeskit import REPO_ROOT

    try:
        return "repo:" + Path(root).resolve().relative_to(REPO_ROOT.resolve()).as_posix()
    except ValueError:
        return str(Path(root).resolve())


def _resolve(root: str) -> Path:
    from aeskit import REPO_ROOT

    return REPO_ROOT / root[5:] if root.startswith("repo:") else Path(root)


def _scratch_store() -> Path:
    """Workers of a report without a store still need one to return records from."""
    return _build_root() / "store-scratch"


def executor(scheduler: str | None, jobs: int, progress: Progress | None,
             store_root: Path | None) -> ThreadExecutor | DaskExecutor:
    """The executor for ``scheduler`` (see the module doc)."""
    if scheduler is None:
        return ThreadExecutor(jobs, progress)
    if scheduler.startswith("local:"):
        n = scheduler.split(":", 1)[1]
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"scheduler {scheduler!r}: 'local:N' needs N >= 1 workers")
    elif "://" not in scheduler:
        raise ValueError(f"scheduler {scheduler!r}: give a Dask scheduler address "
                         f"(tcp://host:port) or local:N")
    return DaskExecutor(scheduler, store_root)
