"""Each decision type end to end through run_structured, in all four structured-output modes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from golem.inference import (
    Capabilities,
    Message,
    Mode,
    Request,
    StructuredOutput,
    StructuredOutputConfig,
    run_structured,
)
from golem.inference.scripted import ScriptedProvider, tool_answer
from golem.subsystems import (
    DECISIONS,
    CuratorEvaluation,
    DaimonAppraisal,
    DeathTestament,
    DreamIntegration,
    FragmentEvaluation,
    HeartbeatDecision,
    ReplayAnalysis,
    RiskAssessment,
    ThreatAssessment,
)

from .examples import VALID

REQUEST = Request(messages=(Message.system("You are a golem."), Message.user("Decide.")))
ids = [d.schema_name for d in DECISIONS]

# What a model without structured output might write, and what must be read from it.
FREE_TEXT: dict[type[StructuredOutput], tuple[str, Callable[[Any], bool]]] = {
    HeartbeatDecision: (
        "Severity: HIGH. I would not exit yet; action: hedge. Confidence 72%.",
        lambda d: (d.severity, d.action, d.confidence) == ("high", "hedge", 0.72),
    ),
    DaimonAppraisal: (
        "Emotion: fear (pleasure -0.5, arousal 0.7, dominance -0.4) after the 6% loss.",
        lambda d: (d.primary_emotion, d.pleasure, d.dominance) == ("fear", -0.5, -0.4),
    ),
    RiskAssessment: (
        "Approved at reduced size.\nMarket: pass\nLiquidity: warn (0.5)\nAdjusted size: $2,500",
        lambda d: (
            d.approved and d.adjusted_size_usd == 2500 and d.layers.position_sizing.score == 0.5
        ),
    ),
    CuratorEvaluation: (
        "Evaluated 12 entries, pruned 3 (e1, e4, e9).",
        lambda d: (d.entries_evaluated, d.entries_retained, d.entries_pruned) == (12, 9, 3),
    ),
    ReplayAnalysis: (
        "Replayed episode #41 (8 episodes reviewed).\nLessons:\n- Hedge early in crashes "
        "(confidence 0.8)\nSurprise: 0.7",
        lambda d: (
            (d.episode_id, d.episodes_reviewed, d.surprise_score) == ("41", 8, 0.7)
            and d.lessons[0].applicable_conditions == "crash"
        ),
    ),
    FragmentEvaluation: (
        "Novelty 0.9, coherence 0.2. Discard it: just noise.",
        lambda d: d.verdict == "discard" and (d.novelty, d.coherence) == (0.9, 0.2),
    ),
    DreamIntegration: (
        "Promote:\n- [g3] funding flips precede reversals (0.8)\nDiscard:\n- moon phases",
        lambda d: (
            [(i.hypothesis_id, i.confidence) for i in d.promoted] == [("g3", 0.8)]
            and [i.summary for i in d.discarded] == ["moon phases"]
        ),
    ),
    ThreatAssessment: (
        "Threat: a stablecoin depeg. Likelihood 10%, severity: medium. Monitor it.",
        lambda d: d.severity == "medium" and d.likelihood == 0.1,
    ),
    DeathTestament: (
        "What I learned:\n- patience pays\nWhat killed me: credits ran out\nArc class: tragic",
        lambda d: d.learned == ["patience pays"] and d.arc_class == "tragic",
    ),
}


def _json(decision: type[StructuredOutput]) -> str:
    return orjson.dumps(VALID[decision]).decode()


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
async def test_schema_enforced(decision: type[StructuredOutput]) -> None:
    provider = ScriptedProvider([_json(decision)])
    response = await run_structured(provider, REQUEST, decision)
    assert response.mode is Mode.SCHEMA_ENFORCED
    assert response.parsed == decision.model_validate(VALID[decision])
    assert provider.requests[0].response_schema == decision.response_schema()


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
async def test_tool_use_workaround(decision: type[StructuredOutput]) -> None:
    name = f"respond_{decision.schema_name}"
    provider = ScriptedProvider(
        [tool_answer(name, VALID[decision])], capabilities=Capabilities(tool_use=True)
    )
    response = await run_structured(provider, REQUEST, decision)
    assert response.mode is Mode.TOOL_USE
    assert response.parsed == decision.model_validate(VALID[decision])
    assert provider.requests[0].tool_choice == name


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
async def test_prompt_guided_json_in_prose(decision: type[StructuredOutput]) -> None:
    text = f"Here is my answer:\n{_json(decision)}\nThat is all."
    provider = ScriptedProvider([text], capabilities=Capabilities())
    response = await run_structured(provider, REQUEST, decision)
    assert response.mode is Mode.PROMPT_GUIDED
    assert response.parsed == decision.model_validate(VALID[decision])
    assert decision.schema_name in (provider.requests[0].messages[0].content or "")


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
async def test_none_mode_reads_free_text(decision: type[StructuredOutput]) -> None:
    text, expected = FREE_TEXT[decision]
    provider = ScriptedProvider([text])
    response = await run_structured(
        provider, REQUEST, decision, StructuredOutputConfig(enabled=False)
    )
    assert response.mode is Mode.NONE
    assert response.repairs == ("from_text",)
    assert isinstance(response.parsed, decision)
    assert expected(response.parsed)
    assert response.parsed.validate_content() == []


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
async def test_prompt_guided_falls_back_to_from_text(decision: type[StructuredOutput]) -> None:
    text, expected = FREE_TEXT[decision]
    provider = ScriptedProvider([text], capabilities=Capabilities())
    response = await run_structured(provider, REQUEST, decision)
    assert response.repairs == ("from_text",)
    assert expected(response.parsed)


async def test_none_mode_reasks_when_the_text_holds_no_decision() -> None:
    provider = ScriptedProvider(["I am not sure.", FREE_TEXT[HeartbeatDecision][0]])
    response = await run_structured(
        provider, REQUEST, HeartbeatDecision, StructuredOutputConfig(enabled=False)
    )
    assert response.attempts == 2
    assert response.parsed.action == "hedge"


async def test_invalid_json_is_reasked_not_papered_over_by_from_text() -> None:
    """A JSON answer with a bad field must surface its error, not become text defaults."""
    bad = {**VALID[HeartbeatDecision], "confidence": 1.7}
    provider = ScriptedProvider(
        [f"Answer: {orjson.dumps(bad).decode()}", _json(HeartbeatDecision)],
        capabilities=Capabilities(),
    )
    response = await run_structured(provider, REQUEST, HeartbeatDecision)
    assert response.attempts == 2
    assert "/confidence" in (provider.requests[1].messages[-1].content or "")
