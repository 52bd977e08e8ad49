"""Builders shared by the subsystem behaviour tests: a Situation, a Budgeting with scripted
routes per tier, and a scripted provider set up for each of the four structured-output modes.

The API is kept stable for every subsystem's tests: add keywords, do not rename them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import orjson
from msgspec.structs import replace

from golem.inference import (
    Capabilities,
    Mode,
    ReasoningConfig,
    StructuredOutput,
    StructuredOutputConfig,
)
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider, ScriptStep, tool_answer
from golem.mortality import (
    FixedClock,
    InMemoryLedger,
    ModelTier,
    MortalityState,
    Phase,
    PipelineProfile,
)
from golem.runtime.asking import Budgeting, Route, Routes
from golem.subsystems.contract import PortfolioView, Situation, Subsystem
from golem.subsystems.curator import Curator, CuratorConfig
from golem.subsystems.daimon import Daimon
from golem.subsystems.death import DeathConfig, Thanatopsis
from golem.subsystems.dream import Dream, DreamConfig
from golem.subsystems.facts import Ask
from golem.subsystems.heartbeat import Heartbeat
from golem.subsystems.risk import Risk
from golem.world import MarketSummary, Observation
from tests.policy import ALLOCATOR, CONTEXT, DAIMON, HEARTBEAT, RISK, STRUCTURED

__all__ = [
    "MODES",
    "NOW",
    "PRICE",
    "ask_for",
    "budgeting",
    "context",
    "market",
    "mode_provider",
]

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
PRICE = Price(input=1.0, output=4.0)  # USD per million tokens
MODES = (Mode.SCHEMA_ENFORCED, Mode.TOOL_USE, Mode.PROMPT_GUIDED, Mode.NONE)


def market(**changes: Any) -> MarketSummary:
    """A calm market at tick 7: price 3000, every statistic present and unremarkable."""
    summary = MarketSummary(
        tick=7,
        time=NOW,
        price=3000.0,
        delta_1=0.001,
        delta_period=0.004,
        zscore=0.2,
        volume_ratio=1.0,
        return_volatility=0.002,
        health_factor=2.5,
    )
    return replace(summary, **changes)


def context(**changes: Any) -> Situation:
    """A Thriving golem at tick 7 with $1000 cash and no position; `changes` replace fields
    (pass `market=market(...)` to change the market; the observation follows its price)."""
    summary: MarketSummary = changes.pop("market", None) or market()
    observation = Observation(
        tick=summary.tick,
        time=summary.time,
        price=summary.price,
        volume=10.0,
        health_factor=summary.health_factor,
    )
    ctx = Situation(
        golem_id="g1",
        tick=summary.tick,
        now=NOW,
        vitality=0.8,
        phase=Phase.THRIVING,
        credits_usd=100.0,
        initial_credits_usd=100.0,
        burn_rate_usd=0.01,
        observation=observation,
        market=summary,
        portfolio=PortfolioView(cash_usd=1000.0, equity_usd=1000.0),
    )
    return replace(ctx, **changes)


# The subsystem that asks for each decision (a fresh one, with its default config).
_ASKERS: Mapping[str, Callable[[], Subsystem]] = {
    "heartbeat_decision": lambda: Heartbeat(HEARTBEAT),
    "risk_assessment": lambda: Risk(RISK),
    "daimon_appraisal": lambda: Daimon(DAIMON),
    "curator_evaluation": lambda: Curator(CuratorConfig()),
    "replay_analysis": lambda: Dream(DreamConfig()),
    "fragment_evaluation": lambda: Dream(DreamConfig()),
    "dream_integration": lambda: Dream(DreamConfig()),
    "threat_assessment": lambda: Dream(DreamConfig()),
    "death_testament": lambda: Thanatopsis(DeathConfig()),
}


def ask_for(
    decision: str,
    ctx: Situation,
    *,
    subsystem: Subsystem | None = None,
    profile: PipelineProfile = PipelineProfile.STANDARD,
    **changes: Any,
) -> Ask:
    """The Ask a call for `decision` in `ctx` carries (T1, no reasoning, `profile`), asked
    by `subsystem` (default: the decision's subsystem with its default config)."""
    ask = Ask(
        ctx=ctx,
        subsystem=subsystem or _ASKERS[decision](),
        decision=decision,
        tier=ModelTier.T1,
        profile=profile,
        reasoning=ReasoningConfig(),
    )
    return replace(ask, **changes)


def budgeting(
    provider: ScriptedProvider,
    *,
    t2: ScriptedProvider | None = None,
    phase: Phase = Phase.THRIVING,
    vitality: float | None = None,
    daily_budget_usd: float = 10.0,
    config: StructuredOutputConfig | None = None,
    ledger: InMemoryLedger | None = None,
) -> Budgeting:
    """T1 and T2 routes to `provider` (T2 to `t2` when given, model "strong-1"), an empty
    ledger, a clock fixed at NOW, and a mortality state matching `phase`."""
    cheap = Route(provider=provider, model="cheap-1", price=PRICE)
    strong = cheap if t2 is None else Route(provider=t2, model="strong-1", price=PRICE)
    default_vitality = {Phase.TERMINAL: 0.05, Phase.DECLINING: 0.2, Phase.CONSERVATION: 0.4}
    return Budgeting(
        routes=Routes({ModelTier.T1: cheap, ModelTier.T2: strong}),
        ledger=ledger or InMemoryLedger(),
        clock=FixedClock(NOW),
        state=MortalityState(
            vitality=default_vitality.get(phase, 0.8) if vitality is None else vitality,
            phase=phase,
            daily_budget_usd=daily_budget_usd,
        ),
        config=config or STRUCTURED,
        policy=ALLOCATOR,
        context=CONTEXT,
    )


def mode_provider(
    mode: Mode,
    decision: type[StructuredOutput],
    payload: Mapping[str, Any],
    free_text: str,
    *,
    extra_steps: int = 0,
) -> tuple[ScriptedProvider, StructuredOutputConfig | None]:
    """A provider whose one answer (`payload`, or `free_text` in Mode.NONE) arrives the way
    `mode` delivers it, and the config to pass to `budgeting(config=...)`. `extra_steps`
    repeats the answer for runs that call the model more than once."""
    body = orjson.dumps(dict(payload)).decode()
    config: StructuredOutputConfig | None = None
    step: ScriptStep
    if mode is Mode.SCHEMA_ENFORCED:
        capabilities, step = Capabilities(response_schema=True, tool_use=True), body
    elif mode is Mode.TOOL_USE:
        capabilities = Capabilities(tool_use=True)
        step = tool_answer(f"respond_{decision.schema_name}", dict(payload))
    elif mode is Mode.PROMPT_GUIDED:
        capabilities, step = Capabilities(), f"Having weighed it, my answer:\n{body}\nDone."
    else:
        capabilities, step = Capabilities(), free_text
        config = StructuredOutputConfig(enabled=False)
    provider = ScriptedProvider([step] * (1 + extra_steps), capabilities=capabilities, price=PRICE)
    return provider, config
