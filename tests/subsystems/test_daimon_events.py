"""The daimon's events in words: every rule kind has its wording, the brief lists the events
in words and holds the trigger to them (`choices`), the rule table's trigger reads the same,
and the local grammar admits only those triggers. No model."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from golem.inference.local.specialise import specialise
from golem.mortality import PipelineProfile
from golem.subsystems.context.assemble import assemble
from golem.subsystems.contract import Event
from golem.subsystems.daimon import (
    DEFAULT_RULES,
    WORDING,
    Daimon,
    DaimonAppraisal,
    appraise,
    event_line,
    trigger_choices,
    worded,
)
from golem.subsystems.meaning import words
from tests.policy import APPRAISAL, CONTEXT, DAIMON

from .support import context


@pytest.mark.parametrize("kind", sorted(DEFAULT_RULES))
def test_every_rule_kind_has_words_of_its_own(kind: str) -> None:
    assert kind in WORDING
    text = worded(Event(kind))
    assert "_" not in text and words(text) >= 3


def test_the_rule_kinds_read_apart() -> None:
    texts = [worded(Event(kind)) for kind in DEFAULT_RULES]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (Event("trade_loss", 0.062), "a trade closed at a 6.2% loss"),
        (Event("trade_loss"), "a trade closed at a loss"),
        (Event("trade_profit", 0.0012), "a trade closed at a 0.12% profit"),
        (Event("regime_shift"), "the market regime shifted"),
        (Event("regime_shift", 0.03), "the market regime shifted, 3%"),
        (Event("phase_decline"), "vitality fell to a weaker phase"),
        (Event("threat_critical"), "threat critical"),  # no wording: its own text, spaced
        (Event("dream_fragment_incubating"), "dream fragment incubating"),
    ],
)
def test_an_event_in_words(event: Event, text: str) -> None:
    assert worded(event) == text


def test_the_brief_line_keeps_the_event_recognisable() -> None:
    loss = Event("trade_loss", 0.062)
    assert event_line(loss) == "- a trade closed at a 6.2% loss (trade_loss:0.0620)"
    assert event_line(Event("threat_critical")) == "- threat critical"  # nothing to add


def test_the_rule_appraisal_names_the_event_in_the_brief_words() -> None:
    events = [Event("regime_shift"), Event("trade_loss", 0.06)]
    assert appraise(events, APPRAISAL).trigger == "a trade closed at a 6% loss"
    assert appraise([], APPRAISAL).trigger == worded(Event("unknown"))


def test_the_brief_lists_the_events_in_words_and_holds_the_trigger_to_them() -> None:
    events = (Event("regime_shift"), Event("trade_loss", 0.06), Event("regime_shift"))
    ctx = context(events=events)
    prompt = assemble(Daimon(DAIMON).brief(ctx), ctx, PipelineProfile.FAST, settings=CONTEXT)
    text = prompt.request.messages[-1].content or ""
    assert "- the market regime shifted (regime_shift)" in text
    assert "- a trade closed at a 6% loss (trade_loss:0.0600)" in text
    assert prompt.request.choices == {
        "/trigger": ("the market regime shifted", "a trade closed at a 6% loss")
    }


def test_a_trigger_choice_fits_the_field() -> None:
    long = "x_" * 100
    (choice,) = trigger_choices([Event(long)])
    assert len(choice) == 120
    assert DaimonAppraisal.model_fields["trigger"].metadata[0].max_length == 120


def test_the_local_grammar_admits_only_a_listed_trigger() -> None:
    choices = {"/trigger": trigger_choices([Event("regime_shift"), Event("trade_loss", 0.06)])}
    narrowed = DaimonAppraisal.narrowed_schema(DaimonAppraisal.response_schema().schema)
    local = specialise(narrowed, choices)
    assert "/trigger: one of 2" in local.added
    validator = Draft202012Validator(local.schema)
    answer = appraise([Event("trade_loss", 0.06)], APPRAISAL).model_dump(mode="json")
    assert validator.is_valid(answer)
    assert not validator.is_valid(answer | {"trigger": "a stop-loss fired twice in an hour"})
    assert not validator.is_valid(answer | {"trigger": "trade_loss:0.0600"})


def test_the_worked_examples_name_no_event_a_brief_could_list() -> None:
    listed = {worded(Event(kind)) for kind in DEFAULT_RULES}
    for example in DaimonAppraisal.worked_examples:
        trigger = example.answer["trigger"]
        assert trigger not in listed
        assert words(trigger) >= 3  # an event in words, like the ones a brief lists


def test_each_worked_example_recalls_the_event_it_names() -> None:
    """Both examples show one pattern, memory_bias recalling the trigger's event: an
    example recalling another part of its situation was copied whatever the event."""
    for example in DaimonAppraisal.worked_examples:
        trigger, bias = example.answer["trigger"], example.answer["memory_bias"]
        assert bias.startswith("recall when ")
        recalled = {w for w in set(bias.split()) & set(trigger.split()) if len(w) >= 4}
        assert len(recalled) >= 2, (trigger, bias)  # "hedge paid", "stop-loss fired"
