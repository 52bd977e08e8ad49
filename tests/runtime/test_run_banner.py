"""What `golem run` tells its user, from a real process: at start, before the first
heartbeat (who, where, born or resumed at which tick, the providers of each tier, when
the first heartbeat fires); at the end, what was saved and how to resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from golem.runtime.state import StateStore
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


def _saved(state: Path) -> str:
    with StateStore.open(state) as store:
        return f"saved tick {store.tick()}, credits ${store.credits():.4f} in state/golem.db"


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
    assert rest.splitlines() == [
        f"golem run: g-banner stopped by a signal; {_saved(tmp_path / 'state')}",
        "golem run: resume with: golem run golem.toml",
    ]
