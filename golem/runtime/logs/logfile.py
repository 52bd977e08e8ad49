"""Opening a golem's log file to append to it: private to its owner (0600), started on a
new line when a killed writer left a torn last line (else the next event would be glued to
the fragment and lost with it), and, for a golem that names itself, held by that golem
alone: another golem holding it (an OS lock, dropped when its holder ends) or having
written it (its lines name their golem) is refused with one line.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import BinaryIO

import orjson

from golem.runtime.private import PRIVATE_FILE, make_private, private_dir

__all__ = ["LogFileTaken", "open_log"]


class LogFileTaken(RuntimeError):
    """The log file is another golem's: held by it, or written by it."""


_BUFFER = 1 << 20  # a buffered log file's buffer: a simulated month writes about 140 MB


def open_log(path: Path, *, owner: str | None = None, buffered: bool = False) -> BinaryIO:
    """`path` opened to append (made, with its directory, if need be). With `owner` (a
    golem's id), the file is locked for it and refused (LogFileTaken) when another golem
    holds it or wrote it. Unbuffered unless `buffered` (for a writer nobody tails)."""
    private_dir(path.parent)  # the owner's alone, as the state directory
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        if owner is not None:
            _take(fd, path, owner)
        make_private(fd)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            os.write(fd, b"\n")  # the torn fragment ends here, as a line of its own
    except BaseException:
        os.close(fd)
        raise
    # Closed by the caller (LogSinks.close); buffered only for a writer nobody tails.
    return os.fdopen(fd, "ab", buffering=_BUFFER if buffered else 0)


def _take(fd: int, path: Path, owner: str) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise LogFileTaken(
            f"log file {path}: in use by another golem; give this one its own [logging] file"
        ) from None
    writer = _writer(path)
    if writer is not None and writer != owner:
        raise LogFileTaken(
            f"log file {path}: written by golem {writer!r}, not {owner!r}; "
            "give this one its own [logging] file"
        )


def _writer(path: Path) -> str | None:
    """The golem the first line naming one names, if any line does."""
    with path.open("rb") as file:
        for line in file:
            if b'"golem"' not in line:
                continue
            try:
                event = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(event, dict) and isinstance(event.get("golem"), str):
                return str(event["golem"])
    return None
