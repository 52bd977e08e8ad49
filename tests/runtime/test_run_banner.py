"""What `golem run` tells its user, from a real process: at start, before the first
heartbeat (who, where, born or resumed at which tick, the providers of each tier, when
the first heartbeat fires); at the end, what was saved and how to resume."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from golem.cli.run import signalled
from golem.runtime.store.state import StateStore
from tests.user_errors.support import golem

CONFIG = """
[golem]
id = "g-banner"
state_dir = "state"
seed = 3

[inference]
t1 = ["synthetic"]
t2 = ["synthetic:gpt-4o", "synthetic"]

[providers.synthetic]
emulate = "openai"
model = "gpt-4o-mini"

[mortality]
initial_credits_usd = 10.0

[heartbeat]
interval = "500ms"

[logging]
console = "json"
"""


def _saved(state: Path, shown: str = "state") -> str:
    """What the farewell says was saved in `state`, a state dir the golem knew as `shown`."""
    with StateStore.open(state) as store:
        ticks = store.tick()
        return (
            f"saved {ticks} ticks (next: tick {ticks}), credits ${store.credits():.4f} in "
            f"{shown}/golem.db"
        )


def test_the_banner_comes_first_and_the_end_says_what_was_saved(tmp_path: Path) -> None:
    (tmp_path / "golem.toml").write_text(CONFIG)
    ran = golem("run", "golem.toml", "--for", "2s", cwd=tmp_path)
    assert ran.code == 0, ran.err
    lines = ran.err.splitlines()
    assert lines[:3] == [
        "golem run: g-banner born now, state in state",
        "golem run: providers: t1 synthetic, t2 synthetic:gpt-4o > synthetic, "
        "death synthetic:gpt-4o > synthetic",
        "golem run: first heartbeat now, then every 500ms; Ctrl-C stops it",
    ]
    assert lines[3].startswith("{"), "the banner is not before the first log line"
    assert lines[-2:] == [
        f"golem run: g-banner stopped: --for ran out; {_saved(tmp_path / 'state')}",
        "golem run: resume with: golem run golem.toml",
    ]

    with StateStore.open(tmp_path / "state") as store:
        tick = store.tick()
    again = golem("run", "golem.toml", "--for", "1s", "--state-dir", "state", cwd=tmp_path)
    assert again.code == 0, again.err
    assert (
        again.err.splitlines()[0] == f"golem run: g-banner resumed at tick {tick}, state in state"
    )
    assert again.err.splitlines()[-1] == (
        "golem run: resume with: golem run golem.toml --state-dir state"
    )


def test_ctrl_c_says_what_was_saved(tmp_path: Path) -> None:
    (tmp_path / "golem.toml").write_text(CONFIG.replace('"json"', '"off"'))
    environ = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [root, environ.get("PYTHONPATH")]))
    process = subprocess.Popen(
        [sys.executable, "-m", "golem", "run", "golem.toml"],
        cwd=tmp_path,
        env=environ,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    banner = [process.stderr.readline() for _ in range(3)]
    assert "first heartbeat" in banner[2]
    process.send_signal(signal.SIGINT)
    _, rest = process.communicate(timeout=60)
    assert process.returncode == 0, rest
    said, *lines = rest.splitlines()
    assert said in (  # as the signal came: between ticks, or in one
        "golem run: stopping",
        "golem run: stopping once the running heartbeat finishes (a model call may take a "
        "minute); Ctrl-C again abandons it: what it did is not saved and it runs again on "
        "resume",
    )
    assert lines == [
        f"golem run: g-banner stopped by a signal; {_saved(tmp_path / 'state')}",
        "golem run: resume with: golem run golem.toml",
    ]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
def test_make_run_and_ctrl_c_do_what_the_readme_says(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole foreground process group: golem saves and exits 0, and
    make, interrupted too, waits for it and then dies of the signal (130 in a shell)."""
    root = Path(__file__).resolve().parents[2]
    venv = tmp_path / "venv"  # stands for .venv: this checkout's golem
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    script = venv / "bin" / "golem"
    script.write_text(f'#!/bin/sh\nPYTHONPATH={root} exec {sys.executable} -m golem "$@"\n')
    script.chmod(0o755)
    (venv / ".installed").touch()
    config = tmp_path / "golem.toml"
    config.write_text(
        CONFIG.replace('"state"', f'"{tmp_path / "state"}"').replace('"json"', '"off"')
    )
    make = subprocess.Popen(
        ["make", "-s", "-C", str(root), "run", f"VENV={venv}", f"CONFIG={config}"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
    )
    assert make.stderr is not None
    assert "born now" in make.stderr.readline()
    make.stderr.readline(), make.stderr.readline()
    os.killpg(make.pid, signal.SIGINT)
    _, rest = make.communicate(timeout=60)
    assert f"stopped by a signal; {_saved(tmp_path / 'state', str(tmp_path / 'state'))}" in rest
    assert make.returncode == -signal.SIGINT, rest


def test_each_ctrl_c_says_what_it_does() -> None:
    assert signalled(1, None) == "stopping"
    assert signalled(1, "heartbeat").startswith("stopping once the running heartbeat finishes")
    assert "Ctrl-C again abandons it: what it did is not saved" in signalled(1, "heartbeat")
    assert signalled(2, "heartbeat") == "abandoning the running heartbeat: what it did is not saved"
