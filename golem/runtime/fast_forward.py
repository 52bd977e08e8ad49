"""The fast-forward driver (issue [speed]): a simulated golem lives a quiet stretch of
heartbeats in bulk, with the answers of one tick at a time (quiet.py says what a quiet
tick is and what each part promises).

The heartbeat job of a life that fast-forwards (`LifeOptions.fast_forward`, set by
`golem simulate` unless `--step`) asks `stretch_times` for the heartbeat's fire times
from the one due now up to the next boundary: another job's fire (ties go to the job
added first, as the scheduler runs them), the top of the hour, the end of a recorded
market. `Golem.fast_forward` then (`FastForward.live`) checks that the stretch may start,
cuts it before the reserve's recalculation, begins every part (the senses first: they
fill the Stretch), steps them tick by tick until one makes an event or a clock runs out,
ends them, and finishes the last tick as `Golem.tick` does. It lives 0 ticks, and the
step-by-step tick runs instead, whenever it cannot be sure: a part that allows none of
the stretch, anything waiting that a quiet tick does not do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from golem.runtime.logs import held_lines
from golem.runtime.quiet import QuietPart, Stretch
from golem.runtime.quiet_senses import QuietSenses
from golem.runtime.scheduler import Trigger
from golem.subsystems.contract import Event

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = ["FastForward", "quiet_parts", "stretch_times"]

_HOUR = timedelta(hours=1)


def stretch_times(
    trigger: Trigger,
    first: datetime,
    *,
    other: tuple[datetime, bool] | None,
    data_end: datetime | None = None,
    limit: int | None = None,
) -> list[datetime]:
    """The fire times of a job on `trigger` from `first` (its run now) on that may be
    lived in one run: before the next other job's (`other`: its time, and whether this
    job runs first when they fall together), before the top of the hour after `first`,
    not after `data_end` (a recorded market's last row); at most `limit` of them."""
    hour = first.astimezone(UTC).replace(minute=0, second=0, microsecond=0) + _HOUR
    times: list[datetime] = []
    at: datetime | None = first
    left = -1 if limit is None else limit
    while at is not None and at < hour and (data_end is None or at <= data_end) and left:
        left -= 1
        if other is not None and (at > other[0] or (at == other[0] and not other[1])):
            break
        times.append(at)
        at = trigger.get_next_fire_time(at, at)
    return times


def quiet_parts(golem: Golem) -> list[QuietPart]:
    """Every part of `golem` a quiet tick changes, made from its owner as the golem is
    now, in the order a tick changes them: the senses (the market, the window, the
    marks), the oracle, the episodes, the heartbeat's decisions and their records,
    vitality. An episode of a tick keeps its decision: the records part makes it."""
    records = golem.decisions.quiet(golem)
    return [
        QuietSenses.of(golem, records.allows),  # probes the rules may decide below θ
        golem.predictor.quiet(golem.heartbeat.config.rules_confidence),
        golem.episodes.quiet(golem, records.record),
        records,
        golem.chart.quiet(golem, records.tell),  # its readings after their decisions
    ]


class FastForward:
    """`golem`'s heartbeats lived in quiet stretches (`live`, once a heartbeat job's run).

    How far it looks ahead adapts, never what it answers: a stretch asks for `span`
    ticks (doubled after a stretch lived whole, up to the hour; after a shorter one,
    twice what it lived), and after a run that lived none (the market not quiet now,
    most often) the next `wait` runs are lived step by step without asking (1, 2, 4, ...
    up to MAX_WAIT in a row of such runs): looking ahead costs a part's `begin` about
    what it costs to live the ticks, and quiet ticks come in runs."""

    MIN_SPAN, MAX_SPAN, MAX_WAIT = 8, 4_096, 16

    def __init__(self, golem: Golem) -> None:
        self.golem = golem
        self.span = self.MIN_SPAN
        self._wait = self._backoff = 0

    def _lived(self, asked: int, lived: int) -> int:
        """Adapt the span and the wait to a run whose stretch had `asked` ticks and
        lived `lived` of them; returns `lived`."""
        if lived:
            self._backoff = 0
            grown = 2 * self.span if lived == asked else 2 * lived
            self.span = max(self.MIN_SPAN, min(self.MAX_SPAN, grown))
        else:
            self._backoff = self._wait = min(self.MAX_WAIT, 2 * self._backoff or 1)
            self.span = self.MIN_SPAN
        return lived

    def may_start(self) -> bool:
        """Whether a stretch may start at the golem's tick now: it lives, it was born
        (the first tick appraises its birth), it is not resumed (a resumable life is
        snapshotted every tick, and its owner's commands read at each), its reserve was
        logged, and nothing of its owner's waits (a steer, a held trade)."""
        golem = self.golem
        return (
            not golem.dead
            and golem.tick_no > 0
            and not golem.options.resumable
            and golem.purse.reserve_logged
            and golem.control.steer is None
            and not golem.desk.approvals
        )

    def ticks_before_reserve(self, count: int) -> int:
        """How many of `count` ticks from now come before the reserve's recalculation
        (a tick whose number is a multiple of `recalculate_ticks` locks it again)."""
        every = self.golem.policy.reserve.recalculate_ticks
        return min(count, -self.golem.tick_no % every)

    async def live(
        self, times: Callable[[int], Sequence[datetime]], jump: Callable[[datetime], None]
    ) -> int:
        """Live the heartbeats at `times(n)` (at most `n` of them from the one due now)
        in bulk as far as they are quiet; how many were lived (0: none, and the caller
        lives this tick step by step). `jump` moves the clock to each tick's time as it
        is lived (a part's log line reads it)."""
        if self._wait:
            self._wait -= 1
            return 0
        golem = self.golem
        if not self.may_start() or not self.ticks_before_reserve(1):
            return 0
        parts = quiet_parts(golem)
        due = times(self.ticks_before_reserve(self.span))
        if not due:
            return 0
        stretch = Stretch(first_tick=golem.tick_no, times=due)
        count = len(due)
        begun: list[QuietPart] = []
        for part in parts:  # the senses first: they fill the stretch for the others
            count = min(count, part.begin(stretch))
            begun.append(part)
            if not count:
                break
        done, events, phase = 0, list[Event](), golem.vitals.phase
        admits = [admit for part in parts if (admit := getattr(part, "admits", None))]
        told = [tell for part in parts if (tell := getattr(part, "tell_before", None))]

        def before(time: datetime) -> None:
            """A line a tick writes follows the decisions of the ticks before it (and,
            as each waits for the commit, precedes the tick's own), as step by step."""
            for tell in told:
                tell(time)

        with held_lines(golem.store.at_commit, before):
            for i in range(count):
                if not all(admit(i) for admit in admits):
                    break  # tick i is not quiet after all: it is lived step by step
                jump(stretch.times[i])
                events = [event for part in parts for event in part.step(i)]
                done = i + 1
                if events or golem.vitals.cause is not None:
                    break
            for part in begun:
                part.end(done)
        if not done:
            return self._lived(len(due), 0)
        golem.store.weigh(done)  # a batch of the store commits every so many ticks
        golem.tick_no = stretch.first_tick + done - 1
        market = stretch.summaries[done - 1]
        golem.previous = market
        if golem.memo is not None and golem.vitals.phase is not phase:
            golem.memo.forget()  # no decision is reused across a phase change
        await golem.finish(stretch.times[done - 1], market, events)
        return self._lived(len(due), done)
