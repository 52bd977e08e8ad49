"""SyntheticProvider: a keyless provider that answers every request with a seeded,
schema-valid decision, dressed in the wire format of the provider it emulates and decoded
by that provider's real codec, then priced. What the decision says comes from the mind of
the decision asked for (given at construction), which reads the request's `facts`."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any, Protocol, runtime_checkable

import orjson

from golem.inference.modes import Capabilities
from golem.inference.pricing import priced
from golem.inference.providers import Registry, default_registry
from golem.inference.reasoning import ReasoningDepth
from golem.inference.schema import ResponseSchema
from golem.inference.structured import registered_schemas
from golem.inference.synthetic.config import SyntheticConfig
from golem.inference.synthetic.plan import Object, compile_schema
from golem.inference.synthetic.prose import render_text, wrap_json
from golem.inference.synthetic.wire import FAMILIES, Answer, error_body, wire_body
from golem.inference.types import Mode, Request, Response

__all__ = ["Facts", "Keyed", "Mind", "Steerable", "SyntheticProvider"]

_FAULTS = ("malformed_json", "schema_invalid", "prose")
_KEYS_KEPT = 1024  # decision keys whose calls are counted (the most recent)
_KEYED = 1 << 56  # keyed indices lie above every count of unkeyed calls

# A decision's fields from a request's facts (whatever they are, None included) and the
# call's seeded Random; the plan fills and bounds the rest.
Mind = Callable[[object, Random], dict[str, Any]]


@runtime_checkable
class Facts(Protocol):
    """What the provider itself reads of a request's facts: the decision wanted, which the
    NONE mode (no schema sent) needs."""

    @property
    def decision(self) -> str: ...


@runtime_checkable
class Keyed(Protocol):
    """Facts that name the decision a call belongs to (e.g. golem, tick, subsystem, decision
    and run), so that its draws depend on that decision alone and not on how many calls
    came before it (`SyntheticProvider`)."""

    def draw_key(self) -> str: ...


@runtime_checkable
class Steerable(Protocol):
    """Facts that can say whether the prompt showed an instruction in external text, and
    what a model that obeys it reads instead (`SyntheticConfig.compromised`)."""

    def instructed(self) -> bool: ...

    def obeying(self) -> object: ...


class SyntheticProvider:
    """A provider that needs no key and no network: try golem with it, or simulate a life.

    `emulate` names a provider of the registry (openai, anthropic, gemini, deepseek, qwen,
    openai-compatible, openai-responses, ...) and `model` one of its models: answers come
    in that provider's wire format through its codec, with its capabilities and prices.
    A call draws from `Random(f"{s}:{n}")`, s the seed and n the call's index: the same
    seed and the same requests give the same answers. A call whose facts name the decision
    it belongs to (`Keyed`) is indexed by that name, this provider's model and how many
    calls of it came before (a retry), so two lives that differ somewhere draw alike for
    the same decision everywhere else: the common random numbers a comparison of lives
    needs (one extra call no longer reshuffles every later answer); a second opinion from
    another model draws apart. Any other call is indexed by its place among such calls.
    The response reports n as its `seed`; a request carrying it (`Request.seed`) draws
    call n's Random again and counts as no new call: the same call
    repeated, on whatever the request now says. `minds` maps
    a decision (schema name) to the mind that says what its answer holds, from the
    request's `facts` (golem.subsystems.minds has one per subsystem); a decision without a
    mind gets whatever valid value its plan draws. Reasoning (depth above none) yields thinking
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
        minds: Mapping[str, Mind] | None = None,
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
        self.minds: Mapping[str, Mind] = minds or {}
        self._plans: dict[bytes, tuple[Object, int]] = {}  # by the schema's JSON text
        self.calls = 0  # calls answered, repeats (Request.seed) not counted
        self._unkeyed = 0  # calls without a decision key, the index of the next one
        self._repeats: dict[str, int] = {}  # calls made per decision key, the newest last

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
        if request.seed is None:
            index = self._index(request.facts)
            self.calls += 1
        else:  # a repeat of call `seed`: its draws, and the sequence left where it is
            index = request.seed
        rng = Random(f"{self.config.seed}:{index}")
        call = _Call(request, index, rng, self._roll_fault(rng))
        if call.schema is not None:
            plan, _ = self._plan(call.schema)
            mind = self.minds.get(call.schema.name)
            facts = self._steered(request.facts, index)
            call.value = plan.make(rng, mind(facts, rng) if mind else None)
            if call.fault == "schema_invalid":
                call.value = plan.spoil(call.value, rng)
        content, tool = self._say(call)
        answer = self._tokens(call, content, tool)
        response = self.codec.decode(200, {}, wire_body(self.profile, answer))
        return priced(response, self.price, provider=self.name).evolve(seed=index)

    def _index(self, facts: object) -> int:
        """A new call's index: from its decision key and the calls of that decision made
        before it, else the next of the calls without one."""
        if not isinstance(facts, Keyed):
            index, self._unkeyed = self._unkeyed, self._unkeyed + 1
            return index
        # The model too: a second opinion from another model draws apart from the first.
        key = f"{facts.draw_key()}:{self.model}"
        made = self._repeats.pop(key, 0)
        self._repeats[key] = made + 1
        if len(self._repeats) > _KEYS_KEPT:  # keys name moments: an old one does not recur
            del self._repeats[next(iter(self._repeats))]
        return _keyed_index(key, made)

    def _steered(self, facts: object, index: int) -> object:
        """The facts as the model reads them: obeying the instruction its prompt showed,
        with chance `compromised`, drawn from a Random of its own (the call's stays as an
        uncompromised model's, so the same call without the instruction draws alike)."""
        compromised = self.config.compromised
        if compromised <= 0 or not isinstance(facts, Steerable) or not facts.instructed():
            return facts
        roll = Random(f"{self.config.seed}:{index}:compromised").random()
        return facts.obeying() if roll < compromised else facts

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
            return _PLAIN, None
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
                reasoning = _thoughts(call.value, schema)
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
    value: Any = None
    schema: ResponseSchema | None = field(init=False)

    def __post_init__(self) -> None:
        self.schema = self.request.response_schema or _wanted(self.request.facts)


