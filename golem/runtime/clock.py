"""The runtime's clocks, and the only module in golem/runtime that reads the wall clock:
`RealClock` for the daemon, `VirtualClock` for the simulator and tests. Both satisfy
`golem.mortality.Clock` and add `sleep_until`, which is all the scheduler needs.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

import trio

__all__ = [
    "MAX_SLEEP_SLICE",
    "InstantClock",
    "RealClock",
    "SleepingClock",
    "VirtualClock",
    "isoformat",
]

MAX_SLEEP_SLICE = timedelta(seconds=30)


# The last moment formatted and its text, as one tuple: a thread reads the pair whole.
_LAST_FORMATTED: list[tuple[datetime | None, str]] = [(None, "")]


def isoformat(moment: datetime) -> str:
    """`moment.isoformat()`, formatted once per moment: a tick's log lines and stored rows
    all carry its time, in as many datetime objects as the clock, the scheduler's trigger
    and the tick make of it (equal moments in the same zone print the same)."""
    last, text = _LAST_FORMATTED[0]
    if moment is last or (last is not None and moment.tzinfo is last.tzinfo and moment == last):
        return text
    if moment.tzinfo is UTC and not moment.microsecond:
        # A whole UTC second, as every tick's is: the day's text is kept, the time of day
        # put together from two-digit strings (a third of isoformat's printf).
        day = moment.toordinal()
        date = _DAYS.get(day)
        if date is None:
            _DAYS.clear()  # one day at a time
            date = _DAYS[day] = moment.date().isoformat()
        two = _TWO_DIGITS
        text = f"{date}T{two[moment.hour]}:{two[moment.minute]}:{two[moment.second]}+00:00"
    else:
        text = moment.isoformat()
    _LAST_FORMATTED[0] = (moment, text)
    return text


_DAYS: dict[int, str] = {}  # ordinal -> "YYYY-MM-DD"
_TWO_DIGITS = tuple(f"{n:02d}" for n in range(60))


class SleepingClock(Protocol):
    """A Clock that can also wait: `sleep_until(t)` returns once `now() >= t`."""

    def now(self) -> datetime: ...

    async def sleep_until(self, moment: datetime) -> None: ...


@runtime_checkable
class InstantClock(Protocol):
    """A clock whose waits take no time (the virtual one): `jump_to(t)` sets `now()` to
    `t` at once, so a scheduler need not sleep (nor yield to trio) before each job."""

    def now(self) -> datetime: ...

    def jump_to(self, moment: datetime) -> None: ...


def _wall() -> datetime:
    """The wall clock, read here and nowhere else."""
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("clock times must be timezone-aware")
    return moment


class RealClock:
    """The wall clock in UTC. `sleep_until` sleeps in slices of at most `max_slice` and
    re-reads the wall clock after each: trio's clock stops while the machine is suspended,
    so one long trio sleep would wake late by the length of the suspension."""

    def __init__(self, max_slice: timedelta = MAX_SLEEP_SLICE) -> None:
        if max_slice <= timedelta(0):
            raise ValueError("max_slice must be positive")
        self._slice = max_slice.total_seconds()

    def now(self) -> datetime:
        return _wall()

    async def sleep_until(self, moment: datetime) -> None:
        _aware(moment)
        await trio.lowlevel.checkpoint()
        while (left := (moment - _wall()).total_seconds()) > 0:
            await trio.sleep(min(left, self._slice))


class VirtualClock:
    """Time that moves only when told: `sleep_until` jumps to the moment at once (after a
    checkpoint, so other tasks run), and `advance` moves it by hand. Months of a golem's
    life pass in seconds. One task should drive it (the scheduler); it never goes back."""

    def __init__(self, start: datetime) -> None:
        self._now = _aware(start).astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> datetime:
        if delta < timedelta(0):
            raise ValueError("a virtual clock does not go back")
        self._now += delta
        return self._now

    async def sleep_until(self, moment: datetime) -> None:
        _aware(moment)
        await trio.lowlevel.checkpoint()
        self.jump_to(moment)

    def jump_to(self, moment: datetime) -> None:
        """Move to `moment` now, without a checkpoint (a no-op for a moment passed): the
        scheduler's way through a simulated life, checkpointing on its own terms."""
        if moment > self._now:
            # A moment in UTC already (the scheduler's are) is taken as it is.
            self._now = moment if moment.tzinfo is UTC else _aware(moment).astimezone(UTC)
