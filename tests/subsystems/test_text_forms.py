"""The from_text toolkit on forms models commonly write: labels mid-line or trailing off, lists
under counted or bare headings and numbered inline, spelled counts, surprise in words, sizes
in another unit, JSON answers that leave out required fields, conditions that are not met."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from golem.subsystems.risk import RiskAssessment
from golem.subsystems.text import (
    Choices,
    Degree,
    clean,
    decision_from_text,
    items,
    labelled,
    listed,
    outside_brackets,
    read_count,
    read_usd,
    sections,
)

APPROVE = Choices({True: r"approv\w*"}, flip=lambda v: not v)
MOVE = Choices({"exit": r"exit\w*", "hedge": r"hedg\w*", "wait": r"wait\w*|hold"})


def test_a_negation_of_the_form_stands_above_a_conditional_word_below_a_plain_one() -> None:
    text = (
        "I would approve this only if the size were cut; it cannot be. Not approved as submitted."
    )
    assert APPROVE.pick(text) is False
    assert APPROVE.pick("I can't approve the full amount, but I can approve $800 of it.") is True
    assert APPROVE.pick("I'd rather not approve it as is; approve at $400 instead.") is True


def test_a_hedged_habit_is_no_call_and_none_negates() -> None:
    assert MOVE.pick("I'd normally exit here, but the book is thin. Hold.") == "wait"
    assert MOVE.pick("All go to waiting, and none is weak enough to exit.") == "wait"


def test_a_label_may_trail_off_before_its_value() -> None:
    assert next(labelled("Severity .. none really. Price flat.", "severity")) == "none really"
    assert next(labelled("Action\u2026 observe", "action")) == "observe"


def test_a_label_opening_a_sentence_mid_line_takes_that_sentence_to_its_own_line() -> None:
    text = clean("Nothing promoted. Staged: 3 (h-1, h-2, h-3). Discarded: 0.")
    assert text == "Nothing promoted.\nStaged: 3 (h-1, h-2, h-3).\nDiscarded: 0."
    text = clean("I learned a lot. Killed by: a cascade. I suspect the oracle.")
    assert sections(text) == [("Killed by", "a cascade.")]
    assert clean("Sure! Here is what I think: exit.") == "Sure! Here is what I think: exit."


def test_pairs_run_together_with_spaces_and_a_bare_heading_above_a_list() -> None:
    assert clean("promoted=1 staged=2 discarded=0") == "promoted=1\nstaged=2\ndiscarded=0"
    assert clean("set HF=1.5 as the floor") == "set HF=1.5 as the floor"
    assert clean("Lessons\n1. a\n2. b") == "Lessons:\n1. a\n2. b"
    assert clean("Prices were flat today\nnothing else") == "Prices were flat today\nnothing else"


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("3 (h-1, h-2, h-3)", ["h-1", "h-2", "h-3"]),
        ("2 hypotheses: a; b", ["a", "b"]),
        ("0", []),
        ("4", []),  # a count with nothing listed
        ("(1) the oracle lags; (2) books thin out", ["the oracle lags", "books thin out"]),
        ("1. size down 2. hedge earlier", ["size down", "hedge earlier"]),
        ("a (b; c); d", ["a (b; c)", "d"]),
        ("3 of 4 exits were late", ["3 of 4 exits were late"]),
    ],
)
def test_one_line_lists(body: str, found: list[str]) -> None:
    assert items(body, limit=8, max_chars=80) == found


def test_outside_brackets() -> None:
    assert outside_brackets("a (b, c), d [e, f], g", ",") == ["a (b, c)", "d [e, f]", "g"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Lesson 1: size down.\nLesson 2: hedge early.", ["size down", "hedge early"]),
        ("Surprise was low. Two lessons: a; b", ["a", "b"]),
        ("Lessons learned:\n- a\n- b\n- c", ["a", "b", "c"]),
        ("Key takeaways:\n* a\n* b", ["a", "b"]),
        ("Lessons\n1. a\n2. b", ["a", "b"]),
        ("The price rose. The lesson is that the price can rise.", ["the price can rise"]),
        ("No lessons: one episode is too few.", []),
        ("No clear lesson yet.", []),
    ],
)
def test_a_list_named_by_its_noun(text: str, found: list[str]) -> None:
    assert listed(clean(text), r"lessons?|takeaways?", limit=5, max_chars=80) == found


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("It was surprising.", 0.6),
        ("Only mildly surprising.", 0.3),
        ("A moderately unexpected result.", 0.5),
        ("Very surprising episode.", 0.8),
        ("The cascade came as a shock.", 0.85),
        ("It came as a complete shock.", 0.95),
        ("Not surprising at all.", 0.1),
        ("It wasn't really surprising.", 0.1),
        ("Everything went as expected.", 0.1),
        ("The golem expected a bounce.", None),
    ],
)
def test_a_degree_in_words(text: str, level: float | None) -> None:
    surprise = Degree(
        {r"surpris\w*|unexpected": 0.6, r"shock\w*": 0.85, r"unsurprising|as expected": 0.1}
    )
    assert surprise.read(text) == level


def test_counts_in_snake_case_words_and_of() -> None:
    assert read_count("entries_pruned: 3", r"prun\w*") == 3
    assert read_count("I kept seven of ten.", "kept") == 7
    assert read_count("I kept seven of ten.", r"(?<=\d )of") == 10
    assert read_count("The good ones are 7.", "good ones") == 7
    assert read_count("it survived two crashes", r"surviv\w*") is None


def test_a_size_in_another_unit_is_read_by_the_dollars_beside_it() -> None:
    assert read_usd("shrink it to 0.6 ETH (~$1,950 at $3,250)", "shrink it to") == 1950
    assert read_usd("approve it at 20% of NAV, which is $5,800", "approve it at") == 5800
    assert read_usd("size: 2 ETH", "size") is None
    assert read_usd("size: 2,000", "size") == 2000


class _Pair(BaseModel):
    a: int
    b: str
    note: str = ""


def _read_pair(text: str) -> dict[str, object]:
    return {"a": 1, "b": "read", "note": "from the text"}


def test_a_json_answer_that_leaves_out_fields_takes_them_from_the_text() -> None:
    pair = decision_from_text(_Pair, '{"a": 2}', _read_pair)
    assert pair == _Pair(a=2, b="read", note="from the text")
    with pytest.raises(ValidationError):  # a wrong value is the JSON's own error, re-asked
        decision_from_text(_Pair, '{"a": "two"}', _read_pair)


def test_a_risk_answer_without_layers() -> None:
    text = '{"approved": false, "warnings": ["oracle stale"], "reasoning": "stale oracle"}'
    risk = RiskAssessment.from_text(text)
    assert (risk.approved, risk.warnings, risk.reasoning) == (
        False,
        ["oracle stale"],
        "stale oracle",
    )
    assert risk.layers.observation.detail == "not assessed"
    assert risk.validate_content() == []
    with pytest.raises(ValidationError):  # nothing in the text says whether it is approved
        RiskAssessment.from_text('{"warnings": ["oracle stale"], "adjusted_size_usd": 5}')
