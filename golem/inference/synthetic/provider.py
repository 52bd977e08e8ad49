"""SyntheticProvider: a keyless provider that answers every request with a seeded,
schema-valid decision that reacts to the market in the prompt, dressed in the wire format
of the provider it emulates and decoded by that provider's real codec, then priced."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from random import Random
from typing import Any

import orjson

from golem.inference.modes import Capabilities
from golem.inference.pricing import priced
from golem.inference.providers import Registry, default_registry
from golem.inference.reasoning import ReasoningDepth
from golem.inference.schema import ResponseSchema
from golem.inference.structured import registered_schemas
from golem.inference.synthetic.config import SyntheticConfig
from golem.inference.synthetic.observe import Observation, observe
from golem.inference.synthetic.plan import Object, compile_schema
from golem.inference.synthetic.policy import POLICIES
from golem.inference.synthetic.prose import render_text, wrap_json
from golem.inference.synthetic.wire import FAMILIES, Answer, error_body, wire_body
from golem.inference.types import Mode, Request, Response

__all__ = ["SyntheticProvider"]

# Without a schema (the NONE mode sends none) the role names the decision wanted.
_ROLE_CUES = (
    ("You are the heartbeat", "heartbeat_decision"),
    ("You are the risk subsystem", "risk_assessment"),
    ("You are the daimon", "daimon_appraisal"),
    ("You are the curator", "curator_evaluation"),
    ("Thanatopsis", "death_testament"),
    ("NREM replay", "replay_analysis"),
    ("hypnagogic observer", "fragment_evaluation"),
    ("waking from a dream", "dream_integration"),
    ("rehearsing a threat", "threat_assessment"),
)
_FAULTS = ("malformed_json", "schema_invalid", "prose")


class SyntheticProvider:
    """A provider that needs no key and no network: try golem with it, or simulate a life.

    `emulate` names a provider of the registry (openai, anthropic, gemini, deepseek, qwen,
    openai-compatible, openai-responses, ...) and `model` one of its models: answers come
    in that provider's wire format through its codec, with its capabilities and prices.
    Call n of a provider with seed s draws from `Random(f"{s}:{n}")`: the same seed and
    the same requests give the same answers. Reasoning (depth above none) yields thinking
    text where the emulated provider shows it and reasoning tokens where it counts them.
    """

    def __init__(
        self,
        emulate: str | None = None,
        model: str | None = None,
        seed: int | None = None,
        config: SyntheticConfig | None = None,
        *,
        capabilities: Capabilities | None = None,
        registry: Registry | None = None,
    ) -> None:
        config = config or SyntheticConfig()
        updates = {"emulate": emulate, "model": model, "seed": seed}
        self.config = config.model_copy(update={k: v for k, v in updates.items() if v is not None})
        self.registry = registry or default_registry()
        self.profile = self.registry.profile(self.config.emulate)
        if self.profile.family not in FAMILIES:
            raise ValueError(
                f"cannot emulate {self.config.emulate!r}: family {self.profile.family}"
            )
        self.codec = self.registry.codec(self.config.emulate)
        self.model = self.config.model
        self._capabilities = capabilities or self.profile.capabilities_for(self.model)
        self.price = self.registry.price_for(self.config.emulate, self.model)
        self._plans: dict[bytes, tuple[Object, int]] = {}  # by the schema's JSON text
        self.calls = 0

    @property
    def name(self) -> str:
        return "synthetic"

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    async def complete(self, request: Request) -> Response:
        return self.answer(request)

    def answer(self, request: Request) -> Response:
        """The synchronous core of `complete` (the simulator may call it directly)."""
        index, self.calls = self.calls, self.calls + 1
        rng = Random(f"{self.config.seed}:{index}")
        call = _Call(request, index, rng, self._roll_fault(rng), observe(request))
        if call.schema is not None:
            plan, _ = self._plan(call.schema)
            policy = POLICIES.get(call.schema.name)
            call.value = plan.make(rng, policy(call.obs, rng) if policy else None)
            if call.fault == "schema_invalid":
                call.value = plan.spoil(call.value, rng)
        content, tool = self._say(call)
        answer = self._tokens(call, content, tool)
        response = self.codec.decode(200, {}, wire_body(self.profile, answer))
        return priced(response, self.price, provider=self.name)

    def _roll_fault(self, rng: Random) -> str | None:
        faults = self.config.faults
        if faults.total == 0:
            return None
        roll = rng.random()
        server = 503 if self.profile.family == "gemini" else 500
        for status, rate in ((429, faults.rate_limit), (server, faults.server_error)):
            if roll < rate:
                wait = round(faults.retry_after_s * (0.25 + 0.75 * rng.random()), 1)
                body, headers = error_body(self.profile.family, status, wait)
                raise self.codec.error(status, headers, body)
            roll -= rate
        for name in _FAULTS:
            rate = getattr(faults, name)
            if roll < rate:
                return name
            roll -= rate
        return None

    def _plan(self, schema: ResponseSchema) -> tuple[Object, int]:
        """The schema's compiled plan and the length of its JSON text."""
        text = orjson.dumps(schema.schema)
        plan = self._plans.get(text)
        if plan is None:
            node = compile_schema(schema.schema)
            assert isinstance(node, Object)  # a ResponseSchema is an object at the top
            plan = self._plans[text] = (node, len(text))
        return plan

    def _say(self, call: _Call) -> tuple[str | None, tuple[str, str, Any] | None]:
        """(the text content, the respond tool call) in the request's mode."""
        request, schema, value, fault, rng = (
            call.request,
            call.schema,
            call.value,
            call.fault,
            call.rng,
        )
        tool_name = _respond_tool(request) if request.mode is Mode.TOOL_USE else None
        if schema is None:
            return _plain(call.obs), None
        if fault == "prose" or request.mode is Mode.NONE:
            text = render_text(schema.name, value)
            return (_truncate(text, rng) if fault == "malformed_json" else text), None
        text = orjson.dumps(value).decode()
        if fault == "malformed_json":
            return _malformed(text, rng), None
        if tool_name is not None:
            return None, (f"call_{self.calls}", tool_name, value)
        if request.mode is Mode.PROMPT_GUIDED:
            return wrap_json(text, rng, self.config.prose_wrap), None
        return text, None

    def _tokens(
        self, call: _Call, content: str | None, tool: tuple[str, str, Any] | None
    ) -> Answer:
        request, schema, rng = call.request, call.schema, call.rng
        model = self.config.tokens
        chars = sum(len(m.content or "") for m in request.messages)
        if schema is not None and request.mode in (Mode.SCHEMA_ENFORCED, Mode.TOOL_USE):
            chars += self._plan(schema)[1]
        said = len(content or "") + (len(orjson.dumps(tool[2])) if tool else 0)

        scale, spread = 1 / model.chars_per_token, model.noise
        input_tokens = max(1, round(chars * scale * math.exp(rng.gauss(0, spread))))
        output_tokens = max(1, round(said * scale * math.exp(rng.gauss(0, spread))))
        depth = request.reasoning.depth
        reasoning_tokens, reasoning = 0, None
        if depth is not ReasoningDepth.NONE:
            spread = math.exp(rng.gauss(0, model.reasoning_noise)) if model.reasoning_noise else 1
            budget = depth.budget_tokens()
            reasoning_tokens = max(
                16, min(budget, round(budget * model.reasoning_fraction * spread))
            )
            if self._shows_reasoning(request):
                reasoning = _thoughts(call.obs, schema)
        return Answer(
            model=self.model,
            content=content,
            tool=tool,
            reasoning=reasoning,
            input_tokens=input_tokens,
            cached_tokens=int(input_tokens * model.cached_fraction),
            output_tokens=output_tokens,
            reasoning_tokens=reasoning_tokens,
            call_id=f"syn{self.config.seed}x{call.index}",
        )

    def _shows_reasoning(self, request: Request) -> bool:
        """Anthropic and the compatible vendors return the text; Gemini and the Responses
        API only when asked; Chat Completions never."""
        family = self.profile.family
        if family in ("anthropic", "openai-compatible"):
            return True
        return family in ("gemini", "openai-responses") and request.reasoning.visible


