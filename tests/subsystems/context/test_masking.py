"""L7: no address, key or e-mail from the state reaches a provider's request body, under
any codec, and the decision comes back with the identifiers it named restored."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import httpx
import orjson
import pytest
from pydantic import BaseModel

from golem.inference import HTTPProvider
from golem.inference.pricing import Price
from golem.inference.providers import default_registry
from golem.inference.scripted import ScriptedProvider
from golem.inference.synthetic.wire import Answer, wire_body
from golem.mortality import ModelTier, Phase, PipelineProfile, SubsystemName
from golem.runtime.asking import Route, Routes
from golem.runtime.decide import decide
from golem.subsystems.context import Masker, assemble
from golem.subsystems.contract import Brief, ProposedTrade
from golem.subsystems.risk import LAYERS, Risk, RiskAssessment
from golem.world import TradeAction
from tests.policy import CONTEXT, RISK
from tests.subsystems.context.support import (
    API_KEY,
    COUNTERPARTY,
    EMAIL,
    PLANTED,
    PRIVATE_KEY,
    WALLET,
    rich_context,
)
from tests.subsystems.support import budgeting

REGISTRY = default_registry()
MODELS = {
    "anthropic": "claude-sonnet-4-5",
    "bankr": "gpt-5-mini",
    "deepseek": "deepseek-chat",
    "gemini": "gemini-2.5-flash",
    "openai": "gpt-4.1-mini",
    "openai-responses": "gpt-5-mini",
    "openrouter": "openai/gpt-4o-mini",
    "qwen": "qwen3-max",
    "venice": "llama-3.3-70b",
}
ENV = {
    p.api_key_env: "test-key-not-a-secret"
    for p in map(REGISTRY.profile, REGISTRY.names())
    if p.api_key_env
}
_PLACEHOLDER = re.compile(r"<(address|email|key)-[0-9a-f]{8}>")

_TOOL = re.compile(r'"name":\s*"(respond_[a-z_]+)"')


def test_masker_replaces_each_kind_with_a_stable_placeholder() -> None:
    masker = Masker("g1")
    text = f"pay {WALLET} or {WALLET.lower()}, mail {EMAIL}, key {PRIVATE_KEY}, api {API_KEY}"
    masked = masker.mask(text)
    assert not any(value in masked for value in (WALLET, EMAIL, PRIVATE_KEY, API_KEY))
    assert masker.mask(text) == masked  # stable within a call…
    assert Masker("g1").mask(text) == masked  # …and across calls of one golem
    assert Masker("g2").mask(text) != masked  # but not between golems
    assert masker.masked == {"address": 2, "email": 1, "key": 2}
    assert masker.restore_text(masked).startswith(f"pay {WALLET} or {WALLET.lower()}, mail {EMAIL}")
    assert PRIVATE_KEY not in masker.restore_text(masked)  # secrets are never put back
    assert API_KEY not in masker.restore_text(masked)


@pytest.mark.parametrize(
    "text",
    [
        "price 3012.55; change last tick -0.41%",
        "regime_flip:above>below, health_factor<1.5",
        "lesson 12: in calm markets rebounds persist within 40 ticks",
        "tx fee 0.0031 ETH at block 21934521",
    ],
)
def test_ordinary_prompt_lines_are_left_alone(text: str) -> None:
    masker = Masker("g1")
    assert masker.mask(text) == text and masker.masked == {}


def test_restore_reaches_nested_models_and_lists_without_revalidating() -> None:
    class Inner(BaseModel):
        who: str

    class Outer(BaseModel):
        note: str
        items: list[str]
        inner: Inner
        score: float

    masker = Masker("g1")
    placeholder = masker.mask(COUNTERPARTY)
    key = masker.mask(PRIVATE_KEY)
    decision = Outer(
        note=f"block {placeholder}",
        items=[placeholder, key],
        inner=Inner(who=placeholder),
        score=0.5,
    )
    restored = masker.restore(decision)
    assert isinstance(restored, Outer)
    assert restored.note == f"block {COUNTERPARTY}"
    assert restored.items == [COUNTERPARTY, key]
    assert restored.inner.who == COUNTERPARTY and restored.score == 0.5
    assert masker.restore(Outer(note="x", items=[], inner=Inner(who="y"), score=1)).note == "x"


def test_full_masks_what_standard_sends_in_the_clear() -> None:
    brief = Brief("You are risk.", "Assess it.")
    standard = assemble(brief, rich_context(), PipelineProfile.STANDARD, settings=CONTEXT).request
    full = assemble(brief, rich_context(), PipelineProfile.FULL, settings=CONTEXT)
    clear = "\n".join(m.content or "" for m in standard.messages)
    masked = "\n".join(m.content or "" for m in full.request.messages)
    for value in PLANTED:
        assert value in clear, value  # the state really holds each of them…
        assert value not in masked, value  # …and Full lets none of them out
    assert full.report.masked == {"address": 2, "email": 2, "key": 2}


def _proposing() -> Any:
    trade = ProposedTrade(
        TradeAction.HEDGE,
        200.0,
        f"hedge the treasury's exposure to {COUNTERPARTY}",
        SubsystemName.HEARTBEAT,
    )
    return rich_context(proposed=trade, phase=Phase.STABLE, vitality=0.6)


def _answer(sent: dict[str, Any], text: str) -> dict[str, Any]:
    """A risk assessment that names what the prompt showed: placeholders, as a model does."""
    found = {kind: p for p, kind in ((m.group(), m.group(1)) for m in _PLACEHOLDER.finditer(text))}
    layer = {"passed": True, "score": 0.2, "detail": "fine"}
    return {
        "approved": True,
        "adjusted_size_usd": 150.0,
        "layers": dict.fromkeys(LAYERS, layer),
        "warnings": [f"tell {found['email']}"],
        "reasoning": f"counterparty {found['address']}; the leaked {found['key']} is not ours",
        "proposed_size_usd": 200.0,
    }


class Wire:
    """The network edge: records every request body and answers in the provider's format."""

    def __init__(self, name: str) -> None:
        self.profile = REGISTRY.profile(name)
        self.bodies: list[bytes] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(request.content)
        text = request.content.decode()
        payload = _answer(orjson.loads(request.content), text)
        tool = _TOOL.search(text)
        answer = Answer(
            model=MODELS.get(self.profile.name, "test-model"),
            content=None if tool else orjson.dumps(payload).decode(),
            tool=("call_1", tool.group(1), payload) if tool else None,
            reasoning=None,
            input_tokens=900,
            cached_tokens=0,
            output_tokens=120,
            reasoning_tokens=0,
            call_id="resp_1",
        )
        headers = {"content-type": "application/json"}
        return httpx.Response(200, content=wire_body(self.profile, answer), headers=headers)


