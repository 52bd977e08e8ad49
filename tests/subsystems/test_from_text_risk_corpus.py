"""RiskAssessment.from_text on a corpus of free-text answers as models write them: the
approval read right on at least 90% of them (the issue's bar), and the adjusted size."""

from __future__ import annotations

from golem.subsystems.risk import RiskAssessment

from .risk_corpus import CORPUS


def test_the_corpus_is_varied_enough() -> None:
    assert len(CORPUS) >= 20
    assert sum(approved for _, approved, _ in CORPUS) >= 8
    assert sum(not approved for _, approved, _ in CORPUS) >= 8
    assert sum(size is not None for _, _, size in CORPUS) >= 8


def test_the_approval_is_read_right_on_nine_in_ten() -> None:
    read = [RiskAssessment.from_text(text) for text, _, _ in CORPUS]
    approval = sum(r.approved == a for r, (_, a, _) in zip(read, CORPUS, strict=True))
    size = sum(r.adjusted_size_usd == s for r, (_, _, s) in zip(read, CORPUS, strict=True))
    assert approval / len(CORPUS) >= 0.9, f"approval right on {approval}/{len(CORPUS)}"
    assert size / len(CORPUS) >= 0.9, f"adjusted size right on {size}/{len(CORPUS)}"
