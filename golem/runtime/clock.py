"""The runtime's clocks, and the only module in golem/runtime that reads the wall clock:
`RealClock` for the daemon, `VirtualClock` for the simulator and tests. Both satisfy
`golem.mortality.Clock` and add `sleep_until`, which is all the scheduler needs.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

import trio

from golem.inference.wall_clock import utc_now

__all__ = [
    "MAX_SLEEP_SLICE",
    "InstantClock",
    "RealClock",
    "SleepingClock",
    "VirtualClock",
]

MAX_SLEEP_SLICE = timedelta(seconds=30)


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
    """The wall clock: inference's `utc_now`, the one place golem reads it (inference,
    below runtime, needs it too, for an HTTP-date Retry-After)."""
    return utc_now()


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
