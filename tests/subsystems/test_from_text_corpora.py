"""from_text of the seven other schemas on corpora of free-text answers as models write
them: each answer reads as a valid decision whose named fields are right, on at least 90%
of each corpus (the bar the issue sets for heartbeat and risk). A list-valued field is
compared by its length."""

from __future__ import annotations

from typing import Any

import pytest

from golem.inference import StructuredOutput
from golem.subsystems.curator import CuratorEvaluation
from golem.subsystems.daimon import DaimonAppraisal
from golem.subsystems.death import DeathTestament
from golem.subsystems.dream import (
    DreamIntegration,
    FragmentEvaluation,
    ReplayAnalysis,
    ThreatAssessment,
)

from . import curator_corpus, daimon_corpus, death_corpus, dream_corpus

Corpus = list[tuple[str, dict[str, Any]]]
CORPORA: list[tuple[type[StructuredOutput], Corpus]] = [
    (FragmentEvaluation, dream_corpus.FRAGMENT),
    (ThreatAssessment, dream_corpus.THREAT),
    (ReplayAnalysis, dream_corpus.REPLAY),
    (DreamIntegration, dream_corpus.INTEGRATION),
    (DaimonAppraisal, daimon_corpus.CORPUS),
    (CuratorEvaluation, curator_corpus.CORPUS),
    (DeathTestament, death_corpus.CORPUS),
]


def _right(decision: type[StructuredOutput], text: str, expected: dict[str, Any]) -> bool:
    read = decision.from_text(text)
    fields = read.model_dump(mode="json")
    for key, want in expected.items():
        got = fields[key]
        if isinstance(got, list) and isinstance(want, int):
            got = len(got)
        if isinstance(want, float) and isinstance(got, float):
            got = round(got, 6)
        if got != want:
            return False
    return read.validate_content() == []


@pytest.mark.parametrize(("decision", "corpus"), CORPORA, ids=[d.__name__ for d, _ in CORPORA])
def test_nine_in_ten_read_right(decision: type[StructuredOutput], corpus: Corpus) -> None:
    assert len(corpus) >= 10
    right = sum(_right(decision, text, expected) for text, expected in corpus)
    assert right / len(corpus) >= 0.9, f"{decision.__name__}: right on {right}/{len(corpus)}"
