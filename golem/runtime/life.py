"""`golem run`: a Golem on a clock, its jobs on the scheduler, until it dies, is stopped
(SIGINT / SIGTERM finish the running job, then exit 0; a second one abandons it;
SIGUSR1 queues the kill switch, applied at the next tick: runtime/control.py), its
`--for` runs out, its recorded market data ends, or a job keeps failing (`JobFailing`,
raised by `Life.run`).

The simulator uses `assemble()` and `Life.run()` too, with a virtual clock."""

from __future__ import annotations

import signal
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import partial

import structlog
import trio

from golem.mortality import Phase
from golem.runtime.asking import Routes
from golem.runtime.clock import InstantClock, SleepingClock
from golem.runtime.collector import long_lived
from golem.runtime.config.load import secret_values
from golem.runtime.config.sections import GolemConfig
from golem.runtime.fast_forward import stretch_times
from golem.runtime.golem import Golem, LifeOptions
from golem.runtime.jobs import curate, dream
from golem.runtime.logs import held_lines
from golem.runtime.markets import make_market
from golem.runtime.routes import ProviderPool, build_routes
from golem.runtime.scheduler import ANY_LATENESS, Firing, Job, Scheduler, Trigger, cron, every
from golem.runtime.store.control import Command, queue_command
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Subscriber
from golem.subsystems.heartbeat import interval
from golem.world import (
    MarketSource,
    RecordedSource,
)

__all__ = ["Life", "assemble"]

log = structlog.get_logger("golem")


