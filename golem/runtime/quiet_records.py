"""The records part of a fast-forward (issue [speed]; the contract is quiet.py): the
heartbeat's decisions on a quiet stretch's ticks, made by the rules as `Golem.tick` makes
them (T0: the gate θ from the confidence, the vitality after the tick before and the mood's
arousal; the prediction error PE of the probes that fired below it; observe, severity low
when a probe fired, none when none did), kept as a few numbers a tick and published as a
`QuietStretch` on the golem's record stream (quiet_stretch.py): at the end, and before
what a tick of the stretch tells of its own (`tell`, `tell_before`), the decisions so far.

Which ticks the rules decide with no event: those whose fired probes (`Stretch.fired`)
include no regime flip (an event for the daimon) and no critical health factor (the
rules' hedge or exit), which `allows` tells the senses part before the stretch, and whose
PE is below that tick's θ, which only the tick before can tell (`admits`, asked by the
driver before tick i is lived: a tick at PE >= θ ends the stretch before it).

What a quiet tick's decision does besides its record, the part does too: the confidence it
states (the rules') is the golem's for the next tick's gate; the owner's steer it would
have answered cannot be waiting (a stretch never begins with one: `begin` lives no tick).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from golem.mortality import Phase, Vitals
from golem.runtime.quiet import Stretch
from golem.runtime.quiet_stretch import QuietStretch, quiet_record
from golem.runtime.record import DecisionRecord
from golem.subsystems.contract import Event
from golem.subsystems.heartbeat import Heartbeat
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.subsystems.heartbeat.probes import Gate, Reading

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = ["QuietRecords"]


class QuietRecords:
    """A `QuietPart`: the heartbeat's quiet decisions of a stretch, published in bulk.

    `vitals()` is the golem's last vitality reading when a tick's decision is made (the
    vitals part keeps it current: after tick i - 1 at step i); `confidence` the last
    decision's (None before the first); `keep_confidence` hears the last one the stretch
    made. `cash` and `positions` are the portfolio's, which a quiet tick does not move.
    `critical` is the health probe's critical reading (the life's compiled probes')."""

    def __init__(
        self,
        *,
        golem_id: str,
        heartbeat: Heartbeat,
        gate: Gate,
        critical: Reading,
        publish: Callable[[QuietStretch], None],
        vitals: Callable[[], Vitals],
        arousal: float,
        confidence: float | None,
        keep_confidence: Callable[[float], None],
        cash: float,
        positions: Mapping[str, float],
        steered: bool = False,
    ) -> None:
        self._golem_id, self._heartbeat, self._gate = golem_id, heartbeat, gate
        self._critical = critical
        self._publish, self._vitals, self._arousal = publish, vitals, arousal
        self.confidence, self._keep = confidence, keep_confidence
        self._cash, self._positions, self._steered = cash, positions, steered
        # θ is never above its value at vitality 1 (it rises with vitality) on the
        # confidence of the tick before: now's for the first tick, the rules' after it.
        rules = heartbeat.config.rules_confidence
        self._theta_max = max(gate.theta(confidence, 1.0, arousal), gate.theta(rules, 1.0, arousal))
        self._stretch: Stretch | None = None
        self._theta_at: dict[float | None, Callable[[float], float]] = {}  # by confidence
        self._vitality: list[float] = []
        self._phase: list[Phase] = []
        self._theta: list[float] = []
        self._errors: list[float] = []
        self._flags: list[tuple[str, ...]] = []
        self._decisions: list[HeartbeatDecision] = []
        self._told = 0  # the stretch's ticks whose decisions are published

    @classmethod
    def of(cls, golem: Golem) -> QuietRecords:
        """The part for `golem` as it is now (between ticks)."""

        def keep_confidence(confidence: float) -> None:
            golem.confidence = confidence

        chart = golem.chart
        return cls(
            golem_id=golem.compiled.golem_id,
            heartbeat=golem.heartbeat,
            gate=golem.probes.gate,
            critical=golem.probes.health_critical,
            publish=golem.stream.publish_quiet,
            vitals=lambda: chart.vitals,
            arousal=golem.mood.arousal,
            confidence=golem.confidence,
            keep_confidence=keep_confidence,
            cash=golem.portfolio.cash,
            positions=golem.portfolio.quantities(),
            steered=golem.control.steer is not None,
        )

    def allows(self, fired: tuple[Reading, ...]) -> bool:
        """Whether a tick whose probes `fired` may be quiet (the senses part's `allows`):
        none is a regime flip or a critical health factor, and their PE is below the
        largest θ any tick of the stretch can have (θ at vitality 1; `admits` compares
        it with the tick's own θ). The senses stop looking ahead at a tick it refuses:
        `admits` would refuse it too (most stretches that end early end so)."""
        critical = self._critical
        for reading in fired:
            if reading.flip or reading is critical:
                return False
        return min(1.0, sum(r.weight for r in fired)) < self._theta_max

    def begin(self, stretch: Stretch) -> int:
        """All the stretch's ticks, unless an owner's steer waits (its review asks a model)
        or the gate may close to 0 (PE 0 would then not pass below it: not a T0 tick).
        `stretch.fired` holds the probes of each tick the senses part allows."""
        self._stretch = stretch
        self._vitality, self._phase, self._theta, self._decisions = [], [], [], []
        self._errors, self._flags, self._told = [], [], 0
        if self._steered or self._gate.floor <= 0.0:
            return 0
        return len(stretch)

    def admits(self, i: int) -> bool:
        """Whether tick `i` is decided by the rules below the gate, asked before it is
        lived (the vitality then is after tick i - 1): its PE (the fired probes' weights,
        summed and capped at 1, as `compute_probes` sums them) against its θ (never
        below the floor, above 0: `begin`). Its decision is made now when it is."""
        if i < len(self._decisions):
            return True
        vitals = self._vitals()
        theta_at = self._theta_at.get(self.confidence)
        if theta_at is None:  # the golem's confidence, then the rules' (a stretch's two)
            theta_at = self._theta_at[self.confidence] = self._gate.by_vitality(
                self.confidence, self._arousal
            )
        theta = theta_at(vitals.vitality)
        fired = self._fired(i)
        flags: tuple[str, ...] = ()
        if not fired:  # most ticks
            error = 0.0
        else:
            error = min(1.0, sum(r.weight for r in fired))
            if not error < theta:
                return False
            flags = tuple(r.flag for r in fired)
        decision = self._heartbeat.quiet(theta, error, flags)
        self._vitality.append(vitals.vitality)
        self._phase.append(vitals.phase)
        self._theta.append(theta)
        self._errors.append(error)
        self._flags.append(flags)
        self._decisions.append(decision)
        self.confidence = float(decision.confidence)
        return True

    def _fired(self, i: int) -> tuple[Reading, ...]:
        stretch = self._stretch
        assert stretch is not None, "a tick of a stretch begun"
        return stretch.fired[i]

    def decision(self, i: int) -> HeartbeatDecision:
        """Tick `i`'s decision (made now if not yet: on the vitality as it is now).
        Raises ValueError for a tick that is not the rules' below the gate (a driver
        asks `admits(i)` before it lives tick i)."""
        if i == len(self._decisions) and not self.admits(i):
            raise ValueError(f"tick {i} of the stretch is not quiet: its PE is not below θ")
        return self._decisions[i]

    def record(self, i: int) -> DecisionRecord:
        """Tick `i`'s record as step by step (but for its situation), made now: what an
        episode of the tick keeps of it (`episodes.forecast`, every HORIZON_TICKS)."""
        stretch = self._stretch
        assert stretch is not None, "a record of a stretch begun"
        decision = self.decision(i)
        return quiet_record(
            self._golem_id,
            stretch.first_tick + i,
            time=stretch.times[i],
            vitality=self._vitality[i],
            phase=self._phase[i],
            decision=decision,
            theta=self._theta[i],
            market=stretch.summaries[i],
            error=self._errors[i],
            flags=self._flags[i],
        )

    def step(self, i: int) -> Sequence[Event]:
        self.decision(i)
        return ()

    def tell(self, done: int) -> None:
        """Publish the decisions of the stretch's first `done` ticks not yet published, as
        one `QuietStretch`: asked by the vitals part before it publishes a reading of tick
        `done - 1`, so that the records come in the order of their ticks (a tick's
        decision, then its vitality, as step by step), and by `end` for the rest."""
        stretch, told = self._stretch, self._told
        if stretch is None or done <= told:
            return
        self._publish(
            QuietStretch(
                golem=self._golem_id,
                first_tick=stretch.first_tick + told,
                times=list(stretch.times[told:done]),
                vitality=self._vitality[told:done],
                phase=self._phase[told:done],
                theta=self._theta[told:done],
                errors=self._errors[told:done],
                flags=self._flags[told:done],
                decisions=self._decisions[told:done],
                markets=stretch.summaries[told:done],
                equities=[float(e) for e in stretch.equities[told:done]],
                cash=self._cash,
                positions=self._positions,
            )
        )
        self._told = done

    def tell_before(self, time: datetime) -> None:
        """Publish the decisions made of the ticks before `time` not yet published: a
        line of `time` is about to be told (held_lines' `before`), and step by step it
        follows them."""
        stretch = self._stretch
        if stretch is not None:
            self.tell(bisect_left(stretch.times, time, hi=len(self._decisions)))

    def end(self, done: int) -> None:
        stretch = self._stretch
        if stretch is None or not done:
            return
        self.tell(done)
        self.confidence = float(self._decisions[done - 1].confidence)
        self._keep(self.confidence)
        self._stretch = None
