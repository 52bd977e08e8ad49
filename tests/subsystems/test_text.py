"""The from_text toolkit: labelled fields, negation-scoped choices, numbers, lists, sections."""

from __future__ import annotations

import pytest

from golem.subsystems.text import (
    YES_NO,
    Choices,
    clean,
    clip,
    items,
    labelled,
    read_choice,
    read_count,
    read_fraction,
    read_signed,
    read_usd,
    sections,
    strip_meta,
)

LEVEL = Choices({"low": "low", "high": "high"})
MOVE = Choices({"exit": r"exit\w*", "hedge": r"hedg\w*", "wait": r"wait\w*|hold"})


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Severity: HIGH", "HIGH"),
        ("severity=high", "high"),
        ("severity - critical", "critical"),
        ('"severity": "high",', "high"),
        ("| Severity | high |", "high"),
        ("Severity (overall): medium. Action: hold", "medium"),
        ("Severity level: low", "low"),
        ("Severity:\n\n  high\n", "high"),
    ],
)
def test_labelled_forms(text: str, value: str) -> None:
    assert next(labelled(text, "severity")) == value


def test_a_label_inside_a_word_is_no_label() -> None:
    assert list(labelled("risk-adjusted: 4", "adjusted")) == []
    assert list(labelled("the severity of it", "severity")) == []


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("The move is highly unusual.", None),
        ("no need to exit", None),
        ("I would not exit yet", None),
        ("Exiting is premature; hedge instead.", "hedge"),
        ("Should we exit?", None),
        ("Rather than exiting, hedge.", "hedge"),
        ("If it breaks 1800, exit. For now, wait.", "wait"),
        ("We could hedge or wait, but I recommend an exit.", "exit"),
        ("Don't hedge, but hold", "wait"),
        ("I do not think we need to hedge right now.", None),
    ],
)
def test_choice_words_respect_boundaries_negation_questions_and_cues(
    text: str, choice: str | None
) -> None:
    assert MOVE.pick(text) == choice
    assert LEVEL.pick(text) is None


def test_a_yes_no_choice_flips_when_negated() -> None:
    assert YES_NO.pick("not needed") is False
    assert YES_NO.pick("yes") is True
    approve = Choices({True: "approv\\w*"}, flip=lambda v: not v)
    assert approve.pick("I cannot approve this") is False


def test_a_label_wins_over_words_elsewhere() -> None:
    text = "High volatility everywhere, but severity: low."
    assert read_choice(text, LEVEL, labels=("severity",)) == "low"
    assert read_choice("a high-severity move", LEVEL, labels=("severity",)) == "high"
    assert read_choice("High winds.", LEVEL, labels=("severity",), use_prose=False) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("confidence 72%", 0.72),
        ("Confidence: 0.72", 0.72),
        ("confidence .75", 0.75),
        ("confidence is about 70 percent", 0.7),
        ("I'm 95% sure", 0.95),
        ("80% confidence", 0.8),
        ("confidence 8/10", 0.8),
        ("confidence: 72", 0.72),
        ("Confidence: high", 0.75),
        ("confidence very low", 0.1),
        ("my confidence in this call: 0.6", 0.6),
        ("confidence 1.7", None),
        ("confidence 140%", None),
        ("ETH fell 4%.", None),
    ],
)
def test_fractions(text: str, value: float | None) -> None:
    assert read_fraction(text, "confidence", after="confiden\\w*|sure") == value


def test_signed_counts_and_dollars() -> None:
    assert read_signed("pleasure -0.4", "pleasure") == -0.4
    assert read_signed("valence: -40%", "valence") == -0.4
    assert read_signed("pleasure 3", "pleasure") is None
    assert read_count("Evaluated: 12", "evaluat\\w*") == 12
    assert read_count("12 entries were evaluated", "evaluat\\w*") == 12
    assert read_count("9 of 12 evaluated", "evaluat\\w*") == 12
    assert read_usd("Adjusted size: $2,500", "adjusted(?: size)?") == 2500
    assert read_usd("cap at 1.2k USD", "cap at") == 1200
    assert read_usd("size: 3 million", "size") == 3_000_000


def test_items_from_bullets_lines_and_inline_lists() -> None:
    body = "- first\n  continued\n* second\n1. third\n2) fourth\n- none"
    assert items(body, limit=8, max_chars=50) == ["first continued", "second", "third", "fourth"]
    assert items("a\nb", limit=8, max_chars=50) == ["a", "b"]
    assert items("cut leverage; add collateral", limit=8, max_chars=50) == [
        "cut leverage",
        "add collateral",
    ]
    assert items("red, green and blue", limit=8, max_chars=50) == ["red", "green and blue"]
    assert items("a, b, c", limit=2, max_chars=50) == ["a", "b"]


