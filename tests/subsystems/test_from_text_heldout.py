"""Every schema's from_text on the second development corpus (tests/subsystems/heldout_corpus.py).

The corpus was written as a held-out corpus, but it has since been seen: the readers were
reworked with its failures in view, so it is now a second development corpus and its figures no
longer measure how the readers generalize (a separate held-out corpus is being written).

Each answer is read with the schema's from_text; an answer it does not read into a decision
(UnparseableOutput, or a ValidationError for a JSON object that does not validate, which the
caller turns into a re-ask) counts as wrong on every label. The figures print as a table (visible
without -s). The bars: heartbeat severity and action both right on at least 90% of answers;
risk approval right on at least 90%; every other label right on at least 70%.

Measured against the reader at 56404ff, while the corpus was still held out (answers read right
/ answers carrying the label): heartbeat severity 24/25, action 24/25, both 23/25 (92%); risk
approved 22/25 (88%), adjusted_size_usd 3/9 (33%); daimon primary_emotion 12/12; curator
entries_evaluated 7/11, entries_retained 7/11, entries_pruned 9/12; replay surprise 6/12, lessons
4/11; fragment verdict 11/12; integration promoted 8/12, staged 8/12, discarded 7/11; threat
severity 11/12, threat_type 8/8.

Measured again after the readers were reworked (0f216f3, written without this corpus in
sight): heartbeat both 23/25 (92%); risk approved 22/25 (88%), adjusted_size_usd 5/9;
daimon 12/12; curator evaluated 8/11, retained 8/11, pruned 10/12; replay surprise 6/12,
lessons 4/11; fragment 12/12; integration promoted 10/12, staged 8/12, discarded 7/11;
threat severity 12/12, threat_type 8/8.

Measured after the readers were reworked a second time, with this corpus's misses in view
(branch readers): heartbeat severity 25/25, action 25/25, both 25/25 (100%); risk approved
25/25 (100%), adjusted_size_usd 9/9; daimon 12/12; curator evaluated 11/11, retained 11/11,
pruned 12/12; replay surprise 12/12, lessons 11/11; fragment 12/12; integration promoted 12/12,
staged 11/12 (the miss: "all four candidates go to staging" names no item to stage), discarded
11/11; threat severity 12/12, threat_type 8/8. Every bar is met; none is marked xfail.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from golem.inference import StructuredOutput, UnparseableOutput
from golem.subsystems.curator import CuratorEvaluation
from golem.subsystems.daimon import DaimonAppraisal
from golem.subsystems.dream import (
    DreamIntegration,
    FragmentEvaluation,
    ReplayAnalysis,
    ThreatAssessment,
)
from golem.subsystems.heartbeat import HeartbeatDecision
from golem.subsystems.risk import RiskAssessment

from . import heldout_corpus as corpus

Read = dict[str, Any]


def _bucket(score: float) -> str:
    if score < 0.34:
        return "low"
    return "medium" if score <= 0.66 else "high"


def _heartbeat(d: Read) -> Read:
    return {"severity": d["severity"], "action": d["action"]}


def _risk(d: Read) -> Read:
    return {"approved": d["approved"], "adjusted_size_usd": d["adjusted_size_usd"]}


def _daimon(d: Read) -> Read:
    return {"primary_emotion": d["primary_emotion"]}


def _curator(d: Read) -> Read:
    keys = ("entries_evaluated", "entries_retained", "entries_pruned")
    return {key: d[key] for key in keys}


def _replay(d: Read) -> Read:
    return {"surprise": _bucket(d["surprise_score"]), "lessons": len(d["lessons"])}


def _fragment(d: Read) -> Read:
    return {"verdict": d["verdict"]}


def _integration(d: Read) -> Read:
    return {key: len(d[key]) for key in ("promoted", "staged", "discarded")}


def _threat(d: Read) -> Read:
    return {"severity": d["severity"], "threat_type": d["threat_type"]}


SCHEMAS: dict[str, tuple[type[StructuredOutput], corpus.Corpus, Callable[[Read], Read]]] = {
    "heartbeat_decision": (HeartbeatDecision, corpus.HEARTBEAT, _heartbeat),
    "risk_assessment": (RiskAssessment, corpus.RISK, _risk),
    "daimon_appraisal": (DaimonAppraisal, corpus.DAIMON, _daimon),
    "curator_evaluation": (CuratorEvaluation, corpus.CURATOR, _curator),
    "replay_analysis": (ReplayAnalysis, corpus.REPLAY, _replay),
    "fragment_evaluation": (FragmentEvaluation, corpus.FRAGMENT, _fragment),
    "dream_integration": (DreamIntegration, corpus.INTEGRATION, _integration),
    "threat_assessment": (ThreatAssessment, corpus.THREAT, _threat),
}

BOTH = "severity+action"  # heartbeat: severity and action both right on the same answer


def _agrees(label: str, expected: object, got: object) -> bool:
    if label == "threat_type":  # a phrase the read threat type must contain
        return isinstance(got, str) and str(expected).lower() in got.lower()
    if label == "adjusted_size_usd" and expected is not None:
        return isinstance(got, int | float) and abs(got - float(str(expected))) < 0.5
    return got == expected


def measure(schema: str, answers: corpus.Corpus | None = None) -> dict[str, tuple[int, int]]:
    """label -> (answers read right, answers carrying the label), on `answers` (by default
    this corpus's answers for `schema`)."""
    decision, own, observe = SCHEMAS[schema]
    answers = own if answers is None else answers
    right: dict[str, int] = {}
    total: dict[str, int] = {}
    for text, labels in answers:
        try:
            got: Read | None = observe(decision.from_text(text).model_dump(mode="json"))
        except (UnparseableOutput, ValidationError):  # not read: a re-ask, not a decision
            got = None
        marks = {k: got is not None and _agrees(k, v, got[k]) for k, v in labels.items()}
        if schema == "heartbeat_decision":
            marks[BOTH] = marks["severity"] and marks["action"]
        for label, ok in marks.items():
            right[label] = right.get(label, 0) + ok
            total[label] = total.get(label, 0) + 1
    return {label: (right[label], total[label]) for label in total}


@pytest.fixture(scope="module")
def figures() -> dict[str, dict[str, tuple[int, int]]]:
    return {schema: measure(schema) for schema in SCHEMAS}


def test_the_corpus_has_the_sizes_asked_for() -> None:
    sizes = {schema: len(answers) for schema, (_, answers, _) in SCHEMAS.items()}
    assert sizes["heartbeat_decision"] == 25
    assert sizes["risk_assessment"] == 25
    assert all(n == 12 for schema, n in sizes.items() if schema not in _BIG)


_BIG = ("heartbeat_decision", "risk_assessment")


def print_figures(
    figures: dict[str, dict[str, tuple[int, int]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """The figures as a table, shown without -s."""
    lines = ["", f"{'schema':<21} {'label':<19} {'right':>7} {'share':>6}"]
    for schema, labels in figures.items():
        for label, (right, total) in labels.items():
            lines.append(f"{schema:<21} {label:<19} {right:>3}/{total:<3} {right / total:>6.0%}")
    with capsys.disabled():
        print("\n".join(lines))


# A bar's share means something only over enough answers that carry its label: the
# smallest held-out count (threat_type) is 8 of 12.
MIN_CARRIED = 8


def unmeasured(
    figures: dict[str, dict[str, tuple[int, int]]], bars: list[tuple[str, str]]
) -> list[str]:
    """The bars whose label too few answers carry (or whose counts cannot be)."""
    wrong = []
    for schema, label in bars:
        right, total = figures.get(schema, {}).get(label, (0, 0))
        if total < MIN_CARRIED or not 0 <= right <= total:
            wrong.append(f"{schema} {label}: {right}/{total}")
    return wrong


def test_each_bar_is_measured_on_enough_answers(
    figures: dict[str, dict[str, tuple[int, int]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Every barred label is carried by at least MIN_CARRIED answers (the table is printed
    beside, without -s)."""
    print_figures(figures, capsys)
    bars = [(bar.values[0], bar.values[1]) for bar in BARS]
    assert not unmeasured(figures, bars)


def _bar(schema: str, label: str, share: float, failing: str = "") -> Any:
    marks = [pytest.mark.xfail(strict=False, reason=f"measured: {failing}")] if failing else []
    return pytest.param(schema, label, share, marks=marks, id=f"{schema}-{label}")


BARS = [
    _bar("heartbeat_decision", BOTH, 0.9),
    _bar("risk_assessment", "approved", 0.9),
    _bar("risk_assessment", "adjusted_size_usd", 0.7),
    _bar("daimon_appraisal", "primary_emotion", 0.7),
    _bar("curator_evaluation", "entries_evaluated", 0.7),
    _bar("curator_evaluation", "entries_retained", 0.7),
    _bar("curator_evaluation", "entries_pruned", 0.7),
    _bar("replay_analysis", "surprise", 0.7),
    _bar("replay_analysis", "lessons", 0.7),
    _bar("fragment_evaluation", "verdict", 0.7),
    _bar("dream_integration", "promoted", 0.7),
    _bar("dream_integration", "staged", 0.7),
    _bar("dream_integration", "discarded", 0.7),
    _bar("threat_assessment", "severity", 0.7),
    _bar("threat_assessment", "threat_type", 0.7),
]


@pytest.mark.parametrize(("schema", "label", "share"), BARS)
def test_the_label_is_read_right_often_enough(
    figures: dict[str, dict[str, tuple[int, int]]], schema: str, label: str, share: float
) -> None:
    right, total = figures[schema][label]
    assert right / total >= share, f"{schema} {label}: right on {right}/{total}"
