"""The spans of a golem's decisions, planned from each DecisionRecord (`trace_of`, pure):
the decision's own, and under it one per model call the decision made, in OpenTelemetry's
GenAI semantic conventions (`gen_ai.*`) with golem's own attributes (`golem.subsystem`,
`golem.tier`, `golem.profile`, `golem.cost_usd`, `golem.vitality`, ...).

Planned from the record after the fact, never by wrapping the decision path, and timed by
the golem's clock (virtual in a simulation): a decision starts when its run began (its
record's time, the tick's, unless a real clock had moved on since), its calls follow one
another by their measured latency (a judge's as much as the first's), and the decision
ends with its last call. runtime/tracing.py makes and sends them; runtime/telemetry.py
decides whether anything is traced at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal

from golem.inference import Response, Usage
from golem.runtime.record import DecisionRecord
from golem.runtime.verify import Verification

__all__ = ["Attribute", "DecisionTrace", "SpanPlan", "ns_of", "trace_of"]

OPERATION = "chat"  # gen_ai.operation.name: every call golem makes is a chat completion
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

Attribute = str | int | float | bool | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpanPlan:
    """One span to be made: its name, interval on the golem's clock, attributes, kind
    ("client" for a model call) and, when it failed, why."""

    name: str
    start: datetime
    end: datetime
    attributes: Mapping[str, Attribute]
    kind: Literal["internal", "client"] = "internal"
    error: str | None = None


@dataclass(frozen=True, slots=True)
class DecisionTrace:
    """A decision's span and its calls' spans, children of it, in the order they ran."""

    decision: SpanPlan
    calls: tuple[SpanPlan, ...] = field(default=())


def trace_of(record: DecisionRecord) -> DecisionTrace:
    """The spans of one decision: its own, and one per model call it made (the first
    call, answered or failed, then each judge's that was sent)."""
    common = _common(record)
    began = record.began or record.time
    at, calls = began, []
    first = _first_call(record, common, at)
    if first is not None:
        calls.append(first)
        at = first.end
    for role, judged in (("verify", record.verification), ("without_text", record.without_text)):
        if judged is not None and judged.sent:
            calls.append(_judge_call(judged, role, common, at))
            at = calls[-1].end
    decision = {
        **common,
        "golem.tier_asked": str(record.tier_asked),
        "golem.source": record.source,
        "golem.tick": record.tick,
        "golem.phase": str(record.phase),
        "golem.cost_usd": record.cost_usd,
        "golem.decision_id": record.decision_id,
    }
    if record.allocation is not None:
        decision["golem.reasoning_depth"] = record.allocation.reasoning.depth.name.lower()
        decision["golem.budget_left_usd"] = record.allocation.budget_left_usd
    optional = {
        "golem.summary": record.outcome.summary if record.outcome is not None else None,
        "golem.skip_reason": record.skip_reason,
        "golem.cache": record.cache,
        "golem.reused_from": record.reused.decision_id if record.reused else None,
        "golem.counterfactual_of": record.counterfactual_of,
    }
    decision |= {key: value for key, value in optional.items() if value is not None}
    span = SpanPlan(f"decide {record.subsystem}", began, at, decision, error=record.error)
    return DecisionTrace(span, tuple(calls))


def _common(record: DecisionRecord) -> dict[str, Attribute]:
    """What every span of a decision carries: whose, and how it was funded."""
    common: dict[str, Attribute] = {
        "golem.id": record.golem,
        "golem.subsystem": str(record.subsystem),
        "golem.tier": str(record.tier),
        "golem.vitality": record.vitality,
    }
    if record.allocation is not None:
        common["golem.profile"] = str(record.allocation.profile)
    return common


def _first_call(
    record: DecisionRecord, common: Mapping[str, Attribute], at: datetime
) -> SpanPlan | None:
    """The decision's own call: answered (`response`), or sent and failed (a prompt was
    made, no response came: what it billed is the record's usage and cost)."""
    response = record.response
    if response is None:
        if record.context is None:
            return None  # no prompt was sent: a deterministic, reused or skipped run
        failed = {**common, "gen_ai.operation.name": OPERATION, "golem.call": "first"}
        failed |= _usage(record.usage, record.cost_usd)
        error = record.error or "no answer"
        failed["error.type"] = error.split(":", 1)[0]
        return SpanPlan(OPERATION, at, at, failed, "client", error)
    request = record.request
    requested = request.model if request is not None and request.model else response.model
    attributes = {
        **common,
        **_model(response.provider, requested),
        **_answered(response),
        "golem.call": "first",
    }
    if request is not None and request.max_tokens is not None:
        attributes["gen_ai.request.max_tokens"] = request.max_tokens
    end = at + timedelta(seconds=max(response.latency_s, 0.0))
    return SpanPlan(f"{OPERATION} {requested}", at, end, attributes, "client")


def _judge_call(
    judged: Verification, role: str, common: Mapping[str, Attribute], at: datetime
) -> SpanPlan:
    provider, _, model = judged.by.partition(":")
    attributes = {
        **common,
        **_model(provider, model),
        **_usage(judged.usage, judged.cost_usd),
        "golem.call": role,
    }
    if judged.agreed is not None:
        attributes["golem.agreed"] = judged.agreed
        attributes["golem.second_kept"] = judged.second_kept
    else:  # sent, and failed
        attributes["error.type"] = (judged.skipped or "no answer").split(":", 1)[0]
    end = at + timedelta(seconds=max(judged.latency_s, 0.0))
    return SpanPlan(f"{OPERATION} {model}", at, end, attributes, "client", judged.skipped)


def _model(provider: str, model: str) -> dict[str, Attribute]:
    return {
        "gen_ai.operation.name": OPERATION,
        "gen_ai.system": provider,
        "gen_ai.request.model": model,
    }


def _answered(response: Response) -> dict[str, Attribute]:
    finish = response.finish_reason_raw or str(response.finish_reason)
    return {
        "gen_ai.response.model": response.model,
        "gen_ai.response.finish_reasons": (finish,),
        "golem.mode": str(response.mode),
        "golem.attempts": response.attempts,
        **_usage(response.usage, response.cost_usd),
    }


def _usage(usage: Usage, cost_usd: float) -> dict[str, Attribute]:
    """Tokens as the conventions count them: output includes reasoning, as billed."""
    return {
        "gen_ai.usage.input_tokens": usage.input_tokens,
        "gen_ai.usage.output_tokens": usage.output_tokens + usage.reasoning_tokens,
        "golem.usage.reasoning_tokens": usage.reasoning_tokens,
        "golem.usage.cached_input_tokens": usage.cached_input_tokens,
        "golem.cost_usd": cost_usd,
    }


def ns_of(at: datetime) -> int:
    """`at` in nanoseconds since the epoch, as OpenTelemetry times spans."""
    return (at - _EPOCH) // timedelta(microseconds=1) * 1000
