"""RealClock sleeps in slices and re-reads the wall; VirtualClock jumps; both are Clocks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import trio
import trio.testing

from golem.mortality import Clock
from golem.runtime import clock as clock_module
from golem.runtime.clock import RealClock, SleepingClock, VirtualClock

T0 = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)


class FakeWall:
    """A wall clock that moves only when trio.sleep is called (plus a suspension)."""

    def __init__(self, start: datetime) -> None:
        self.now = start
        self.slept: list[float] = []
        self.suspend_after: int | None = None
        self.suspension = timedelta(0)

    def read(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds == 0:  # trio's own checkpoints
            await trio.lowlevel.checkpoint()
            return
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)
        if len(self.slept) == self.suspend_after:
            self.now += self.suspension
        await trio.lowlevel.checkpoint()


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> FakeWall:
    fake = FakeWall(T0)
    monkeypatch.setattr(clock_module, "_wall", fake.read)
    monkeypatch.setattr(trio, "sleep", fake.sleep)
    return fake


def test_both_clocks_are_mortality_clocks() -> None:
    clocks: list[Clock] = [RealClock(), VirtualClock(T0)]
    sleepers: list[SleepingClock] = [RealClock(), VirtualClock(T0)]
    assert clocks and sleepers


def test_real_clock_reads_utc() -> None:
    now = RealClock().now()
    assert now.tzinfo is not None
    assert now.utcoffset() == timedelta(0)


async def test_real_clock_sleeps_in_slices_of_at_most_30_seconds(wall: FakeWall) -> None:
    await RealClock().sleep_until(T0 + timedelta(seconds=100))
    assert wall.slept == [30.0, 30.0, 30.0, 10.0]
    assert wall.now == T0 + timedelta(seconds=100)


async def test_real_clock_rereads_the_wall_after_a_suspension(wall: FakeWall) -> None:
    wall.suspend_after, wall.suspension = 1, timedelta(minutes=10)
    await RealClock().sleep_until(T0 + timedelta(minutes=5))
    assert wall.slept == [30.0]  # woke from the suspension past the moment: no more sleep


async def test_real_clock_custom_slice_and_past_moment(wall: FakeWall) -> None:
    clock = RealClock(max_slice=timedelta(seconds=7))
    await clock.sleep_until(T0 + timedelta(seconds=20))
    assert wall.slept == [7.0, 7.0, 6.0]
    await clock.sleep_until(T0)
    assert wall.slept == [7.0, 7.0, 6.0]


async def test_real_clock_really_sleeps_briefly() -> None:
    clock = RealClock()
    target = clock.now() + timedelta(milliseconds=20)
    await clock.sleep_until(target)
    assert clock.now() >= target


async def test_virtual_clock_jumps_at_once() -> None:
    clock = VirtualClock(T0)
    start = trio.current_time()
    await clock.sleep_until(T0 + timedelta(days=30))
    assert clock.now() == T0 + timedelta(days=30)
    assert trio.current_time() - start < 0.1
    await clock.sleep_until(T0)  # the past: time does not go back
    assert clock.now() == T0 + timedelta(days=30)


async def test_sleeping_is_a_checkpoint_so_other_tasks_run() -> None:
    with trio.testing.assert_checkpoints():
        await VirtualClock(T0).sleep_until(T0 + timedelta(hours=1))
    with trio.testing.assert_checkpoints():
        await VirtualClock(T0).sleep_until(T0)
    with trio.testing.assert_checkpoints():
        await RealClock().sleep_until(T0)


def test_virtual_clock_advance() -> None:
    clock = VirtualClock(T0)
    assert clock.advance(timedelta(seconds=15)) == T0 + timedelta(seconds=15)
    with pytest.raises(ValueError, match="back"):
        clock.advance(timedelta(seconds=-1))


async def test_naive_times_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        VirtualClock(datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="timezone-aware"):
        await VirtualClock(T0).sleep_until(datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="positive"):
        RealClock(max_slice=timedelta(0))
