"""The apoptotic reserve (Bardo prd/02-mortality/04-economic-mortality.md §3): its amount,
each parameter's direction, and the allocator holding it back from every call but death's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.inference.pricing import Price
from golem.mortality import (
    Allocation,
    CallEstimate,
    DeathCause,
    Degradation,
    DegradationReason,
    FixedClock,
    InMemoryLedger,
    ModelTier,
    MortalityParams,
    MortalityState,
    Phase,
    ReserveParams,
    SubsystemName,
    allocate,
    assess,
)

NOON = datetime(2026, 5, 4, 12, tzinfo=UTC)
CALL = CallEstimate(Price(1.0, 4.0), input_tokens=10_000, max_output_tokens=1_000)  # $0.014


@pytest.mark.parametrize(
    ("funding", "reserve"), [(10.0, 0.30), (50.0, 1.00), (100.0, 2.00), (500.0, 10.00)]
)
def test_bardos_examples(funding: float, reserve: float) -> None:
    assert ReserveParams().amount(funding, 0) == pytest.approx(reserve)


def test_the_death_floor_binds_with_many_positions() -> None:
    # settle 6 x 0.02 + 0.02, life review 0.15, legacy 0.05: $0.34 above the $0.30 floor.
    assert ReserveParams().amount(10.0, 6) == pytest.approx(0.34)
    assert ReserveParams().amount(10.0, 4) == pytest.approx(0.30)


@pytest.mark.parametrize(
    ("key", "value", "funding", "positions"),
    [
        ("floor_usd", 0.60, 10.0, 0),
        ("proportional_rate", 0.05, 10.0, 0),
        ("per_position_usd", 0.10, 10.0, 3),
        ("settle_usd", 0.20, 10.0, 0),
        ("life_review_usd", 0.30, 10.0, 0),
        ("legacy_usd", 0.20, 10.0, 0),
    ],
)
def test_raising_a_parameter_raises_the_reserve(
    key: str, value: float, funding: float, positions: int
) -> None:
    default = ReserveParams()
    assert getattr(default, key) < value
    raised = default.model_copy(update={key: value})
    assert raised.amount(funding, positions) > default.amount(funding, positions)


def test_all_zero_is_no_reserve() -> None:
    zero = dict.fromkeys(
        ("floor_usd", "proportional_rate", "settle_usd", "life_review_usd", "legacy_usd"), 0.0
    )
    assert ReserveParams.model_validate(zero).amount(100.0, 0) == 0.0


def test_the_section_compiles_into_the_policy() -> None:
    params = MortalityParams.model_validate({"reserve": {"floor_usd": 1.5}})
    assert params.compile(seed=1).reserve.amount(10.0, 0) == 1.5


def ask(
    subsystem: SubsystemName, wallet: float, reserve: float, tier: ModelTier = ModelTier.T1
) -> Allocation | Degradation:
    state = MortalityState(1.0, Phase.THRIVING, 10.0, wallet_usd=wallet, reserve_usd=reserve)
    policy = MortalityParams().compile(seed=3).allocator
    return allocate(
        subsystem, tier, state, InMemoryLedger(), FixedClock(NOON), call=CALL, policy=policy
    )


@pytest.mark.parametrize("subsystem", [SubsystemName.HEARTBEAT, SubsystemName.RISK])
def test_no_call_but_deaths_is_granted_beyond_the_wallet_less_the_reserve(
    subsystem: SubsystemName,
) -> None:
    rich = ask(subsystem, 5.0, 0.3)
    assert isinstance(rich, Allocation) and rich.max_attempts == 3
    one = rich.worst_case_cost_usd
    # Less the reserve, the wallet pays for one attempt; without it, for more.
    granted = ask(subsystem, 0.3 + 1.5 * one, 0.3)
    assert isinstance(granted, Allocation) and granted.max_attempts == 1
    assert granted.worst_case_total_usd <= 1.5 * one
    unreserved = ask(subsystem, 0.3 + 1.5 * one, 0.0)
    assert isinstance(unreserved, Allocation) and unreserved.max_attempts > 1
    if subsystem is SubsystemName.HEARTBEAT:
        held = ask(subsystem, 0.3 + 0.5 * one, 0.3)
        assert isinstance(held, Degradation)
        assert held.reason is DegradationReason.COST_CAP_EXHAUSTED
    else:  # risk thinks less to fit, never beyond what is left above the reserve
        held = ask(subsystem, 0.3 + 0.5 * one, 0.3)
        assert isinstance(held, Allocation) and held.worst_case_total_usd <= 0.5 * one


def test_a_wallet_smaller_than_the_reserve_grants_nothing_but_deaths_call() -> None:
    for subsystem in SubsystemName:
        granted = ask(subsystem, 0.02, 0.3)
        if subsystem is SubsystemName.DEATH:
            assert isinstance(granted, Allocation)  # always funded
        else:
            assert isinstance(granted, Degradation), subsystem
    assert isinstance(ask(SubsystemName.DEATH, 0.0, 0.3, ModelTier.T2), Allocation)


def test_death_spends_the_credits_left_its_reserve_among_them() -> None:
    rich = ask(SubsystemName.DEATH, 5.0, 0.3, ModelTier.T2)
    assert isinstance(rich, Allocation) and rich.max_attempts == 3
    assert rich.fitted_from is None
    for wallet in (0.5 * rich.worst_case_total_usd, 0.02):  # fewer re-asks, then less depth
        granted = ask(SubsystemName.DEATH, wallet, 0.3, ModelTier.T2)
        assert isinstance(granted, Allocation)
        assert granted.worst_case_total_usd <= wallet < rich.worst_case_total_usd
    # Not one bare attempt fits: it is granted all the same, thinking nothing.
    broke = ask(SubsystemName.DEATH, 0.0, 0.0, ModelTier.T2)
    assert isinstance(broke, Allocation) and broke.max_attempts == 1
    assert not broke.reasoning.enabled and broke.fitted_from is not None
    assert broke.worst_case_total_usd == CALL.attempt_cost(1, broke.reasoning)


@pytest.mark.parametrize(
    ("credits", "economic"), [(8.0, 1.0), (4.15, 0.5), (0.30, 0.0), (0.02, 0.0)]
)
def test_the_economic_clock_reads_the_credits_above_the_reserve(
    credits: float, economic: float
) -> None:
    policy = MortalityParams(stochastic_death=False).compile(seed=3)
    vitals = assess(
        golem_id="g",
        tick=10,
        now=NOON,
        age=timedelta(minutes=10),
        interval=timedelta(seconds=15),
        credits_usd=credits,
        initial_credits_usd=8.0,
        burn_rate_usd=0.0,
        epistemic=0.5,
        previous=None,
        params=policy,
        reserve_usd=0.3,
    )
    assert vitals.economic == pytest.approx(economic)
    assert (vitals.cause is DeathCause.ECONOMIC) is (economic == 0.0)
    # Funded with no more than the reserve: nothing to live on, whatever is left.
    born_poor = assess(
        golem_id="g",
        tick=0,
        now=NOON,
        age=timedelta(0),
        interval=timedelta(0),
        credits_usd=0.02,
        initial_credits_usd=0.02,
        burn_rate_usd=0.0,
        epistemic=0.5,
        previous=None,
        params=policy,
        reserve_usd=0.3,
    )
    assert born_poor.economic == 0.0 and born_poor.cause is DeathCause.ECONOMIC
