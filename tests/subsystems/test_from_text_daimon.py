"""DaimonAppraisal.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.daimon import DaimonAppraisal

from .reading import assert_reads, assert_unparseable

FEAR = {"pleasure": -0.5, "arousal": 0.7, "dominance": -0.5}

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Emotion: fear. Pleasure -0.6, arousal 0.8, dominance -0.4. Intensity 80%. "
        "Trigger: ETH fell 7% in an hour.",
        {
            "primary_emotion": "fear",
            "pleasure": -0.6,
            "arousal": 0.8,
            "dominance": -0.4,
            "intensity": 0.8,
            "trigger": "ETH fell 7% in an hour.",
        },
    ),
    (
        "I feel mildly anxious about the funding flip, not angry.",
        {"primary_emotion": "fear", "intensity": 0.3, **FEAR},
    ),
    (
        "**Emotion:** Joy\nPAD: (0.7, 0.4, 0.5)\nThe hedge paid off.",
        {"primary_emotion": "joy", "pleasure": 0.7, "arousal": 0.4, "dominance": 0.5},
    ),
    (
        "Not surprised at all; rather a deep sense of trust in the plan.",
        {"primary_emotion": "trust", "pleasure": 0.5, "intensity": 0.5},
    ),
    (
        "I'm angry: P=-0.5, A=0.6, D=0.2",
        {"primary_emotion": "anger", "pleasure": -0.5, "arousal": 0.6, "dominance": 0.2},
    ),
    (
        "Emotion - sadness\nIntensity: 40%\nValence: -0.6\nTrigger: the hedge expired worthless",
        {
            "primary_emotion": "sadness",
            "intensity": 0.4,
            "pleasure": -0.6,
            "arousal": -0.3,
            "trigger": "the hedge expired worthless",
        },
    ),
    (
        "Very surprised by the regime shift, though not afraid.",
        {"primary_emotion": "surprise", "intensity": 0.8, "pleasure": -0.2, "arousal": 0.7},
    ),
    (
        "primary_emotion=anticipation; arousal=0.5; intensity=.6",
        {"primary_emotion": "anticipation", "arousal": 0.5, "intensity": 0.6, "pleasure": 0.2},
    ),
    (
        "No fear here. Honestly, I'm disgusted by how the pool was drained. Pleasure -0.7.",
        {"primary_emotion": "disgust", "pleasure": -0.7},
    ),
    (
        "<think>fear? joy?</think>Primary primary_emotion: joy. Strongly pleased with the exit, "
        "intensity 0.9.",
        {"primary_emotion": "joy", "intensity": 0.9, "pleasure": 0.6},
    ),
    (
        "Feeling: frustrated (anger), dominance +0.3",
        {"primary_emotion": "anger", "dominance": 0.3, "pleasure": -0.5},
    ),
    (
        "Mood: worried. PAD = -0.3/0.6/-0.2 after the health factor fell to 1.3.",
        {"primary_emotion": "fear", "pleasure": -0.3, "arousal": 0.6, "dominance": -0.2},
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(DaimonAppraisal, text, expected)


@pytest.mark.parametrize("text", ["The weather is nice.", "Price: 2400.", "I feel nothing."])
def test_no_emotion_is_unparseable(text: str) -> None:
    assert_unparseable(DaimonAppraisal, text)


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_readings_pass_their_content_checks(text: str, expected: dict[str, Any]) -> None:
    assert DaimonAppraisal.from_text(text).validate_content() == []
