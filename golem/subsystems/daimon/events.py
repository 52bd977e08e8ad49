"""The daimon's notable events (the contract's Event: a kind and, for a trade's result, its
size, e.g. Event("trade_loss", 0.062)) said in words ("a trade closed at a 6.2% loss"):
what the brief lists, what an appraisal's `trigger` names, by model or by the rule table
alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from golem.subsystems.contract import Event

__all__ = ["WORDING", "Event", "event_line", "worded", "worded_events"]


# Each rule kind in words, and in words with its magnitude ({size}: "6.2%"). A magnitude
# on a kind with no second form follows its words after a comma.
WORDING: Mapping[str, tuple[str, str | None]] = {
    "trade_profit": ("a trade closed at a profit", "a trade closed at a {size} profit"),
    "trade_loss": ("a trade closed at a loss", "a trade closed at a {size} loss"),
    "trade_loss_large": (
        "a trade closed at a large loss",
        "a trade closed at a large {size} loss",
    ),
    "regime_shift": ("the market regime shifted", None),
    "prediction_miss": ("the market moved against the golem's prediction", None),
    "prediction_hit": ("the market moved as the golem predicted", None),
    "trade_blocked": ("risk blocked a trade the golem wanted", None),
    "trade_gated": ("the golem's own record of predictions did not back a trade it wanted", None),
    "calibration_gap": (
        "the golem's stated confidence proved far from its accuracy",
        "the golem's stated confidence proved far from its accuracy (calibration error {size})",
    ),
    "health_warning": ("a lending position came near liquidation", None),
    "death_approach": ("vitality fell into the terminal phase", None),
    "phase_decline": ("vitality fell to a weaker phase", None),
    "phase_recovery": ("vitality recovered to a stronger phase", None),
    "birth": ("the golem was born with a full wallet", None),
    "unknown": ("an event the golem has no rule for", None),
}


def worded(event: Event) -> str:
    """The `event` in words; a kind with no wording is its own text, underscores as spaces
    (`threat_critical` → "threat critical")."""
    wording = WORDING.get(event.kind)
    if wording is None:
        return str(event).replace("_", " ")
    plain, sized = wording
    if event.magnitude is None:
        return plain
    size = f"{event.magnitude * 100:.3g}%"
    return sized.format(size=size) if sized else f"{plain}, {size}"


def worded_events(events: Iterable[Event]) -> tuple[str, ...]:
    """Each event of `events` in words, in order, once."""
    return tuple(dict.fromkeys(worded(event) for event in events))


def event_line(event: Event) -> str:
    """The event as the brief lists it: in words, with its own text after where the words
    are not just that text respaced (`- a trade closed at a 6.2% loss (trade_loss:0.0620)`)."""
    words = worded(event)
    raw = str(event)
    return f"- {words}" if words == raw.replace("_", " ") else f"- {words} ({raw})"
