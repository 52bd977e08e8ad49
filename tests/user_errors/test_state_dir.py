"""`golem run` on a state directory, log file or state database it cannot use: one line
naming the path and what is wrong, exit 2, nothing made and no file of the user's changed;
and one golem per state directory: a second start is refused at once, naming the pid of
the first, and a kill -9 leaves no stale lock."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from golem.runtime.store.state import StateStore
from tests.user_errors.support import golem, tree

CONFIG = """
[golem]
id = "g-state"
state_dir = "state"
seed = 3

[inference]
t1 = ["synthetic"]

[heartbeat]
interval = "1s"

[logging]
console = "off"
"""


def _file(t: Path) -> list[str]:
    (t / "f").write_text("a file\n")
    return ["--state-dir", "f"]


def _under_file(t: Path) -> list[str]:
    (t / "f").write_text("a file\n")
    return ["--state-dir", "f/state"]


def _read_only(t: Path) -> list[str]:
    (t / "ro").mkdir(mode=0o555)
    return ["--state-dir", "ro/state"]


def _db_directory(t: Path) -> list[str]:
    (t / "s" / "golem.db").mkdir(parents=True)
    return ["--state-dir", "s"]


def _log_under_file(t: Path) -> list[str]:
    (t / "f").write_text("a file\n")
    return ["--state-dir", "s", "--log-file", "f/golem.log"]


def _log_read_only(t: Path) -> list[str]:
    (t / "ro").mkdir(mode=0o555)
    return ["--state-dir", "s", "--log-file", "ro/golem.log"]


def _not_sqlite(t: Path) -> list[str]:
    (t / "s").mkdir()
    (t / "s" / "golem.db").write_text("my notes, not a database\n" * 20)
    return ["--state-dir", "s"]


def _truncated(t: Path) -> list[str]:
    with StateStore.open(t / "s") as store:
        store.identify("g-state", 3)
        with store.transaction():
            for key in range(400):
                store.set_meta(f"k{key}", "x" * 100)
    db = t / "s" / "golem.db"
    db.write_bytes(db.read_bytes()[:6000])
    return ["--state-dir", "s"]


def _another_golem(t: Path) -> list[str]:
    with StateStore.open(t / "s") as store:
        store.identify("g-other", 3)
    return ["--state-dir", "s"]


def _another_golems_log(t: Path) -> list[str]:
    (t / "shared.log").write_text(
        '{"event":"start"}\n{"event":"decision","golem":"g-other","tick":0}\n'
    )
    return ["--state-dir", "s", "--log-file", "shared.log"]


Setup = Callable[[Path], list[str]]
CASES: list[tuple[str, Setup, str]] = [
    ("state dir is a file", _file, "state dir f: is a file, not a directory"),
    ("state dir under a file", _under_file, "state dir f/state: f is a file, not a directory"),
    ("read-only state dir", _read_only, "state dir ro/state: ro is read-only"),
    ("golem.db is a directory", _db_directory, "state database s/golem.db: is a directory"),
    ("log file under a file", _log_under_file, "log file f/golem.log: f is a file"),
    ("read-only log dir", _log_read_only, "log file ro/golem.log: ro is read-only"),
    ("golem.db not SQLite", _not_sqlite, "state database s/golem.db: is not a SQLite database"),
    ("golem.db truncated", _truncated, "state database s/golem.db: database disk image is"),
    ("another golem's state", _another_golem, "holds golem 'g-other' (seed 3), not 'g-state'"),
    (
        "another golem's log",
        _another_golems_log,
        "log file shared.log: written by golem 'g-other', not 'g-state'",
    ),
]


def _contents(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in root.rglob("*")
    }


@pytest.mark.parametrize(("setup", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_unusable_state_is_one_line_and_leaves_all_as_it_was(
    tmp_path: Path, setup: Setup, fragment: str
) -> None:
    (tmp_path / "golem.toml").write_text(CONFIG)
    args = setup(tmp_path)
    try:
        if "ro/" in " ".join(args) and os.access(tmp_path / "ro", os.W_OK):
            pytest.skip("this user (root?) can write to a read-only directory")
        before = _contents(tmp_path)
        ran = golem("run", "golem.toml", "--for", "1s", *args, cwd=tmp_path)
        assert fragment in ran.one_line_error(code=2)
        assert tree(tmp_path) == set(before), "the failed start left something"
        assert _contents(tmp_path) == before, "the failed start changed a file"
    finally:
        if (tmp_path / "ro").exists():
            (tmp_path / "ro").chmod(0o755)


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    environ = {k: v for k, v in os.environ.items() if k != "GOLEM_DEBUG"}
    root = str(Path(__file__).resolve().parents[2])
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [root, environ.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "golem", "run", "golem.toml", *args],
        cwd=cwd,
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _started(process: subprocess.Popen[str]) -> None:
    """Wait for the banner: the golem holds its state dir."""
    assert process.stderr is not None
    ready, _, _ = select.select([process.stderr], [], [], 60)
    assert ready, "no banner in 60 s"
    line = process.stderr.readline()
    assert "born now" in line, line


def test_a_second_golem_on_one_state_dir_is_refused_until_the_first_is_killed(
    tmp_path: Path,
) -> None:
    (tmp_path / "golem.toml").write_text(CONFIG)
    first = _start(tmp_path)
    try:
        _started(first)
        # What any `golem` command costs to start here and now (imports, on a machine the
        # first golem shares): the refusal adds a lock attempt that does not wait.
        started = time.monotonic()
        assert golem("--version", cwd=tmp_path).code == 0
        start_up = time.monotonic() - started
        started = time.monotonic()
        second = golem("run", "golem.toml", cwd=tmp_path, timeout=30)
        elapsed = time.monotonic() - started
        line = second.one_line_error(code=2)
        assert f"state dir state: in use by another golem (pid {first.pid})" in line
        assert elapsed < 1.5 * start_up + 1.0, (elapsed, start_up)
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate()

    after = golem("run", "golem.toml", "--for", "2s", cwd=tmp_path)
    assert after.code == 0, after.err
    assert "resumed at tick" in after.err


def test_a_second_golem_on_one_log_file_is_refused_while_the_first_holds_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "golem.toml").write_text(CONFIG)
    first = _start(tmp_path, "--state-dir", "a", "--log-file", "shared.log")
    try:
        _started(first)
        second = golem(
            "run", "golem.toml", "--state-dir", "b", "--log-file", "shared.log", cwd=tmp_path
        )
        line = second.one_line_error(code=2)
        assert line.endswith(
            "log file shared.log: in use by another golem; give this one its own [logging] file"
        ), line
        assert not (tmp_path / "b").exists(), "the refused start left its state dir"
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate()
