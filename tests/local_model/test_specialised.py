"""The specialised grammar under the real model's tokenizer: the issue's hollow threat
cannot be decoded; a worded one can."""

from __future__ import annotations

import orjson
import pytest
from llguidance import LLMatcher

from golem.inference.local import LocalProvider
from golem.subsystems import ThreatAssessment
from tests.subsystems.examples import HOLLOW_THREAT

pytestmark = pytest.mark.local_model

HOLLOW = HOLLOW_THREAT
WORDED = {
    "threat_type": "a crash of ETH by 30% in an hour",
    "severity": "high",
    "likelihood": 0.2,
    "impact_if_realized": "the lending position is liquidated",
    "mitigation_actions": ["repay part of the loan"],
    "detection_signals": ["health factor below 1.3"],
    "rehearsal_outcome": "Repaying early keeps the health factor safe.",
}


def _decodes(provider: LocalProvider, grammar: str, answer: dict[str, object]) -> bool:
    model = provider.loaded()
    matcher = LLMatcher(model.tokenizer(), grammar)
    tokens = model.llama.tokenize(orjson.dumps(answer), add_bos=False)
    taken = matcher.try_consume_tokens(tokens)
    return bool(taken == len(tokens) and matcher.is_accepting())


def test_the_hollow_threat_cannot_be_decoded(local_provider: LocalProvider) -> None:
    schema = ThreatAssessment.response_schema()
    compiled = local_provider.schemas.get(schema.name, schema.schema, local_provider.backend)
    assert "/threat_type: sentence" in compiled.added
    assert not _decodes(local_provider, compiled.constraint, HOLLOW)
    assert _decodes(local_provider, compiled.constraint, WORDED)
