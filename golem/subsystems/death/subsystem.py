"""Thanatopsis, the death subsystem: acceptance (an event and the decision's log line),
settle (the Outcome asks the runtime to close every position to cash), life review (a
DeathTestament from the model, or from the records when no model answers) and legacy.

Legacy: the testament must survive the process, so act() returns testament.json and
testament.md as the Outcome's documents, which the runtime writes to the state directory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import ModelTier, SubsystemName
from golem.subsystems.contract import Brief, Event, Input, Judge, Outcome, Situation
from golem.subsystems.death.decision import DeathTestament
from golem.subsystems.death.legacy import legacy
from golem.subsystems.death.records import DeathConfig, cause_of, killed_by, records_testament
from golem.world.feed import FeedItem

__all__ = ["Thanatopsis"]

_ROLE = "You are Thanatopsis: the golem is dying, and you write its life review."
_TASK = (
    "Write the testament of this life: what you learned, got wrong, were confused by and "
    "never tested; what killed you; what you would change; what you suspect; causal links "
    "(cause → effect, confidence from 0 to 1); your emotional arc in one sentence and its "
    "class: redemptive, contaminating, progressive, tragic or stable."
)


@dataclass(frozen=True, slots=True)
class Thanatopsis:
    """The last subsystem to run. Never skipped and never degraded (the allocator funds
    death whatever the budget); when every provider fails, the records write the review."""

    config: DeathConfig

    @property
    def name(self) -> SubsystemName:
        return SubsystemName.DEATH

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        return DeathTestament

    def tier(self, ctx: Situation) -> ModelTier:
        return self.config.tier

    def skip_reason(self, ctx: Situation) -> str | None:
        return None

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        return None

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        return ()

    def brief(self, ctx: Situation) -> Brief:
        records = records_testament(ctx, self.config)
        facts = tuple(
            f"- {line}"
            for line in (
                f"cause of death: {killed_by(ctx)}",
                *(f"worst: {item}" for item in records.got_wrong),
                *(f"surprise: {item}" for item in records.confused_by),
                f"mood: {records.emotional_arc}",
                f"trajectory reads as: {records.arc_class}",
            )
        )
        return Brief(_ROLE, _TASK, inputs=(Input("What the records say", facts),))

    def deterministic(self, ctx: Situation) -> StructuredOutput | None:
        return records_testament(ctx, self.config)

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome:
        assert isinstance(decision, DeathTestament)
        cause = cause_of(ctx)
        names = (self.config.json_name, self.config.markdown_name)
        positions = {asset: qty for asset, qty in ctx.portfolio.positions.items() if qty}
        return Outcome(
            summary=(
                f"accepted death ({cause}); settling {len(positions)} position(s) to cash; "
                f"leaving {' and '.join(names)}"
            ),
            settle=True,
            events=(Event("death_accepted"),),
            documents=legacy(names, decision, ctx, cause),
            details={
                "acceptance": f"golem {ctx.golem_id} accepts its death at tick {ctx.tick}",
                "cause": cause,
                "settled_positions": positions,
                "arc_class": str(decision.arc_class),
            },
        )
