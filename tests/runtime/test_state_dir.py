"""The state directory as `golem run` takes it: one holder of its lock at a time (gone
with its process, however it ends), paths checked before anything is made, and what a
failed start made removed again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from golem.runtime.store.directory import (
    LOCK_NAME,
    StartFootprint,
    StateLock,
    check_db,
    check_dir,
    check_file,
)
from golem.runtime.store.state import DB_NAME, StateError, StateStore

_HOLD = """
import sys, time
from pathlib import Path
from golem.runtime.store.directory import StateLock
StateLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(60)
"""


def test_one_holder_at_a_time_and_the_refusal_names_its_pid(tmp_path: Path) -> None:
    with StateLock(tmp_path):
        assert (tmp_path / LOCK_NAME).read_text() == f"{os.getpid()}\n"
        with pytest.raises(StateError, match=rf"in use by another golem \(pid {os.getpid()}\)"):
            StateLock(tmp_path).acquire()
    with StateLock(tmp_path):  # released: free again
        pass


def _holder(state: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(state)], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "held\n"
    return process


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    holder = _holder(tmp_path)
    try:
        started = time.monotonic()
        with pytest.raises(StateError, match=rf"\(pid {holder.pid}\)"):
            StateLock(tmp_path).acquire()
        assert time.monotonic() - started < 0.5, "the refusal waited"
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.communicate()
    assert (tmp_path / LOCK_NAME).read_text() == f"{holder.pid}\n"  # the file stays ...
    with StateLock(tmp_path):  # ... and means nothing once its holder is gone
        assert (tmp_path / LOCK_NAME).read_text() == f"{os.getpid()}\n"


def test_a_lock_file_removed_by_a_failed_start_is_not_locked_twice(tmp_path: Path) -> None:
    """A start that fails removes the lock file it made, holding the lock; one that opened
    the file just before must then lock the file that is there, not the removed one."""
    first = StateLock(tmp_path)
    first.acquire()
    stale = os.open(tmp_path / LOCK_NAME, os.O_RDWR)  # a second start, opened in time
    (tmp_path / LOCK_NAME).unlink()
    first.release()
    try:
        with StateLock(tmp_path), pytest.raises(StateError, match="in use"):
            StateLock(tmp_path).acquire()
    finally:
        os.close(stale)


@pytest.mark.parametrize(
    ("setup", "state", "message"),
    [
        ("file", "f", "state dir {t}/f: is a file, not a directory"),
        ("file", "f/a/b", "state dir {t}/f/a/b: {t}/f is a file, not a directory"),
        ("db_dir", "s", "state database {t}/s/golem.db: is a directory, not a file"),
        ("not_sqlite", "s", "state database {t}/s/golem.db: is not a SQLite database"),
    ],
)
def test_a_state_dir_that_cannot_serve_is_named(
    tmp_path: Path, setup: str, state: str, message: str
) -> None:
    (tmp_path / "f").write_text("x")
    (tmp_path / "s").mkdir()
    if setup == "db_dir":
        (tmp_path / "s" / DB_NAME).mkdir()
    if setup == "not_sqlite":
        (tmp_path / "s" / DB_NAME).write_text("my notes\n")
    with pytest.raises(StateError) as raised:
        check_db(tmp_path / state)
    assert str(raised.value).startswith(message.format(t=tmp_path))


def test_paths_that_can_be_made_pass(tmp_path: Path) -> None:
    check_dir(tmp_path / "a" / "b", "state dir")
    check_file(tmp_path / "a" / "golem.log", "log file")
    check_db(tmp_path / "new")
    with StateStore.open(tmp_path / "old"):
        pass
    check_db(tmp_path / "old")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old"]


def test_a_read_only_directory_is_named(tmp_path: Path) -> None:
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("this user (root?) can write to a read-only directory")
        with pytest.raises(
            StateError, match=f"log file {locked}/x/golem.log: {locked} is read-only"
        ):
            check_file(locked / "x" / "golem.log", "log file")
    finally:
        locked.chmod(0o755)


def test_a_failed_start_removes_what_it_made_and_only_that(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "golem.log").write_text("the user's\n")
    footprint = StartFootprint(
        dirs=(tmp_path / "s", tmp_path / "logs" / "today"),
        files=(tmp_path / "s" / DB_NAME, tmp_path / "s" / "golem.log"),
    )
    (tmp_path / "logs" / "today").mkdir(parents=True)
    (tmp_path / "s" / DB_NAME).write_text("made by the start")
    footprint.undo()
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == [
        "s",
        "s/golem.log",
    ]
