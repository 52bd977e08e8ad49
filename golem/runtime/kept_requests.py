"""Decision replay: each model decision's request kept as it was sent (`RequestKeeper`, a
subscriber of the golem's records), and one kept request asked again of another provider,
model or reasoning depth (`replay`), its answer set beside the original's.

The replay goes through `run_structured` as the decision did, with the attempts the
allocator allowed it; the structured-output mode is resolved for the provider now asked
(the same as the original's where the two providers can do the same), and the original's
mode is kept with its answer, so a change of mode shows.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import trio

from golem.inference import Provider, StructuredOutputConfig, run_structured
from golem.inference.reasoning import ReasoningDepth
from golem.inference.structured import get_schema
from golem.runtime.quiet_stretch import QuietStretch
from golem.runtime.record import DecisionRecord
from golem.runtime.store.requests import Answer, KeptRequest, RequestArchive
from golem.runtime.stream import Record

__all__ = ["RequestKeeper", "kept_of", "replay"]

_PRUNE_AT_MOST_EVERY = timedelta(hours=1)


class RequestKeeper:
    """Keeps the request of every model decision published, and drops those older than
    `keep`, checked at most every hour of the golem's clock (or every tenth of `keep`
    when that is shorter): an indexed range delete, not a scan per decision."""

    __slots__ = ("_archive", "_every", "_keep", "_pruned")

    def __init__(self, archive: RequestArchive, keep: timedelta) -> None:
        self._archive = archive
        self._keep = keep
        self._every = min(_PRUNE_AT_MOST_EVERY, keep / 10)
        self._pruned: datetime | None = None

    def hear_quiet(self, stretch: QuietStretch) -> None:
        """A quiet stretch's decisions are the rules' (no model request to keep): the
        stream would otherwise build each of its records for `__call__` to skip."""

    def __call__(self, record: Record) -> None:
        if not isinstance(record, DecisionRecord):
            return
        kept = kept_of(record)
        if kept is None:
            return
        self._archive.keep(kept)
        pruned = self._pruned
        if pruned is None or record.time - pruned >= self._every:
            self._archive.prune(record.time - self._keep)
            self._pruned = record.time


def kept_of(record: DecisionRecord) -> KeptRequest | None:
    """What is kept of a model decision's record (None for any other record)."""
    request, response, allocation = record.request, record.response, record.allocation
    if record.source != "model" or request is None or response is None or allocation is None:
        return None
    if record.decision is None:
        return None
    return KeptRequest(
        id=record.decision_id,
        time=record.time,
        subsystem=str(record.subsystem),
        schema=type(record.decision).response_schema().name,
        max_attempts=allocation.max_attempts,
        request=request,
        answer=Answer.of(response, request.reasoning.depth),
    )


async def replay(
    kept: KeptRequest,
    provider: Provider,
    *,
    model: str | None = None,
    depth: ReasoningDepth | None = None,
    config: StructuredOutputConfig | None = None,
) -> Answer:
    """Ask `provider` the kept request again: its model (`model`, else the provider's
    own), at `depth` (else the original's). Raises what `run_structured` raises: a
    ProviderError, or StructuredOutputInvalid when no attempt gave a valid decision."""
    decision = get_schema(kept.schema)
    request = kept.request
    reasoning = request.reasoning if depth is None else replace(request.reasoning, depth=depth)
    request = request.evolve(model=model, reasoning=reasoning)
    started = trio.current_time()
    response = await run_structured(
        provider, request, decision, config, max_attempts=kept.max_attempts
    )
    if response.latency_s <= 0:  # a provider that does not time itself: every attempt's
        response = response.evolve(latency_s=trio.current_time() - started)
    return Answer.of(response, reasoning.depth)
