"""Free-text appraisals as models write them, each with the emotion (and PAD values) it means."""

from __future__ import annotations

from typing import Any

CORPUS: list[tuple[str, dict[str, Any]]] = [
    (
        (
            "Primary emotion: fear\nPleasure: -0.6\nArousal: 0.7\nDominance: -0.4\nTrigger: a 9% "
            "drop"
        ),
        {"primary_emotion": "fear", "pleasure": -0.6},
    ),
    ("I feel anxious about the drawdown.", {"primary_emotion": "fear"}),
    (
        "Emotion: joy. The hedge paid off. PAD: 0.7, 0.4, 0.6",
        {"primary_emotion": "joy", "pleasure": 0.7},
    ),
    (
        (
            "This is frustrating; the trade was blocked again. Anger, moderate. Pleasure -0.5, "
            "arousal 0.5, dominance 0.2."
        ),
        {"primary_emotion": "anger", "dominance": 0.2},
    ),
    (
        "Not fear exactly, more surprise: nobody expected the depeg.",
        {"primary_emotion": "surprise"},
    ),
    (
        "Mostly sadness at the loss, with some anger. Secondary: anger.",
        {"primary_emotion": "sadness", "secondary_emotion": "anger"},
    ),
    (
        "primary_emotion=trust pleasure=0.4 arousal=-0.2 dominance=0.3",
        {"primary_emotion": "trust", "arousal": -0.2},
    ),
    (
        "I am hopeful the setup plays out; anticipation is the word.",
        {"primary_emotion": "anticipation"},
    ),
    (
        "The golem feels relieved and pleased that the position survived.",
        {"primary_emotion": "joy"},
    ),
    (
        "Emotion: disgust (the strategy went bad in a way that should have been obvious)",
        {"primary_emotion": "disgust"},
    ),
    ("I'm not happy. I'm worried. Fear, intensity 0.8.", {"primary_emotion": "fear"}),
    (
        "**Primary Emotion**: Surprise\n**Secondary Emotion**: Fear\n**Pleasure**: -0.2",
        {"primary_emotion": "surprise", "secondary_emotion": "fear"},
    ),
]
