"""When jobs run: APScheduler 3.11 triggers as pure calculators of the next fire time, a
pure `next_fire` that coalesces missed runs, and a small trio loop over a heap that sleeps
on an injected clock, runs one job at a time with its failure isolated, and stores fire times.
A job that keeps failing the same way stops the loop (`JobFailing`) rather than fill the log.
"""

from __future__ import annotations

import heapq
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

import structlog
import trio
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger
from msgspec import Struct

from golem.runtime.clock import InstantClock, SleepingClock
from golem.runtime.job_failures import JobFailing, Streak, kind_of, one_line

__all__ = [
    "ANY_LATENESS",
    "DEFAULT_GRACE",
    "FireTimes",
    "Firing",
    "Job",
    "JobFailing",
    "MemoryFireTimes",
    "Scheduler",
    "Trigger",
    "cron",
    "every",
    "next_fire",
]

log = structlog.get_logger("golem")

DEFAULT_GRACE = timedelta(minutes=1)
# A grace without a limit (APScheduler's misfire_grace_time=None): a run missed by however
# much runs once, coalesced, when the loop frees, as the run of the latest missed time.
ANY_LATENESS = timedelta.max
# On an InstantClock the loop never sleeps. It checks for cancellation before the first
# job and every _CHECK_EVERY-th after it, and lets other tasks run (a full checkpoint,
# some 50 µs) before every _YIELD_EVERY-th. Virtual time runs thousands of jobs a
# second: both stay prompt.
_CHECK_EVERY = 8
_YIELD_EVERY = 256


class Trigger(Protocol):
    """APScheduler 3's trigger interface: pure, it keeps no state between calls."""

    def get_next_fire_time(
        self, previous_fire_time: datetime | None, now: datetime
    ) -> datetime | None: ...


def every(interval: timedelta, *, start: datetime) -> Trigger:
    """Fire at `start`, `start + interval`, … An explicit start keeps the trigger pure:
    APScheduler would otherwise read the wall clock to pick one."""
    if interval <= timedelta(0):
        raise ValueError("an interval must be positive")
    if start.tzinfo is None:
        raise ValueError("start must be timezone-aware")
    trigger: Trigger = IntervalTrigger(
        seconds=interval.total_seconds(), start_date=start.astimezone(UTC), timezone=UTC
    )
    return trigger


def cron(expression: str) -> Trigger:
    """A five-field crontab expression in UTC. Beware APScheduler 3's day-of-week numbers:
    0 is Monday (names such as `mon` avoid the confusion). Raises ValueError when invalid."""
    trigger: Trigger = CronTrigger.from_crontab(expression, timezone=UTC)
    return trigger


def next_fire(
    trigger: Trigger,
    last: datetime | None,
    now: datetime,
    grace: timedelta,
    *,
    due: datetime | None = None,
) -> datetime | None:
    """When a job whose last run stood for `last` should run next; None when never again.

    A future time means "wait until then". A time at or before `now` means "run now, as
    the run of that time": when several runs were missed, only the latest runs (they are
    coalesced), and only if it is at most `grace` late; runs missed by more than `grace`
    are skipped, and the answer is the first fire time from `now` on. `due`, when given,
    is the trigger's answer after `last`, already asked (the trigger is pure).
    """
    if due is None:
        due = trigger.get_next_fire_time(last, now)
    if due is None or due >= now:
        return due
    if now - due > grace:
        due = trigger.get_next_fire_time(None, now - grace)
        if due is None or due > now:
            return trigger.get_next_fire_time(None, now)
    return _latest(trigger, due, now)


def _latest(trigger: Trigger, first: datetime, now: datetime) -> datetime:
    """The trigger's last fire time at or before `now`, `first` being one of them. It looks
    back from `now` over a doubling span before it walks forward, so that a long outage of
    a job with any lateness allowed is not walked one fire time at a time."""
    span = timedelta(seconds=1)
    while now - first > span:
        near = trigger.get_next_fire_time(None, now - span)
        if near is not None and near <= now:
            first = near
            break
        span *= 2
    while (following := trigger.get_next_fire_time(first, now)) is not None and following <= now:
        first = following
    return first


class Firing(Struct, frozen=True):
    """One run of a job: which, and the fire time it stands for."""

    job: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Job:
    """A named async callable and when to run it. `grace` overrides the scheduler's
    (ANY_LATENESS: a missed run always runs once, late)."""

    name: str
    trigger: Trigger
    run: Callable[[Firing], Awaitable[object]]
    grace: timedelta | None = None


class FireTimes(Protocol):
    """Where the last fire time of each job is kept. A job runs inside `transaction()`
    with its fire time recorded last, so its writes and its fire time commit together."""

    def last_fire(self, job: str) -> datetime | None: ...

    def record_fire(self, job: str, at: datetime) -> None: ...

    def transaction(self) -> AbstractContextManager[object]: ...


