"""What a fast-forwarding heartbeat may live in one run: `stretch_times` (up to the next
other job, the hour, a recorded market's end), the scheduler's `first_other` and
`advance` (the run recorded as its last fire time, the next fire following from it), and
the store's batch counting a stretch's ticks (`weigh`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import trio

from golem.runtime.clock import VirtualClock
from golem.runtime.fast_forward import stretch_times
from golem.runtime.scheduler import Firing, Job, MemoryFireTimes, Scheduler, every
from golem.runtime.store.state import StateStore
from tests.simulation.test_simulate_parts import committed_tick

T0 = datetime(2026, 5, 4, 10, 0, tzinfo=UTC)
S15 = timedelta(seconds=15)


def test_a_stretch_ends_before_the_hour_the_data_and_another_jobs_fire() -> None:
    beat = every(S15, start=T0)
    start = T0 + timedelta(minutes=58)
    assert stretch_times(beat, start, other=None) == [start + k * S15 for k in range(8)]
    other = (start + 3 * S15, False)  # ties go to the other job: it was added first
    assert stretch_times(beat, start, other=other) == [start + k * S15 for k in range(3)]
    first = (start + 3 * S15, True)  # ties go to this one
    assert stretch_times(beat, start, other=first) == [start + k * S15 for k in range(4)]
    ends = start + 2 * S15 + timedelta(seconds=1)
    assert stretch_times(beat, start, other=None, data_end=ends) == [
        start + k * S15 for k in range(3)
    ]
    assert stretch_times(beat, start, other=(start, False)) == []


def test_an_advanced_run_is_recorded_as_its_last_fire_and_the_next_follows_it() -> None:
    clock, fires = VirtualClock(T0), MemoryFireTimes()
    scheduler = Scheduler(clock, fires)
    runs: list[tuple[str, datetime]] = []
    seen: list[tuple[datetime, bool] | None] = []

    async def beat(firing: Firing) -> None:
        runs.append(("beat", firing.at))
        seen.append(scheduler.first_other("beat"))
        if firing.at == T0 + S15:  # lives 4 fire times in this run
            clock.jump_to(T0 + 4 * S15)
            scheduler.advance("beat", T0 + 4 * S15)
        if firing.at >= T0 + 6 * S15:
            scheduler.stop()

    async def other(firing: Firing) -> None:
        runs.append(("other", firing.at))

    scheduler.add(Job("beat", every(S15, start=T0), beat))
    scheduler.add(Job("other", every(timedelta(minutes=1), start=T0 + timedelta(minutes=1)), other))
    trio.run(scheduler.run)
    assert runs == [
        ("beat", T0),
        ("beat", T0 + S15),  # stands for T0 + 15 s ... T0 + 60 s
        ("other", T0 + 4 * S15),  # inside the stretch (a driver stops before), on time
        ("beat", T0 + 5 * S15),  # the next fire follows the last one lived
        ("beat", T0 + 6 * S15),
    ]
    assert fires.fires["beat"] == T0 + 6 * S15
    assert seen[0] == (T0 + timedelta(minutes=1), True)  # beat was added first


def test_a_batch_commits_after_so_many_ticks_however_many_transactions_lived_them(
    tmp_path: Path,
) -> None:
    with StateStore.open(tmp_path, synchronous="OFF", commit_every=10) as store:
        with store.transaction():
            store.set_tick(6)
            store.weigh(6)  # a quiet stretch of 6 ticks
        assert committed_tick(tmp_path) is None  # 6 of 10 ticks: the batch is open
        with store.transaction():
            store.set_tick(11)
            store.weigh(5)
        assert committed_tick(tmp_path) == "11"  # 11 ticks in 2 transactions closed it
        with store.transaction():
            store.set_tick(12)
        assert committed_tick(tmp_path) == "11"  # a new batch opened with tick 12
