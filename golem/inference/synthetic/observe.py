"""What the synthetic provider reads in a prompt: the market line, the probes, the events,
the phase, the ids it may cite and the hints a subsystem gives; and one `stress` in 0..1
that the policies turn into severity, risk and fear."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from golem.inference.types import Request

__all__ = ["Observation", "observe"]

_NUM = r"([-+]?\d+(?:\.\d+)?)"
_PCT = r"([-+]?\d+(?:\.\d+)?)%"
_DELTAS = re.compile(rf"change last tick {_PCT}, over the window {_PCT}")
_ZSCORE = re.compile(rf"z-score vs 20-period SMA {_NUM}")
_HEALTH = re.compile(rf"health factor {_NUM}")
_VOLATILITY = re.compile(rf"volatility {_NUM}")
_PROBES = re.compile(rf"probes fired: ([^\n;]*); prediction error {_NUM} \(gate {_NUM}\)")
_EVENTS = re.compile(r"^events: (.*)$", re.M)
_VITALITY = re.compile(rf"vitality {_NUM} \((\w+)\)")
_RULE = re.compile(
    rf"rule table reads this as (\w+) \(pleasure {_NUM}, arousal {_NUM}, dominance {_NUM}\)"
)
_TRADE = re.compile(r"^(\w+) of \$([\d,]+(?:\.\d+)?)", re.M)
_PRECHECK = re.compile(r"hard-limit pre-check: (.*)$", re.M)
_ENTRY = re.compile(r"^- \[([^\]\s]{1,40})\] \((\d(?:\.\d+)?)", re.M)
_EPISODE = re.compile(r"^- #(\w{1,40}) ", re.M)
_CAUSE = re.compile(r"cause of death: (.*)$", re.M)
_ARC = re.compile(r"trajectory reads as: (\w+)")


@dataclass(frozen=True, slots=True)
class Observation:
    delta_1: float = 0.0  # fractions
    delta_period: float = 0.0
    zscore: float = 0.0
    volatility: float = 0.0
    health_factor: float | None = None
    prediction_error: float = 0.0
    gate: float = 0.3
    flags: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    vitality: float = 1.0
    phase: str = ""
    rule: tuple[str, float, float, float] | None = None  # the daimon's rule-table hint
    trade: tuple[str, float] | None = None  # (action, notional USD)
    precheck_blocks: bool = False
    entries: tuple[tuple[str, float], ...] = ()  # grimoire / staged ids and confidences
    episodes: tuple[str, ...] = ()
    cause_of_death: str = ""
    arc: str = ""
    market: bool = False  # a market section was read

    @property
    def stress(self) -> float:
        """0 calm .. 1 crash: the worst of the drop, the z-score, the health factor and
        the surprise over the gate."""
        drop = max(-self.delta_period / 0.10, -self.delta_1 / 0.03, 0.0)
        swing = max(abs(self.zscore) - 1.0, 0.0) / 2.0
        health = 0.0 if self.health_factor is None else (1.6 - self.health_factor) / 0.5
        surprise = self.prediction_error / max(2 * self.gate, 1e-6) - 0.5
        return min(1.0, max(0.0, drop, swing, health, surprise))

    @property
    def gain(self) -> bool:
        return self.delta_period > 0.02 or any("profit" in e for e in self.events)


def _market(text: str, found: dict[str, Any]) -> None:
    if (m := _DELTAS.search(text)) is not None:
        found |= {"delta_1": float(m[1]) / 100, "delta_period": float(m[2]) / 100, "market": True}
    if (m := _ZSCORE.search(text)) is not None:
        found["zscore"] = float(m[1])
    if (m := _HEALTH.search(text)) is not None:
        found["health_factor"] = float(m[1])
    if (m := _VOLATILITY.search(text)) is not None:
        found["volatility"] = float(m[1])
    if (m := _PROBES.search(text)) is not None:
        flags = tuple(f.strip() for f in m[1].split(",") if f.strip() and f.strip() != "none")
        found |= {"flags": flags, "prediction_error": float(m[2]), "gate": float(m[3])}
    if (m := _EVENTS.search(text)) is not None:
        found["events"] = tuple(e.strip() for e in m[1].split(",") if e.strip())


def _state(text: str, found: dict[str, Any]) -> None:
    if (m := _VITALITY.search(text)) is not None:
        found |= {"vitality": float(m[1]), "phase": m[2]}


def _task(text: str, found: dict[str, Any]) -> None:
    if (m := _RULE.search(text)) is not None:
        found["rule"] = (m[1], float(m[2]), float(m[3]), float(m[4]))


def _trade(text: str, found: dict[str, Any]) -> None:
    if (m := _TRADE.search(text)) is not None:
        found["trade"] = (m[1], float(m[2].replace(",", "")))
    if (m := _PRECHECK.search(text)) is not None:
        found["precheck_blocks"] = bool(re.search(r"\b(?:fail|block|exceed)", m[1], re.I))


def _knowledge(text: str, found: dict[str, Any]) -> None:
    if entries := _ENTRY.findall(text):
        found["entries"] = tuple({i: float(c) for i, c in entries}.items())


def _episodes(text: str, found: dict[str, Any]) -> None:
    if episodes := _EPISODE.findall(text):
        found["episodes"] = tuple(dict.fromkeys(episodes))


def _records(text: str, found: dict[str, Any]) -> None:
    if (m := _CAUSE.search(text)) is not None:
        found["cause_of_death"] = m[1].strip()
    if (m := _ARC.search(text)) is not None:
        found["arc"] = m[1].lower()


# The prompt's sections (golem.subsystems.context) by heading, and who reads each.
_READERS: Mapping[str, Callable[[str, dict[str, Any]], None]] = {
    "market": _market,
    "market and probes": _market,
    "state": _state,
    "task": _task,
    "proposed trade": _trade,
    "knowledge": _knowledge,
    "staged knowledge": _knowledge,
    "episodes": _episodes,
    "similar past episodes": _episodes,
    "episodes to replay": _episodes,
    "what the records say": _records,
}
# A prompt without sections is read once by each distinct reader.
_EVERY_READER = tuple(dict.fromkeys(_READERS.values()))


def observe(request: Request) -> Observation:
    """The observation in a request's messages (every part optional). Each `## Heading`
    section is read by its reader; a prompt without sections is read whole by all."""
    text = "\n".join(m.content for m in request.messages if m.content)
    found: dict[str, Any] = {}
    chunks = text.split("\n## ")
    if len(chunks) == 1 and not text.startswith("## "):
        for reader in _EVERY_READER:
            reader(text, found)
    else:
        for chunk in chunks:
            head, _, body = chunk.partition("\n")
            read = _READERS.get(head.removeprefix("## ").strip().lower())
            if read is not None:
                read(body, found)
    return Observation(**found)
