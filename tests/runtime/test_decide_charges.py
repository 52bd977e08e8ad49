"""What a decision is charged: what the provider and model that answered each attempt cost
by the price table, never the route's price (a chain's dearest member, the allocator's
worst case), on the model path and on both failure paths. Through the real
FallbackProvider, run_structured, decide() and the SQLite ledger of a StateStore."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golem.inference import AuthError, Capabilities, Response, ServerError, Usage
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.fallback import FallbackProvider
from golem.inference.pricing import Price
from golem.inference.providers import Registry, default_registry
from golem.inference.run import Provider
from golem.inference.scripted import ScriptedProvider, ScriptStep
from golem.inference.transport import HTTPProvider
from golem.mortality import FixedClock, ModelTier, MortalityState, Phase
from golem.runtime.asking import Budgeting, Route, Routes
from golem.runtime.decide import decide
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from tests.inference.decisions import VALID
from tests.inference.transport_support import ENV, PROFILE, EchoCodec
from tests.policy import ALLOCATOR, CONTEXT, STRUCTURED
from tests.runtime.test_decide import NOW, PRICE, Toy, context

SCHEMA = Capabilities(response_schema=True)
ANSWER = orjson.dumps(VALID).decode()
LOCAL_MODEL = "gemma-3-270m-q4_k_m"


def budgeting(route: Route, store: StateStore) -> Budgeting:
    return Budgeting(
        routes=Routes({ModelTier.T1: route, ModelTier.T2: route}),
        ledger=store.ledger,
        clock=FixedClock(NOW),
        state=MortalityState(vitality=0.8, phase=Phase.THRIVING, daily_budget_usd=10.0),
        config=STRUCTURED,
        policy=ALLOCATOR,
        context=CONTEXT,
    )


def charges(store: StateStore) -> list[tuple[str, str, float]]:
    with sqlite3.connect(store.path) as db:
        return db.execute("select provider, model, usd from charges").fetchall()


async def test_a_free_fallback_after_a_failed_openai_is_charged_nothing(tmp_path: Path) -> None:
    # configs/openai.toml with no network: OpenAI fails, the local model answers.
    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"error": {"message": "bad key", "type": "auth"}})

    openai = HTTPProvider.named(
        "openai",
        "gpt-4.1-nano",
        transport=httpx.MockTransport(refuse),
        environ={"OPENAI_API_KEY": "sk-test"},
    )
    local = ScriptedProvider([ANSWER], name="local", model=LOCAL_MODEL, capabilities=SCHEMA)
    nano = default_registry().price_for("openai", "gpt-4.1-nano")
    assert nano is not None and nano.output > 0
    route = Route(FallbackProvider([openai, local]), "gpt-4.1-nano", price=nano)  # as routes.py
    with StateStore.open(tmp_path) as store:
        record = await decide(Toy(), context(), budgeting(route, store))
        assert record.source == "model" and record.usage.total_tokens > 0
        assert record.cost_usd == 0.0
        assert charges(store) == [("local", LOCAL_MODEL, 0.0)]
        assert store.ledger.total_usd() == 0.0


async def test_attempts_paid_before_a_provider_error_are_still_charged(tmp_path: Path) -> None:
    # Attempt 1 answers something that is no decision (paid); the re-ask fails.
    provider = ScriptedProvider(["no idea", ServerError("down", status=503)], price=PRICE)
    route = Route(provider, "scripted-1", price=Price(input=50.0, output=50.0))
    with StateStore.open(tmp_path) as store:
        record = await decide(Toy(), context(), budgeting(route, store))
        assert record.source == "fallback" and (record.error or "").startswith("server_error")
        paid = PRICE.cost(Usage(input_tokens=100, output_tokens=50))
        assert record.cost_usd == paid > 0
        assert record.usage == Usage(input_tokens=100, output_tokens=50)
        assert [usd for *_, usd in charges(store)] == [paid]


# -- the property: over random chains, failures, usages and re-asks -----------------------

prices = st.one_of(
    st.none(),  # unpriced: costs nothing, as the allocator estimates it
    st.just(Price(0.0, 0.0)),  # free (the local model)
    st.builds(
        Price,
        input=st.floats(0.01, 20.0),
        output=st.floats(0.01, 80.0),
        cached_input=st.none() | st.floats(0.0, 5.0),
    ),
)
usages = st.builds(
    Usage,
    input_tokens=st.integers(1, 3000),
    output_tokens=st.integers(0, 800),
    cached_input_tokens=st.integers(0, 1000),
)


@dataclass(frozen=True)
class Member:
    http: bool  # an HTTPProvider through httpx.MockTransport, else a scripted provider
    price: Price | None  # its model's price in the price table


@dataclass(frozen=True)
class Attempt:
    answerer: int | None  # the member that answers (those before it fail); None: all fail
    valid: bool  # the answer is a valid decision (else a re-ask follows)
    usage: Usage


def attempts(members: int) -> st.SearchStrategy[list[Attempt]]:
    answerer = st.one_of(st.none(), st.integers(0, members - 1))
    attempt = st.builds(Attempt, answerer, st.booleans(), usages)
    return st.lists(attempt, min_size=4, max_size=4)  # more than any allocation allows


def http_member(price: Price | None, steps: list[ScriptStep]) -> Provider:
    model = {"price": {"input": price.input, "output": price.output}} if price else {}
    if price is not None and price.cached_input is not None:
        model["price"]["cached_input"] = price.cached_input
    registry = Registry({"echo": {"family": "echo", "models": {"echo-1": model}}})
    replies = iter(steps)

    def reply(request: httpx.Request) -> httpx.Response:
        step = next(replies)
        if isinstance(step, BaseException):
            return httpx.Response(401, json={"error": "no"})
        assert isinstance(step, Response)
        usage = step.usage
        body = {"text": step.content, "in": usage.input_tokens, "out": usage.output_tokens}
        if usage.cached_input_tokens:
            body["cached"] = usage.cached_input_tokens
        return httpx.Response(200, json=body)

    return HTTPProvider(
        PROFILE,
        "echo-1",
        CachedEchoCodec(PROFILE),
        transport=httpx.MockTransport(reply),
        environ=ENV,
        registry=registry,
    )


class CachedEchoCodec(EchoCodec):
    """The echo codec, reporting cached input tokens too."""

    def apply_body(self, body: Mapping[str, Any], builder: ResponseBuilder) -> None:
        super().apply_body(body, builder)
        builder.usage(cached_input_tokens=body.get("cached", 0))


def chain_of(members: list[Member], plan: list[Attempt]) -> Provider:
    """The members, each scripted with what `plan` has it do, in a FallbackProvider."""
    steps: list[list[ScriptStep]] = [[] for _ in members]
    for attempt in plan:
        reached = len(members) if attempt.answerer is None else attempt.answerer + 1
        for index in range(reached):
            if index == attempt.answerer:
                content = ANSWER if attempt.valid else "no idea"
                steps[index].append(Response(content=content, usage=attempt.usage))
            else:
                steps[index].append(AuthError("no", status=401))
    providers = [
        http_member(m.price, s)
        if m.http
        else ScriptedProvider(s, name=f"m{i}", capabilities=SCHEMA, price=m.price)
        for i, (m, s) in enumerate(zip(members, steps, strict=True))
    ]
    return providers[0] if len(providers) == 1 else FallbackProvider(providers)


def expected_usd(members: list[Member], plan: list[Attempt], allowed: int) -> float:
    """The sum, attempt by attempt as they are made, of the answering member's price
    applied to its usage (an unpriced or free member costs 0)."""
    usd = 0.0
    for made, attempt in enumerate(plan, start=1):
        if attempt.answerer is None:
            break  # every member failed: the decision ends, the attempts before it paid
        price = members[attempt.answerer].price
        usd += 0.0 if price is None else price.cost(attempt.usage)
        if attempt.valid or made == allowed:
            break
    return usd


def dearest(members: list[Member]) -> Price:
    return max((m.price or Price(0.0, 0.0) for m in members), key=lambda p: (p.output, p.input))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.builds(Member, st.booleans(), prices), min_size=1, max_size=3).flatmap(
        lambda members: st.tuples(st.just(members), attempts(len(members)))
    )
)
def test_the_charge_is_what_the_answering_providers_cost(
    case: tuple[list[Member], list[Attempt]],
) -> None:
    members, plan = case
    first = "echo-1" if members[0].http else "scripted-1"  # as routes.py: the first's model
    route = Route(chain_of(members, plan), first, price=dearest(members))
    with tempfile.TemporaryDirectory() as state_dir, StateStore.open(state_dir) as store:
        record: DecisionRecord = trio.run(decide, Toy(), context(), budgeting(route, store))
        assert record.allocation is not None
        expected = expected_usd(members, plan, record.allocation.max_attempts)
        assert record.cost_usd == expected
        assert store.ledger.total_usd() == expected
        assert sum(usd for *_, usd in charges(store)) == expected