@dataclass(slots=True)
class _Call:
    """One call's inputs and draws."""

    request: Request
    index: int
    rng: Random
    fault: str | None
    obs: Observation
    value: Any = None
    schema: ResponseSchema | None = field(init=False)

    def __post_init__(self) -> None:
        self.schema = self.request.response_schema or _schema_named(_wanted(self.request))


def _wanted(request: Request) -> str | None:
    text = "\n".join(m.content for m in request.messages if m.content)
    for name in registered_schemas():
        if re.search(rf"\b{name}\b", text):
            return name
    return next((name for cue, name in _ROLE_CUES if cue in text), None)


def _schema_named(name: str | None) -> ResponseSchema | None:
    decision = registered_schemas().get(name) if name else None
    return decision.response_schema() if decision is not None else None


def _respond_tool(request: Request) -> str | None:
    choice = request.tool_choice
    if choice and choice.startswith("respond_"):
        return choice
    return next((t.name for t in request.tools if t.name.startswith("respond_")), None)


def _plain(obs: Observation) -> str:
    if not obs.market:
        return "Nothing in the prompt needs a decision; noted."
    return (
        f"The window moved {obs.delta_period:+.2%} with a z-score of {obs.zscore:+.2f}; "
        f"stress reads {obs.stress:.2f}."
    )


def _thoughts(obs: Observation, schema: ResponseSchema | None) -> str:
    wanted = schema.name if schema is not None else "an answer"
    return (
        f"The last tick moved {obs.delta_1:+.2%} and the window {obs.delta_period:+.2%}; "
        f"stress about {obs.stress:.2f}. I weigh that and write {wanted}."
    )


def _malformed(text: str, rng: Random) -> str:
    if rng.random() < 0.5 and text.endswith("}"):
        return text[:-1] + ",}"
    return _truncate(text, rng)


def _truncate(text: str, rng: Random) -> str:
    return text[: max(1, int(len(text) * (0.4 + 0.5 * rng.random())))]
