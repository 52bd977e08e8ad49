"""ScriptedProvider: a provider that answers from a script, for tests and demonstrations.

Like pydantic-ai's FunctionModel: each call takes the next step of the script (a text
answer, a Response, an exception to raise, or a function of the Request). Every Request
it receives is kept, so a test can see exactly what went on the wire.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from golem.inference.modes import Capabilities
from golem.inference.pricing import Price, priced
from golem.inference.types import FinishReason, Request, Response, ToolCall, Usage

__all__ = ["ScriptStep", "ScriptedProvider", "tool_answer"]

ScriptStep = str | Response | BaseException | Callable[[Request], "Response | str"]

SCHEMA_AND_TOOLS = Capabilities(response_schema=True, tool_use=True)


def tool_answer(name: str, arguments: dict[str, object], *, call_id: str = "call_1") -> Response:
    """A Response holding one tool call, as a provider would return it."""
    return Response(
        tool_calls=(ToolCall(call_id, name, arguments),),
        finish_reason=FinishReason.TOOL_CALLS,
    )


@dataclass
class ScriptedProvider:
    """Answers each call with the next scripted step; fails loudly when the script ends.
    With a `price`, each answer costs its usage at that price (as a priced provider's
    would); without one, what the step's Response says (0.0 for text)."""

    script: list[ScriptStep]
    name: str = "scripted"
    model: str = "scripted-1"
    capabilities: Capabilities = SCHEMA_AND_TOOLS
    usage_per_call: Usage = field(default_factory=lambda: Usage(input_tokens=100, output_tokens=50))
    price: Price | None = None
    requests: list[Request] = field(default_factory=list)

    async def complete(self, request: Request) -> Response:
        self.requests.append(request)
        if len(self.requests) > len(self.script):
            raise AssertionError(
                f"{self.name}: call {len(self.requests)} but the script has "
                f"{len(self.script)} step(s)"
            )
        step = self.script[len(self.requests) - 1]
        if isinstance(step, BaseException):
            raise step
        if callable(step) and not isinstance(step, Response):
            step = step(request)
        if isinstance(step, str):
            step = Response(content=step, finish_reason=FinishReason.STOP)
        usage = step.usage if step.usage.total_tokens else self.usage_per_call
        answer = step.evolve(provider=self.name, model=step.model or self.model, usage=usage)
        return priced(answer, self.price)
