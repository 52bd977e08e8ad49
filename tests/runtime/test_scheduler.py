"""The scheduler: pure next-fire math, then the trio loop on a virtual clock (interval and
cron times, isolated failures, coalescing, stored fire times across restarts, reschedule)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import trio
from apscheduler.triggers.date import DateTrigger
from structlog.testing import capture_logs

from golem.runtime.clock import VirtualClock
from golem.runtime.scheduler import (
    ANY_LATENESS,
    Firing,
    Job,
    JobFailing,
    MemoryFireTimes,
    Scheduler,
    Trigger,
    cron,
    every,
    next_fire,
)

T0 = datetime(2026, 5, 4, 0, 0, tzinfo=UTC)
S15 = timedelta(seconds=15)
MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def at(hours: float = 0, *, days: int = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(days=days, hours=hours, seconds=seconds)


# --- next_fire: pure ----------------------------------------------------------------------


def test_interval_first_fire_is_its_start_or_the_next_slot() -> None:
    trigger = every(S15, start=T0)
    assert next_fire(trigger, None, T0 - HOUR, MIN) == T0
    assert next_fire(trigger, None, T0, MIN) == T0
    assert next_fire(trigger, None, at(seconds=20), MIN) == at(seconds=30)


def test_on_schedule_and_late_within_grace() -> None:
    trigger = every(S15, start=T0)
    assert next_fire(trigger, T0, at(seconds=3), MIN) == at(seconds=15)
    assert next_fire(trigger, T0, at(seconds=20), MIN) == at(seconds=15)  # 5 s late: run it


def test_several_missed_runs_coalesce_into_the_latest() -> None:
    trigger = every(S15, start=T0)
    assert next_fire(trigger, T0, at(seconds=50), MIN) == at(seconds=45)
    # an hour asleep: one run, standing for the latest slot, not 240 of them
    assert next_fire(trigger, T0, at(1, seconds=7), MIN) == at(1)


def test_a_daily_run_missed_beyond_grace_is_skipped() -> None:
    daily = cron("0 3 * * *")
    last = at(3)
    assert next_fire(daily, last, at(12), HOUR) == at(3, days=1)  # not yet due: no repeat
    assert next_fire(daily, last, at(3.5, days=1), HOUR) == at(3, days=1)  # late, in grace
    assert next_fire(daily, last, at(5, days=1), HOUR) == at(3, days=2)  # missed: skipped
    assert next_fire(daily, last, at(3.25, days=3), HOUR) == at(3, days=3)  # 2 missed: one run
    assert next_fire(daily, None, at(5), HOUR) == at(3, days=1)  # a new job never runs late


def test_the_latest_slot_within_grace_runs_when_older_ones_are_past_it() -> None:
    hourly = cron("0 * * * *")
    assert next_fire(hourly, at(0), at(5.25), HOUR) == at(5)


def test_a_finished_trigger_fires_never_again() -> None:
    once: Trigger = DateTrigger(run_date=at(1), timezone=UTC)
    assert next_fire(once, None, T0, MIN) == at(1)
    assert next_fire(once, at(1), at(2), MIN) is None


def test_triggers_are_pure_and_checked() -> None:
    trigger = every(S15, start=T0)
    assert [next_fire(trigger, T0, T0, MIN) for _ in range(3)] == [at(seconds=15)] * 3
    with pytest.raises(ValueError, match="positive"):
        every(timedelta(0), start=T0)
    with pytest.raises(ValueError, match="timezone-aware"):
        every(S15, start=datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        cron("61 * * * *")
    with pytest.raises(ValueError, match="fields"):
        cron("* * *")


# --- the loop on a virtual clock ----------------------------------------------------------


Runs = list[tuple[str, datetime]]


def recorder(runs: Runs, clock: VirtualClock) -> Callable[[Firing], Awaitable[None]]:
    async def run(firing: Firing) -> None:
        assert clock.now() >= firing.at
        runs.append((firing.job, firing.at))

    return run


def until(scheduler: Scheduler, end: datetime) -> Job:
    """A job that stops the scheduler at `end` (added last, so it loses ties)."""

    async def stop(_: Firing) -> None:
        scheduler.stop()

    return Job(f"stop at {end}", DateTrigger(run_date=end, timezone=UTC), stop)


async def test_interval_and_cron_jobs_fire_at_their_virtual_times() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock)
    runs: Runs = []
    scheduler.add(Job("beat", every(timedelta(minutes=20), start=T0), recorder(runs, clock)))
    scheduler.add(Job("daily", cron("30 0 * * *"), recorder(runs, clock)))
    scheduler.add(until(scheduler, at(1)))
    start = trio.current_time()
    await scheduler.run()
    assert runs == [
        ("beat", at(0)),
        ("beat", at(seconds=1200)),
        ("daily", at(0.5)),
        ("beat", at(seconds=2400)),
        ("beat", at(1)),
    ]
    assert trio.current_time() - start < 0.5


async def test_ties_run_in_the_order_jobs_were_added() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock)
    runs: Runs = []
    for name in ("b", "a", "c"):
        scheduler.add(Job(name, every(HOUR, start=T0), recorder(runs, clock)))
    scheduler.add(until(scheduler, at(1)))
    await scheduler.run()
    assert [name for name, _ in runs] == ["b", "a", "c", "b", "a", "c"]


async def test_a_failing_job_is_logged_and_the_loop_goes_on() -> None:
    clock = VirtualClock(T0)
    fires = MemoryFireTimes()
    scheduler = Scheduler(clock, fires)
    runs: Runs = []

    async def broken(firing: Firing) -> None:
        raise RuntimeError(f"boom at {firing.at:%H:%M}")

    scheduler.add(Job("broken", every(HOUR, start=T0), broken))
    scheduler.add(Job("fine", every(HOUR, start=T0), recorder(runs, clock)))
    scheduler.add(until(scheduler, at(2)))
    with capture_logs() as logs:
        await scheduler.run()
    failures = [entry for entry in logs if entry["event"] == "job_failed"]
    assert [f["job"] for f in failures] == ["broken"] * 3
    assert failures[0]["log_level"] == "error"
    assert failures[0]["exc_info"] is True
    assert runs == [("fine", at(0)), ("fine", at(1)), ("fine", at(2))]
    assert fires.fires["broken"] == at(2)  # a failed run still counts as run


async def test_a_job_failing_the_same_way_n_times_in_a_row_stops_the_loop() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock, max_failures=3)

    async def broken(firing: Firing) -> None:
        raise RuntimeError(f"boom at {firing.at:%H:%M}")

    scheduler.add(Job("broken", every(HOUR, start=T0), broken))
    scheduler.add(until(scheduler, at(10)))
    with capture_logs() as logs:
        await scheduler.run()
    assert clock.now() == at(2)
    assert scheduler.failure is not None
    assert (scheduler.failure.job, scheduler.failure.count) == ("broken", 3)
    assert (
        str(scheduler.failure)
        == "job 'broken' failed 3 times in a row: RuntimeError: boom at 00:00"
    )
    failures = [entry for entry in logs if entry["event"] == "job_failed"]
    # The first failure's traceback, then a count: not three tracebacks of one fault.
    assert [f.get("exc_info") for f in failures] == [True, None, None]
    assert [f.get("in_a_row") for f in failures] == [None, 2, 3]
    assert [e["job"] for e in logs if e["event"] == "job_failing"] == ["broken"]


async def test_a_success_or_another_failure_starts_the_count_again() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock, max_failures=3)
    script = iter(["a", "a", None, "a", "a", "b", "a", "b", "b", "b", None])

    async def flaky(_: Firing) -> None:
        match next(script):
            case "a":
                raise RuntimeError("a")
            case "b":
                raise ValueError("b")

    scheduler.add(Job("flaky", every(HOUR, start=T0), flaky))
    scheduler.add(until(scheduler, at(20)))
    with capture_logs():
        await scheduler.run()
    assert clock.now() == at(9)  # the third "b" in a row
    assert scheduler.failure is not None and scheduler.failure.error == "ValueError: b"
    assert isinstance(scheduler.failure, JobFailing)


async def test_without_a_limit_a_failing_job_never_stops_the_loop() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock)  # max_failures=0

    async def broken(_: Firing) -> None:
        raise RuntimeError("boom")

    scheduler.add(Job("broken", every(HOUR, start=T0), broken))
    scheduler.add(until(scheduler, at(30)))
    with capture_logs() as logs:
        await scheduler.run()
    assert clock.now() == at(30) and scheduler.failure is None
    assert sum(e["event"] == "job_failed" for e in logs) == 31


async def test_a_long_gap_gives_one_run_not_a_backlog() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock, grace=MIN)
    runs: Runs = []

    async def beat(firing: Firing) -> None:
        runs.append(("beat", firing.at))
        if firing.at == at(seconds=30):
            clock.advance(HOUR + timedelta(seconds=7))  # the machine slept

    scheduler.add(Job("beat", every(S15, start=T0), beat))
    scheduler.add(until(scheduler, at(1, seconds=40)))
    await scheduler.run()
    assert (
        [t for _, t in runs]
        == [
            at(0),
            at(seconds=15),
            at(seconds=30),
            at(1, seconds=30),  # the latest missed slot, once
            at(1, seconds=45) - timedelta(seconds=15) + timedelta(seconds=15),
        ][:4]
        + [at(1, seconds=45)][:0]
        or runs
    )


async def test_a_daily_job_missed_beyond_grace_is_logged_and_skipped() -> None:
    clock = VirtualClock(at(5))
    fires = MemoryFireTimes({"daily": at(3, days=-1)})
    scheduler = Scheduler(clock, fires, grace=HOUR)
    runs: Runs = []
    with capture_logs() as logs:
        scheduler.add(Job("daily", cron("0 3 * * *"), recorder(runs, clock)))
        scheduler.add(until(scheduler, at(4, days=1)))
        await scheduler.run()
    assert runs == [("daily", at(3, days=1))]
    assert [e["event"] for e in logs] == ["job_missed"]


async def test_restarts_neither_repeat_nor_forget_a_daily_job() -> None:
    fires = MemoryFireTimes()
    runs: Runs = []

    async def life(start: datetime, end: datetime) -> None:
        clock = VirtualClock(start)
        scheduler = Scheduler(clock, fires, grace=timedelta(hours=2))
        scheduler.add(Job("daily", cron("0 3 * * *"), recorder(runs, clock)))
        scheduler.add(until(scheduler, end))
        await scheduler.run()

    await life(at(0), at(12))  # runs at 03:00
    await life(at(12), at(2, days=1))  # restarted the same day: nothing
    await life(at(4, days=1), at(12, days=1))  # down at 03:00, back within grace: runs late
    await life(at(12, days=1), at(23, days=1))  # and not again that day
    await life(at(3, days=2), at(12, days=2))  # restarted at the very fire time: once
    assert runs == [("daily", at(3)), ("daily", at(3, days=1)), ("daily", at(3, days=2))]
    assert fires.fires["daily"] == at(3, days=2)


async def test_reschedule_doubles_the_interval_from_the_last_fire() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock)
    runs: Runs = []

    async def beat(firing: Firing) -> None:
        runs.append(("beat", firing.at))
        if firing.at == at(seconds=30):  # Conservation: the heartbeat slows down
            scheduler.reschedule("beat", every(2 * S15, start=firing.at))

    scheduler.add(Job("beat", every(S15, start=T0), beat))
    scheduler.add(until(scheduler, at(seconds=120)))
    await scheduler.run()
    assert [int((t - T0).total_seconds()) for _, t in runs] == [0, 15, 30, 60, 90, 120]


async def test_a_job_can_stop_the_scheduler_and_its_fire_time_is_kept() -> None:
    clock = VirtualClock(T0)
    fires = MemoryFireTimes()
    scheduler = Scheduler(clock, fires)
    runs: Runs = []

    async def death(firing: Firing) -> None:
        runs.append(("death", firing.at))
        scheduler.stop()

    scheduler.add(Job("beat", every(S15, start=T0), recorder(runs, clock)))
    scheduler.add(Job("death", DateTrigger(run_date=at(seconds=40), timezone=UTC), death))
    await scheduler.run()
    assert runs[-1] == ("death", at(seconds=40))
    assert fires.fires == {"beat": at(seconds=30), "death": at(seconds=40)}
    assert clock.now() == at(seconds=40)


async def test_run_returns_when_no_job_will_fire_again() -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock)
    runs: Runs = []
    scheduler.add(Job("once", DateTrigger(run_date=at(1), timezone=UTC), recorder(runs, clock)))
    await scheduler.run()
    assert runs == [("once", at(1))]
    with pytest.raises(ValueError, match="already"):
        scheduler.add(Job("once", every(S15, start=T0), recorder(runs, clock)))


# --- the loop on trio's own (autojumping) clock: interruption and cancellation ----------


class TrioTime:
    """A SleepingClock on trio's clock, so other tasks can act while the scheduler sleeps."""

    def __init__(self) -> None:
        self._origin = trio.current_time()

    def now(self) -> datetime:
        return T0 + timedelta(seconds=trio.current_time() - self._origin)

    async def sleep_until(self, moment: datetime) -> None:
        await trio.sleep_until(self._origin + (moment - T0).total_seconds())


