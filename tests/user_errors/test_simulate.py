"""`golem simulate` as a user meets it going wrong: an `--out` that cannot be used is one
line, exit 2, nothing created; Ctrl-C (SIGINT to the process, or to its whole group as a
terminal sends it) stops the life or the batch within seconds, workers included, with one
line and exit 130, keeping the lives that finished (and a batch's rows of them)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from golem.simulation.results import read_rows
from tests.user_errors.support import golem, tree

_ROOT = Path(__file__).resolve().parents[2]
DECLINE = _ROOT / "simulations" / "decline.toml"


def _a_file(root: Path) -> None:
    (root / "taken").write_text("not a directory\n")


def _read_only(root: Path) -> None:
    (root / "locked").mkdir()
    (root / "locked").chmod(0o555)


_AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

OUT_CASES: list[tuple[str, Callable[[Path], None], str, str]] = [
    ("out is a file", _a_file, "taken", "--out taken: not a directory"),
    ("out under a file", _a_file, "taken/life", "--out taken/life: taken is not a directory"),
    ("out deep under a file", _a_file, "taken/a/b", "taken is not a directory"),
    ("out in a read-only directory", _read_only, "locked/life", "locked is not writable"),
]


@pytest.mark.parametrize(
    ("setup", "out", "fragment"),
    [pytest.param(setup, out, fragment, id=name) for name, setup, out, fragment in OUT_CASES],
)
@pytest.mark.parametrize("batch", [(), ("--seeds", "2")], ids=["one life", "seeds"])
def test_an_unusable_out_is_one_line_and_creates_nothing(
    tmp_path: Path,
    setup: Callable[[Path], None],
    out: str,
    fragment: str,
    batch: tuple[str, ...],
) -> None:
    if setup is _read_only and _AS_ROOT:
        pytest.skip("root writes into a read-only directory")
    setup(tmp_path)
    before = tree(tmp_path)
    ran = golem("simulate", DECLINE, "--days", "0.01", "--out", out, *batch, cwd=tmp_path)
    assert fragment in ran.one_line_error(2)
    assert tree(tmp_path) == before


def _start(*args: str | Path, cwd: Path) -> subprocess.Popen[str]:
    """`golem ARGS` in a session of its own (as a terminal's job: one process group)."""
    env = {k: v for k, v in os.environ.items() if k != "GOLEM_DEBUG"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "golem", *map(str, args)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _session(sid: int) -> list[str]:
    """The running (not zombie) processes of session `sid`, as their command lines."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(cmdline)
    return found


def _wait_for(path: Path, process: subprocess.Popen[str], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "timed out waiting for the run to get going"
        time.sleep(0.05)


def _interrupt(process: subprocess.Popen[str], *, group: bool) -> tuple[int, str, str, float]:
    """SIGINT to the process (or its group); its exit code, output and how long it took."""
    start = time.monotonic()
    if group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out, err, time.monotonic() - start


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="lists processes in /proc")
def test_ctrl_c_stops_a_batch_and_its_workers_keeping_the_lives_that_finished(
    tmp_path: Path,
) -> None:
    """One life at a time (`--jobs 1`): once the first has finished, Ctrl-C to the whole
    group stops the second mid-life and the third before it starts."""
    args = ("simulate", DECLINE, "--seeds", "3", "--jobs", "1", "--days", "1", "--out", "o")
    process = _start(*args, cwd=tmp_path)
    assert process.stderr is not None
    first = process.stderr.readline()  # stderr is no terminal: a line per finished life
    assert first.startswith("[1/3] vitality seed 1:"), (first, process.communicate())
    _wait_for(tmp_path / "o" / "vitality" / "seed-2" / "state", process, 20)
    code, _, err, took = _interrupt(process, group=True)
    left = _session(process.pid)
    assert code == 130, err
    assert "Traceback" not in err
    assert err.splitlines() == ["golem simulate: interrupted; 1 of 3 lives finished, kept under o"]
    assert took < 5, took
    assert not [cmd for cmd in left if "multiprocessing" in cmd and "spawn_main" in cmd], left
    lives = tmp_path / "o" / "vitality"
    assert (lives / "seed-1" / "summary.json").is_file()
    assert not (lives / "seed-2" / "summary.json").exists()
    assert not (lives / "seed-3").exists()
    assert not (tmp_path / "o" / "report.json").exists()
    # The finished life's row is kept, for `--resume` to go on from.
    assert [r["life"] for r in read_rows(tmp_path / "o")] == ["vitality/seed-1"]


def _long_life(tmp_path: Path) -> Path:
    """decline.toml with no senescence (threshold 0): the synthetic forecasts carry little
    skill, and a life ended by senescence might end before an interrupt could reach it."""
    text = DECLINE.read_text().replace("[mortality]\n", "[mortality]\nsenescence_threshold = 0\n")
    scenario = tmp_path / "long_decline.toml"
    scenario.write_text(text)
    return scenario


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_ctrl_c_stops_a_life_at_once_leaving_no_summary(tmp_path: Path, group: bool) -> None:
    """The interrupted life keeps the log it wrote; summary.json (only ever written whole,
    by a life that finished) is not there, not even one left from an earlier run."""
    out = tmp_path / "life"
    out.mkdir()
    (out / "summary.json").write_text('{"from": "an earlier run"}\n')
    process = _start("simulate", _long_life(tmp_path), "--out", out, cwd=tmp_path)
    _wait_for(out / "state" / "golem.db", process, 30)
    time.sleep(0.5)  # well into the life
    code, _, err, took = _interrupt(process, group=group)
    assert code == 130, err
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("golem simulate: interrupted; the life did not finish"), err
    assert took < 5, took
    assert (out / "golem.log").is_file()
    assert not (out / "summary.json").exists()
