"""The record of one subsystem run (`DecisionRecord`): what `decide` returns, what the
golem publishes to its subscribers, and, by `fields()`, its log line."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from msgspec import Struct

from golem.inference import (
    NO_USAGE,
    AttemptUsage,
    Request,
    Response,
    StructuredOutput,
    Usage,
)
from golem.mortality import Allocation, Degradation, ModelTier, Phase, SubsystemName
from golem.runtime.logs.reasoning import reasoning_fields
from golem.runtime.memo import Reuse
from golem.runtime.store.ids import DecisionId
from golem.runtime.verify import Verification
from golem.subsystems.context import ContextReport
from golem.subsystems.contract import Outcome, Situation

__all__ = ["DecisionRecord"]


class DecisionRecord(Struct, frozen=True):
    """What happened in one subsystem run, to which golem and when (the context's time,
    vitality and phase as the run began); `fields()` is its log line."""

    event: ClassVar[str] = "decision"

    golem: str
    time: datetime
    vitality: float
    phase: Phase
    subsystem: SubsystemName
    tick: int
    tier_asked: ModelTier
    tier: ModelTier
    source: str  # model | deterministic | fallback | skipped | reused
    decision: StructuredOutput | None = None
    outcome: Outcome | None = None
    response: Response | None = None
    allocation: Allocation | None = None
    degradations: tuple[Degradation, ...] = ()
    error: str | None = None
    cost_usd: float = 0.0
    usage: Usage = NO_USAGE
    skip_reason: str | None = None
    context: ContextReport | None = None  # the prompt that was sent, when one was
    run: int = 0  # the context's: which run of this subsystem within the tick
    reused: Reuse | None = None  # source "reused": whose model decision, by which lever
    cache: str | None = None  # "hit" or "miss" when the decision cache was asked
    # What the decision was made on (not logged): a simulation judges it after the fact.
    situation: Situation | None = None
    # Risk's second opinion, when one was asked (`cost_usd` and `usage` count it too).
    verification: Verification | None = None
    # The request a model decision sent, prompt masked (not logged): kept for replay.
    request: Request | None = None
    # A re-ask with external text withheld (runtime.provenance): the decision it re-asks.
    counterfactual_of: str | None = None
    # Risk's assessment asked again with external text withheld (the stricter stands).
    without_text: Verification | None = None
    # A failed call's attempts billed though cut mid-answer (a model decision's are its
    # response's): `cost_usd` counts them, partly by estimate.
    failed_attempts: tuple[AttemptUsage, ...] = ()
    # When the run began on the golem's clock, where that is later than `time` (not
    # logged): under a real clock a tick's later decisions begin after its first ends.
    began: datetime | None = None

    @property
    def decision_id(self) -> str:
        """What names this decision in the log (`id` on a model's, `reused_from` on a reuse)."""
        return str(DecisionId(str(self.subsystem), self.tick, self.run))

    def stamp(self) -> None:
        """Its log line is stamped when it is written (its `time` is a field of its own)."""

    def fields(self) -> dict[str, Any]:
        response, allocation, usage = self.response, self.allocation, self.usage
        fields: dict[str, Any] = {
            "golem": self.golem,
            "time": self.time,  # written by the log's JSON encoder, as isoformat() does
            "tick": self.tick,
            "subsystem": str(self.subsystem),
            "tier": str(self.tier),
            "tier_asked": str(self.tier_asked),
            "source": self.source,
            "vitality": round(self.vitality, 6),
            "phase": str(self.phase),
            "cost_usd": self.cost_usd,
            "tokens": {
                "input": usage.input_tokens,
                "output": usage.output_tokens,
                "reasoning": usage.reasoning_tokens,
            },
        }
        if allocation is not None:
            fields["profile"] = str(allocation.profile)
            fields["reasoning_depth"] = allocation.reasoning.depth.name.lower()
            if allocation.fitted_from is not None:
                fields["reasoning_fitted_from"] = allocation.fitted_from.name.lower()
            fields["budget_left_usd"] = allocation.budget_left_usd
        if response is not None:
            fields |= {
                "mode": str(response.mode),
                "provider": response.provider,
                "model": response.model,
                "attempts": response.attempts,
                "repairs": list(response.repairs),
                "downgrades": list(response.downgrades),
                "latency_s": round(response.latency_s, 4),
            }
            reasoning = reasoning_fields(response.reasoning)
            if reasoning is not None:
                fields["reasoning"] = reasoning
        if self.context is not None:
            fields["context"] = self.context.fields()
            fields["provenance"] = self.context.grounds()
        if self.counterfactual_of is not None:
            fields["counterfactual_of"] = self.counterfactual_of
        if self.source == "model":
            fields["id"] = self.decision_id
        if self.cache is not None:
            fields["cache"] = self.cache
        if self.reused is not None:
            fields["reused_by"] = self.reused.by
            fields["reused_from"] = self.reused.decision_id
        if self.degradations:
            fields["degradation"] = [
                {"reason": str(d.reason), "fallback": str(d.fallback), "tier": str(d.tier)}
                for d in self.degradations
            ]
        billed = self.failed_attempts or (response.failed_attempts if response else ())
        if billed:
            # Part of the charge is an estimate: what cut streams sent but never counted.
            fields["failed_attempts"] = [attempt.fields() for attempt in billed]
            fields["cost_estimated_usd"] = sum(attempt.estimated_usd for attempt in billed)
        if self.verification is not None:
            fields |= self.verification.fields()
        if self.without_text is not None:
            fields["without_text"] = self.without_text.unswayed_fields()
        if self.skip_reason:
            fields["skip_reason"] = self.skip_reason
            fields["summary"] = f"skipped: {self.skip_reason}"
        if self.error:
            fields["error"] = self.error
        if self.decision is not None:
            fields["decision"] = self.decision.json_fields()
        if self.outcome is not None:
            fields["summary"] = self.outcome.summary
            fields.update(self.outcome.details)
            if self.outcome.provenance is not None:
                fields["provenance_check"] = self.outcome.provenance.fields()
        return fields
