"""The dream subsystem: one of four kinds per run (golem.subsystems.dream.scenes picks
it), each with its prompt and its act. Skipped with a reason when the golem is dying,
broke or too young; the allocator skips it when the budget is gone (never queued)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import ModelTier, SubsystemName
from golem.subsystems.context.render import entry_line, episode_line
from golem.subsystems.contract import Brief, Input, Judge, Outcome, Situation
from golem.subsystems.dream.acts import (
    act_fragment,
    act_integration,
    act_replay,
    act_threat,
    rule_replay,
)
from golem.subsystems.dream.fragment import FragmentEvaluation
from golem.subsystems.dream.integration import DreamIntegration
from golem.subsystems.dream.replay_analysis import ReplayAnalysis
from golem.subsystems.dream.scenes import (
    DECISIONS,
    DreamConfig,
    DreamKind,
    dream_kind,
    fragment,
    scenario,
    staged,
    why_not,
)
from golem.subsystems.dream.threat import ThreatAssessment
from golem.world.feed import FeedItem

__all__ = ["Dream"]

_FATES = ("promoted", "staged", "discarded")

_ROLES = {
    DreamKind.REPLAY: "You are the golem dreaming: in NREM replay you relive recent episodes.",
    DreamKind.HYPNAGOGIC: "You are the hypnagogic observer: you judge what a drowsy mind made.",
    DreamKind.INTEGRATION: "You are the golem waking from a dream: you decide what it keeps.",
    DreamKind.THREAT: "You are the golem rehearsing a threat in a dream, to be ready awake.",
}
_TASKS = {
    DreamKind.REPLAY: (
        "Replay these episodes. Name the latest episode's id and say how many you reviewed; "
        "the lessons they teach, each with a confidence from 0 to 1 and the conditions it "
        "holds in (a regime: calm, trending, volatile or crash; none if it always holds); how "
        "surprising they were (0 to 1); counterfactuals: the alternative action, its likely "
        "outcome and a plausibility from 0 to 1; and how much arousal should move (-1 to 1)."
    ),
    DreamKind.HYPNAGOGIC: (
        "Judge the fragment: its novelty, relevance and coherence from 0 to 1; and a verdict: "
        "promote (worth testing: it enters the grimoire), stage (revisit later) or discard."
    ),
    DreamKind.INTEGRATION: (
        "Sort the staged entries into promoted (enough evidence; confidence at least 0.5), "
        "staged (needs more evidence) and discarded. Give each its id as hypothesis_id "
        "(e.g. g12), a short summary, a confidence from 0 to 1 and a rationale; and say how "
        "the playbook changes, if it does."
    ),
    DreamKind.THREAT: (
        "Rehearse this threat against the golem's state: its type; its severity (low, medium, "
        "high or critical) and likelihood from 0 to 1; its impact if realized; up to five "
        "concrete mitigation actions and detection signals; and how the rehearsal went."
    ),
}


@dataclass(frozen=True, slots=True)
class Dream:
    """Offline consolidation: replay, hypnagogia, integration and threat rehearsal."""

    config: DreamConfig

    @property
    def name(self) -> SubsystemName:
        return SubsystemName.DREAM

    def kind(self, ctx: Situation) -> DreamKind:
        return dream_kind(ctx, self.config)

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        return DECISIONS[self.kind(ctx)]

    def tier(self, ctx: Situation) -> ModelTier:
        return self.config.tier

    def skip_reason(self, ctx: Situation) -> str | None:
        return why_not(ctx, self.config, self.kind(ctx))

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        return None

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        return ()

    def brief(self, ctx: Situation) -> Brief:
        """The kind's role, task and input; a replay's episode is one of those replayed and
        the count reviewed is theirs, an integration's ids are the staged entries' (or ""
        for a new one): `choices` a decoder that constrains may hold the answer to."""
        kind = self.kind(ctx)
        choices: dict[str, tuple[Any, ...]] = {}
        if kind is DreamKind.REPLAY:
            replayed = ctx.episodes[-self.config.replay_episodes :]
            given = Input("Episodes to replay", tuple(episode_line(e) for e in replayed))
            choices = {
                "/episode_id": tuple(str(e.id) for e in replayed),
                "/episodes_reviewed": (len(replayed),),
            }
        elif kind is DreamKind.HYPNAGOGIC:
            given = Input("Fragment", (fragment(ctx),))
        elif kind is DreamKind.INTEGRATION:
            entries = staged(ctx)
            given = Input("Staged knowledge", tuple(entry_line(e) for e in entries))
            ids = ("", *(e.id for e in entries))
            choices = {f"/{fate}/*/hypothesis_id": ids for fate in _FATES}
        else:
            given = Input("Scenario", (scenario(ctx, self.config),))
        return Brief(_ROLES[kind], _TASKS[kind], inputs=(given,), choices=choices)

    def deterministic(self, ctx: Situation) -> StructuredOutput | None:
        """Only replay has a meaning without a model (a statistical replay); the other kinds
        are the model's imagination and are skipped."""
        if self.kind(ctx) is DreamKind.REPLAY:
            return rule_replay(ctx, self.config)
        return None

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome:
        if isinstance(decision, ReplayAnalysis):
            return act_replay(ctx, decision, self.config)
        if isinstance(decision, FragmentEvaluation):
            return act_fragment(ctx, decision, self.config)
        if isinstance(decision, DreamIntegration):
            return act_integration(ctx, decision, self.config)
        assert isinstance(decision, ThreatAssessment)
        return act_threat(ctx, decision, self.config)
