"""A model call's progress while it thinks, for whoever watches it (the console of `golem
run`): it started, how many reasoning tokens so far, it is done. Typed events handed to a
plain callable that a Request carries (`Request.progress`); no listener, no events and no
cost. Nothing here knows how they are shown.

Counts during a stream: the provider's own reasoning count when its stream has reported
one, else an estimate from the reasoning text streamed so far (`CHARS_PER_TOKEN`). A
provider that streams no reasoning text (an opaque one) is counted only when done.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "CHARS_PER_TOKEN",
    "ReasoningMeter",
    "Thinking",
    "ThinkingDone",
    "ThinkingSink",
    "ThinkingStarted",
    "ThinkingTokens",
]

CHARS_PER_TOKEN = 4  # the usual rule of thumb for English text, for an estimate only


@dataclass(frozen=True, slots=True)
class ThinkingStarted:
    """A call for a decision began (its first attempt is sent)."""


@dataclass(frozen=True, slots=True)
class ThinkingTokens:
    """Reasoning tokens so far, over every attempt of the call; `counted` when the number
    is the provider's own, else estimated from the text streamed."""

    tokens: int
    counted: bool = False


@dataclass(frozen=True, slots=True)
class ThinkingDone:
    """The call ended (answered, or failed): the reasoning tokens its attempts reported."""

    tokens: int


Thinking = ThinkingStarted | ThinkingTokens | ThinkingDone
ThinkingSink = Callable[[Thinking], None]


class ReasoningMeter:
    """Reads one streamed answer's reasoning as it grows and tells `sink` each time the
    count goes up."""

    __slots__ = ("_sink", "_told")

    def __init__(self, sink: ThinkingSink) -> None:
        self._sink = sink
        self._told = 0

    def observe(self, chars: int, reported: int | None) -> None:
        """`chars` of reasoning text streamed so far; `reported`, the provider's count if
        its stream gave one yet."""
        if reported:
            tokens, counted = reported, True
        else:
            tokens, counted = -(-chars // CHARS_PER_TOKEN), False
        if tokens > self._told:
            self._told = tokens
            self._sink(ThinkingTokens(tokens, counted))
