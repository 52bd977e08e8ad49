"""The local grammar's per-call narrowing of a decision's schema: free texts held to words,
fields named by a request's `choices` held to the values given; pure, no model."""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator

import golem.subsystems
from golem.inference.local.specialise import specialise, with_choices, without, worded
from golem.subsystems import CuratorEvaluation, DreamIntegration, ThreatAssessment

DECISIONS = golem.subsystems.DECISIONS


def _schema(kind: type) -> dict:  # type: ignore[type-arg]
    return dict(kind.response_schema().schema)


def test_threat_texts_are_held_to_words() -> None:
    local = worded(_schema(ThreatAssessment))
    assert "/threat_type: sentence" in local.added
    assert "/mitigation_actions/*: phrase" in local.added
    item = local.schema["properties"]["mitigation_actions"]["items"]
    pattern = re.compile(item["pattern"])
    for bad in (",", "A", "B", "A B", "hedge", "- -"):
        assert not pattern.match(bad), bad
    for good in ("cap leverage at 2x", "Hedge 50% now", "withdraw idle liquidity"):
        assert pattern.match(good), good
    assert item["minLength"] >= 8 and item["maxLength"] == 120


def test_a_sentence_may_open_with_a_one_letter_word() -> None:
    local = worded(_schema(golem.subsystems.DeathTestament))
    pattern = re.compile(local.schema["properties"]["killed_by"]["pattern"])
    assert pattern.match("A low escalation threshold burned credits")
    assert not pattern.match("A B C D")


@pytest.mark.parametrize("kind", DECISIONS, ids=lambda k: k.response_schema().name)
def test_the_local_schema_is_narrower_and_admits_the_worked_examples(kind: type) -> None:
    """Keywords are only added; the worked example (shown to the model) fits them."""
    original = _schema(kind)
    local = worded(original).schema
    Draft202012Validator.check_schema(local)
    assert kind.worked_examples
    for example in kind.worked_examples:
        answer = dict(example.answer)
        assert list(Draft202012Validator(local).iter_errors(answer)) == []
        assert list(Draft202012Validator(original).iter_errors(answer)) == []


def test_ids_become_the_ids_given() -> None:
    choices = {
        "/promoted/*/hypothesis_id": ("", "g1", "g2"),
        "/staged/*/hypothesis_id": ("", "g1", "g2"),
        "/nowhere": ("x",),
    }
    local = specialise(_schema(DreamIntegration), choices)
    item = local.schema["properties"]["promoted"]["items"]["properties"]["hypothesis_id"]
    assert item["enum"] == ["", "g1", "g2"]
    assert "/promoted/*/hypothesis_id: one of 3" in local.added
    assert not any(a.startswith("/nowhere") for a in local.added)
    discarded = local.schema["properties"]["discarded"]["items"]["properties"]["hypothesis_id"]
    assert "enum" not in discarded  # not named: left as it was


def test_no_id_to_give_leaves_the_list_empty() -> None:
    local = with_choices(worded(_schema(CuratorEvaluation)), {"/prune_ids/*": ()})
    assert local.schema["properties"]["prune_ids"]["maxItems"] == 0
    answer = {"prune_ids": ["g1"]}
    assert list(
        Draft202012Validator(local.schema["properties"]["prune_ids"]).iter_errors(
            answer["prune_ids"]
        )
    )


def test_the_curator_counts_it_derives_are_not_asked_for() -> None:
    schema = CuratorEvaluation.response_schema()
    assert schema.derived == ("entries_retained", "entries_pruned")
    local = without(worded(dict(schema.schema)), schema.derived)
    assert set(local.schema["required"]).isdisjoint(schema.derived)
    assert set(local.schema["properties"]).isdisjoint(schema.derived)
    assert {"/entries_retained: derived", "/entries_pruned: derived"} <= set(local.added)
    assert set(schema.schema["required"]) >= set(schema.derived)  # the contract still asks


def test_an_answer_without_the_derived_counts_has_them_counted() -> None:
    answer = {"entries_evaluated": 4, "prune_ids": ["g2", "g4"], "grimoire_health": 0.6}
    decision = CuratorEvaluation.of(answer)
    assert (decision.entries_pruned, decision.entries_retained) == (2, 2)
    assert decision.validate_content() == []
    given = CuratorEvaluation.of(answer | {"entries_retained": 1, "entries_pruned": 3})
    assert (given.entries_pruned, given.entries_retained) == (3, 1)  # an answer's own stand