async def test_reschedule_and_add_wake_a_sleeping_scheduler(
    autojump_clock: trio.testing.MockClock,
) -> None:
    clock = TrioTime()
    scheduler = Scheduler(clock)
    runs: list[tuple[str, float]] = []

    def note(name: str) -> Callable[[Firing], Awaitable[None]]:
        async def run(firing: Firing) -> None:
            runs.append((name, (firing.at - T0).total_seconds()))

        return run

    scheduler.add(Job("slow", every(HOUR, start=T0 + HOUR), note("slow")))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scheduler.run)
        await trio.sleep(10)
        scheduler.reschedule("slow", every(MIN, start=T0 + MIN))
        scheduler.add(Job("new", DateTrigger(run_date=T0 + 2 * S15, timezone=UTC), note("new")))
        await trio.sleep(150)
        nursery.cancel_scope.cancel()  # the daemon's shutdown: the loop ends cleanly
    assert runs == [("new", 30.0), ("slow", 60.0), ("slow", 120.0)]


class _LateClock(VirtualClock):
    """Wakes a millisecond after the moment asked for, as a real clock does."""

    async def sleep_until(self, moment: datetime) -> None:
        await super().sleep_until(moment + timedelta(milliseconds=1))

    def jump_to(self, moment: datetime) -> None:
        super().jump_to(moment + timedelta(milliseconds=1))


