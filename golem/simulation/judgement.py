"""Whether a simulated golem's decisions were right, judged after the fact: each heartbeat,
risk and daimon decision (a model's, the rules', or a model's reused) is held until the
episode horizon's observations have happened, then judged by its subsystem's own
definition of right (`is_right` in heartbeat.informed, risk.informed, daimon.informed)
against the truth of the path the world actually took. From these: the share judged right
by source and the cost per correct decision.

A judgement needs no look ahead: the observations come with the decisions (each record's
situation; the heartbeat runs every tick), so a tick costs one deque push and each judged
tick one `Truth` from the horizon's ends and its minimum, kept as it slides (a
monotonic deque: O(1) amortised a tick, however long the horizon). At most a horizon's
decisions are pending; memory stays flat however long the life.

Not judged (not counted): a run without a decision (skipped), a risk run without a
proposal, and a decision whose horizon had not passed when the simulation ended (or
whose path was not observed whole: a gap in the market's ticks).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from golem.mortality import SubsystemName
from golem.runtime import HORIZON_TICKS, DecisionRecord, Golem, Record
from golem.runtime.quiet_stretch import QuietStretch
from golem.subsystems.daimon import informed as daimon_informed
from golem.subsystems.daimon.decision import DaimonAppraisal
from golem.subsystems.daimon.rules import AppraisalRules
from golem.subsystems.heartbeat import informed as heartbeat_informed
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.subsystems.heartbeat.probes import ProbeThresholds
from golem.subsystems.risk import informed as risk_informed
from golem.subsystems.risk.decision import RiskAssessment
from golem.subsystems.risk.limits import RiskLimits, Sizing
from golem.world import CostModel, Moment, Truth

__all__ = ["JUDGED", "Judged", "Judgement", "Rightness"]

_HEARTBEAT, _RISK, _DAIMON = SubsystemName.HEARTBEAT, SubsystemName.RISK, SubsystemName.DAIMON
JUDGED = frozenset({_HEARTBEAT, _RISK, _DAIMON})
# A record's source, as the outcome figures group it: the rules are the deterministic path
# and the fallback to it; a reused decision is a model's applied again at no cost.
_GROUP = {"model": "model", "deterministic": "rules", "fallback": "rules", "reused": "reused"}
_QUIET_KEY = _HEARTBEAT, _GROUP["deterministic"]  # a quiet stretch's decisions'


class _Quiet(NamedTuple):
    """A quiet stretch's decision `i`, pending its judgement."""

    stretch: QuietStretch
    i: int


@dataclass(frozen=True, slots=True)
class Rightness:
    """What a golem's subsystems judge by, as the synthetic provider's minds answer by
    them (so an informed answer is judged right): the heartbeat's probe thresholds and
    sizing, risk's limits, the daimon's appraisal rules (with the move sizes its informed
    module defines, as its mind), and the venue's costs a trade pays."""

    thresholds: ProbeThresholds = field(default_factory=ProbeThresholds)
    sizing: Sizing = field(default_factory=Sizing)
    limits: RiskLimits = field(default_factory=RiskLimits)
    rules: AppraisalRules = field(default_factory=AppraisalRules)
    costs: CostModel = field(default_factory=CostModel)

    @classmethod
    def of(cls, golem: Golem) -> Rightness:
        heartbeat = golem.heartbeat.config
        return cls(
            thresholds=heartbeat.probes.thresholds,
            sizing=heartbeat.sizing,
            limits=golem.risk.config.limits,
            rules=golem.daimon.config.rules,
            costs=golem.portfolio.config.costs,  # what its trades pay
        )

    def right(self, record: DecisionRecord, truth: Truth) -> bool | None:
        """Whether the decision of `record` was right given `truth`; None: not judged."""
        decision, ctx = record.decision, record.situation
        if ctx is None:
            return None
        if isinstance(decision, HeartbeatDecision):
            return heartbeat_informed.is_right(decision, truth, ctx, self.thresholds, self.sizing)
        if isinstance(decision, RiskAssessment):
            if ctx.proposed is None:
                return None
            return risk_informed.is_right(decision, truth, ctx, self.limits)
        if isinstance(decision, DaimonAppraisal):
            return daimon_informed.is_right(decision, truth, ctx, self.rules)
        return None

    def quiet_right(self, stretch: QuietStretch, i: int, truth: Truth) -> bool:
        """`right` for a quiet stretch's decision `i` (a heartbeat's, on its portfolio)."""
        return heartbeat_informed.is_right_for(
            stretch.decisions[i], truth, stretch.portfolio(i), self.thresholds, self.sizing
        )


