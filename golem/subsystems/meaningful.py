"""The meaningful() check of each decision schema, by schema name: whether a schema-valid
answer says something (golem.subsystems.meaning holds the checks they are made of)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from golem.inference import StructuredOutput
from golem.subsystems.curator.decision import curator_meaningful
from golem.subsystems.daimon.decision import daimon_meaningful
from golem.subsystems.death.decision import death_meaningful
from golem.subsystems.dream.fragment import fragment_meaningful
from golem.subsystems.dream.integration import integration_meaningful
from golem.subsystems.dream.replay_analysis import replay_meaningful
from golem.subsystems.dream.threat import threat_meaningful
from golem.subsystems.heartbeat.decision import heartbeat_meaningful
from golem.subsystems.meaning import Meaningful, words
from golem.subsystems.risk.decision import risk_meaningful

__all__ = ["MEANINGFUL", "meaningful"]

MEANINGFUL: dict[str, Meaningful] = {
    "heartbeat_decision": heartbeat_meaningful,
    "daimon_appraisal": daimon_meaningful,
    "risk_assessment": risk_meaningful,
    "curator_evaluation": curator_meaningful,
    "replay_analysis": replay_meaningful,
    "fragment_evaluation": fragment_meaningful,
    "dream_integration": integration_meaningful,
    "threat_assessment": threat_meaningful,
    "death_testament": death_meaningful,
}


def meaningful(decision: StructuredOutput, prompt: str) -> list[str]:
    """What `decision` (answering a call whose prompt text is `prompt`) fails to say; empty:
    it is meaningful. An answer whose texts are the worked examples' is a copy, not an
    answer (the examples are about other situations)."""
    check: Any = MEANINGFUL[decision.response_schema().name]
    problems: list[str] = check(decision, prompt)
    examples = decision.worked_examples
    if examples:
        own = _texts(decision.model_dump(mode="json"))
        copied = own & set().union(*(_texts(example.answer) for example in examples))
        if own and len(copied) * 2 >= len(own):
            problems.append(f"copies the worked example: {sorted(copied)[:3]}")
    return problems


def _texts(value: Any) -> set[str]:
    """Every text of two words or more in a decision's fields."""
    if isinstance(value, str):
        return {value.strip().lower()} if words(value) >= 2 else set()
    if isinstance(value, Mapping):
        return {text for v in value.values() for text in _texts(v)}
    if isinstance(value, list):
        return {text for v in value for text in _texts(v)}
    return set()
