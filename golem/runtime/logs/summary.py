"""What a log says in brief (`golem inspect --summary`): per subsystem, its decisions,
where they came from, re-asks, fallbacks, degradations and spend; how often risk's
verifier agreed; and the golem's vitality trajectory with its phase changes. Built in one
pass over streamed events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from golem.runtime.logs.read import Event, event_time, quarantined

__all__ = [
    "PhaseChange",
    "SubsystemSummary",
    "Summary",
    "VerificationSummary",
    "VitalityTrajectory",
    "summarize",
]


@dataclass(slots=True)
class SubsystemSummary:
    decisions: int = 0
    sources: Counter[str] = field(default_factory=Counter)  # model, deterministic, ...
    modes: Counter[str] = field(default_factory=Counter)  # schema_enforced, prompt_guided, ...
    providers: Counter[str] = field(default_factory=Counter)  # provider:model
    reasks: int = 0  # attempts beyond the first
    fallbacks: int = 0
    skipped: int = 0
    degradations: int = 0  # decisions the allocator degraded
    degradation_reasons: Counter[str] = field(default_factory=Counter)
    spend_usd: float = 0.0
    voided: int = 0  # calls billed whose tick rolled back (charge_voided): in spend_usd
    tokens: Counter[str] = field(default_factory=Counter)  # input, output, reasoning
    profiles: Counter[str] = field(default_factory=Counter)  # pipeline profile of model calls
    masked: int = 0  # identifiers masked in prompts (L7)
    quarantined: int = 0  # world-feed items quarantined in prompts (L8)
    prompt_tokens_max: int = 0

    def add(self, event: Event) -> None:
        self.decisions += 1
        source = str(event.get("source", "unknown"))
        self.sources[source] += 1
        self.fallbacks += source == "fallback"
        self.skipped += source == "skipped"
        if event.get("mode"):
            self.modes[str(event["mode"])] += 1
        if event.get("provider"):
            model = event.get("model")
            self.providers[f"{event['provider']}:{model}" if model else event["provider"]] += 1
        attempts = _number(event.get("attempts"))
        self.reasks += max(0, int(attempts) - 1) if attempts is not None else 0
        degradation = event.get("degradation")
        if isinstance(degradation, list) and degradation:
            self.degradations += 1
            for entry in degradation:
                if isinstance(entry, dict):
                    self.degradation_reasons[str(entry.get("reason", "unknown"))] += 1
        self.spend_usd += _number(event.get("cost_usd")) or 0.0
        tokens = event.get("tokens")
        if isinstance(tokens, dict):
            for kind, count in tokens.items():
                self.tokens[str(kind)] += int(_number(count) or 0)
        context = event.get("context")
        if isinstance(context, dict):
            self._add_context(str(event.get("profile", "unknown")), context)
        self.quarantined += len(quarantined(event))

    def add_voided(self, event: Event) -> None:
        """A call billed though the tick that made it rolled back: spend, no decision."""
        self.voided += 1
        self.spend_usd += _number(event.get("cost_usd")) or 0.0

    def _add_context(self, profile: str, context: dict[str, Any]) -> None:
        self.profiles[profile] += 1
        masked = context.get("masked")
        if isinstance(masked, dict):
            self.masked += int(sum(_number(n) or 0 for n in masked.values()))
        prompt = _number(context.get("tokens"))
        self.prompt_tokens_max = max(self.prompt_tokens_max, int(prompt or 0))

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "sources": dict(self.sources),
            "modes": dict(self.modes),
            "providers": dict(self.providers),
            "reasks": self.reasks,
            "fallbacks": self.fallbacks,
            "skipped": self.skipped,
            "degradations": self.degradations,
            "degradation_reasons": dict(self.degradation_reasons),
            "spend_usd": round(self.spend_usd, 9),
            "voided": self.voided,
            "tokens": dict(self.tokens),
            "profiles": dict(self.profiles),
            "masked": self.masked,
            "quarantined": self.quarantined,
            "prompt_tokens_max": self.prompt_tokens_max,
        }


@dataclass(slots=True)
class VerificationSummary:
    """Risk's second opinions (`[subsystems.risk] verify_with`): how many decisions were
    verified, how many of those the two models agreed on (approval), how many were not
    verified though asked to be (`verify_skipped`: unfunded or failed)."""

    verified: int = 0
    agreed: int = 0
    skipped: int = 0

    def add(self, event: Event) -> None:
        if "verified_by" in event:
            self.verified += 1
            self.agreed += event.get("agreed") is True
        elif "verify_skipped" in event:
            self.skipped += 1

    @property
    def rate(self) -> float | None:
        """The share of verified decisions the two agreed on (None: none verified)."""
        return self.agreed / self.verified if self.verified else None

    def to_json(self) -> dict[str, Any]:
        rate = self.rate
        return {
            "verified": self.verified,
            "agreed": self.agreed,
            "disagreements": self.verified - self.agreed,
            "agreement_rate": None if rate is None else round(rate, 6),
            "skipped": self.skipped,
        }


@dataclass(frozen=True, slots=True)
class PhaseChange:
    time: str | None
    before: str
    after: str


@dataclass(slots=True)
class VitalityTrajectory:
    """Every numeric `vitality` in the log, in order (decision and vitality events alike),
    and each change of the `phase` they report (a phase_change event's `phase`, from its
    `previous`; `to` and `from` in older logs). A decision's phase only starts the count:
    a tick's decisions are written after its phase_change, with the phase they began in."""

    first: float | None = None
    last: float | None = None
    low: float | None = None
    samples: int = 0
    phase: str | None = None
    changes: list[PhaseChange] = field(default_factory=list)

    def add(self, event: Event) -> None:
        vitality = _number(event.get("vitality"))
        if vitality is not None:
            self.first = vitality if self.first is None else self.first
            self.last = vitality
            self.low = vitality if self.low is None else min(self.low, vitality)
            self.samples += 1
        kind = event.get("event")
        is_change = kind == "phase_change"
        phase = event.get("to", event.get("phase")) if is_change else event.get("phase")
        if not isinstance(phase, str):
            return
        if kind == "decision" and self.phase is not None:
            # A decision line carries the phase it was made in, and is written when its
            # tick commits: after the phase_change of that same tick, it is no change back.
            return
        before = self.phase or (event.get("from", event.get("previous")) if is_change else None)
        if isinstance(before, str) and before != phase:
            moment = event_time(event)
            self.changes.append(PhaseChange(moment.isoformat() if moment else None, before, phase))
        self.phase = phase

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "last": self.last,
            "min": self.low,
            "samples": self.samples,
            "phase": self.phase,
            "phase_changes": [
                {"time": c.time, "from": c.before, "to": c.after} for c in self.changes
            ],
        }


