"""The console's line per event: short, readable, what a person watching needs."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import structlog

from golem.runtime.logs.console import ConsoleLine
from golem.runtime.logs.sinks import configure_logging

# A real model decision's log line, as the log file holds it (trimmed of nothing).
_MODEL_DECISION: dict[str, Any] = {
    "timestamp": "2026-11-24T12:00:15.250000+00:00",
    "level": "info",
    "event": "decision",
    "golem": "golem-openai",
    "time": "2026-11-24T12:00:15+00:00",
    "tick": 12,
    "subsystem": "daimon",
    "tier": "1",
    "tier_asked": "1",
    "source": "model",
    "vitality": 0.687312,
    "phase": "stable",
    "cost_usd": 7.51e-05,
    "tokens": {"input": 412, "output": 61, "reasoning": 0},
    "profile": "standard",
    "reasoning_depth": "shallow",
    "budget_left_usd": 0.0421,
    "mode": "schema_enforced",
    "provider": "openai",
    "model": "gpt-4.1-nano",
    "attempts": 1,
    "repairs": [],
    "downgrades": [],
    "latency_s": 0.8123,
    "context": {"layers": ["identity", "market", "memory"], "tokens": 412},
    "decision": {
        "pleasure": 0.4,
        "arousal": 0.2,
        "dominance": 0.1,
        "primary_emotion": "anticipation",
        "trigger": "price rose 2% on rising volume " * 4,
    },
    "summary": "anticipation (P 0.40, A 0.20, D 0.10)",
}

_RULES_DECISION = {
    "timestamp": "2026-11-24T12:00:00+00:00",
    "level": "info",
    "event": "decision",
    "tick": 11,
    "subsystem": "heartbeat",
    "tier": "0",
    "source": "deterministic",
    "vitality": 0.69,
    "phase": "stable",
    "cost_usd": 0.0,
    "summary": "low: observe",
}


def test_a_model_decision_is_one_short_line_with_what_a_watcher_needs() -> None:
    line = ConsoleLine(width=160)(_MODEL_DECISION)
    assert "\n" not in line and len(line) <= 160
    for part in ("12:00:15", "decision", "daimon", "tier 1", " openai:gpt-4.1-nano "):
        assert part in line
    assert "anticipation (P 0.40" in line
    assert "$0.0000751" in line
    assert "vitality 0.69 stable" in line
    assert "trigger" not in line and "tokens" not in line  # the file keeps the rest


def test_a_rules_decision_reads_as_the_readme_shows() -> None:
    line = ConsoleLine(width=120)(_RULES_DECISION)
    assert line.split() == [
        "12:00:00",
        "decision",
        "heartbeat",
        "tier",
        "0",
        "deterministic",
        "low:",
        "observe",
        "$0",
        "vitality",
        "0.69",
        "stable",
    ]


@pytest.mark.parametrize("width", [80, 90, 100, 110])
def test_a_narrow_terminal_still_shows_cost_vitality_and_what_was_decided(width: int) -> None:
    """80 columns cut every decision after its summary's first word (issue 33, item 17):
    the cost and the vitality are chosen first, then the summary, then the model."""
    line = ConsoleLine(width=width)(_MODEL_DECISION)
    assert len(line) <= width
    assert line.endswith("  $0.0000751  vitality 0.69 stable")
    assert "anticipation (P 0" in line
    assert ("gpt-4.1-nano" in line) is (width > 80)
    rules = ConsoleLine(width=width)(_RULES_DECISION)
    assert rules.endswith("low: observe  $0  vitality 0.69 stable")
    assert "T0" in rules or "tier 0  deterministic" in rules


def test_lines_fit_a_narrow_terminal() -> None:
    line = ConsoleLine(width=60)(_MODEL_DECISION)
    assert len(line) <= 60 and "$0.0000751  vitality 0.69 stable" in line
    other = {"timestamp": "2026-11-24T12:00:00+00:00", "level": "info", "event": "vitality"}
    other |= {f"key{i}": "x" * 100 for i in range(10)}
    assert len(ConsoleLine(width=80)(other)) <= 80


def test_other_events_show_scalar_fields_and_a_warning_says_so() -> None:
    line = ConsoleLine(width=200)(
        {
            "timestamp": "2026-11-24T12:00:00+00:00",
            "level": "warning",
            "event": "provider_error",
            "subsystem": "risk",
            "error": "timeout",
            "details": {"nested": True},
            "exception": "Traceback (most recent call last):\n  ...\nTimeoutError: read timed out",
        }
    )
    assert line.startswith("12:00:00 WARNING provider_error")
    assert "subsystem=risk" in line and "error=timeout" in line
    assert "exception=TimeoutError: read timed out" in line
    assert "nested" not in line


def test_the_pretty_console_uses_it_and_the_file_keeps_everything(tmp_path: Path) -> None:
    console = io.StringIO()
    log_file = tmp_path / "golem.log"
    fields = {k: v for k, v in _MODEL_DECISION.items() if k not in ("timestamp", "level", "event")}
    with configure_logging(
        now=lambda: datetime(2026, 11, 24, 12, tzinfo=UTC),
        file=log_file,
        console="pretty",
        console_stream=console,
    ):
        structlog.get_logger("golem").info(
            "decision", timestamp=_MODEL_DECISION["timestamp"], **fields
        )
    (line,) = console.getvalue().splitlines()
    assert len(line) < 200 and "daimon" in line
    assert b'"trigger"' in log_file.read_bytes()