@dataclass
class Life:
    """A Golem with its scheduler: what `golem run` and `golem simulate` drive."""

    golem: Golem
    scheduler: Scheduler
    clock: SleepingClock
    _signalled: bool = field(default=False, init=False)
    _ended: str | None = field(default=None, init=False)
    # The job a second signal abandoned (its work unsaved: it runs again on resume).
    abandoned: str | None = field(default=None, init=False)

    def end(self, reason: str) -> None:
        """End the life once the running job is done; `run()` returns `reason`."""
        self._ended = reason
        self.scheduler.stop()

    async def run(
        self,
        *,
        duration: timedelta | None = None,
        signals: bool = False,
        on_start: Callable[[], None] | None = None,
        on_signal: OnSignal | None = None,
        on_overtime: Callable[[str], None] | None = None,
    ) -> str:
        """Live until death, `stop()`, `end(reason)`, a signal (when `signals`), or
        `duration` of the clock's time. Returns why it ended: died, stopped, signal,
        duration, or the reason given to `end` (data_ended: the market data ran out).
        Raises JobFailing, once the state is saved, when a job kept failing. `on_start`
        is called as the life starts: once signals are watched, before the first job
        runs (at once for a golem already dead). A first signal lets the running job
        finish, a second abandons it; `on_signal(count, job)` hears of each with the job
        running then (None: none). `on_overtime(job)` hears, once, that `duration` ran out
        while `job` was running (the life ends when it is done), on a clock that sleeps."""
        ended = "stopped"
        deadline = self.clock.now() + duration if duration is not None else None

        def died() -> None:
            nonlocal ended
            ended = "died"
            self.scheduler.stop()

        self.golem.on_death = died
        if self.golem.dead:
            log.info("already_dead", golem=self.golem.compiled.golem_id)
            if on_start is not None:
                on_start()
            return "died"
        with long_lived():
            await self._live(signals, deadline, on_start, on_signal, on_overtime)
        if not self.golem.dead and not self.golem.options.resumable:
            with self.golem.store.transaction():
                self.golem.snapshot()  # a life not snapshotted every tick, as it ends
        if deadline is not None and ended == "stopped" and self.clock.now() >= deadline:
            ended = "duration"
        if self._ended is not None:
            ended = self._ended
        if self._signalled:
            ended = "signal"
        if self.scheduler.failure is not None:
            raise self.scheduler.failure
        return ended

    async def _live(
        self,
        signals: bool,
        deadline: datetime | None,
        on_start: Callable[[], None] | None,
        on_signal: OnSignal | None,
        on_overtime: Callable[[str], None] | None = None,
    ) -> None:
        jobs = trio.CancelScope()  # cancelled by a second signal: the running job abandoned
        async with trio.open_nursery() as nursery:
            if signals:
                await nursery.start(self._watch_signals, jobs, on_signal)
            # Watched only on a clock that waits: a virtual one would jump to the deadline.
            waits = not isinstance(self.clock, InstantClock)
            if deadline is not None and on_overtime is not None and waits:
                nursery.start_soon(self._watch_deadline, deadline, on_overtime)
            if deadline is not None:
                # Named for its deadline: the store keeps fire times across restarts, and
                # a later run's `--for` must not find this one already fired.
                self.scheduler.add(Job(f"end@{deadline.isoformat()}", _once(deadline), self._end))
            if on_start is not None:
                on_start()
            with jobs:
                await self.scheduler.run()
            nursery.cancel_scope.cancel()

    async def _end(self, *_: object) -> None:
        self.scheduler.stop()

    async def _watch_deadline(self, deadline: datetime, said: Callable[[str], None]) -> None:
        """At `deadline`, a job still running (a local model's tick can take minutes) is
        said once, and the life stops when it is done: no job waiting behind it starts."""
        await self.clock.sleep_until(deadline)
        running = self.scheduler.running
        if running is not None:
            log.info("overtime", job=running, deadline=deadline.isoformat())
            said(running)
            self.scheduler.stop()

    async def _watch_signals(
        self,
        jobs: trio.CancelScope,
        on_signal: OnSignal | None,
        *,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """The first signal stops the life once the running job is done (the scheduler
        returns then); a second abandons the running job (a local model's call may take
        a minute): its writes are rolled back, and its fire time unrecorded, so it runs
        again on resume. SIGUSR1 queues the kill switch instead (a host that only speaks
        signals). Watched until the life ends."""
        count = 0
        stopping = (signal.SIGINT, signal.SIGTERM)
        with trio.open_signal_receiver(*stopping, signal.SIGUSR1) as received:
            task_status.started()
            async for signum in received:
                if signum == signal.SIGUSR1:
                    log.info("signal", signal="SIGUSR1", means="kill switch")
                    await self._queue_kill()
                    continue
                count += 1
                running = self.scheduler.running
                name = signal.Signals(signum).name
                if count == 1:
                    log.info("signal", signal=name, running=running)
                    self._signalled = True
                    self.scheduler.stop()
                elif running is not None and self.abandoned is None:
                    log.warning("job_abandoned", signal=name, job=running)
                    self.abandoned = running
                    jobs.cancel()
                if on_signal is not None:
                    on_signal(count, running)

    async def _queue_kill(self) -> None:
        store = self.golem.store
        try:
            queued = await trio.to_thread.run_sync(
                queue_command, store.path, Command.KILL, None, "signal", self.clock.now()
            )
        except sqlite3.Error as exc:
            log.error("control_not_queued", command="kill", source="signal", reason=str(exc))
            return
        log.info("control_queued", id=queued, command="kill", value=None, source="signal")


# Hears of each signal: how many so far, and the job running as it came (None: none).
OnSignal = Callable[[int, str | None], None]


class _Once:
    """A trigger that fires once, at `at`."""

    def __init__(self, at: datetime) -> None:
        self._at = at

    def get_next_fire_time(
        self, previous_fire_time: datetime | None, now: datetime
    ) -> datetime | None:
        return self._at if previous_fire_time is None else None


def _once(at: datetime) -> Trigger:
    return _Once(at)


def assemble(
    config: GolemConfig,
    *,
    clock: SleepingClock,
    store: StateStore,
    routes: Routes | None = None,
    environ: Mapping[str, str] | None = None,
    options: LifeOptions | None = None,
    market: MarketSource | None = None,
    subscribers: Iterable[Subscriber] = (),
) -> tuple[Life, ProviderPool | None]:
    """The Golem and its jobs for `config`, publishing its records to `subscribers` (the
    log's sink, `LogSinks.publish`, for one). Pass `routes` to bring providers of your own
    (the simulator's synthetic one); otherwise they are built from the config's chains and
    the returned pool must be closed (`await pool.aclose()`). `market`: the config's, made
    (and checked) by `make_market`, by default unchecked. `options`: see `LifeOptions`."""
    pool = None
    if environ is not None and (options is None or not options.secrets):
        # The key values of its environment: masked in every prompt, as in the log.
        options = replace(options or LifeOptions(), secrets=secret_values(config, environ))
    if routes is None:
        pool = ProviderPool(config, environ or {})
        routes = build_routes(pool)
    if market is None:
        market = make_market(config)
    golem = Golem(
        config,
        store=store,
        market=market,
        routes=routes,
        now=clock.now,
        options=options,
        subscribers=subscribers,
    )
    scheduler = Scheduler(clock, store, max_failures=config.golem.max_consecutive_failures)
    life = Life(golem, scheduler, clock)
    # Recorded data ends: the life ends with it rather than watch its last row for ever.
    replay = market if isinstance(market, RecordedSource) else None
    born = store.get_meta("born")
    if born is None:
        born = clock.now().isoformat()
        store.set_meta("born", born)
    start = datetime.fromisoformat(born)
    beat = golem.schedule  # the heartbeat's interval by phase, compiled once by the Golem
    current = {"every": interval(golem.vitals.phase, beat)}
    beats = [every(current["every"], start=start)]
    # A simulated life lives quiet stretches of heartbeats in bulk (fast_forward.py).
    instant = clock if isinstance(clock, InstantClock) else None
    forward = instant if golem.options.fast_forward else None

    def paced(phase: Phase) -> None:
        """The heartbeat's interval for the phase a tick left, when it left `phase`."""
        if golem.vitals.phase is phase:
            return
        now_every = interval(golem.vitals.phase, beat)
        if now_every != current["every"]:
            # Conservation slows the heartbeat (and recovery speeds it up again).
            current["every"] = now_every
            beats[0] = every(now_every, start=start)
            scheduler.reschedule("heartbeat", beats[0])
            log.info("heartbeat_interval", seconds=now_every.total_seconds())

    async def heartbeat(firing: Firing) -> None:
        if replay is not None and clock.now() > replay.end:
            log.warning("market_data_ended", csv=str(replay.path), last_row=replay.end.isoformat())
            life.end("data_ended")
            return
        phase = golem.vitals.phase
        if forward is None:
            await golem.tick()
        else:
            ends = None if replay is None else replay.end
            times: list[datetime] = []

            def stretch(limit: int) -> list[datetime]:
                others = scheduler.first_other("heartbeat")
                at = firing.at
                times[:] = stretch_times(beats[0], at, other=others, data_end=ends, limit=limit)
                return times

            # A stretch's log lines go out when it commits, with its records (stamped
            # with its ticks' times): the log file follows time.
            with held_lines(golem.store.at_commit):
                lived = await golem.fast_forward(stretch, forward.jump_to)
                if lived:
                    scheduler.advance("heartbeat", times[lived - 1])
                    paced(phase)
            if lived:
                return
            await golem.tick()
        paced(phase)

    scheduler.add(Job("heartbeat", beats[0], heartbeat))
    jobs = {"curator": partial(curate, golem), "dream": partial(dream, golem)}
    for name, section in config.subsystems.jobs():
        if not section.enabled:
            continue
        schedule = section.schedule
        if schedule.every is not None:
            trigger = every(schedule.every, start=start + schedule.every)
        else:
            assert schedule.cron is not None, "a schedule is an interval or a cron expression"
            trigger = cron(schedule.cron)
        # Held past its time by a slow call (a local model's tick can take minutes), a
        # curator's or a dream's run is not dropped: it runs once when the loop frees.
        scheduler.add(Job(name, trigger, jobs[name], grace=ANY_LATENESS))
    return life, pool