@dataclass(slots=True)
class OracleSummary:
    """The prediction engine as the log tells it: its last `oracle` line (fitness,
    accuracy per category and regime), the trades its gate blocked (by reason, the
    reason's first word) and the would-be P&L of those resolved."""

    last: Event | None = None
    gated: Counter[str] = field(default_factory=Counter)
    resolved: int = 0
    would_be_pnl_usd: float = 0.0

    def add(self, name: str, event: Event) -> bool:
        """Take `event` if it is the engine's; whether it was."""
        if name == "oracle":
            self.last = event
        elif name == "action_blocked" and event.get("check") == "oracle_gate":
            reason = str(event.get("reason", "")).split(":")[0].split(" ")[0]
            self.gated[reason or "?"] += 1
        elif name == "gated_trade_resolved":
            self.resolved += 1
            self.would_be_pnl_usd += _number(event.get("would_be_pnl_usd")) or 0.0
        else:
            return False
        return True

    def to_json(self) -> dict[str, Any]:
        last = self.last or {}
        return {
            "fitness": last.get("fitness"),
            "categories": last.get("categories", {}),
            "trades_gated": sum(self.gated.values()),
            "gated_by_reason": dict(self.gated),
            "gated_resolved": self.resolved,
            "would_be_pnl_usd": round(self.would_be_pnl_usd, 6),
        }


@dataclass(slots=True)
class Summary:
    subsystems: dict[str, SubsystemSummary] = field(default_factory=dict)
    vitality: VitalityTrajectory = field(default_factory=VitalityTrajectory)
    verification: VerificationSummary = field(default_factory=VerificationSummary)
    events: Counter[str] = field(default_factory=Counter)  # how many of each event
    first_time: str | None = None
    last_time: str | None = None
    death: Event | None = None
    blocked: list[Event] = field(default_factory=list)  # action_blocked: external text's tries
    oracle: OracleSummary = field(default_factory=OracleSummary)

    @property
    def spend_usd(self) -> float:
        return sum(s.spend_usd for s in self.subsystems.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "events": dict(self.events),
            "first_time": self.first_time,
            "last_time": self.last_time,
            "spend_usd": round(self.spend_usd, 9),
            "subsystems": {name: s.to_json() for name, s in sorted(self.subsystems.items())},
            "vitality": self.vitality.to_json(),
            "verification": self.verification.to_json(),
            "death": self.death,
            "blocked": [
                {k: e.get(k) for k in ("timestamp", "tick", "action", "check", "reason")}
                for e in self.blocked
            ],
            "oracle": self.oracle.to_json(),
        }


def summarize(events: Iterable[Event]) -> Summary:
    """The summary of `events`, read once."""
    summary = Summary()
    voided: set[object] = set()  # a settling killed midway tells its charges again
    for event in events:
        name = str(event.get("event", ""))
        summary.events[name] += 1
        moment = event_time(event)
        if moment is not None:
            stamp = moment.isoformat()
            summary.first_time = summary.first_time or stamp
            summary.last_time = stamp
        if name == "decision":
            subsystem = str(event.get("subsystem", "unknown"))
            summary.subsystems.setdefault(subsystem, SubsystemSummary()).add(event)
            summary.verification.add(event)
        elif name == "charge_voided" and event.get("key") not in voided:
            voided.add(event.get("key"))
            subsystem = str(event.get("subsystem", "unknown"))
            summary.subsystems.setdefault(subsystem, SubsystemSummary()).add_voided(event)
        elif name == "death":
            summary.death = event
        elif summary.oracle.add(name, event):
            pass
        elif name == "action_blocked":
            summary.blocked.append(event)
        summary.vitality.add(event)
    return summary


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
