"""Strategy diversity and novel insights across the members of a lineage, two dimensions of
the Bardo design's control experiment (prd/02-mortality/11-immortal-control.md) measured
as golem's world allows: a subscriber of the lineage's records.

- Strategy diversity: the design counts the behavioural niches (MAP-Elites cells) its
  clade members occupy. Here a member's strategy is its mix of heartbeat actions
  (observe, analyze, rebalance, hedge, exit, whoever decided them); a member's niche is
  its most frequent action other than observing ("observe" for one that never did
  anything else). `strategy_niches`: the distinct niches of the members;
  `strategy_entropy_bits`: the Shannon entropy of the lineage's whole action mix.
- Novel insights: the design's rate of new knowledge. Here the grimoire entries the
  members wrote themselves (curator, dream, playbook: an upsert of an id not seen
  before), not the lessons they were born with; `insights_per_day` over the lineage's
  life. The design's novelty score (embedding distance) has no counterpart here.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from golem.mortality import SubsystemName
from golem.runtime import DecisionRecord, Record
from golem.runtime.quiet_stretch import QuietStretch
from golem.subsystems.heartbeat.decision import HeartbeatAction, HeartbeatDecision

__all__ = ["DIVERSITY_KEYS", "Strategies", "entropy_bits"]

DIVERSITY_KEYS = (
    "strategy_niches",
    "strategy_entropy_bits",
    "insights_created",
    "insights_per_day",
)
_HEARTBEAT = SubsystemName.HEARTBEAT
_OBSERVE = str(HeartbeatAction.OBSERVE)
_INHERITED = "inherited-"  # the id prefix of a lesson an heir was born with


def entropy_bits(counts: Counter[str]) -> float:
    """The Shannon entropy of a count's mix, in bits (0 for one kind or none)."""
    total = sum(counts.values())
    return -math.fsum(n / total * math.log2(n / total) for n in counts.values() if n) + 0.0


@dataclass
class Strategies:
    """A lineage's strategies and insights; call it with each record, `new_life()` at each
    member's birth, and read `summary(lifespan_days)` at the end."""

    members: list[Counter[str]] = field(default_factory=list)
    insights: set[str] = field(default_factory=set)

    def new_life(self) -> None:
        self.members.append(Counter())

    def __call__(self, record: Record) -> None:
        if not isinstance(record, DecisionRecord):
            return
        decision = record.decision
        if record.subsystem is _HEARTBEAT and isinstance(decision, HeartbeatDecision):
            if not self.members:
                self.new_life()
            self.members[-1][str(decision.action)] += 1
        outcome = record.outcome
        if outcome is not None:
            for entry in outcome.grimoire_upserts:
                if not entry.id.startswith(_INHERITED):
                    self.insights.add(entry.id)

    def hear_quiet(self, stretch: QuietStretch) -> None:
        """A fast-forward's quiet decisions: each heartbeat's action counted."""
        if not self.members:
            self.new_life()
        mix = self.members[-1]
        for decision in stretch.decisions:
            mix[str(decision.action)] += 1

    def summary(self, lifespan_days: float) -> dict[str, Any]:
        niches = {_niche(mix) for mix in self.members if mix}
        whole: Counter[str] = Counter()
        for mix in self.members:
            whole.update(mix)
        created = len(self.insights)
        return {
            "strategy_niches": len(niches),
            "strategy_entropy_bits": round(entropy_bits(whole), 9),
            "insights_created": created,
            "insights_per_day": round(created / lifespan_days, 9) if lifespan_days > 0 else None,
        }


def _niche(mix: Counter[str]) -> str:
    acting = Counter({action: n for action, n in mix.items() if action != _OBSERVE})
    return acting.most_common(1)[0][0] if acting else _OBSERVE
