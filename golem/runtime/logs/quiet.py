"""A fast-forward's quiet stretch in the log (issue [speed]): one line, event
`quiet_stretch`, stands for the heartbeat decisions the rules made on its ticks (T0, observe,
severity none; see golem/runtime/quiet_stretch.py, which writes it). The log's readers
expand it back into those decisions' own lines, value for value what the step-by-step
golem would have written (stamped with each decision's time, as a simulation's clock stamps
them): `golem inspect`, a recorded life's feed and the dashboard's tail read decisions
only, never the stretch."""

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
    decisions: list[Event] = stretch["decisions"]
    golem, subsystem, source = stretch["golem"], stretch["subsystem"], stretch["source"]
    tier, asked, summary = stretch["tier"], stretch["tier_asked"], stretch["summary"]
    first = stretch["first_tick"]
    if not all(len(column) == stretch["count"] for column in ticks.values()):
        raise ValueError("a quiet stretch's columns differ in length from its count")
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
            "vitality": vitality[i],
            "phase": phase[i],
            "cost_usd": 0.0,
            "tokens": {"input": 0, "output": 0, "reasoning": 0},
            "decision": dict(decisions[which[i]]),
            "summary": summary,
            "prediction_error": 0.0,
            "theta": theta[i],
            "flags": [],
            "market": market[i],
        }
        for i, time in enumerate(times)
    ]
