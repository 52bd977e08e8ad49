"""The second held-out corpus has the sizes and label conventions its docstring promises.

This checks the corpus only; how well the readers do on it is measured elsewhere.
"""

import pytest

from tests.subsystems import heldout2_corpus as corpus
from tests.subsystems.heldout2_corpus import Corpus

SIZES = {
    "HEARTBEAT": 30,
    "RISK": 30,
    "DAIMON": 12,
    "CURATOR": 12,
    "REPLAY": 12,
    "FRAGMENT": 12,
    "INTEGRATION": 12,
    "THREAT": 12,
}

HEARTBEAT_SEVERITIES = {"none", "low", "moderate", "high", "critical"}
ACTIONS = {"observe", "analyze", "rebalance", "hedge", "exit", "escalate"}
EMOTIONS = {"joy", "trust", "fear", "surprise", "sadness", "disgust", "anger", "anticipation"}
BUCKETS = {"low", "medium", "high"}
VERDICTS = {"promote", "stage", "discard"}
THREAT_SEVERITIES = {"low", "medium", "high", "critical"}


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _size(value: object) -> bool:
    return value is None or (type(value) is float and value >= 0)


def _phrase(value: object) -> bool:
    return isinstance(value, str) and value.strip() != ""


# Per corpus: label name -> (required, check of its value).
LABELS: dict[str, dict[str, tuple[bool, object]]] = {
    "HEARTBEAT": {
        "severity": (True, HEARTBEAT_SEVERITIES),
        "action": (True, ACTIONS),
    },
    "RISK": {
        "approved": (True, {True, False}),
        "adjusted_size_usd": (False, _size),
    },
    "DAIMON": {"primary_emotion": (True, EMOTIONS)},
    "CURATOR": {
        "entries_evaluated": (False, _count),
        "entries_retained": (False, _count),
        "entries_pruned": (False, _count),
    },
    "REPLAY": {"surprise": (True, BUCKETS), "lessons": (False, _count)},
    "FRAGMENT": {"verdict": (True, VERDICTS)},
    "INTEGRATION": {
        "promoted": (True, _count),
        "staged": (True, _count),
        "discarded": (True, _count),
    },
    "THREAT": {"severity": (True, THREAT_SEVERITIES), "threat_type": (False, _phrase)},
}


def _valid(value: object, check: object) -> bool:
    if isinstance(check, set):
        # bool labels must be real bools, not 0/1.
        return type(value) in (str, bool) and value in check
    assert callable(check)
    return bool(check(value))


@pytest.mark.parametrize("name", sorted(SIZES))
def test_each_corpus_has_its_size_and_label_conventions(name: str) -> None:
    entries: Corpus = getattr(corpus, name)
    assert len(entries) == SIZES[name]
    spec = LABELS[name]
    for text, labels in entries:
        assert isinstance(text, str)
        assert text.strip(), f"{name}: empty answer"
        assert labels, f"{name}: no labels for {text[:40]!r}"
        assert set(labels) <= set(spec), f"{name}: unknown label in {labels}"
        for key, (required, check) in spec.items():
            if required:
                assert key in labels, f"{name}: {key} missing for {text[:40]!r}"
            if key in labels:
                assert _valid(labels[key], check), f"{name}: {key}={labels[key]!r}"


def test_answers_are_not_repeated_across_the_corpus() -> None:
    texts = [text for name in SIZES for text, _ in getattr(corpus, name)]
    assert len(texts) == len(set(texts))


def test_curator_counts_add_up_where_all_three_are_given() -> None:
    for _, labels in corpus.CURATOR:
        if {"entries_evaluated", "entries_retained", "entries_pruned"} <= set(labels):
            evaluated = labels["entries_evaluated"]
            retained = labels["entries_retained"]
            pruned = labels["entries_pruned"]
            assert isinstance(evaluated, int)
            assert isinstance(retained, int)
            assert isinstance(pruned, int)
            assert retained + pruned == evaluated