async def test_a_first_run_fires_though_the_clock_wakes_late() -> None:
    clock = _LateClock(datetime(2026, 1, 1, tzinfo=UTC))
    scheduler = Scheduler(clock)
    fired: list[datetime] = []

    async def job(firing: Firing) -> None:
        fired.append(firing.at)
        if len(fired) == 3:
            scheduler.stop()

    start = clock.now() + timedelta(seconds=15)
    scheduler.add(Job("hb", every(timedelta(seconds=15), start=start), job))
    await scheduler.run()
    assert fired == [start, start + timedelta(seconds=15), start + timedelta(seconds=30)]


# --- wake-ups: the loop wakes only to fire ------------------------------------------------


class _CountingClock(VirtualClock):
    """Counts the scheduler's wake-ups: it jumps once per live heap entry it acts on."""

    def __init__(self, start: datetime) -> None:
        super().__init__(start)
        self.wakeups = 0

    def jump_to(self, moment: datetime) -> None:
        self.wakeups += 1
        super().jump_to(moment)


async def test_a_job_rescheduling_itself_wakes_the_loop_once_per_fire() -> None:
    clock = _CountingClock(T0)
    scheduler = Scheduler(clock)
    runs: Runs = []

    async def beat(firing: Firing) -> None:
        runs.append(("beat", firing.at))
        # the heartbeat on a phase change, every other minute: slower, then faster again
        if firing.at.second == 0:
            interval = 2 * S15 if firing.at.minute % 2 == 0 else S15
            scheduler.reschedule("beat", every(interval, start=T0))

    scheduler.add(Job("beat", every(S15, start=T0), beat))
    scheduler.add(until(scheduler, at(seconds=600)))
    await scheduler.run()
    fired = [int((t - T0).total_seconds()) for _, t in runs]
    assert fired[:8] == [0, 30, 60, 75, 90, 105, 120, 150]
    assert clock.wakeups == len(runs) + 1  # and once for the stop job


