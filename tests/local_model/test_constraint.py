"""Compiling schemas for the decoder, without the model: once per (backend, schema), and
one log line per schema naming the keywords the backend leaves to client-side checks."""

from __future__ import annotations

from structlog.testing import capture_logs

from golem.inference.local.bounds import Backend, DecoderBounds
from golem.inference.local.constraint import SchemaCache
from golem.subsystems import CuratorEvaluation, HeartbeatDecision

SCHEMA = HeartbeatDecision.response_schema().schema
CURATOR = CuratorEvaluation.response_schema().schema


def test_each_backend_compiles_a_schema_once() -> None:
    cache = SchemaCache(DecoderBounds())
    first = cache.get("heartbeat_decision", SCHEMA, Backend.LLGUIDANCE)
    assert cache.get("heartbeat_decision", dict(SCHEMA), Backend.LLGUIDANCE) is first
    cache.get("heartbeat_decision", SCHEMA, Backend.LLAMA_GRAMMAR)
    assert cache.compilations == 2
    assert first.schema["properties"]["rationale"]["maxLength"] <= 200
    assert "- severity: one of none|low|moderate|high|critical" in first.outline


def test_ignored_keywords_are_logged_once_per_schema() -> None:
    cache = SchemaCache(DecoderBounds())
    with capture_logs() as logs:
        for _ in range(3):
            cache.get("heartbeat_decision", SCHEMA, Backend.LLAMA_GRAMMAR)
            cache.get("heartbeat_decision", SCHEMA, Backend.LLGUIDANCE)
    assert logs == [
        {
            "event": "local decoder ignores schema keywords; checked client-side",
            "log_level": "info",
            "schema": "heartbeat_decision",
            "backend": "llama-grammar",
            "keywords": ["maximum", "minimum", "multipleOf"],
        }
    ]


def test_every_schema_compiles_with_its_words() -> None:
    import golem.subsystems

    cache = SchemaCache(DecoderBounds())
    for decision in golem.subsystems.DECISIONS:
        schema = decision.response_schema()
        compiled = cache.get(schema.name, schema.schema, Backend.LLGUIDANCE)
        has_text = schema.name != "fragment_evaluation"  # four numbers and an enum
        assert bool(compiled.added) == has_text, schema.name


def test_a_call_with_choices_compiles_its_own_constraint() -> None:
    cache = SchemaCache(DecoderBounds())
    plain = cache.get("curator_evaluation", CURATOR, Backend.LLGUIDANCE)
    chosen = cache.get(
        "curator_evaluation", CURATOR, Backend.LLGUIDANCE, {"/prune_ids/*": ("g1", "g2")}
    )
    assert cache.compilations == 1  # the per-call one is not kept
    assert "/prune_ids/*: one of 2" in chosen.added
    assert not any("one of" in a for a in plain.added)
    assert "one of g1|g2" in chosen.outline


def test_the_llama_grammar_gets_the_choices_but_no_patterns() -> None:
    cache = SchemaCache(DecoderBounds())
    chosen = cache.get(
        "curator_evaluation", CURATOR, Backend.LLAMA_GRAMMAR, {"/prune_ids/*": ("g1",)}
    )
    assert chosen.added == ("/prune_ids/*: one of 1",)
