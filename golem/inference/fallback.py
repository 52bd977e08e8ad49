"""FallbackProvider: an ordered chain of providers, tried in turn when one fails, that
records each hop in the Response's downgrades."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields

import structlog

from golem.inference.billing import summed
from golem.inference.errors import ProviderError, Refusal, ResponseFormatRejected
from golem.inference.modes import Capabilities
from golem.inference.run import Provider
from golem.inference.types import NO_USAGE, AttemptUsage, Request, Response

__all__ = ["FallbackProvider", "common_capabilities"]

log = structlog.get_logger(__name__)

# Capability flags that restrict rather than enable: a chain has one if any member has it.
_RESTRICTIONS = frozenset({"strict_required"})


def common_capabilities(members: Iterable[Capabilities]) -> Capabilities:
    """What every member can do: each ability only if all have it, each restriction
    (such as `strict_required`) if any has it."""
    members = tuple(members)
    return Capabilities(
        **{
            f.name: (any if f.name in _RESTRICTIONS else all)(getattr(c, f.name) for c in members)
            for f in fields(Capabilities)
        }
    )


class FallbackProvider:
    """A Provider that tries its members in order and answers with the first that can.

    Each call starts at the first member. A member's ProviderError moves the call to the
    next one: by the time it reaches the chain, an HTTPProvider has already spent its
    retries on a transient failure, so the error is either permanent (auth, a request the
    provider rejects, an undecodable body) or exhausted. Two ProviderErrors do not move on:

    - Refusal: the model declined the request; shopping it to another model until one
      complies would defeat the refusal.
    - ResponseFormatRejected: run_structured answers it by asking the same provider again
      with prompt guidance, which keeps the preferred provider.

    Errors that are not provider failures (StructuredOutputInvalid, from the structured
    loop above the chain) never reach `complete`, so a content failure re-asks the chain
    instead of switching providers. When every member fails, the last member's error is
    raised, with a note per earlier failure.

    `capabilities` are those common to every member (`common_capabilities`), so the mode
    run_structured resolves once for the whole loop is one every member can serve, and a
    fall-back in the middle of re-asks stays valid. The price: a member may be asked in a
    plainer mode than it would be alone (with OpenAI before Anthropic, the respond tool
    rather than a response schema). A Request's `model` override goes to every member,
    so leave it None for a chain.
    """

    def __init__(self, providers: Sequence[Provider]) -> None:
        if not providers:
            raise ValueError("a fallback chain needs at least one provider")
        self._providers = tuple(providers)
        self._capabilities = common_capabilities(p.capabilities for p in self._providers)
        self._name = " > ".join(p.name for p in self._providers)

    @property
    def name(self) -> str:
        return self._name

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    @property
    def providers(self) -> tuple[Provider, ...]:
        return self._providers

    def __repr__(self) -> str:
        return f"FallbackProvider({list(self._providers)!r})"

    async def complete(self, request: Request) -> Response:
        hops: list[str] = []
        failures: list[str] = []
        billed: list[AttemptUsage] = []  # what the members that failed are billed for
        for provider, successor in zip(self._providers, self._providers[1:], strict=False):
            try:
                answer = await provider.complete(request)
            except (Refusal, ResponseFormatRejected) as exc:
                _billed(exc, billed)
                raise
            except ProviderError as exc:
                billed.extend(exc.failed_attempts)
                hops.append(f"fallback: {provider.name} → {successor.name} after {exc.code}")
                failures.append(f"{provider.name} failed first: {exc}")
                log.warning(
                    "provider failed; falling back",
                    provider=provider.name,
                    next_provider=successor.name,
                    error=exc.code,
                    status=exc.status,
                )
                continue
            return _with_hops(answer, hops, billed)
        try:
            answer = await self._providers[-1].complete(request)
        except ProviderError as exc:
            for failure in failures:
                exc.add_note(failure)
            _billed(exc, billed)
            raise
        return _with_hops(answer, hops, billed)


def _billed(exc: ProviderError, earlier: list[AttemptUsage]) -> None:
    """Let `exc` carry what the members that failed before it are billed for, too."""
    if earlier:
        usage, cost = summed(earlier)
        exc.usage, exc.cost_usd = usage + (exc.usage or NO_USAGE), cost + exc.cost_usd
        exc.failed_attempts = (*earlier, *exc.failed_attempts)


def _with_hops(answer: Response, hops: list[str], billed: list[AttemptUsage]) -> Response:
    """`answer` with the hops taken to it, and the bills of the members that failed."""
    if not hops:
        return answer
    usage, cost = summed(billed)
    return answer.evolve(
        downgrades=(*answer.downgrades, *hops),
        usage=answer.usage + usage,
        cost_usd=answer.cost_usd + cost,
        failed_attempts=(*billed, *answer.failed_attempts),
    )
