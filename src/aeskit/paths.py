"""Input and output files of the command line, checked before any work starts.

``-`` stands for standard input (as an input) or standard output (as an output).
An output file is written atomically: :class:`OutputFile` creates a temporary file
in the output's own folder when it is opened (which proves the folder writable
before the long work starts), and :meth:`OutputFile.commit` renames it over the
output at the end. A temporary file that was not committed is removed, whatever
ended the work, so a failed run leaves nothing behind.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from types import TracebackType

#: the name that means standard input or standard output
STDIO = "-"

__all__ = ["STDIO", "OutputExists", "OutputFile", "PathError", "check_input", "check_out_dir",
           "check_output", "read_input"]


class PathError(ValueError):
    """An input or output path that cannot be used; the message names it and says why."""


class OutputExists(PathError):
    """The output file exists and overwriting was not asked for."""


def check_input(name: str, what: str = "input file", *, stdio: bool = True) -> None:
    """Raise :class:`PathError` unless ``name`` is a readable file (or ``-``, when
    ``stdio`` allows standard input)."""
    if name == STDIO and stdio:
        return
    p = Path(name)
    if p.is_dir():
        raise PathError(f"{what} {p} is a directory")
    if not p.exists():
        raise PathError(f"{what} {p} does not exist")
    if not os.access(p, os.R_OK):
        raise PathError(f"{what} {p} is not readable (permission denied)")


def read_input(name: str, what: str = "input file") -> bytes:
    """The bytes of ``name`` (standard input for ``-``); :class:`PathError` when the
    read fails."""
    if name == STDIO:
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as exc:
        raise PathError(f"cannot read {what} {name}: {exc.strerror or exc}") from None


def check_output(name: str, *, overwrite: bool = False) -> None:
    """Raise :class:`PathError` (:class:`OutputExists` for an existing file without
    ``overwrite``) when ``name`` cannot be written as a new or replaced file."""
    if name == STDIO:
        return
    p = Path(name)
    if p.is_dir():
        raise PathError(f"output {p} is a directory")
    folder = p.parent
    if not folder.exists():
        raise PathError(f"output folder {folder} does not exist")
    if not folder.is_dir():
        raise PathError(f"output folder {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PathError(f"output folder {folder} is not writable (permission denied)")
    if p.exists() or p.is_symlink():
        if not overwrite:
            raise OutputExists(f"output file {p} exists")
        if not os.access(p, os.W_OK):
            raise PathError(f"output file {p} is not writable (permission denied)")


def check_out_dir(name: str) -> None:
    """Raise :class:`PathError` unless ``name`` is a folder that exists or can be made
    (its nearest existing ancestor a writable folder)."""
    p = Path(name)
    if p.exists() and not p.is_dir():
        raise PathError(f"output folder {p} is not a directory")
    ancestor = next(a for a in (p, *p.absolute().parents) if a.exists())
    if not ancestor.is_dir():
        raise PathError(f"output folder {p}: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise PathError(f"output folder {p}: {ancestor} is not writable (permission denied)")


def _new_file_mode() -> int:
    """The permission bits a plain ``open(..., "w")`` would give a new file."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


class OutputFile:
    """The output ``name``, written atomically. Use as a context manager::

        with OutputFile(dst, overwrite=force) as out:   # checks, creates the temp file
            data = long_work()
            out.commit(data)                            # renames it over ``dst``

    Leaving the block without :meth:`commit` removes the temporary file. For ``-``
    nothing is created and :meth:`commit` writes standard output."""

    def __init__(self, name: str, *, overwrite: bool = False) -> None:
        self.name = name
        self.overwrite = overwrite
        self._tmp: Path | None = None

    @property
    def path(self) -> Path | None:
        """The output file, ``None`` for standard output."""
        return None if self.name == STDIO else Path(self.name)

    def __enter__(self) -> "OutputFile":
        check_output(self.name, overwrite=self.overwrite)
        dst = self.path
        if dst is None:
            return self
        try:
            fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.name}.", suffix=".part")
        except OSError as exc:
            raise PathError(f"cannot create a file in output folder {dst.parent}: "
                            f"{exc.strerror or exc}") from None
        os.close(fd)
        self._tmp = Path(tmp)
        return self

    def commit(self, data: bytes) -> None:
        """Write ``data`` and move it into place (or write it to standard output)."""
        dst = self.path
        if dst is None:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            return
        assert self._tmp is not None, "commit() outside the with block"
        try:
            mode = dst.stat().st_mode & 0o7777 if dst.exists() else _new_file_mode()
            with open(self._tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(self._tmp, mode)
            os.replace(self._tmp, dst)
        except OSError as exc:
            raise PathError(f"cannot write output file {dst}: {exc.strerror or exc}") from None
        self._tmp = None

    def discard(self) -> None:
        """Remove the temporary file (nothing happens after :meth:`commit`)."""
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
            self._tmp = None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.discard()