class _CountingTrigger:
    """A trigger that counts how often it is asked."""

    def __init__(self, inner: Trigger) -> None:
        self.inner, self.asked = inner, 0

    def get_next_fire_time(self, previous: datetime | None, now: datetime) -> datetime | None:
        self.asked += 1
        return self.inner.get_next_fire_time(previous, now)


async def test_an_on_time_fire_asks_its_trigger_once() -> None:
    """On a virtual clock each fire is on time: the planned time is the answer the pure
    trigger would give again, so only the next plan asks it."""
    trigger = _CountingTrigger(every(S15, start=T0))
    scheduler = Scheduler(VirtualClock(T0))
    runs: Runs = []

    async def beat(firing: Firing) -> None:
        runs.append(("beat", firing.at))

    scheduler.add(Job("beat", trigger, beat))
    scheduler.add(until(scheduler, at(seconds=600)))
    await scheduler.run()
    assert [t for _, t in runs] == [at(seconds=15 * n) for n in range(41)]
    assert trigger.asked <= len(runs) + 2  # the first plan and the first run ask twice


@pytest.mark.parametrize("hours", [1, 3, 4, 26, 27, 28, 50, 51])
async def test_restarts_from_stored_fire_times_wake_only_to_fire(hours: int) -> None:
    """The kill test's writer (an hourly tick, a daily job with a day's grace) stopped after
    `hours` ticks in each life and restarted on its stored fire times: no wake-up is idle
    and no run is repeated or skipped."""
    fires = MemoryFireTimes()
    runs: Runs = []

    async def life() -> int:
        clock = _CountingClock(fires.last_fire("tick") or T0)
        scheduler = Scheduler(clock, fires)
        left = [hours]

        async def tick(firing: Firing) -> None:
            runs.append(("tick", firing.at))
            left[0] -= 1
            if not left[0]:
                scheduler.stop()

        scheduler.add(Job("tick", every(HOUR, start=T0), tick))
        scheduler.add(Job("daily", cron("0 3 * * *"), recorder(runs, clock), grace=DAY))
        await scheduler.run()
        return clock.wakeups

    wakeups = [await life() for _ in range(4)]
    ticks = [t for name, t in runs if name == "tick"]
    assert ticks == [at(n) for n in range(4 * hours)]
    daily = [t for name, t in runs if name == "daily"]
    assert daily == [at(3, days=d) for d in range(len(daily))]
    assert len(daily) == sum(at(3, days=d) < ticks[-1] for d in range(len(ticks)))
    assert sum(wakeups) == len(runs)


