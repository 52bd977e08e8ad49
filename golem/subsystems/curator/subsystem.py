"""The curator subsystem: every `every_ticks` ticks (the runtime's schedule) it reviews the
grimoire, and its evaluation, from a model or from the rules, becomes promotions, prunes,
confidence nudges, decay and archiving (golem.subsystems.curator.rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import ModelTier, SubsystemName
from golem.subsystems.contract import Brief, GrimoireEntry, Input, Judge, Outcome, Situation
from golem.subsystems.curator.decision import CuratorEvaluation
from golem.subsystems.curator.rules import CuratorConfig, curate, evidence, rule_evaluation
from golem.world.feed import FeedItem

__all__ = ["Curator", "listed"]

_ROLE = "You are the curator: you keep the golem's knowledge (its grimoire) honest."
_TASK = (
    "Review the entries above. Say how many entries you evaluated, retained and pruned; "
    "list the ids to prune (duplicates, refuted or useless entries); promotions as an entry "
    "id, its confidence now and the confidence it deserves (a promotion also lifts it one "
    "tier: staged < belief < principle); cross-references between entries (supports, "
    "contradicts or extends, with a strength from 0 to 1); and the grimoire's health from 0 "
    "to 1. Use only the ids shown."
)

_CROSS_FIELDS = ("/cross_references/*/source_id", "/cross_references/*/target_id")
_ID_FIELDS = ("/prune_ids/*", "/promotions/*/entry_id", *_CROSS_FIELDS)


@dataclass(frozen=True, slots=True)
class Curator:
    """The grimoire's keeper. Skipped when there is nothing to curate."""

    config: CuratorConfig

    @property
    def name(self) -> SubsystemName:
        return SubsystemName.CURATOR

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        return CuratorEvaluation

    def tier(self, ctx: Situation) -> ModelTier:
        return self.config.tier

    def skip_reason(self, ctx: Situation) -> str | None:
        if not any(not e.archived for e in ctx.grimoire):
            return "nothing to curate: the grimoire has no active entry"
        return None

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        return None

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        return ()

    def brief(self, ctx: Situation) -> Brief:
        """The listed entries; every id the answer gives is one of theirs, and their number
        is the count evaluated (`choices`, for a decoder that constrains). With one entry
        listed no cross-reference is offered: it could only be the entry's to itself,
        which the decision refuses (a real run's first curations all failed so)."""
        ids = tuple(entry.id for entry in listed(ctx, self.config))
        choices: dict[str, tuple[Any, ...]] = dict.fromkeys(_ID_FIELDS, ids)
        if len(ids) < 2:  # a cross-reference joins two entries: with one, none can be
            choices |= dict.fromkeys(_CROSS_FIELDS, ())
        choices["/entries_evaluated"] = (len(ids),)
        given = Input("Grimoire", self._entries(ctx))
        return Brief(_ROLE, _TASK, inputs=(given,), choices=choices)

    def _entries(self, ctx: Situation) -> tuple[str, ...]:
        lines = []
        for entry in listed(ctx, self.config):
            found = evidence(entry, ctx.episodes)
            lines.append(
                f"- [{entry.id}] confidence {entry.confidence:.2f}, tier {entry.tier}, "
                f"regime {entry.regime or 'any'}, episodes {found.support} for / "
                f"{found.against} against, from {entry.provenance or 'unknown'}: {entry.text}"
            )
        return tuple(lines)

    def deterministic(self, ctx: Situation) -> StructuredOutput | None:
        return rule_evaluation(ctx.grimoire, ctx.episodes, self.config)

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome:
        assert isinstance(decision, CuratorEvaluation)
        done = curate(ctx.grimoire, decision, ctx.episodes, self.config)
        return Outcome(
            summary=(
                f"curated {decision.entries_evaluated}: promoted {len(done.promoted)}, pruned "
                f"{len(done.pruned)}, archived {len(done.archived)}"
            ),
            grimoire_upserts=done.upserts,
            grimoire_archive=done.archive,
            details={
                "promoted": list(done.promoted),
                "pruned": list(done.pruned),
                "archived": list(done.archived),
                "nudged": done.nudged,
                "unknown_ids": list(done.unknown_ids),
                "grimoire_health": decision.grimoire_health,
            },
        )


def listed(ctx: Situation, config: CuratorConfig) -> list[GrimoireEntry]:
    """The entries the curator's brief lists: the active ones, most trusted first."""
    active = sorted(
        (e for e in ctx.grimoire if not e.archived), key=lambda e: (-e.confidence, e.id)
    )
    return active[: config.prompt_entries]
