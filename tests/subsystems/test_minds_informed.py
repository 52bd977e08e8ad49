"""Minds with a simulation's truth: an answer is informed (the right one, by
subsystems/*/informed.py) as often as `Ask.informed` says, drawn from the call's seeded
Random; without a truth a mind draws and answers exactly as before."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from msgspec.structs import replace

from golem.mortality import SubsystemName
from golem.subsystems.contract import Event, PortfolioView, ProposedTrade
from golem.subsystems.daimon import informed as daimon_informed
from golem.subsystems.daimon.decision import DaimonAppraisal
from golem.subsystems.daimon.mind import daimon
from golem.subsystems.facts import Ask
from golem.subsystems.heartbeat import informed as heartbeat_informed
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.subsystems.heartbeat.mind import heartbeat
from golem.subsystems.minds import MINDS
from golem.subsystems.risk import informed as risk_informed
from golem.subsystems.risk.decision import RiskAssessment
from golem.subsystems.risk.mind import risk
from golem.world import Regime, TradeAction, Truth
from tests.policy import APPRAISAL, HEARTBEAT, LIMITS
from tests.subsystems.support import ask_for, context

HELD = PortfolioView(cash_usd=200.0, equity_usd=1000.0, positions={"ETH": 0.27}, exposure_usd=800.0)
HEDGE = ProposedTrade(TradeAction.HEDGE, None, "a drop ahead", SubsystemName.HEARTBEAT)
FALL = Truth(
    tick=7,
    price=3000.0,
    regime=Regime.CRASH,
    horizon_ticks=20,
    future_return=-0.03,
    trough=-0.035,
    regime_ahead=Regime.CRASH,
)
CTX = context(portfolio=HELD, proposed=HEDGE, events=(Event("trade_profit"),))


def _ask(decision: str, informed: float, truth: Truth | None = FALL) -> Ask:
    return ask_for(decision, CTX, truth=truth, informed=informed)


def _answers(mind: Any, ask: Ask, n: int = 400) -> list[dict[str, Any]]:
    return [mind(ask, Random(f"7:{i}")) for i in range(n)]


def test_a_sure_answer_is_the_right_one() -> None:
    beat = HeartbeatDecision.model_validate(heartbeat(_ask("heartbeat_decision", 1.0), Random(1)))
    assert heartbeat_informed.is_right(
        beat, FALL, CTX, HEARTBEAT.probes.thresholds, HEARTBEAT.sizing
    )
    assessed = RiskAssessment.model_validate(risk(_ask("risk_assessment", 1.0), Random(1)))
    assert risk_informed.is_right(assessed, FALL, CTX, LIMITS)
    assert assessed.approved  # a hedge before a 3% fall protects the portfolio
    appraisal = DaimonAppraisal.model_validate(daimon(_ask("daimon_appraisal", 1.0), Random(1)))
    assert daimon_informed.is_right(appraisal, FALL, CTX, APPRAISAL)
    assert appraisal.primary_emotion == "fear"


@pytest.mark.parametrize("chance", [0.25, 0.6])
def test_answers_are_informed_as_often_as_the_ask_says(chance: float) -> None:
    answers = _answers(heartbeat, _ask("heartbeat_decision", chance))
    rationale = heartbeat_informed.informed_heartbeat(
        FALL, CTX, HEARTBEAT.probes.thresholds, HEARTBEAT.sizing
    ).rationale
    share = sum(a["rationale"] == rationale for a in answers) / len(answers)
    assert share == pytest.approx(chance, abs=0.07)


def test_a_log_reader_tells_an_informed_rationale_from_a_blind_one() -> None:
    """A log reader splits heartbeat answers by `reads_informed`: it must hold for
    every informed answer and for no blind one."""
    informed = heartbeat_informed.informed_heartbeat(
        FALL, CTX, HEARTBEAT.probes.thresholds, HEARTBEAT.sizing
    ).rationale
    blind = {a["rationale"] for a in _answers(heartbeat, _ask("heartbeat_decision", 0.0))}
    assert heartbeat_informed.reads_informed(informed)
    assert len(blind) >= 3 and not any(map(heartbeat_informed.reads_informed, blind))


def test_the_same_seed_gives_the_same_answers() -> None:
    ask = _ask("risk_assessment", 0.5)
    assert _answers(risk, ask, 50) == _answers(risk, ask, 50)


@pytest.mark.parametrize("decision", sorted(MINDS))
def test_without_a_truth_or_a_chance_a_mind_answers_as_before(decision: str) -> None:
    """No draw is made for nothing: the answers are those of an Ask with no truth at all."""
    plain = ask_for(decision, CTX)
    for ask in (replace(plain, informed=0.9), replace(plain, truth=FALL, informed=0.0)):
        for i in range(20):
            assert MINDS[decision](ask, Random(i)) == MINDS[decision](plain, Random(i))


def test_an_informed_heartbeat_forecasts_the_truths_move() -> None:
    beat = HeartbeatDecision.model_validate(heartbeat(_ask("heartbeat_decision", 1.0), Random(1)))
    assert beat.expected_move == FALL.future_return


def test_an_uninformed_heartbeat_guesses_from_the_window_or_has_no_view() -> None:
    """Half the window's move carried on or given back, or none: never the truth's."""
    seen = CTX.market.delta_period
    assert seen is not None and seen != 0
    answers = _answers(heartbeat, _ask("heartbeat_decision", 0.0))
    moves = [answer["expected_move"] for answer in answers]
    assert {move for move in moves if move is not None} == {
        round(0.5 * seen, 6),
        -round(0.5 * seen, 6),
    }
    assert 0.1 < moves.count(None) / len(moves) < 0.3  # about one in five states no view
