"""A golem's files are its owner's alone: the state database holds the full prompts of
the requests it keeps, the log every decision. Directories a golem makes are 0700 and its
files 0600 (an existing directory is left as the user made it; the files in it are not).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PRIVATE_DIR", "PRIVATE_FILE", "make_private", "private_dir", "private_file"]

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
