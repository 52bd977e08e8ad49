"""Thanatopsis's mind for the synthetic provider: a testament that names the cause of
death and the arc the records read (both as the brief states them), and draws its lessons,
mistakes and causal links from small pools."""

from __future__ import annotations

from random import Random
from typing import Any

from golem.subsystems.death.records import killed_by, records_testament
from golem.subsystems.death.subsystem import Thanatopsis
from golem.subsystems.facts import LESSONS, Ask, Percept, some, unit

__all__ = ["testament"]

_MISTAKES = ("trusted a trend too long", "spent on thinking in calm markets")
_PUZZLES = ("why volume led price", "the regime shifts without warning")
_UNTESTED = ("a slower heartbeat in calm markets",)
_CHANGES = ("keep a larger cash buffer", "think less when nothing moves")
_SUSPECTS = ("volatility clusters around funding", "the crash was a liquidity event")
_LINKS = (
    ("thin liquidity", "slippage on exits"),
    ("overtrading", "a faster burn"),
    ("a crash", "a falling vitality"),
)


def testament(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A death_testament."""
    cause, arc = "", ""
    if ask is not None:
        config = ask.asked_by(Thanatopsis).config
        cause = killed_by(ask.ctx).strip()
        arc = str(records_testament(ask.ctx, config).arc_class).lower()
    arc = arc or ("tragic" if Percept.of(ask).stress > 0.5 else "stable")
    links = [
        {"cause": c, "effect": e, "confidence": unit(0.4 + 0.5 * rng.random())}
        for c, e in _LINKS[: int(rng.random() * 3)]
    ]
    return {
        "learned": some(LESSONS, rng, 1, 3),
        "got_wrong": some(_MISTAKES, rng, 0, 2),
        "confused_by": some(_PUZZLES, rng, 0, 2),
        "never_tested": some(_UNTESTED, rng, 0, 1),
        "killed_by": cause or "the credits ran out",
        "would_change": some(_CHANGES, rng, 1, 2),
        "suspects": some(_SUSPECTS, rng, 0, 1),
        "causal_links": links,
        "emotional_arc": "hope, then strain, then acceptance",
        "arc_class": arc,
    }
