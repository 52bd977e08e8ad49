"""decide(): allocation, the model path, fallbacks, charging and the decision record (its
log line among what it says)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson
from msgspec.structs import replace
from structlog.testing import capture_logs

from golem.inference import (
    Capabilities,
    ReasoningDepth,
    ServerError,
    StructuredOutput,
)
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider
from golem.mortality import (
    FixedClock,
    InMemoryLedger,
    ModelTier,
    MortalityState,
    Phase,
    SubsystemName,
    utc_day,
)
from golem.runtime.asking import Budgeting, Route, Routes
from golem.runtime.decide import decide
from golem.subsystems.contract import Brief, Judge, Outcome, PortfolioView, Situation
from golem.subsystems.facts import Ask
from golem.world import MarketSummary, Observation
from golem.world.feed import FeedItem
from tests.inference.decisions import VALID, Pulse
from tests.policy import ALLOCATOR, CONTEXT, STRUCTURED

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
PRICE = Price(input=1.0, output=4.0)  # USD per million tokens


@dataclass
class Toy:
    """A subsystem for the tests: asks for a Pulse at a fixed tier."""

    name: SubsystemName = SubsystemName.HEARTBEAT
    wanted: ModelTier = ModelTier.T1
    skip: str | None = None
    has_rules: bool = True

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        return Pulse

    def tier(self, ctx: Situation) -> ModelTier:
        return self.wanted

    def skip_reason(self, ctx: Situation) -> str | None:
        return self.skip

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        return None

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        return ()

    def brief(self, ctx: Situation) -> Brief:
        return Brief("You test.", f"price {ctx.observation.price}: answer with a pulse")

    def deterministic(self, ctx: Situation) -> StructuredOutput | None:
        if not self.has_rules:
            return None
        return Pulse(severity="low", action="observe", confidence=0.5)

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome:
        assert isinstance(decision, Pulse)
        return Outcome(summary=f"{decision.action} at {decision.severity}")


def context(**changes: object) -> Situation:
    observation = Observation(tick=7, time=NOW, price=3000.0, volume=10.0)
    market = MarketSummary(7, NOW, 3000.0, None, None, None, None, None, None)
    ctx = Situation(
        golem_id="g1",
        tick=7,
        now=NOW,
        vitality=0.8,
        phase=Phase.THRIVING,
        credits_usd=100.0,
        initial_credits_usd=100.0,
        burn_rate_usd=0.0,
        observation=observation,
        market=market,
        portfolio=PortfolioView(cash_usd=1000.0, equity_usd=1000.0),
    )
    return replace(ctx, **changes)


def budgeting(provider: ScriptedProvider, *, phase: Phase = Phase.THRIVING) -> Budgeting:
    route = Route(provider=provider, model="scripted-1", price=PRICE)
    vitality = 0.05 if phase is Phase.TERMINAL else 0.8
    return Budgeting(
        routes=Routes({ModelTier.T1: route, ModelTier.T2: route}),
        ledger=InMemoryLedger(),
        clock=FixedClock(NOW),
        state=MortalityState(vitality=vitality, phase=phase, daily_budget_usd=10.0),
        config=STRUCTURED,
        policy=ALLOCATOR,
        context=CONTEXT,
    )


async def test_t0_takes_the_deterministic_path_and_charges_nothing() -> None:
    env = budgeting(ScriptedProvider([]))
    with capture_logs() as logs:
        record = await decide(Toy(wanted=ModelTier.T0), context(), env)
    assert record.source == "deterministic"
    assert record.decision == Pulse(severity="low", action="observe", confidence=0.5)
    assert env.ledger.spent_usd(utc_day(NOW)) == 0
    assert logs == []  # the record is the caller's to publish
    line = record.fields()
    assert (record.event, line["source"], line["summary"]) == (
        "decision",
        "deterministic",
        "observe at low",
    )
    assert (line["golem"], line["time"], line["tick"]) == ("g1", NOW, 7)
    assert (line["vitality"], line["phase"], line["tier"]) == (0.8, "thriving", "0")


async def test_model_path_charges_and_logs_everything_needed() -> None:
    provider = ScriptedProvider([orjson.dumps(VALID).decode()], price=PRICE)
    env = budgeting(provider)
    record = await decide(Toy(), context(), env)
    assert record.source == "model"
    assert record.decision == Pulse.model_validate(VALID)
    expected = PRICE.cost(record.usage)
    assert record.cost_usd == expected > 0
    assert env.ledger.spent_usd(utc_day(NOW), SubsystemName.HEARTBEAT) == expected
    line = record.fields()
    for key in ("golem", "time", "subsystem", "tier", "profile", "reasoning_depth", "mode",
                "provider", "model", "attempts", "repairs", "tokens", "cost_usd", "vitality",
                "phase", "budget_left_usd", "decision", "summary"):  # fmt: skip
        assert key in line, key
    assert line["decision"]["severity"] == "high"
    assert line["tokens"] == {"input": 100, "output": 50, "reasoning": 0}


async def test_every_attempt_carries_the_ask_a_simulated_model_reads() -> None:
    """Request.facts: the Situation, the subsystem, the decision wanted and what was paid
    (tier, profile, reasoning), on the first ask and on each re-ask."""
    provider = ScriptedProvider(["no idea", orjson.dumps(VALID).decode()], price=PRICE)
    toy, ctx = Toy(), context()
    record = await decide(toy, ctx, budgeting(provider))
    assert record.source == "model" and len(provider.requests) == 2
    allocation = record.allocation
    assert allocation is not None
    for request in provider.requests:
        ask = request.facts
        assert isinstance(ask, Ask)
        assert (ask.ctx, ask.subsystem, ask.decision) == (ctx, toy, Pulse.schema_name)
        assert (ask.tier, ask.profile, ask.reasoning) == (
            ModelTier.T1,
            allocation.profile,
            allocation.reasoning,
        )
        assert ask.truth is None and ask.inputs_cut == 0


async def test_exhausted_reasks_fall_back_and_still_pay_for_every_attempt() -> None:
    provider = ScriptedProvider(["no idea"] * 5, price=PRICE)
    env = budgeting(provider)
    with capture_logs() as logs:
        record = await decide(Toy(), context(), env)
    attempts = len(provider.requests)
    assert attempts == record.allocation.max_attempts  # type: ignore[union-attr]
    assert record.source == "fallback"
    assert record.error and record.error.startswith("structured_output_invalid")
    assert record.decision == Pulse(severity="low", action="observe", confidence=0.5)
    assert record.usage.input_tokens == 100 * attempts
    assert env.ledger.spent_usd(utc_day(NOW)) == record.cost_usd > 0
    assert [entry["event"] for entry in logs] == ["structured_output_invalid"]
    assert record.fields()["error"] == record.error


async def test_provider_failure_falls_back_without_crashing() -> None:
    provider = ScriptedProvider([ServerError("boom", status=503, provider="scripted")])
    env = budgeting(provider)
    record = await decide(Toy(), context(), env)
    assert record.source == "fallback"
    assert "server_error" in (record.error or "")
    assert env.ledger.spent_usd(utc_day(NOW)) == 0


async def test_terminal_phase_degrades_to_rules_without_calling() -> None:
    provider = ScriptedProvider([])
    env = budgeting(provider, phase=Phase.TERMINAL)
    record = await decide(Toy(), context(phase=Phase.TERMINAL, vitality=0.05), env)
    assert record.source == "deterministic"
    assert [str(d.reason) for d in record.degradations] == ["terminal"]
    assert provider.requests == []


async def test_a_subsystem_that_skips_when_degraded_is_skipped() -> None:
    provider = ScriptedProvider([])
    env = budgeting(provider, phase=Phase.TERMINAL)
    record = await decide(Toy(name=SubsystemName.DREAM), context(), env)
    assert record.source == "skipped"
    assert record.skip_reason == "degraded: terminal"


async def test_skip_reason_stops_before_allocation() -> None:
    record = await decide(Toy(skip="too few episodes"), context(), budgeting(ScriptedProvider([])))
    assert (record.source, record.skip_reason) == ("skipped", "too few episodes")


async def test_same_run_is_charged_once() -> None:
    answer = orjson.dumps(VALID).decode()
    provider = ScriptedProvider([answer, answer])
    env = budgeting(provider)
    await decide(Toy(), context(), env)
    await decide(Toy(), context(), env)  # a replay of the same tick and run
    assert len(env.ledger.charges(utc_day(NOW))) == 1
    await decide(Toy(), context(run=1), budgeting(ScriptedProvider([answer])))


async def test_death_uses_its_own_route() -> None:
    main = ScriptedProvider([])
    death = ScriptedProvider([orjson.dumps(VALID).decode()], name="death-provider",
                             capabilities=Capabilities(response_schema=True))  # fmt: skip
    env = budgeting(main, phase=Phase.TERMINAL)
    routes = dataclasses.replace(env.routes, death=Route(death, "d-1", PRICE))
    env = dataclasses.replace(env, routes=routes)
    record = await decide(Toy(name=SubsystemName.DEATH, wanted=ModelTier.T2), context(), env)
    assert record.source == "model"
    assert len(death.requests) == 1 and main.requests == []