def _keyed_index(key: str, made: int) -> int:
    """The index of the call of decision `key` that follows `made` others: a hash, the
    same on every machine and run (str hashes are salted per process)."""
    digest = hashlib.blake2b(f"{key}#{made}".encode(), digest_size=7).digest()
    return _KEYED | int.from_bytes(digest, "big")


def _wanted(facts: object) -> ResponseSchema | None:
    """The schema of the decision the facts name, when no schema was sent."""
    if not isinstance(facts, Facts):
        return None
    decision = registered_schemas().get(facts.decision)
    return decision.response_schema() if decision is not None else None


def _respond_tool(request: Request) -> str | None:
    choice = request.tool_choice
    if choice and choice.startswith("respond_"):
        return choice
    return next((t.name for t in request.tools if t.name.startswith("respond_")), None)


_PLAIN = "Nothing in the prompt needs a decision; noted."


def _thoughts(value: Any, schema: ResponseSchema | None) -> str:
    """The thinking shown with an answer: what it settles on, in its first few words."""
    wanted = schema.name if schema is not None else "an answer"
    said = [
        f"{name.replace('_', ' ')} {field}"
        for name, field in (value.items() if isinstance(value, dict) else ())
        if isinstance(field, str | bool | int | float) and len(str(field)) <= 40
    ][:3]
    settled = f": {', '.join(said)}" if said else ""
    return f"I weigh what the prompt shows and write {wanted}{settled}."


def _malformed(text: str, rng: Random) -> str:
    if rng.random() < 0.5 and text.endswith("}"):
        return text[:-1] + ",}"
    return _truncate(text, rng)


def _truncate(text: str, rng: Random) -> str:
    return text[: max(1, int(len(text) * (0.4 + 0.5 * rng.random())))]
