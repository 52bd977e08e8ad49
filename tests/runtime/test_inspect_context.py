"""`golem inspect` reads the context record of each decision: filters by profile and by
quarantine, and the summary counts profiles, masked values and quarantined items."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.cli import main
from golem.runtime.logs.read import EventFilter
from golem.runtime.logs.summary import summarize

QUARANTINED = {"ref": "feed-1", "source": "news", "reasons": ["override", "command"]}
EVENTS = [
    {
        "event": "decision",
        "time": "2026-05-04T08:00:00+00:00",
        "subsystem": "risk",
        "source": "model",
        "profile": "full",
        "summary": "approved hedge",
        "context": {
            "layers": ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"],
            "tokens": 1605,
            "limit": 3000,
            "counted_by": "estimate",
            "masked": {"address": 2, "key": 1},
            "external": 3,
            "quarantined": [QUARANTINED],
        },
    },
    {
        "event": "decision",
        "time": "2026-05-04T08:00:15+00:00",
        "subsystem": "heartbeat",
        "source": "model",
        "profile": "fast",
        "summary": "moderate: observe",
        "context": {"layers": ["L1", "L3", "L6"], "tokens": 440, "limit": 1200},
    },
    {"event": "decision", "subsystem": "heartbeat", "source": "deterministic"},
]


def test_filters_by_profile_and_by_quarantine() -> None:
    assert [e["subsystem"] for e in EventFilter.of(quarantined=True).select(EVENTS)] == ["risk"]
    assert [e["profile"] for e in EventFilter.of(profiles=["FAST"]).select(EVENTS)] == ["fast"]


def test_the_summary_counts_profiles_masks_and_quarantines() -> None:
    summary = summarize(EVENTS).to_json()["subsystems"]
    assert summary["risk"]["profiles"] == {"full": 1}
    assert (summary["risk"]["masked"], summary["risk"]["quarantined"]) == (3, 1)
    assert summary["risk"]["prompt_tokens_max"] == 1605
    assert summary["heartbeat"]["profiles"] == {"fast": 1}
    assert summary["heartbeat"]["quarantined"] == 0


def test_the_table_marks_quarantined_prompts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "golem.log"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in EVENTS))
    assert main(["inspect", str(log), "--quarantined"]) == 0
    out = capsys.readouterr().out
    assert "[quarantined feed-1] approved" in out and "moderate: observe" not in out
