"""A state directory as `golem run` takes it: paths checked before anything is made, one
process at a time (an OS lock that dies with its holder), and what a failed start made
removed again. `golem inspect` and `golem simulate` take no lock: one only reads, the
other writes its own `--out`.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterable
from pathlib import Path

from golem.runtime.private import PRIVATE_FILE
from golem.runtime.store.state import DB_NAME, StateError

__all__ = ["LOCK_NAME", "StartFootprint", "StateLock", "check_db", "check_dir", "check_file"]

LOCK_NAME = "golem.lock"
_SQLITE_HEADER = b"SQLite format 3\x00"
_PID_WAIT_S = 0.5  # a holder writes its pid just after it takes the lock


def check_dir(path: Path, what: str) -> None:
    """Raise StateError unless `path` is a writable directory or can be made one."""
    _check_dir(path, f"{what} {path}", path)


def check_file(path: Path, what: str) -> None:
    """Raise StateError unless `path` is a writable file or can be made one."""
    subject = f"{what} {path}"
    if path.is_dir():
        raise StateError(f"{subject}: is a directory, not a file")
    if not path.exists():
        _check_dir(path.parent, subject, path)
    elif not os.access(path, os.R_OK | os.W_OK):
        raise StateError(f"{subject}: is read-only")


def check_db(state_dir: Path) -> None:
    """Raise StateError unless the state database under `state_dir` can be opened or made;
    a file that is not SQLite is named and left as it is."""
    check_dir(state_dir, "state dir")
    path = state_dir / DB_NAME
    check_file(path, "state database")
    if path.exists():
        with path.open("rb") as file:
            header = file.read(len(_SQLITE_HEADER))
        if header and header != _SQLITE_HEADER:
            raise StateError(f"state database {path}: is not a SQLite database (left as it is)")


def _check_dir(path: Path, subject: str, named: Path) -> None:
    """`subject` (what the message is about, naming `named`) needs `path` to be a writable
    directory: the message names the path at fault when it is not `named` itself."""
    existing = _first_existing(path)
    where = "" if existing == named else f"{existing} "
    if not existing.is_dir():
        raise StateError(f"{subject}: {where}is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise StateError(f"{subject}: {where}is read-only")


def _first_existing(path: Path) -> Path:
    missing = _missing_dirs(path)
    return missing[0].parent if missing else path


def _missing_dirs(path: Path) -> list[Path]:
    """`path` and its ancestors that do not exist, outermost first."""
    missing = []
    while not path.exists() and path.parent != path:
        missing.append(path)
        path = path.parent
    return missing[::-1]


class StateLock:
    """An exclusive `flock` on `state_dir/golem.lock`, which holds the holder's pid. The OS
    drops it when the process ends, however it ends, so a kill -9 leaves no stale lock.
    The file stays after release (removing it would race with the next holder), except
    when the start that made it fails (`StartFootprint`)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.path = state_dir / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise StateError naming the pid that holds it."""
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise StateError(
                    f"state dir {self.state_dir}: in use by another golem (pid {holder}); "
                    "stop it first, or give this one another --state-dir"
                ) from None
            except BaseException:
                os.close(fd)
                raise
            if _same_file(fd, self.path):
                break
            # A start that failed removed the file after we opened it: lock the new one.
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> StateLock:
        self.acquire()
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), path.stat())
    except FileNotFoundError:
        return False


def _holder(fd: int) -> str:
    """The pid in a held lock file; the holder may be a moment from writing it."""
    give_up = time.monotonic() + _PID_WAIT_S
    while True:
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
        if text or time.monotonic() > give_up:
            return text or "unknown"
        time.sleep(0.02)


class StartFootprint:
    """What a start may make (directories, then files), noted before it makes any: if the
    start fails, `undo()` removes what did not exist before, files first, directories
    only when empty. Call it holding the state dir's lock, so that no other golem's files
    are taken for this start's."""

    def __init__(self, dirs: Iterable[Path], files: Iterable[Path]) -> None:
        self._dirs = list(dict.fromkeys(d for path in dirs for d in _missing_dirs(path)))
        self._files = [f for f in files if not f.exists()]

    def undo(self) -> None:
        for file in self._files:
            file.unlink(missing_ok=True)
        for directory in reversed(self._dirs):
            # Not empty (something else is in it) or gone: left as it is.
            with contextlib.suppress(OSError):
                directory.rmdir()
