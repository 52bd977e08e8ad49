"""Decisions judged after the fact, on records made by hand: by their subsystem's own
definition of right against the path the world took over the horizon; the share right by
source and the cost per right model decision; undecided, proposal-less and too-late
decisions not counted; and the truth judged against is the one a simulated market's look
ahead gives."""

from __future__ import annotations

from datetime import timedelta

import pytest
from msgspec.structs import replace

from golem.mortality import ModelTier, SubsystemName
from golem.runtime.record import DecisionRecord
from golem.simulation.judgement import Judgement, Rightness
from golem.subsystems.contract import ProposedTrade, Situation
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.subsystems.heartbeat.informed import informed_heartbeat
from golem.subsystems.risk.informed import informed_risk
from golem.world import MarketParams, Observation, SimulatedMarket, TradeAction, Truth
from tests.policy import HEARTBEAT, LIMITS
from tests.runtime.records import decision
from tests.subsystems.support import NOW, context

H = 4  # a short horizon, for the hand-made paths
# A 3% fall over the first horizon, then flat.
PRICES = [3000.0, 2990.0, 2960.0, 2930.0, 2910.0, 2910.0, 2910.0, 2910.0, 2910.0, 2910.0]
OBSERVE = HeartbeatDecision.of(
    {"severity": "none", "action": "observe", "confidence": 0.5, "rationale": "calm"}
)
HEDGE = ProposedTrade(TradeAction.HEDGE, None, "test", SubsystemName.HEARTBEAT)


def observation(tick: int, price: float | None = None) -> Observation:
    return Observation(tick, NOW + timedelta(seconds=15 * tick), price or PRICES[tick], 10.0)


def situation(tick: int, **changes: object) -> Situation:
    return replace(context(), tick=tick, observation=observation(tick), **changes)


def record(
    tick: int,
    made: object,
    source: str = "deterministic",
    *,
    subsystem: str = "heartbeat",
    cost: float = 0.0,
    ctx: Situation | None = None,
) -> DecisionRecord:
    base = decision(NOW, subsystem, 1 if source == "model" else 0, source)
    return replace(
        base,
        decision=made,
        cost_usd=cost,
        situation=ctx or situation(tick),
        tier=ModelTier.T1 if source == "model" else ModelTier.T0,
    )


def test_decisions_are_judged_by_their_subsystems_definition_after_the_horizon() -> None:
    judgement = Judgement(horizon=H)
    ctx = situation(0)
    truth = Truth.of(observation(0), [observation(k) for k in range(1, H + 1)])
    right = informed_heartbeat(truth, ctx, HEARTBEAT.probes.thresholds, HEARTBEAT.sizing)
    proposed = situation(0, proposed=HEDGE)
    records = [
        record(0, OBSERVE),  # the rules observe a 3% fall: wrong
        record(0, right, "model", cost=0.02),
        record(0, OBSERVE, "model", cost=0.01),  # a model observing it: wrong
        record(
            0,
            informed_risk(truth, proposed, LIMITS),
            "model",
            subsystem="risk",
            cost=0.03,
            ctx=proposed,
        ),
        # risk without a proposal: not judged
        record(0, informed_risk(truth, proposed, LIMITS), "model", subsystem="risk", cost=0.5),
        record(0, None, "skipped"),
        record(0, right, "reused"),
    ]
    for tick in range(1, len(PRICES)):  # the rules, every tick: only those H before the end
        records.append(record(tick, OBSERVE))  # are judged (tick 5 on is too late)
    for seen, item in enumerate(records, start=1):
        judgement(item)
        if seen == 7:  # tick 0's decisions wait for their horizon
            assert judgement.tallies == {}
    summary = judgement.summary()
    assert summary["correct_share_model"] == pytest.approx(2 / 3)
    # Ticks 0..5 judged: falls of 3%, 2.7%, 1.7% and 0.7% ahead of ticks 0..3 (observing
    # them is wrong), no move ahead of ticks 4 and 5 (observing is right).
    assert summary["correct_share_rules"] == pytest.approx(2 / 6)
    assert summary["cost_per_correct_usd"] == pytest.approx((0.02 + 0.01 + 0.03) / 2)
    assert (summary["right_decisions"], summary["right_decisions_model"]) == (4, 2)
    nested = summary["decisions_judged"]
    assert nested["heartbeat"]["model"] == {"judged": 2, "right": 1, "spend_usd": 0.03}
    assert nested["risk"]["model"] == {"judged": 1, "right": 1, "spend_usd": 0.03}
    assert nested["heartbeat"]["reused"] == {"judged": 1, "right": 1, "spend_usd": 0.0}
    assert nested["heartbeat"]["rules"]["judged"] == 6


def test_no_right_model_decision_gives_no_cost_and_a_gap_drops_the_pending() -> None:
    judgement = Judgement(horizon=H)
    judgement(record(0, OBSERVE, "model", cost=0.01))
    skipped_tick = observation(H + 2)
    judgement(record(H + 2, OBSERVE, ctx=replace(situation(H + 2), observation=skipped_tick)))
    assert judgement.summary() == {
        "correct_share_model": None,
        "correct_share_rules": None,
        "cost_per_correct_usd": None,
        "right_decisions": 0,
        "right_decisions_model": 0,
        "decisions_judged": {},
    }


def test_the_truth_judged_against_is_the_markets_own_look_ahead() -> None:
    seen: list[Truth] = []

    class Recording(Rightness):
        __slots__ = ()

        def right(self, record: DecisionRecord, truth: Truth) -> bool | None:
            seen.append(truth)
            return super().right(record, truth)

    market = SimulatedMarket(7, MarketParams())
    judgement = Judgement(Recording(), horizon=H)
    foreseen: list[Truth] = []
    for tick in range(12):
        now = market.observe(NOW + timedelta(seconds=15 * tick))
        foreseen.append(Truth.of(now, market.ahead(H)))
        judgement(record(tick, OBSERVE, ctx=replace(context(), tick=tick, observation=now)))
    assert seen == foreseen[: len(seen)] and len(seen) == 12 - H
