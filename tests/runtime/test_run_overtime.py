"""`golem run --for`: when the time runs out while a job runs (a local model's tick can
take minutes), the user is told once, and the life ends when that job is done."""

from __future__ import annotations

import contextlib
import tempfile
from datetime import UTC, timedelta
from pathlib import Path

import trio
from apscheduler.triggers.date import DateTrigger

from golem.cli.run import overtime
from golem.runtime.clock import RealClock
from golem.runtime.config.load import parse_config
from golem.runtime.life import assemble
from golem.runtime.markets import make_market
from golem.runtime.routes import ProviderPool, build_routes
from golem.runtime.scheduler import Firing, Job
from golem.runtime.store.state import StateStore

CONFIG = {
    "golem": {"id": "overtime"},
    "inference": {"t1": ["synthetic:claude-haiku-4-5"]},
    "providers": {"synthetic": {"emulate": "anthropic", "model": "claude-haiku-4-5"}},
    "heartbeat": {"interval": "1h"},
    "subsystems": {"curator": {"enabled": False}, "dream": {"enabled": False}},
}


def run_for(duration: timedelta, job_takes: float) -> tuple[str, list[str], list[str]]:
    """A life on the real clock run for `duration`, with a job that starts at once and
    takes `job_takes` seconds: why it ended, what it was told, and the jobs that ran."""
    told: list[str] = []
    ran: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        config = parse_config(CONFIG)
        with StateStore.open(Path(tmp) / "state") as store:
            clock = RealClock()
            life, _ = assemble(
                config,
                clock=clock,
                store=store,
                routes=build_routes(ProviderPool(config, {})),
                market=make_market(config),
            )

            async def slow(firing: Firing) -> None:
                await trio.sleep(job_takes)
                ran.append(firing.job)

            start = DateTrigger(run_date=clock.now(), timezone=UTC)
            life.scheduler.add(Job("slow", start, slow))
            ended = trio.run(lambda: life.run(duration=duration, on_overtime=told.append))
    return ended, told, ran


def test_time_running_out_during_a_job_is_said_once_and_the_job_finishes() -> None:
    ended, told, ran = run_for(timedelta(milliseconds=300), job_takes=1.0)
    assert (ended, told, ran) == ("duration", ["slow"], ["slow"])


def test_nothing_is_said_when_no_job_is_running_as_time_runs_out() -> None:
    ended, told, ran = run_for(timedelta(milliseconds=500), job_takes=0.05)
    assert (ended, told, ran) == ("duration", [], ["slow"])


def test_the_user_is_told_what_is_waited_for_and_how_to_stop_waiting() -> None:
    said = overtime("heartbeat")
    assert said.startswith("--for ran out; stopping once the running heartbeat finishes")
    assert "Ctrl-C twice abandons it" in said