@pytest.mark.parametrize(
    ("late", "expected"),
    [
        (timedelta(0), [at(3), at(3, days=1)]),
        (HOUR, [at(3), at(3, days=1)]),
        (2 * HOUR, [at(3), at(3, days=1)]),  # exactly its grace late: still runs
        (2 * HOUR + timedelta(seconds=1), [at(3, days=1)]),
        (30 * HOUR, []),  # the next one was missed as well: wait for the one after
    ],
)
async def test_a_restart_after_a_missed_daily_run_wakes_only_to_fire(
    late: timedelta, expected: list[datetime]
) -> None:
    clock = _CountingClock(at(3) + late)
    fires = MemoryFireTimes({"daily": at(3, days=-1)})
    scheduler = Scheduler(clock, fires, grace=2 * HOUR)
    runs: Runs = []
    scheduler.add(Job("daily", cron("0 3 * * *"), recorder(runs, clock)))
    scheduler.add(until(scheduler, at(4, days=1) + late))
    await scheduler.run()
    assert [t for _, t in runs] == expected + ([at(3, days=2)] if late > DAY else [])
    assert clock.wakeups == len(runs) + 1


class _HandClock:
    """A SleepingClock moved by hand from another task: sleepers wake on an event, so
    their sleep ends without a cancellation point."""

    def __init__(self, start: datetime) -> None:
        self._now = start
        self._moved = trio.Event()

    def now(self) -> datetime:
        return self._now

    async def sleep_until(self, moment: datetime) -> None:
        while self._now < moment:
            await self._moved.wait()

    def move_to(self, moment: datetime) -> None:
        self._now = moment
        self._moved.set()
        self._moved = trio.Event()


