"""Ctrl-C while a job waits on a thread (a local model's call: up to 46 s): the first lets
it finish and says so, the second abandons it (issue 33, item 16). Signals are raised in
this process, whose trio run watches them as `golem run` does."""

from __future__ import annotations

import signal
import time
from datetime import timedelta
from pathlib import Path

import trio

from golem.runtime.clock import RealClock
from golem.runtime.life import Life, assemble
from golem.runtime.scheduler import Firing, Job, every
from golem.runtime.store.state import StateStore
from tests.runtime.test_life import config, routes

CALL_S = 30.0  # the blocked call: far longer than the test may take


def _life(tmp_path: Path, store: StateStore, started: trio.Event, call_s: float = CALL_S) -> Life:
    clock = RealClock()
    made, _ = assemble(config(tmp_path), clock=clock, store=store, routes=routes()[0])

    async def think(firing: Firing) -> None:
        store.set_meta("thought", "begun")  # a write the abandoned job must not leave
        started.set()
        await trio.to_thread.run_sync(time.sleep, call_s, abandon_on_cancel=True)

    soon = clock.now() + timedelta(milliseconds=300)
    made.scheduler.add(Job("think", every(timedelta(hours=1), start=soon), think))
    return made


async def _press_ctrl_c(started: trio.Event, times: int) -> None:
    await started.wait()
    for _ in range(times):
        await trio.sleep(0.2)
        signal.raise_signal(signal.SIGINT)


async def test_a_second_ctrl_c_abandons_the_running_job(tmp_path: Path) -> None:
    heard: list[tuple[int, str | None]] = []
    started = trio.Event()
    with StateStore.open(tmp_path / "state") as store:
        life = _life(tmp_path, store, started)
        begun = time.monotonic()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_press_ctrl_c, started, 2)
            ended = await life.run(signals=True, on_signal=lambda n, job: heard.append((n, job)))
        took = time.monotonic() - begun
        assert ended == "signal"
        assert heard == [(1, "think"), (2, "think")]
        assert life.abandoned == "think"
        assert took < CALL_S / 3, took  # not the call's 30 s
        assert store.get_meta("thought") is None  # its writes rolled back
        assert store.last_fire("think") is None  # so it runs again on resume


async def test_one_ctrl_c_lets_the_running_job_finish(tmp_path: Path) -> None:
    heard: list[tuple[int, str | None]] = []
    started = trio.Event()
    with StateStore.open(tmp_path / "state") as store:
        life = _life(tmp_path, store, started, call_s=1.0)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_press_ctrl_c, started, 1)
            ended = await life.run(signals=True, on_signal=lambda n, job: heard.append((n, job)))
        assert ended == "signal" and life.abandoned is None
        assert heard == [(1, "think")]
        assert store.get_meta("thought") == "begun" and store.last_fire("think") is not None