@dataclass
class Judged:
    """Judged decisions of one subsystem and source group: how many, how many right, and
    what they cost (every attempt's charge, a failed call's that fell back to the rules too)."""

    judged: int = 0
    right: int = 0
    spend_usd: float = 0.0

    def fields(self) -> dict[str, Any]:
        return {"judged": self.judged, "right": self.right, "spend_usd": round(self.spend_usd, 9)}


@dataclass
class Judgement:
    """A subscriber of the golem's stream (over a whole lineage) that judges its decisions
    once their horizon has passed; `rightness` is the living golem's (set for each
    generation: a pending decision is judged by the rightness it was made under)."""

    rightness: Rightness = field(default_factory=Rightness)
    horizon: int = HORIZON_TICKS
    tallies: dict[tuple[SubsystemName, str], Judged] = field(default_factory=dict)
    _path: deque[Moment] = field(default_factory=deque, repr=False)
    # The horizon's sliding minimum: (tick, price), prices rising, the lowest first.
    _lows: deque[tuple[int, float]] = field(default_factory=deque, repr=False)
    _pending: deque[tuple[int, DecisionRecord | _Quiet, Rightness]] = field(
        default_factory=deque, repr=False
    )

    def __call__(self, record: Record) -> None:
        if not isinstance(record, DecisionRecord):
            return
        ctx = record.situation
        if ctx is None:
            return
        observation = ctx.observation
        path = self._path
        if not path or observation.tick > path[-1].tick:
            self._observed(observation)
        if record.subsystem in JUDGED and record.decision is not None and record.source in _GROUP:
            self._pending.append((observation.tick, record, self.rightness))

    def hear_quiet(self, stretch: QuietStretch) -> None:
        """A fast-forward's quiet decisions: each tick's market observed, and its decision
        (the rules', judged) pending, as one by one."""
        path, pending, rightness = self._path, self._pending, self.rightness
        for i, market in enumerate(stretch.markets):
            if not path or market.tick > path[-1].tick:
                self._observed(market)
            pending.append((market.tick, _Quiet(stretch, i), rightness))

    def summary(self) -> dict[str, Any]:
        """correct_share_model, correct_share_rules, cost_per_correct_usd, the counts
        judged right (`right_decisions`: all; `right_decisions_model`: the model's) and
        the tallies by subsystem and source (`decisions_judged`)."""
        by_group: dict[str, Judged] = {}
        for (_, group), tally in self.tallies.items():
            total = by_group.setdefault(group, Judged())
            total.judged += tally.judged
            total.right += tally.right
            total.spend_usd += tally.spend_usd
        model, rules = by_group.get("model", Judged()), by_group.get("rules", Judged())
        spend = sum(tally.spend_usd for tally in by_group.values())
        nested: dict[str, dict[str, Any]] = {}
        for (subsystem, group), tally in sorted(self.tallies.items()):
            nested.setdefault(str(subsystem), {})[group] = tally.fields()
        return {
            "correct_share_model": _share(model.right, model.judged),
            "correct_share_rules": _share(rules.right, rules.judged),
            "cost_per_correct_usd": round(spend / model.right, 9) if model.right else None,
            "right_decisions": model.right + rules.right,
            "right_decisions_model": model.right,
            "decisions_judged": nested,
        }

    def _observed(self, observation: Moment) -> None:
        """A new tick of the world: judge what its horizon has now passed for."""
        path, lows, horizon = self._path, self._lows, self.horizon
        tick, price = observation.tick, observation.price
        if path and tick != path[-1].tick + 1:
            path.clear()  # a gap: the pending decisions' paths cannot be seen whole
            lows.clear()
            self._pending.clear()
        path.append(observation)
        if len(path) > horizon + 1:
            path.popleft()
        while lows and lows[-1][1] >= price:
            lows.pop()
        lows.append((tick, price))
        due = tick - horizon
        while lows[0][0] <= due:  # the horizon after `due`: the last `horizon` ticks
            lows.popleft()
        pending = self._pending
        if not pending or pending[0][0] > due:
            return
        truth: Truth | None = None
        if len(path) > horizon:
            rightness = pending[0][2]
            truth = Truth.spanning(path[0], observation, lows[0][1], horizon, rightness.costs)
        tallies = self.tallies
        while pending and pending[0][0] <= due:
            made, record, rightness = pending.popleft()
            if made != due or truth is None:
                continue  # its horizon's path was not seen whole
            if isinstance(record, _Quiet):
                right: bool | None = rightness.quiet_right(record.stretch, record.i, truth)
                key, cost = _QUIET_KEY, 0.0
            else:
                right = rightness.right(record, truth)
                key, cost = (record.subsystem, _GROUP[record.source]), record.cost_usd
            if right is None:
                continue
            tally = tallies.get(key)
            if tally is None:
                tally = tallies[key] = Judged()
            tally.judged += 1
            tally.right += right
            tally.spend_usd += cost


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 9) if whole else None
