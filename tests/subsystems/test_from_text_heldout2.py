"""Every schema's from_text on the held-out corpus tests/subsystems/heldout2_corpus.py.

That corpus was written by a separate author who saw neither the readers nor the corpora they
were developed on, and the readers were not changed after it was measured: these figures
measure how the readers generalize. The harness (reading, scoring, the bars) is the one of
test_from_text_heldout.py.

Measured (answers read right / answers carrying the label), before the readers' third rework
(main at cf99e71) and after it (branch readers, written without this corpus in sight):

    heartbeat severity 29/30 -> 29/30; action 28/30 -> 28/30; both 28/30 (93%) -> 28/30 (93%)
    risk approved 26/30 (87%) -> 29/30 (97%); adjusted_size_usd 16/18 -> 18/18
    daimon primary_emotion 11/12 -> 11/12
    curator evaluated 9/12 -> 12/12; retained 8/11 -> 10/11; pruned 9/12 -> 11/12
    replay surprise 7/12 -> 12/12; lessons 5/11 -> 8/11
    fragment verdict 12/12 -> 12/12
    integration promoted 8/12 -> 10/12; staged 8/12 -> 9/12; discarded 9/12 -> 10/12
    threat severity 12/12 -> 12/12; threat_type 11/12 -> 11/12

Every bar is met; a reader change that drops one below its bar fails here.
"""

from __future__ import annotations

import pytest

from . import heldout2_corpus as corpus
from .test_from_text_heldout import BOTH, measure, print_figures, unmeasured

ANSWERS: dict[str, corpus.Corpus] = {
    "heartbeat_decision": corpus.HEARTBEAT,
    "risk_assessment": corpus.RISK,
    "daimon_appraisal": corpus.DAIMON,
    "curator_evaluation": corpus.CURATOR,
    "replay_analysis": corpus.REPLAY,
    "fragment_evaluation": corpus.FRAGMENT,
    "dream_integration": corpus.INTEGRATION,
    "threat_assessment": corpus.THREAT,
}


@pytest.fixture(scope="module")
def figures() -> dict[str, dict[str, tuple[int, int]]]:
    return {schema: measure(schema, answers) for schema, answers in ANSWERS.items()}


def test_each_bar_is_measured_on_enough_answers(
    figures: dict[str, dict[str, tuple[int, int]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Every barred label is carried by at least MIN_CARRIED answers (the table is printed
    beside, without -s)."""
    print_figures(figures, capsys)
    assert not unmeasured(figures, [(schema, label) for schema, label, _ in BARS])


BARS = [
    ("heartbeat_decision", BOTH, 0.9),
    ("risk_assessment", "approved", 0.9),
    *(
        (schema, label, 0.7)
        for schema, label in (
            ("risk_assessment", "adjusted_size_usd"),
            ("daimon_appraisal", "primary_emotion"),
            ("curator_evaluation", "entries_evaluated"),
            ("curator_evaluation", "entries_retained"),
            ("curator_evaluation", "entries_pruned"),
            ("replay_analysis", "surprise"),
            ("replay_analysis", "lessons"),
            ("fragment_evaluation", "verdict"),
            ("dream_integration", "promoted"),
            ("dream_integration", "staged"),
            ("dream_integration", "discarded"),
            ("threat_assessment", "severity"),
            ("threat_assessment", "threat_type"),
        )
    ),
]


@pytest.mark.parametrize(("schema", "label", "share"), BARS)
def test_the_label_is_read_right_often_enough(
    figures: dict[str, dict[str, tuple[int, int]]], schema: str, label: str, share: float
) -> None:
    right, total = figures[schema][label]
    assert right / total >= share, f"{schema} {label}: right on {right}/{total}"
