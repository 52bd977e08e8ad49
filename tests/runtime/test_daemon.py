"""`golem run` as a process: a clean stop on SIGINT, exit 2 on a bad config, and the kill
test — SIGKILL at random moments, twenty times, and nothing lost or charged twice."""

from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from golem.mortality import utc_day
from golem.runtime.logs.read import Malformed, read_events
from golem.runtime.store.state import StateStore

CONFIG = """
[golem]
id = "g-kill"
state_dir = "{state}"
seed = 11

[inference]
t1 = ["synthetic"]
t2 = ["synthetic:gpt-4o"]
death = ["synthetic:gpt-4o"]

[providers.synthetic]
emulate = "openai"
model = "gpt-4o-mini"
seed = 5
faults = {{ rate_limit = 0.03, schema_invalid = 0.05, prose = 0.05 }}

[mortality]
initial_credits_usd = 1000.0
daily_budget_usd = 500.0
stochastic_death = false

[heartbeat]
interval = "100ms"
theta_base = 0.01
theta_min = 0.0

[subsystems.curator]
schedule = "1s"

[subsystems.dream]
schedule = "2s"

[logging]
file = "{state}/golem.log"
console = "off"
"""


def write_config(tmp_path: Path) -> tuple[Path, Path]:
    state = tmp_path / "state"
    path = tmp_path / "golem.toml"
    path.write_text(CONFIG.format(state=state))
    return path, state


def golem(*args: str | Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "golem", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def wait_for_ticks(state: Path, at_least: int, deadline_s: float = 30.0) -> int:
    give_up = time.monotonic() + deadline_s
    while time.monotonic() < give_up:
        try:
            with StateStore.open(state) as store:
                if (tick := store.tick()) >= at_least:
                    return tick
        except Exception:  # the daemon may be creating the database right now
            pass
        time.sleep(0.05)
    raise AssertionError(f"the golem did not reach tick {at_least} in {deadline_s} s")


def test_sigint_finishes_the_job_and_exits_0(tmp_path: Path) -> None:
    config, state = write_config(tmp_path)
    process = golem("run", config)
    wait_for_ticks(state, 3)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err.decode()
    assert b"signal" in err
    with StateStore.open(state) as store:
        assert store.integrity_check() == "ok"
        assert len(store.vitality_history()) == store.tick()


def test_a_bad_config_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(f'[golem]\nstate_dir = "{tmp_path / "state"}"\n[mortality]\nbudget = 1\n')
    process = golem("run", config)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert b"mortality.budget" in err
    assert not (tmp_path / "state").exists()


def test_sigkill_twenty_times_loses_and_doubles_nothing(tmp_path: Path) -> None:
    config, state = write_config(tmp_path)
    rng = random.Random(20)
    ticks = 0
    for kill in range(20):
        process = golem("run", config)
        if kill % 5 != 4:  # every fifth kill lands during start-up
            # Past the 20 ticks a fresh market window needs before its band probes fire,
            # so that model calls (and charges) are under way when the kill comes.
            ticks = wait_for_ticks(state, ticks + 25)
        time.sleep(rng.uniform(0.0, 0.5))
        os.kill(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
    process = golem("run", config, "--for", "2s")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err.decode()

    with StateStore.open(state) as store:
        assert store.integrity_check() == "ok"
        ticks = store.tick()
        history = store.vitality_history()
        assert [row.tick for row in history] == list(range(ticks)), "a tick lost or doubled"
        days = sorted({utc_day(row.time) for row in history})
        charges = [charge for day in days for charge in store.ledger.charges(day)]
        keys = [charge.idempotency_key for charge in charges]
        assert len(keys) == len(set(keys)) > 0
        spent = math.fsum(charge.usd for charge in charges)
        assert abs(store.credits() - (1000.0 - spent)) < 1e-9

    torn: list[Malformed] = []
    events = list(read_events(state / "golem.log", torn.append))
    assert len(events) > ticks
    # `golem run` publishes its decisions to the log: each committed tick logged its own.
    assert sum(e["event"] == "decision" and e["subsystem"] == "heartbeat" for e in events) >= ticks
    assert len(torn) <= 20, "more torn lines than kills"


SECRET = "sk-test-SECRET-4e1f9a7c2b"

PAID_CONFIG = """
[golem]
id = "g-secret"
state_dir = "{state}"

[inference]
t1 = ["openai:gpt-4o-mini"]
t2 = ["openai:gpt-4o-mini"]

[inference.transport]
max_retries = 0
connect_timeout_s = 1.0

[providers.openai]
base_url = "http://127.0.0.1:9/v1"  # nothing listens: every call fails fast

[heartbeat]
interval = "100ms"
theta_base = 0.01
theta_min = 0.0

[logging]
file = "{state}/golem.log"
console = "json"
"""


def test_a_key_leaves_no_trace_in_logs_state_or_output(tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = tmp_path / "paid.toml"
    config.write_text(PAID_CONFIG.format(state=state))
    env = {**os.environ, "OPENAI_API_KEY": SECRET}
    outputs = []
    for args in (("config", "check", config), ("config", "check", "--json", config)):
        done = subprocess.run(
            [sys.executable, "-m", "golem", *map(str, args)],
            env=env,
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        outputs += [done.stdout, done.stderr]
    run = subprocess.run(
        [sys.executable, "-m", "golem", "run", str(config), "--for", "4s"],
        check=False,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr.decode()
    outputs += [run.stdout, run.stderr]
    log = (state / "golem.log").read_bytes()
    assert b"provider_error" in log, "the run never tried the provider"
    files = [path.read_bytes() for path in state.iterdir() if path.is_file()]
    for blob in [*outputs, log, *files]:
        assert SECRET.encode() not in blob
        assert SECRET[-10:].encode() not in blob