@dataclass
class MemoryFireTimes:
    """FireTimes in a dict, for the simulator and tests (nothing survives the process)."""

    fires: dict[str, datetime] = field(default_factory=dict)

    def last_fire(self, job: str) -> datetime | None:
        return self.fires.get(job)

    def record_fire(self, job: str, at: datetime) -> None:
        self.fires[job] = at

    @contextmanager
    def transaction(self) -> Iterator[None]:
        yield


@dataclass
class _Slot:
    job: Job
    last: datetime | None
    generation: int = 0
    planned_after: datetime | None = None  # the last fire time its live entry follows
    failing: Streak | None = None
    planned: datetime | None = None  # the fire time of its live entry (None: never again)
    lived: datetime | None = None  # the last fire time its running run stands for


_AFTER = timedelta(microseconds=1)  # "now" just after a fire time: the trigger's next one


class Scheduler:
    """Runs jobs at their fire times on `clock`, one at a time, in fire-time order (ties go
    to the job added first), so a virtual clock gives a reproducible life. A failing job is
    logged and the loop goes on, unless it failed the same way `max_failures` times in a
    row (0: no limit): then the loop stops and `failure` says why. `run()` returns after
    `stop()`, when no job will fire again, or raises Cancelled when its cancel scope is
    cancelled."""

    def __init__(
        self,
        clock: SleepingClock,
        fire_times: FireTimes | None = None,
        *,
        grace: timedelta = DEFAULT_GRACE,
        max_failures: int = 0,
    ) -> None:
        self._clock = clock
        self._fire_times: FireTimes = fire_times if fire_times is not None else MemoryFireTimes()
        self._grace = grace
        self._max_failures = max_failures
        self.failure: JobFailing | None = None
        # Told of each failure: the job, how many in a row, the error, the fire time.
        self.on_failed: Callable[[str, int, str, datetime], None] | None = None
        self._slots: dict[str, _Slot] = {}
        self._order: dict[str, int] = {}
        self._heap: list[tuple[datetime, int, str, int]] = []
        self._stopped = False
        self._wake: trio.CancelScope | None = None
        self.running: str | None = None  # the job running now, if any

    def add(self, job: Job) -> None:
        if job.name in self._slots:
            raise ValueError(f"a job named {job.name!r} is already scheduled")
        self._order[job.name] = len(self._order)
        self._slots[job.name] = _Slot(job, self._fire_times.last_fire(job.name))
        self._plan(job.name)

    def reschedule(self, name: str, trigger: Trigger) -> None:
        """Give a job a new trigger from now on (the heartbeat slows in Conservation); its
        next fire time follows from its last one under the new trigger."""
        slot = self._slots[name]
        slot.job = Job(name, trigger, slot.job.run, slot.job.grace)
        self._plan(name)

    def next_fire_time(self, name: str) -> datetime | None:
        slot = self._slots[name]
        return next_fire(slot.job.trigger, slot.last, self._clock.now(), self._grace_of(slot))

    def first_other(self, name: str) -> tuple[datetime, bool] | None:
        """The next fire time of any job but `name`, and whether `name` runs before it
        when they fall together (ties go to the job added first); None: none will fire."""
        order = self._order[name]
        planned = [
            (slot.planned, self._order[other])
            for other, slot in self._slots.items()
            if other != name and slot.planned is not None
        ]
        if not planned:
            return None
        at, first = min(planned)
        return at, order < first

    def advance(self, name: str, last_fire: datetime) -> None:
        """The running job `name` lived its fire times up to `last_fire` in this one run
        (a simulated heartbeat's quiet stretch): the run is recorded as that time's, and
        the job's next fire time follows from it."""
        self._slots[name].lived = last_fire

    def stop(self) -> None:
        """Return from `run()` once the running job (if any) is done."""
        self._stopped = True
        self._interrupt()

    async def run(self) -> None:
        instant = self._clock if isinstance(self._clock, InstantClock) else None
        turns = 0
        while not self._stopped and self._heap:
            if instant is not None:
                turns += 1
                if not turns % _YIELD_EVERY:
                    await trio.lowlevel.checkpoint()
                elif turns % _CHECK_EVERY == 1:  # the first job's turn among them
                    await trio.lowlevel.checkpoint_if_cancelled()
                if self._stopped or not self._heap:
                    continue
            at, _, name, generation = self._heap[0]
            if generation != self._slots[name].generation:
                heapq.heappop(self._heap)
                continue
            if instant is not None:
                instant.jump_to(at)
            else:
                with trio.CancelScope() as wake:
                    self._wake = wake
                    await self._clock.sleep_until(at)
                self._wake = None
                # Planned while asleep: look at the heap again. The sleep may have ended
                # before the cancellation could reach it (a clock woken by the task that
                # then planned), and the entry popped below would be the new one, lost.
                if wake.cancel_called or self._stopped:
                    continue
            heapq.heappop(self._heap)
            await self._due(self._slots[name], at)

    async def _due(self, slot: _Slot, planned: datetime) -> None:
        now, last = self._clock.now(), slot.last
        # Planned from the same last fire, `planned` is what the trigger would answer again.
        known = planned if last is not None and slot.planned_after == last else None
        if known is not None and known >= now:
            at: datetime | None = known  # on time: what next_fire would answer
        else:
            at = next_fire(slot.job.trigger, last, now, self._grace_of(slot), due=known)
        if last is None and planned <= now and now - planned <= self._grace_of(slot):
            # A first run: a trigger asked with no previous fire answers with the next
            # time after `now`, and a real clock always wakes a little after `planned`
            # (or much later, held by another job: then the latest time missed runs).
            at = _latest(slot.job.trigger, planned, now) if planned < now else planned
        if at is None:
            slot.planned = None
            return
        name = slot.job.name
        if at <= now:
            await self._run(slot, at)
        self._plan(name)

    async def _run(self, slot: _Slot, at: datetime) -> None:
        """Run the job as the run of `at`, its failure isolated; record `at` either way."""
        name = slot.job.name
        self.running, slot.lived = name, at
        try:
            with self._fire_times.transaction():
                await slot.job.run(Firing(name, at))
                self._fire_times.record_fire(name, slot.lived)
        except Exception as exc:
            self._failed(slot, at, exc)
            with self._fire_times.transaction():
                self._fire_times.record_fire(name, slot.lived)
        else:
            slot.failing = None
        finally:
            self.running = None
        slot.last = at = slot.lived
        self._overran(slot, at)

    def _overran(self, slot: _Slot, at: datetime) -> None:
        """Warn when the run of `at` ended after the job's next fire time: a slow call held
        the loop (a heartbeat of 2 s once waited 102 s on a local model, unsaid)."""
        now = self._clock.now()
        if now <= at:  # no time passed (a simulated life): the trigger is not asked
            return
        following = slot.job.trigger.get_next_fire_time(at, at + _AFTER)
        if following is not None and following < now:
            log.warning(
                "job_overran",
                job=slot.job.name,
                fire_time=at.isoformat(),
                took_s=round((now - at).total_seconds(), 3),
                interval_s=round((following - at).total_seconds(), 3),
            )

    def _failed(self, slot: _Slot, at: datetime, exc: Exception) -> None:
        """Log a failure: with its traceback the first time, as a count when it repeats
        the one before. Stop once the same failure reaches `max_failures` in a row."""
        name, kind, streak = slot.job.name, kind_of(exc), slot.failing
        if streak is not None and streak.kind == kind:
            streak.count += 1
            log.error(
                "job_failed",
                job=name,
                fire_time=at.isoformat(),
                error=one_line(exc),
                in_a_row=streak.count,
            )
        else:
            streak = slot.failing = Streak(kind, one_line(exc))
            log.exception("job_failed", job=name, fire_time=at.isoformat())
        if self.on_failed is not None:
            self.on_failed(name, streak.count, streak.error, at)
        if self._max_failures and streak.count >= self._max_failures:
            self.failure = JobFailing(name, streak.count, streak.error)
            log.error("job_failing", job=name, in_a_row=streak.count, error=streak.error)
            self.stop()

    def _plan(self, name: str) -> None:
        """Push the job's next fire time. Whatever was planned for it before is stale from
        now on, so a job has one live entry however often it is planned: a job that
        reschedules itself in its run is planned again once it has run."""
        slot, now = self._slots[name], self._clock.now()
        slot.generation += 1
        slot.planned_after = slot.last
        trigger = slot.job.trigger
        at = due = trigger.get_next_fire_time(slot.last, now)
        if due is not None and due < now:  # missed: next_fire says what runs (it is rare)
            at = next_fire(trigger, slot.last, now, self._grace_of(slot), due=due)
            if at is not None and at > now:
                log.warning(
                    "job_missed", job=name, missed=due.isoformat(), next_fire=at.isoformat()
                )
        slot.planned = at
        if at is not None:
            heapq.heappush(self._heap, (at, self._order[name], name, slot.generation))
        self._interrupt()

    def _grace_of(self, slot: _Slot) -> timedelta:
        return self._grace if slot.job.grace is None else slot.job.grace

    def _interrupt(self) -> None:
        if self._wake is not None:
            self._wake.cancel()
