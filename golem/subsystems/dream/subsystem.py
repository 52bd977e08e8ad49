"""The dream subsystem: one of four kinds per run (golem.subsystems.dream.scenes picks
it), each with its prompt and its act. Skipped with a reason when the golem is dying,
broke or too young; the allocator skips it when the budget is gone (never queued)."""

from __future__ import annotations

from dataclasses import dataclass, field

from golem.inference import Request, StructuredOutput
from golem.mortality import Allocation, ModelTier, SubsystemName
from golem.subsystems.contract import Context, Outcome
from golem.subsystems.dream.acts import (
    act_fragment,
    act_integration,
    act_replay,
    act_threat,
    rule_replay,
)
from golem.subsystems.dream.fragment import FragmentEvaluation
from golem.subsystems.dream.integration import DreamIntegration
from golem.subsystems.dream.replay import ReplayAnalysis
from golem.subsystems.dream.scenes import (
    DECISIONS,
    DreamConfig,
    DreamKind,
    dream_kind,
    fragment,
    scenario,
    why_not,
)
from golem.subsystems.dream.threat import ThreatAssessment
from golem.subsystems.prompt import (
    episodes_section,
    grimoire_section,
    market_section,
    request,
    state_section,
)

__all__ = ["Dream"]

_ROLES = {
    DreamKind.REPLAY: "You are the golem dreaming: in NREM replay you relive recent episodes.",
    DreamKind.HYPNAGOGIC: "You are the hypnagogic observer: you judge what a drowsy mind made.",
    DreamKind.INTEGRATION: "You are the golem waking from a dream: you decide what it keeps.",
    DreamKind.THREAT: "You are the golem rehearsing a threat in a dream, to be ready awake.",
}
_TASKS = {
    DreamKind.REPLAY: (
        "Replay these episodes. Say how many you reviewed; the lessons they teach, each with "
        "a confidence from 0 to 1 and the regime it holds in (calm, trending, volatile, crash "
        "or any); and counterfactuals: the episode id, the alternative action, its likely "
        "outcome and a plausibility from 0 to 1."
    ),
    DreamKind.HYPNAGOGIC: (
        "Judge the fragment: restate it briefly; give its novelty, plausibility and relevance "
        "from 0 to 1; and a verdict: keep (worth testing), incubate (revisit later) or discard."
    ),
    DreamKind.INTEGRATION: (
        "For each staged entry decide: promote (enough evidence; confidence at least 0.5), "
        "stage (needs more evidence) or discard. Give each a confidence from 0 to 1 and name "
        "its id in brackets in the content, e.g. [g12]."
    ),
    DreamKind.THREAT: (
        "Rehearse this threat against the golem's state: its likelihood, impact and the "
        "golem's preparedness from 0 to 1; a verdict (accept, monitor, mitigate or urgent); "
        "and up to five concrete mitigations."
    ),
}


@dataclass(frozen=True, slots=True)
class Dream:
    """Offline consolidation: replay, hypnagogia, integration and threat rehearsal."""

    config: DreamConfig = field(default_factory=DreamConfig)

    @property
    def name(self) -> SubsystemName:
        return SubsystemName.DREAM

    def kind(self, ctx: Context) -> DreamKind:
        return dream_kind(ctx, self.config)

    def decision_type(self, ctx: Context) -> type[StructuredOutput]:
        return DECISIONS[self.kind(ctx)]

    def tier(self, ctx: Context) -> ModelTier:
        return self.config.tier

    def skip_reason(self, ctx: Context) -> str | None:
        return why_not(ctx, self.config, self.kind(ctx))

    def build_request(self, ctx: Context, allocation: Allocation) -> Request:
        kind = self.kind(ctx)
        sections: tuple[str, ...] = (state_section(ctx),)
        if kind is DreamKind.REPLAY:
            sections += (episodes_section(ctx, self.config.replay_episodes), grimoire_section(ctx))
        elif kind is DreamKind.HYPNAGOGIC:
            sections += (f"## Fragment\n{fragment(ctx)}",)
        elif kind is DreamKind.INTEGRATION:
            staged = [e for e in ctx.grimoire if e.tier == "staged" and not e.archived]
            lines = [
                f"- [{e.id}] ({e.confidence:.2f}, from {e.provenance or 'unknown'}) {e.text}"
                for e in staged
            ]
            sections += ("## Staged knowledge\n" + "\n".join(lines), episodes_section(ctx))
        else:
            sections += (market_section(ctx), f"## Scenario\n{scenario(ctx, self.config)}")
        return request(ctx, role=_ROLES[kind], task=_TASKS[kind], sections=sections)

    def deterministic(self, ctx: Context) -> StructuredOutput | None:
        """Only replay has a meaning without a model (a statistical replay); the other kinds
        are the model's imagination and are skipped."""
        if self.kind(ctx) is DreamKind.REPLAY:
            return rule_replay(ctx, self.config)
        return None

    def act(self, ctx: Context, decision: StructuredOutput) -> Outcome:
        if isinstance(decision, ReplayAnalysis):
            return act_replay(ctx, decision, self.config)
        if isinstance(decision, FragmentEvaluation):
            return act_fragment(ctx, decision, self.config)
        if isinstance(decision, DreamIntegration):
            return act_integration(ctx, decision, self.config)
        assert isinstance(decision, ThreatAssessment)
        return act_threat(ctx, decision, self.config)
