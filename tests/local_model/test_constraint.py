"""Compiling schemas for the decoder, without the model: once per (backend, schema), and
one log line per schema naming the keywords the backend leaves to client-side checks."""

from __future__ import annotations

from structlog.testing import capture_logs

from golem.inference.local.bounds import Backend, DecoderBounds
from golem.inference.local.constraint import SchemaCache
from golem.subsystems import HeartbeatDecision

SCHEMA = HeartbeatDecision.response_schema().schema


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
