"""The allocator's rules, one table row each, and its promise: whatever the sequence of
approved calls, re-asks and failures, the day's charges stay within the cap."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from golem.inference.pricing import Price
from golem.inference.types import Usage
from golem.mortality import (
    Allocation,
    AllocatorPolicy,
    CallEstimate,
    Charge,
    Degradation,
    DegradationReason,
    Fallback,
    FixedClock,
    InMemoryLedger,
    ModelTier,
    MortalityState,
    Phase,
    PipelineProfile,
    ReasoningConfig,
    ReasoningDepth,
    SubsystemName,
    allocate,
    phase_of,
)
from tests.policy import MORTALITY

S = SubsystemName
T = ModelTier
R = DegradationReason
NOON = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)
CLOCK = FixedClock(NOON)
DEFAULT = AllocatorPolicy()  # the policy every knob at its default compiles to
# $1 per Mtok in, $4 out: a 10k-token prompt with a 1k answer and no reasoning is $0.014.
CHEAP = CallEstimate(Price(1.0, 4.0), input_tokens=10_000, max_output_tokens=1_000)


def state(vitality: float = 0.8, budget: float = 10.0, **kwargs: object) -> MortalityState:
    return MortalityState(vitality, phase_of(vitality, None, MORTALITY.phases), budget, **kwargs)  # type: ignore[arg-type]


def spend(ledger: InMemoryLedger, subsystem: SubsystemName, usd: float, key: str) -> None:
    ledger.record(Charge(subsystem, "p", "m", Usage(), usd, 0.0, NOON, key))


def run(
    subsystem: SubsystemName,
    tier: ModelTier,
    st: MortalityState,
    ledger: InMemoryLedger | None = None,
    call: CallEstimate = CHEAP,
) -> Allocation | Degradation:
    return allocate(
        subsystem, tier, st, ledger or InMemoryLedger(), CLOCK, call=call, policy=DEFAULT
    )


def degraded(result: Allocation | Degradation) -> tuple[DegradationReason, Fallback]:
    assert isinstance(result, Degradation), result
    return result.reason, result.fallback


def test_approved_call_carries_everything_the_caller_needs() -> None:
    result = run(S.DAIMON, T.T1, state(0.8))
    assert isinstance(result, Allocation)
    assert result.tier is T.T1
    assert result.ceiling is T.T2
    assert result.profile is PipelineProfile.FAST
    assert result.reasoning == ReasoningConfig.low()
    assert result.budget_left_usd == pytest.approx(10 * 0.05 * (1 - 0.7 * 0.2))
    # 10k in at $1/Mtok, 1k answer + 1024 reasoning tokens at $4/Mtok
    assert result.worst_case_cost_usd == pytest.approx(0.01 + 2024 * 4e-6)
    assert result.max_attempts == 3


@pytest.mark.parametrize(
    ("subsystem", "fallback"),
    [
        (S.DREAM, Fallback.SKIP),
        (S.DAIMON, Fallback.DETERMINISTIC),
        (S.CONTEXT, Fallback.DETERMINISTIC),
        (S.HEARTBEAT, Fallback.DETERMINISTIC),
        (S.CURATOR, Fallback.SKIP),
        (S.PLAYBOOK, Fallback.SKIP),
        (S.OPERATOR, Fallback.DETERMINISTIC),
    ],
)
def test_exhausted_budget_line_takes_the_fallback(
    subsystem: SubsystemName, fallback: Fallback
) -> None:
    ledger = InMemoryLedger()
    spend(ledger, subsystem, 5.0, "spent")  # far above any one line of a $10 day
    assert degraded(run(subsystem, T.T1, state(0.8), ledger)) == (R.BUDGET_EXHAUSTED, fallback)


def test_heartbeat_t2_becomes_t1_when_t2_is_unaffordable() -> None:
    dear = CallEstimate(Price(15.0, 75.0), input_tokens=50_000, max_output_tokens=4_000)
    st = state(0.8, budget=1.0)  # heartbeat line: 0.2·(1 − 0.5·0.2) = $0.18
    assert degraded(run(S.HEARTBEAT, T.T2, st, call=dear)) == (
        R.BUDGET_EXHAUSTED,
        Fallback.LOWER_TIER,
    )
    assert isinstance(run(S.HEARTBEAT, T.T1, st), Allocation)


@pytest.mark.parametrize("vitality", [0.45, 0.2])  # Conservation, Declining
def test_conservation_and_declining_cap_at_the_cheap_tier(vitality: float) -> None:
    st = state(vitality)
    assert degraded(run(S.HEARTBEAT, T.T2, st)) == (R.PHASE_TIER_CAP, Fallback.LOWER_TIER)
    assert degraded(run(S.DREAM, T.T2, st)) == (R.PHASE_TIER_CAP, Fallback.LOWER_TIER)
    allowed = run(S.DREAM, T.T1, st)
    assert isinstance(allowed, Allocation)
    assert allowed.ceiling is T.T1


def test_terminal_only_death_calls_a_model() -> None:
    st = state(0.05)
    assert st.phase is Phase.TERMINAL
    for subsystem in SubsystemName:
        result = run(subsystem, T.T2, st)
        if subsystem is S.DEATH:
            assert isinstance(result, Allocation)
        else:
            assert isinstance(result, Degradation)
            assert result.reason is R.TERMINAL
            assert result.fallback is not Fallback.LOWER_TIER
        # Deterministic paths remain.
        assert isinstance(run(subsystem, T.T0, st), Allocation)


@pytest.mark.parametrize(
    ("spent", "subsystem", "tier", "expected"),
    [
        (6.9, S.DAIMON, T.T2, None),
        (7.0, S.DAIMON, T.T2, (R.COST_CAP_NO_TOP_TIER, Fallback.LOWER_TIER)),
        (7.0, S.DAIMON, T.T1, None),
        (9.0, S.DAIMON, T.T1, (R.COST_CAP_NO_LLM, Fallback.DETERMINISTIC)),
        (9.0, S.DREAM, T.T2, (R.COST_CAP_NO_LLM, Fallback.SKIP)),
        (9.0, S.RISK, T.T2, None),
        (9.0, S.DEATH, T.T2, None),
        (10.0, S.RISK, T.T2, (R.COST_CAP_EXHAUSTED, Fallback.DETERMINISTIC)),
        (10.0, S.DEATH, T.T2, None),
        (10.0, S.HEARTBEAT, T.T1, (R.COST_CAP_EXHAUSTED, Fallback.DETERMINISTIC)),
    ],
)
def test_daily_cost_cap_tiers(
    spent: float,
    subsystem: SubsystemName,
    tier: ModelTier,
    expected: tuple[DegradationReason, Fallback] | None,
) -> None:
    ledger = InMemoryLedger()
    spend(ledger, S.OPERATOR, spent, "earlier")  # someone else's spend fills the cap
    result = run(subsystem, tier, state(0.9, 10.0, sustainability_ratio=3.0), ledger)
    if expected is None:
        assert isinstance(result, Allocation)
    else:
        assert degraded(result) == expected


def test_risk_is_not_degraded_by_vitality_or_phase_but_is_held_by_its_line() -> None:
    ledger = InMemoryLedger()
    spend(ledger, S.RISK, 1.0, "risk-earlier")  # within its $1.50 line
    result = run(S.RISK, T.T2, state(0.2), ledger)  # Declining, pressure 0.8
    assert isinstance(result, Allocation)
    assert result.tier is T.T2
    assert result.reasoning == ReasoningConfig.high()  # exempt from the downgrade
    assert result.profile is PipelineProfile.FULL
    assert result.budget_left_usd == pytest.approx(0.5, rel=1e-6)  # never reduced by p
    spend(ledger, S.RISK, 1.0, "risk-later")  # beyond it
    held = run(S.RISK, T.T2, state(0.2), ledger)
    assert isinstance(held, Degradation)
    assert held.reason is DegradationReason.BUDGET_EXHAUSTED
    assert held.fallback is Fallback.DETERMINISTIC  # its hard limits


def test_death_is_always_funded() -> None:
    ledger = InMemoryLedger()
    spend(ledger, S.RISK, 50.0, "everything")
    result = run(S.DEATH, T.T2, state(0.0, 0.0), ledger)
    assert isinstance(result, Allocation)
    assert result.budget_left_usd == math.inf
    assert result.max_attempts == 3
    assert result.reasoning == ReasoningConfig.visible_max()


def test_pressure_downgrades_reasoning_in_the_allocation() -> None:
    pressed = run(S.DREAM, T.T1, state(0.25))  # pressure 0.75
    assert isinstance(pressed, Allocation)
    assert pressed.reasoning.depth is ReasoningDepth.MEDIUM
    crushed = run(S.DREAM, T.T1, state(0.11))  # pressure 0.89: one step, not none
    assert isinstance(crushed, Allocation)
    assert crushed.reasoning.depth is ReasoningDepth.MEDIUM
    operator = run(S.OPERATOR, T.T1, state(0.11))
    assert isinstance(operator, Allocation)
    assert operator.reasoning == ReasoningConfig.interleaved_high()


def test_max_attempts_is_what_the_money_pays_for() -> None:
    # Each attempt re-sends the previous answer and the errors: 10k, 12k, 14k tokens in.
    call = CallEstimate(Price(10.0, 0.0), 10_000, 1_000, reask_tokens=1_000)
    policy = AllocatorPolicy(max_attempts=5)
    costs = [0.1, 0.12, 0.14, 0.16, 0.18]
    for budget_left, attempts in [(0.09, 0), (0.1, 1), (0.25, 2), (0.36, 3), (10.0, 5)]:
        # context's line is 10% of the day; at vitality 1 nothing is taken away
        st = MortalityState(1.0, Phase.THRIVING, budget_left * 10 * (1 + 2e-9))
        result = allocate(S.CONTEXT, T.T1, st, InMemoryLedger(), CLOCK, call=call, policy=policy)
        if attempts == 0:
            assert degraded(result) == (R.BUDGET_EXHAUSTED, Fallback.DETERMINISTIC)
        else:
            assert isinstance(result, Allocation)
            assert result.max_attempts == attempts
            assert result.worst_case_total_usd == pytest.approx(sum(costs[:attempts]))


def test_diem_pays_first_for_venice_calls() -> None:
    venice = CallEstimate(Price(1.0, 4.0), 10_000, 1_000, diem=True)
    ledger = InMemoryLedger()
    spend(ledger, S.DAIMON, 5.0, "line-gone")
    st = state(0.8, 100.0, diem_allowance=1.0)
    result = run(S.DAIMON, T.T1, st, ledger, venice)
    assert isinstance(result, Allocation)
    assert result.worst_case_total_usd == 0.0  # all within today's DIEM
    assert degraded(run(S.DAIMON, T.T1, state(0.8, 100.0), ledger, venice)) == (
        R.BUDGET_EXHAUSTED,
        Fallback.DETERMINISTIC,
    )


def test_t0_is_free_and_always_allowed() -> None:
    ledger = InMemoryLedger()
    spend(ledger, S.OPERATOR, 100.0, "all")
    result = run(S.HEARTBEAT, T.T0, state(0.05, 1.0), ledger)
    assert result == Allocation(
        S.HEARTBEAT,
        T.T0,
        T.T0,
        0.0,
        PipelineProfile.MINIMAL,
        ReasoningConfig.none(),
        0.0,
        0.0,
        1,
    )


def test_days_reset_the_cap() -> None:
    ledger = InMemoryLedger()
    spend(ledger, S.OPERATOR, 10.0, "yesterday")
    tomorrow = FixedClock(NOON + timedelta(days=1))
    assert isinstance(run(S.DAIMON, T.T1, state(0.8), ledger), Degradation)
    result = allocate(S.DAIMON, T.T1, state(0.8), ledger, tomorrow, call=CHEAP, policy=DEFAULT)
    assert isinstance(result, Allocation)


def test_security_mode_puts_every_model_call_through_full() -> None:
    result = run(S.CONTEXT, T.T1, state(0.8, security=True))
    assert isinstance(result, Allocation)
    assert result.profile is PipelineProfile.FULL
    t0 = run(S.CONTEXT, T.T0, state(0.8, security=True))
    assert isinstance(t0, Allocation)
    assert t0.profile is PipelineProfile.MINIMAL


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ((1.2, Phase.THRIVING, 1.0), "vitality"),
        ((0.5, Phase.STABLE, -1.0), "daily_budget_usd"),
        ((0.5, Phase.STABLE, math.nan), "daily_budget_usd"),
        ((0.5, Phase.STABLE, 1.0, None, -0.5), "diem_allowance"),
    ],
)
def test_state_rejects_nonsense(fields: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MortalityState(*fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("subsystem", "at_most", "depth"),
    [
        (S.RISK, ReasoningDepth.NONE, ReasoningDepth.NONE),  # a small stake
        (S.RISK, ReasoningDepth.MEDIUM, ReasoningDepth.MEDIUM),
        (S.RISK, None, ReasoningDepth.HIGH),  # the table's
        (S.HEARTBEAT, ReasoningDepth.MAX, ReasoningDepth.LOW),  # never deeper than the table
    ],
)
def test_at_most_caps_the_depth_and_the_worst_case(
    subsystem: SubsystemName, at_most: ReasoningDepth | None, depth: ReasoningDepth
) -> None:
    granted = allocate(
        subsystem,
        T.T1,
        state(),
        InMemoryLedger(),
        CLOCK,
        call=CHEAP,
        policy=DEFAULT,
        at_most=at_most,
    )
    assert isinstance(granted, Allocation)
    assert granted.reasoning.depth is depth
    assert granted.worst_case_cost_usd == CHEAP.attempt_cost(1, ReasoningConfig(depth))


# Sonnet's price, a risk brief and answer: the seeds' high reasoning (16,384 thinking
# tokens) is a $0.26 worst case, beyond risk's whole $0.15 line of a $1 day.
DEAR = CallEstimate(Price(3.0, 15.0), input_tokens=1_500, max_output_tokens=400)


def test_without_fit_depth_a_risk_call_the_line_cannot_pay_goes_to_the_rules() -> None:
    policy = AllocatorPolicy(fit_depth=frozenset())
    held = allocate(
        S.RISK, T.T2, state(budget=1.0), InMemoryLedger(), CLOCK, call=DEAR, policy=policy
    )
    assert degraded(held) == (R.BUDGET_EXHAUSTED, Fallback.DETERMINISTIC)


def test_fit_depth_grants_the_deepest_depth_the_money_pays_for() -> None:
    policy = AllocatorPolicy()  # risk's calls are fitted by default
    ledger = InMemoryLedger()
    granted = allocate(S.RISK, T.T2, state(budget=1.0), ledger, CLOCK, call=DEAR, policy=policy)
    assert isinstance(granted, Allocation)
    assert granted.tier is T.T2  # the model asked for, thinking less
    assert granted.reasoning.depth is ReasoningDepth.MEDIUM
    assert granted.fitted_from is ReasoningDepth.HIGH
    assert granted.worst_case_cost_usd == DEAR.attempt_cost(1, granted.reasoning)
    assert granted.worst_case_total_usd <= 0.15
    # What is left later in the day pays for less: no thinking, then nothing.
    spend(ledger, S.RISK, 0.13, "risk-earlier")
    later = allocate(S.RISK, T.T2, state(budget=1.0), ledger, CLOCK, call=DEAR, policy=policy)
    assert isinstance(later, Allocation)
    assert later.reasoning == ReasoningConfig.none()
    spend(ledger, S.RISK, 0.015, "risk-later")
    spent = allocate(S.RISK, T.T2, state(budget=1.0), ledger, CLOCK, call=DEAR, policy=policy)
    assert degraded(spent) == (R.BUDGET_EXHAUSTED, Fallback.DETERMINISTIC)


def test_fit_depth_leaves_other_subsystems_and_affordable_calls_alone() -> None:
    policy = AllocatorPolicy(fit_depth=frozenset({S.RISK}))
    roomy = allocate(S.RISK, T.T2, state(), InMemoryLedger(), CLOCK, call=DEAR, policy=policy)
    assert isinstance(roomy, Allocation)
    assert (roomy.reasoning.depth, roomy.fitted_from) == (ReasoningDepth.HIGH, None)
    dream = allocate(
        S.DREAM, T.T2, state(budget=0.2), InMemoryLedger(), CLOCK, call=DEAR, policy=policy
    )
    assert isinstance(dream, Degradation)


def test_the_allocator_has_no_policy_of_its_own() -> None:
    """The life's compiled policy is always given: no silent module default stands in."""
    with pytest.raises(TypeError, match="policy"):
        allocate(S.HEARTBEAT, T.T1, state(), InMemoryLedger(), CLOCK, call=CHEAP)  # type: ignore[call-arg]