async def test_a_job_added_as_the_sleep_ends_is_not_lost() -> None:
    clock = _HandClock(T0)
    scheduler = Scheduler(clock)
    runs: Runs = []
    scheduler.add(Job("slow", every(HOUR, start=at(1)), recorder(runs, clock)))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scheduler.run)
        await trio.testing.wait_all_tasks_blocked()
        clock.move_to(at(1))
        # before the scheduler runs again: its sleep is over, the wake-up too late to cancel it
        soon = DateTrigger(run_date=at(1) - S15, timezone=UTC)
        scheduler.add(Job("urgent", soon, recorder(runs, clock)))
        await trio.testing.wait_all_tasks_blocked()
        clock.move_to(at(2))
        await trio.testing.wait_all_tasks_blocked()
        scheduler.stop()
    assert runs == [("urgent", at(1) - S15), ("slow", at(1)), ("slow", at(2))]


async def test_a_run_that_outlasts_its_interval_is_warned_of() -> None:
    """A slow call held a 2 s heartbeat for 102 s without a word (issue 33, item 16)."""
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock)
    runs: Runs = []

    async def beat(firing: Firing) -> None:
        runs.append(("beat", firing.at))
        if firing.at == at(seconds=15):  # the second run takes 50 s of a 15 s interval
            await clock.sleep_until(firing.at + timedelta(seconds=50))

    with capture_logs() as logs:
        scheduler.add(Job("beat", every(S15, start=T0), beat))
        scheduler.add(until(scheduler, at(seconds=100)))
        await scheduler.run()
    overran = [e for e in logs if e["event"] == "job_overran"]
    assert overran == [
        {
            "event": "job_overran",
            "log_level": "warning",
            "job": "beat",
            "fire_time": at(seconds=15).isoformat(),
            "took_s": 50.0,
            "interval_s": 15.0,
        }
    ]
    assert len(runs) > 3  # and it beats on


def test_any_lateness_runs_the_latest_missed_time_however_late() -> None:
    trigger = every(2 * MIN, start=T0)
    # A minute's grace drops a run 70 s late; no limit runs the latest, once.
    assert next_fire(trigger, T0, at(seconds=310), MIN) == at(seconds=360)
    assert next_fire(trigger, T0, at(seconds=310), ANY_LATENESS) == at(seconds=240)
    # Down for a year: one run, standing for the latest slot (found without walking
    # 262,800 of them).
    assert next_fire(trigger, T0, at(days=365, seconds=61), ANY_LATENESS) == at(days=365)
    daily = cron("0 3 * * *")
    assert next_fire(daily, at(3), at(2, days=30), ANY_LATENESS) == at(3, days=29)


async def test_a_job_held_up_by_a_slow_one_runs_once_when_the_loop_frees() -> None:
    """A heartbeat that holds the loop four and a half minutes (a slow local model): the
    dream, due twice meanwhile, runs once as soon as it frees; with a minute's grace it
    waits for its next time, and says `job_missed`."""

    async def life(grace: timedelta | None) -> tuple[list[tuple[datetime, datetime]], Any]:
        clock = VirtualClock(T0)
        scheduler = Scheduler(clock, grace=MIN)
        dreams: list[tuple[datetime, datetime]] = []  # (the run it stands for, when it ran)

        async def beat(firing: Firing) -> None:
            if firing.at == at(seconds=60):
                clock.advance(timedelta(seconds=270))

        async def dream(firing: Firing) -> None:
            dreams.append((firing.at, clock.now()))

        scheduler.add(Job("beat", every(MIN, start=T0), beat))
        scheduler.add(Job("dream", every(2 * MIN, start=T0), dream, grace=grace))
        scheduler.add(until(scheduler, at(seconds=420)))
        with capture_logs() as logs:
            await scheduler.run()
        return dreams, [e["event"] for e in logs]

    dreams, events = await life(ANY_LATENESS)
    first, later = (T0, T0), (at(seconds=360), at(seconds=360))
    assert dreams == [first, (at(seconds=240), at(seconds=330)), later]
    assert "job_missed" not in events
    dreams, events = await life(None)
    assert dreams == [first, later]
    assert "job_missed" in events