@pytest.mark.parametrize("name", REGISTRY.names())
async def test_no_identifier_reaches_any_codecs_wire_body(name: str) -> None:
    wire = Wire(name)
    provider = HTTPProvider.named(
        name, MODELS.get(name, "test-model"), transport=httpx.MockTransport(wire), environ=ENV
    )
    route = Route(provider=provider, model=MODELS.get(name, "test-model"), price=Price(1.0, 4.0))
    routes = Routes({ModelTier.T1: route, ModelTier.T2: route})
    env = replace(budgeting(ScriptedProvider([])), routes=routes)
    record = await decide(Risk(RISK), _proposing(), env)
    assert record.source == "model", record.error
    assert wire.bodies
    for body in wire.bodies:
        for value in PLANTED:
            assert value.encode() not in body, (name, value)
            assert value.lower().encode() not in body.lower(), (name, value)
    decision = record.decision
    assert isinstance(decision, RiskAssessment)
    assert COUNTERPARTY in decision.reasoning  # restored: the golem acts on the address
    assert "<key-" in decision.reasoning and PRIVATE_KEY not in decision.reasoning
    assert decision.warnings and "@" in decision.warnings[0]
    line = record.fields()
    assert line["profile"] == "full"
    assert line["context"]["masked"] == {"address": 2, "email": 2, "key": 2}
    assert "L7" in line["context"]["layers"]
    logged = orjson.dumps(line, default=str)
    assert PRIVATE_KEY.encode() not in logged and API_KEY.encode() not in logged
