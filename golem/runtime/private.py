"""A golem's files are its owner's alone: the state database holds the full prompts of
the requests it keeps, the log every decision. Directories a golem makes are 0700 and its
files 0600 (an existing directory is left as the user made it; the files in it are not).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from golem.subsystems.contract import Document

__all__ = [
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "make_private",
    "private_dir",
    "private_file",
    "write_documents",
]

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def private_dir(path: Path) -> None:
    """Make `path` and its missing parents, each 0700 (the umask may only narrow it)."""
    missing = []
    while not path.exists() and path.parent != path:
        missing.append(path)
        path = path.parent
    for directory in reversed(missing):
        directory.mkdir(mode=PRIVATE_DIR, exist_ok=True)


def private_file(path: Path) -> None:
    """Make `path` an empty file if it is missing; make it 0600 either way."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        make_private(fd)
    finally:
        os.close(fd)


def make_private(fd: int) -> None:
    """The open file `fd` made 0600, if this user owns it (only its owner may change its
    mode; another's file that this user may write is left as it is)."""
    if os.fstat(fd).st_uid == os.geteuid():
        os.fchmod(fd, PRIVATE_FILE)


def write_documents(folder: Path, documents: Iterable[Document]) -> tuple[str, ...]:
    """Write each of an outcome's `documents` in `folder` (made 0700 if missing), each
    0600 and whole: written beside its name, then renamed, so a reader never sees half of
    one. Returns their paths, in order."""
    private_dir(folder)
    paths = []
    for document in documents:
        path = folder / document.name
        partial = path.with_name(path.name + ".partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            os.fchmod(fd, PRIVATE_FILE)
            file.write(document.text)
        os.replace(partial, path)
        paths.append(str(path))
    return tuple(paths)