def test_sections_from_headings_bold_lines_and_labels() -> None:
    text = clean("# Lessons\n- a\n**Mistakes**\n- b\nKilled by: c\nmore prose\nArc:\n- d")
    assert sections(text) == [
        ("Lessons", "- a"),
        ("Mistakes", "- b"),
        ("Killed by", "c"),
        ("Arc", "- d"),
    ]


def test_clean_drops_reasoning_and_emphasis() -> None:
    assert clean("<think>exit!</think>**Action:** _hold_ `now`") == "Action: _hold_ now"
    assert clean("## Heading ##") == "Heading:"
    assert clean("#12 supports #14") == "#12 supports #14"


def test_clip_and_strip_meta() -> None:
    assert clip("  a   b  ", 10) == "a b"
    assert clip("abcdefghij", 5) == "abcd…"
    assert strip_meta("hedges pay (confidence 0.8) [source: replay]", "confidence|source") == (
        "hedges pay"
    )
    assert strip_meta("stops get hunted, 80% plausible", "plausib\\w*") == "stops get hunted"


def test_a_paraphrase_counts_only_where_no_plain_word_stands() -> None:
    move = Choices(
        {"rebalance": r"rebalanc\w*", "hedge": r"hedg\w*"},
        paraphrases={"rebalance": r"reduce exposure"},
    )
    assert move.pick("We should reduce exposure.") == "rebalance"
    assert move.pick("Reduce exposure by hedging with a short perp.") == "hedge"
    assert move.pick("No need to reduce exposure.") is None


def test_a_pronoun_later_in_the_sentence_takes_the_word_back() -> None:
    assert MOVE.pick("Exiting would lock in the loss, so I advise against it. Hedge.") == "hedge"
    assert MOVE.pick("Hedge now; exiting is too drastic, it is premature.") == "hedge"


def test_a_label_written_beside_its_value_and_a_labelled_number() -> None:
    level = Choices({"none": "none", "low": "low", "high": "high"})
    assert read_choice("Market calm. Severity none.", level, labels=("severity",)) == "none"
    assert read_choice("the severity level is low", level, labels=("severity",)) == "low"

    def scale(fraction: float) -> str:
        return "high" if fraction > 0.5 else "low"

    assert read_choice("Severity: 4/5", level, labels=("severity",), scale=scale) == "high"
    assert read_choice("Severity: 0.2", level, labels=("severity",), scale=scale) == "low"
    assert read_choice("Severity: 3", level, labels=("severity",), scale=scale) is None
    assert read_fraction("confidence 3/5", "confidence") == 0.6


def test_a_question_answered_at_once_and_a_negation_only_of_the_form() -> None:
    assert MOVE.pick("Exit? No, not yet. Wait.") == "wait"
    assert MOVE.pick("Should we hedge? Yes.") == "hedge"
    approve = Choices({True: r"approv\w*"}, flip=lambda v: not v)
    assert approve.pick("Approve? No.") is False
    assert approve.pick("I would not approve it as is; approve at half the size.") is True


def test_tables_and_run_together_pairs_become_labelled_lines() -> None:
    assert clean("| Evaluated | Pruned |\n|---|:-:|\n| 9 | 2 |") == "Evaluated: 9\nPruned: 2\n"
    rows = "| Layer | Result |\n|---|---|\n| Market | pass, 0.2 |\n| Sizing | fail | 0.9 |"
    assert clean(rows) == "Market: pass, 0.2\nSizing: fail, 0.9\n"
    assert clean("killed_by=fees; learned=patience") == "killed_by=fees\nlearned=patience"
    assert sections(clean("sev=1, act=two")) == [("sev", "1"), ("act", "two")]


def test_arrays_and_spelled_proportions_and_counts() -> None:
    assert items('["cut leverage", "add collateral"]', limit=5, max_chars=50) == [
        "cut leverage",
        "add collateral",
    ]
    assert items("['a', b]", limit=5, max_chars=50) == ["a", "b"]
    assert read_fraction("confidence seventy-five percent", "confidence") == 0.75
    assert read_fraction("chance: about one in five", "chance") == 0.2
    assert read_fraction("likelihood 3 in 10 hours", "likelihood") != 0.3  # a time, not odds
    assert read_count("I looked at twelve entries", "looked at") == 12
    assert read_count("it survived two crashes", "surviv\\w*") is None


def test_a_negated_need_reaches_over_its_clause() -> None:
    assert MOVE.pick("There's no need for drastic action like exiting; hold.") == "wait"
    assert MOVE.pick("This doesn't warrant an exit or a hedge. Keep waiting.") == "wait"
