"""User errors of `golem inspect`: a filter value that names nothing, and a LOG that is not
a log (a directory, a golem's SQLite state, nothing at all). Each is one line on stderr,
exit 2, no traceback, nothing written."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.user_errors.support import golem, tree

LINE = b'{"event": "decision", "subsystem": "heartbeat", "tier": "0", "source": "model"}\n'


def a_log(root: Path) -> Path:
    (root / "golem.log").write_bytes(LINE)
    return root / "golem.log"


def a_state_dir(root: Path) -> Path:
    (root / "state").mkdir()
    a_log(root / "state")
    return root / "state"


def an_empty_dir(root: Path) -> Path:
    (root / "empty").mkdir()
    return root / "empty"


def a_database(root: Path, *, with_log: bool) -> Path:
    (root / "state").mkdir()
    with sqlite3.connect(root / "state" / "golem.db") as db:
        db.execute("create table meta (key text)")
    db.close()
    if with_log:
        a_log(root / "state")
    return root / "state" / "golem.db"


def random_bytes(root: Path) -> Path:
    """5 MB of bytes: once a "skipped" line for each of its 19,473 lines, and exit 0."""
    (root / "noise.bin").write_bytes(random.Random(7).randbytes(5_000_000))
    return root / "noise.bin"


def some_text(root: Path) -> Path:
    (root / "notes.txt").write_text("a shopping list\neggs\n")
    return root / "notes.txt"


def json_lines(root: Path) -> Path:
    (root / "other.jsonl").write_text('{"level": "info"}\n[1, 2]\n')
    return root / "other.jsonl"


# (case, the LOG to make, further args, the fragments the one line must hold)
CASES: list[tuple[str, Callable[[Path], Path], tuple[str, ...], tuple[str, ...]]] = [
    (
        "subsystem-banana",
        a_log,
        ("--subsystem", "banana"),
        ("--subsystem 'banana' names no subsystem", "known: heartbeat, risk, dream, daimon"),
    ),
    ("subsystem-in-a-list", a_log, ("--subsystem", "daimon,dreams"), ("'dreams'", "dream,")),
    ("phase", a_log, ("--phase", "dying"), ("names no phase", "thriving, stable")),
    ("source", a_log, ("--source", "llm"), ("names no source", "model, deterministic")),
    ("tier", a_log, ("--tier", "T3"), ("--tier 'T3' names no tier", "known: 0, 1, 2")),
    ("profile", a_log, ("--profile", "max"), ("names no profile", "minimal, fast")),
    (
        "log-a-state-dir",
        a_state_dir,
        (),
        ("is a directory: did you mean", "state/golem.log?"),
    ),
    ("log-a-dir", an_empty_dir, (), ("is a directory: give a golem.log",)),
    (
        "log-the-database",
        lambda root: a_database(root, with_log=True),
        (),
        ("golem.db is a golem's SQLite state", "did you mean", "state/golem.log?"),
    ),
    (
        "log-a-lone-database",
        lambda root: a_database(root, with_log=False),
        (),
        ("SQLite state, not its decision log: the log is the golem.log beside it",),
    ),
    ("log-missing", lambda root: root / "gone.log", (), ("gone.log: no such file",)),
    ("log-random-bytes", random_bytes, (), ("noise.bin is not a golem log",)),
    ("log-some-text", some_text, (), ("notes.txt is not a golem log",)),
    ("log-json-not-events", json_lines, (), ("other.jsonl is not a golem log",)),
]


@pytest.mark.parametrize(("case", "make", "args", "fragments"), CASES, ids=[c[0] for c in CASES])
def test_user_error_is_one_line(
    tmp_path: Path,
    case: str,
    make: Callable[[Path], Path],
    args: tuple[str, ...],
    fragments: tuple[str, ...],
) -> None:
    log = make(tmp_path)
    before = tree(tmp_path)
    ran = golem("inspect", log, *args, cwd=tmp_path)
    line = ran.one_line_error(code=2)
    for fragment in fragments:
        assert fragment in line, (case, line)
    assert ran.out == ""
    assert tree(tmp_path) == before
