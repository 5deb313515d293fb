"""A cache for the Verilator runtime's object files, shared by every Verilator build.

Every Verilated model links the same runtime (``verilated.cpp``, ``verilated_vpi.cpp``,
``verilated_threads.cpp``, ``verilated_dpi.cpp``), and Verilator's make flow compiles
it again in every build folder: about 7 s of compiler time per build, some 90 times
in ``make test``, for object files that are identical byte for byte (same sources,
same flags). Verilator's ``verilated.mk`` runs every compile as ``$(OBJCACHE) $(CXX)
...``; :func:`objcache_env` sets ``OBJCACHE`` to this file run as a script, which

- compiles as asked, unchanged, anything that is not a runtime source (the model's
  own files, cocotb's ``verilator.cpp``, which includes the model's header);
- for a runtime source (a ``.cpp`` in the Verilator installation's ``include``
  folder, compiled with ``-c -o``), looks the object up by a key made of the whole
  command line (compiler, optimisation, defines, without the output path), the
  source's contents and the name, size and modification time of every file of the
  runtime's folders (so another Verilator version is another key); a hit copies the
  object, a miss compiles and stores it.

A runtime source includes only headers of its own folders (their ``.d`` files say
so), so the key covers every input of the compile. Copies are written to a temporary
name and renamed, so parallel test workers never see half an object. The cache
lives in ``build/cache/objcache`` (``AESKIT_OBJCACHE_DIR``); deleting it is always
safe. A cached object is the one the compiler wrote, so no build changes: only its
time (measured by the next ``make test``'s JUnit durations).
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["objcache_env", "main"]

_DIR_ENV = "AESKIT_OBJCACHE_DIR"


def objcache_env(cache_dir: Path | None = None) -> dict[str, str]:
    """The environment variables that make Verilator's make flow use this cache
    (default folder ``build/cache/objcache``)."""
    if cache_dir is None:
        from aeskit import BUILD_ROOT  # here: this file also runs as a plain script
        cache_dir = BUILD_ROOT / "cache" / "objcache"
    return {"OBJCACHE": f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__)))}",
            _DIR_ENV: str(cache_dir)}


def _runtime_source(args: list[str]) -> Path | None:
    """The runtime ``.cpp`` this compile makes an object of, or None."""
    if "-c" not in args or "-o" not in args:
        return None
    srcs = [a for a in args[1:] if a.endswith(".cpp")]
    if len(srcs) != 1:
        return None
    src = Path(srcs[0])
    if not src.is_absolute() or src.parent.name != "include" or not src.is_file():
        return None
    if not (src.parent / "verilated.mk").is_file():
        return None
    return src


def _folder_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            st = os.stat(os.path.join(root, name))
            h.update(f"{os.path.relpath(os.path.join(root, name), folder)}\0"
                     f"{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _key(args: list[str], src: Path) -> str:
    out_at = args.index("-o")
    command = args[:out_at] + args[out_at + 2:]
    h = hashlib.sha256()
    h.update("\0".join(command).encode())
    h.update(src.read_bytes())
    h.update(_folder_digest(src.parent).encode())
    return h.hexdigest()


def _copy_atomic(src: Path, dst: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.name}.")
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(args: list[str]) -> int:
    """Run (or answer from the cache) the compile ``args``; its exit code."""
    if not args:
        print("objcache: no compiler command", file=sys.stderr)
        return 2
    src = _runtime_source(args)
    cache = os.environ.get(_DIR_ENV)
    if src is None or not cache:
        return subprocess.run(args, check=False).returncode
    out = Path(args[args.index("-o") + 1])
    if not out.is_absolute():
        out = Path.cwd() / out
    entry = Path(cache) / f"{_key(args, src)}.o"
    if entry.is_file():
        _copy_atomic(entry, out)
        return 0
    rc = subprocess.run(args, check=False).returncode
    if rc == 0 and out.is_file():
        entry.parent.mkdir(parents=True, exist_ok=True)
        _copy_atomic(out, entry)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
