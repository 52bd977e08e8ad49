"""Daimon: the OCC rule table, the grounding check against a wild appraisal, the mood EMA,
the degraded path, and every structured-output mode end to end through decide()."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.inference import Mode
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, Phase
from golem.runtime.decide import decide
from golem.subsystems.contract import Mood
from golem.subsystems.daimon import (
    DEFAULT_RULES,
    Daimon,
    DaimonAppraisal,
    Event,
    appraise,
    grounded,
)
from tests.policy import APPRAISAL, DAIMON

from .support import MODES, budgeting, context, mode_provider


@pytest.mark.parametrize(
    ("events", "primary_emotion", "pad"),
    [
        ((Event("trade_profit"),), "joy", (0.6, 0.3, 0.5)),
        ((Event("trade_loss", 0.06),), "fear", (-0.5, 0.7, -0.5)),
        ((Event("trade_loss", 0.05),), "sadness", (-0.5, -0.3, -0.3)),  # fear only above 5%
        ((Event("trade_loss"),), "sadness", (-0.5, -0.3, -0.3)),
        ((Event("regime_shift"),), "surprise", (-0.2, 0.7, -0.3)),
        ((Event("prediction_miss"),), "surprise", (-0.3, 0.6, -0.4)),
        ((Event("death_approach"),), "fear", (-0.6, 0.6, -0.7)),
        ((Event("comet_sighted"),), "anticipation", (0.0, 0.1, 0.0)),
        ((), "anticipation", (0.0, 0.1, 0.0)),
        (
            (Event("trade_profit"), Event("death_approach"), Event("regime_shift")),
            "fear",
            (-0.6, 0.6, -0.7),
        ),
    ],
)
def test_rule_table(
    events: tuple[Event, ...], primary_emotion: str, pad: tuple[float, ...]
) -> None:
    appraisal = appraise(events, APPRAISAL)
    assert appraisal.primary_emotion == primary_emotion
    assert (appraisal.pleasure, appraisal.arousal, appraisal.dominance) == pad


@pytest.mark.parametrize("kind", sorted(DEFAULT_RULES))
def test_every_rule_is_a_valid_appraisal(kind: str) -> None:
    appraisal = appraise([Event(kind)], APPRAISAL)
    assert appraisal.validate_content() == []
    assert DaimonAppraisal.model_validate(appraisal.model_dump()) == appraisal


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (Event("trade_loss", 0.062), "trade_loss:0.0620"),  # its size to four places
        (Event("trade_loss", 0.0), "trade_loss:0.0000"),
        (Event("regime_shift"), "regime_shift"),
    ],
)
def test_an_event_reads_as_its_kind_and_size(event: Event, text: str) -> None:
    assert str(event) == text


_signed = st.floats(-1, 1)


@given(_signed, _signed, _signed, st.sampled_from(sorted(DEFAULT_RULES)))
def test_grounding_keeps_what_is_felt_near_the_rule(
    pleasure: float, arousal: float, dominance: float, kind: str
) -> None:
    rule = appraise([Event(kind)], APPRAISAL)
    model = DaimonAppraisal(
        primary_emotion="surprise", pleasure=pleasure, arousal=arousal, dominance=dominance
    )
    felt, distance = grounded(model, rule, 1.0)
    assert felt is (rule if distance > 1.0 else model)
    pad = Mood(felt.pleasure, felt.arousal, felt.dominance)
    assert pad.distance(Mood(rule.pleasure, rule.arousal, rule.dominance)) <= 1.0


def _appraisal(**changes: Any) -> dict[str, Any]:
    base = {"primary_emotion": "fear", "intensity": 0.7, "pleasure": -0.5, "arousal": 0.7}
    return base | {"dominance": -0.4, "trigger": "trade_loss", "memory_bias": ""} | changes


async def test_the_grounding_check_overrides_a_wild_appraisal() -> None:
    wild = _appraisal(
        primary_emotion="joy", intensity=1.0, pleasure=0.9, arousal=-0.8, dominance=0.9
    )
    provider, _ = mode_provider(Mode.SCHEMA_ENFORCED, DaimonAppraisal, wild, "")
    ctx = context(events=(Event("trade_loss", 0.08),), mood=Mood(0.2, 0.0, 0.1))
    record = await decide(Daimon(DAIMON), ctx, budgeting(provider))
    assert record.source == "model"
    outcome = record.outcome
    assert outcome is not None
    assert outcome.details["grounding"] == "overridden"
    assert (
        outcome.details["primary_emotion"] == "fear" and outcome.details["model_emotion"] == "joy"
    )
    assert outcome.mood == ctx.mood.blend(Mood(-0.5, 0.7, -0.5), 0.7)
    assert record.fields()["grounding"] == "overridden"


async def test_a_grounded_appraisal_is_felt_as_given() -> None:
    provider, _ = mode_provider(Mode.SCHEMA_ENFORCED, DaimonAppraisal, _appraisal(), "")
    ctx = context(events=(Event("trade_loss", 0.08),), mood=Mood(0.2, 0.0, 0.1))
    record = await decide(Daimon(DAIMON), ctx, budgeting(provider))
    outcome = record.outcome
    assert outcome is not None and "grounding" not in outcome.details
    assert outcome.mood == ctx.mood.blend(Mood(-0.5, 0.7, -0.4), 0.7)
    mood = outcome.mood
    assert mood is not None  # 0.95·mood + 0.05·PAD·intensity
    expected = (0.95 * 0.2 - 0.05 * 0.35, 0.05 * 0.49, 0.95 * 0.1 - 0.05 * 0.28)
    assert (mood.pleasure, mood.arousal, mood.dominance) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("phase", "daily_budget"),
    [(Phase.TERMINAL, 10.0), (Phase.THRIVING, 0.0)],  # dying, or the day's money spent
)
async def test_a_degraded_daimon_uses_the_occ_rules(phase: Phase, daily_budget: float) -> None:
    provider = ScriptedProvider([])
    ctx = context(events=(Event("regime_shift"),), phase=phase)
    env = budgeting(provider, phase=phase, daily_budget_usd=daily_budget)
    record = await decide(Daimon(DAIMON), ctx, env)
    assert record.source == "deterministic" and provider.requests == []
    assert record.tier_asked is ModelTier.T1 and record.degradations
    assert isinstance(record.decision, DaimonAppraisal)
    assert record.decision.primary_emotion == "surprise"
    assert record.outcome is not None
    assert record.outcome.mood == Mood().blend(Mood(-0.2, 0.7, -0.3), 0.6)


async def test_nothing_to_appraise_is_skipped() -> None:
    record = await decide(Daimon(DAIMON), context(), budgeting(ScriptedProvider([])))
    assert (record.source, record.skip_reason) == ("skipped", "no notable event to appraise")
    assert Daimon(DAIMON).tier(context()) is ModelTier.T0


FREE_TEXT = "Emotion: fear (pleasure -0.5, arousal 0.7, dominance -0.4) after the 6% loss."


@pytest.mark.parametrize("mode", MODES)
async def test_every_mode_end_to_end(mode: Mode) -> None:
    provider, config = mode_provider(mode, DaimonAppraisal, _appraisal(), FREE_TEXT)
    ctx = context(events=(Event("trade_loss", 0.06),))
    record = await decide(Daimon(DAIMON), ctx, budgeting(provider, config=config))
    assert record.source == "model"
    assert record.response is not None and record.response.mode is mode
    decision = record.decision
    assert isinstance(decision, DaimonAppraisal)
    assert (decision.primary_emotion, decision.pleasure, decision.dominance) == ("fear", -0.5, -0.4)
    assert record.outcome is not None and "grounding" not in record.outcome.details
    assert record.outcome.mood == Mood().blend(Mood(-0.5, 0.7, -0.4), decision.intensity)
    user = provider.requests[0].messages[-1].content or ""
    assert "- a trade closed at a 6% loss (trade_loss:0.0600)" in user and "fear" in user
