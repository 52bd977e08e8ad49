"""A fast-forward's quiet stretch in the log (issue [speed]): one line, event
`quiet_stretch`, stands for the heartbeat decisions the rules made on its ticks (T0: PE
below the gate; observe, severity low or none; see golem/runtime/quiet_stretch.py, which
writes it). The log's readers expand it back into those decisions' own lines, value for
value what the step-by-step golem would have written (stamped with each decision's time,
as a simulation's clock stamps them): `golem inspect`, a recorded life's feed and the
dashboard's tail read decisions only, never the stretch. A line written before quiet
ticks could have fired probes (no `prediction_error`, `flags` or `summaries`) stands for
ticks at PE 0.0, no flag, and the one summary it names. Its numbers (vitality, θ, PE, the
market's) are written as computed and rounded here as each decision's line rounds them
(a line that wrote them rounded reads the same)."""

from __future__ import annotations

from typing import Any

__all__ = ["QUIET_STRETCH", "expanded"]

QUIET_STRETCH = "quiet_stretch"

Event = dict[str, Any]


def expanded(stretch: Event) -> list[Event]:
    """The decision lines a `quiet_stretch` line stands for, in order. Raises KeyError,
    TypeError or IndexError for a line that does not hold what the writer puts there."""
    ticks = stretch["ticks"]
    times, which, vitality = ticks["time"], ticks["decision"], ticks["vitality"]
    phase, theta, market = ticks["phase"], ticks["theta"], ticks["market"]
    count = stretch["count"]
    errors = ticks.get("prediction_error", [0.0] * count)
    flags = ticks.get("flags", [[]] * count)
    decisions: list[Event] = stretch["decisions"]
    summaries = stretch.get("summaries", [stretch["summary"]] * len(decisions))
    golem, subsystem, source = stretch["golem"], stretch["subsystem"], stretch["source"]
    tier, asked = stretch["tier"], stretch["tier_asked"]
    first = stretch["first_tick"]
    if not all(len(column) == count for column in ticks.values()):
        raise ValueError("a quiet stretch's columns differ in length from its count")
    if len(summaries) != len(decisions):
        raise ValueError("a quiet stretch's summaries differ in number from its decisions")
    return [
        {
            "timestamp": time,
            "level": "info",
            "event": "decision",
            "golem": golem,
            "time": time,
            "tick": first + i,
            "subsystem": subsystem,
            "tier": tier,
            "tier_asked": asked,
            "source": source,
            "vitality": _rounded(vitality[i], 6),
            "phase": phase[i],
            "cost_usd": 0.0,
            "tokens": {"input": 0, "output": 0, "reasoning": 0},
            "decision": dict(decisions[which[i]]),
            "summary": summaries[which[i]],
            "prediction_error": _rounded(errors[i], 4) if errors[i] else errors[i],
            "theta": _rounded(theta[i], 4),
            "flags": list(flags[i]),
            "market": {name: _rounded(value, 6) for name, value in market[i].items()},
        }
        for i, time in enumerate(times)
    ]


def _rounded(value: Any, digits: int) -> Any:
    """A number of the line as the decision's own line states it: rounded as the writer
    of that line rounds it (a line written rounded reads the same: rounding again leaves
    it); anything else (a JSON null) as it is."""
    return round(value, digits) if isinstance(value, float) else value
