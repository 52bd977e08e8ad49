"""The named policies (`[mortality] policy`) as the allocator and the clocks read them:
vitality scales with decline, fixed holds Thriving's budgets, immortal is never killed by a
clock and never leaves Thriving (its wallet bounds its calls), rules asks no model at all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.inference.pricing import Price
from golem.inference.types import Usage
from golem.mortality import (
    Allocation,
    CallEstimate,
    Charge,
    DeathCause,
    Degradation,
    DegradationReason,
    Fallback,
    FixedClock,
    InMemoryLedger,
    ModelTier,
    MortalityParams,
    MortalityPolicy,
    MortalityState,
    Phase,
    PolicyName,
    Senescence,
    Stage,
    SubsystemName,
    allocate,
    assess,
)

NOON = datetime(2026, 5, 4, 12, tzinfo=UTC)
CALL = CallEstimate(Price(1.0, 4.0), input_tokens=10_000, max_output_tokens=1_000)  # $0.014


def compiled(name: str, **params: object) -> MortalityPolicy:
    return MortalityParams.model_validate({"policy": name, **params}).compile(seed=3)


def test_each_name_compiles_to_its_allocator_and_clocks() -> None:
    seen = {
        name: (p.allocator.mortal, p.allocator.models, p.immortal)
        for name in PolicyName
        for p in [compiled(name)]
    }
    assert seen == {
        PolicyName.VITALITY: (True, True, False),
        PolicyName.FIXED: (False, True, False),
        PolicyName.IMMORTAL: (False, True, True),
        PolicyName.RULES: (True, False, False),
    }
    assert MortalityParams().policy is PolicyName.VITALITY  # the default


def test_an_unknown_policy_is_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="'vitality', 'fixed', 'immortal' or 'rules'"):
        MortalityParams.model_validate({"policy": "eternal"})


@pytest.mark.parametrize("subsystem", list(SubsystemName))
@pytest.mark.parametrize("tier", [ModelTier.T1, ModelTier.T2])
def test_rules_grants_no_model_call_not_even_death(
    subsystem: SubsystemName, tier: ModelTier
) -> None:
    state = MortalityState(1.0, Phase.THRIVING, 10.0)
    granted = allocate(
        subsystem,
        tier,
        state,
        InMemoryLedger(),
        FixedClock(NOON),
        call=CALL,
        policy=compiled("rules").allocator,
    )
    assert granted == Degradation(
        subsystem, tier, DegradationReason.RULES_ONLY, Fallback.DETERMINISTIC
    )


def test_rules_still_runs_t0() -> None:
    granted = allocate(
        SubsystemName.HEARTBEAT,
        ModelTier.T0,
        MortalityState(1.0, Phase.THRIVING, 10.0),
        InMemoryLedger(),
        FixedClock(NOON),
        call=CALL,
        policy=compiled("rules").allocator,
    )
    assert isinstance(granted, Allocation) and granted.worst_case_total_usd == 0.0


def test_a_wallet_bounds_the_calls_but_not_death() -> None:
    ledger = InMemoryLedger()
    ledger.record(Charge(SubsystemName.CONTEXT, "p", "m", Usage(), 0.01, 0.0, NOON, "k"))
    policy = compiled("immortal").allocator

    def ask(subsystem: SubsystemName, wallet: float | None) -> Allocation | Degradation:
        state = MortalityState(1.0, Phase.THRIVING, 10.0, wallet_usd=wallet)
        return allocate(
            subsystem, ModelTier.T1, state, ledger, FixedClock(NOON), call=CALL, policy=policy
        )

    for subsystem in (SubsystemName.HEARTBEAT, SubsystemName.RISK):
        rich = ask(subsystem, 5.0)
        assert isinstance(rich, Allocation) and rich.max_attempts == 3
        one = rich.worst_case_cost_usd  # one attempt's worst case
        poor, broke = ask(subsystem, 1.5 * one), ask(subsystem, 0.5 * one)
        assert isinstance(poor, Allocation) and poor.max_attempts == 1
        assert poor.worst_case_total_usd <= 1.5 * one
        if subsystem is SubsystemName.RISK:  # fitted to the wallet: thinking less
            assert isinstance(broke, Allocation) and broke.fitted_from is not None
            assert broke.worst_case_total_usd <= 0.5 * one
        else:
            assert isinstance(broke, Degradation), subsystem
        assert isinstance(ask(subsystem, 0.0), Degradation), subsystem
    assert isinstance(ask(SubsystemName.DEATH, 0.0), Allocation)  # always funded
    assert isinstance(ask(SubsystemName.HEARTBEAT, None), Allocation)  # no wallet: the cap


NOW = datetime(2026, 1, 1, tzinfo=UTC)


def vitals_of(policy: MortalityPolicy, *, credits: float, fitness: float, kill: bool = False):  # type: ignore[no-untyped-def]
    return assess(
        golem_id="g",
        tick=150_000,
        now=NOW,
        age=timedelta(days=70),
        interval=timedelta(seconds=40),
        credits_usd=credits,
        initial_credits_usd=8.0,
        burn_rate_usd=0.01,
        epistemic=fitness,
        previous=Phase.DECLINING,
        params=policy,
        kill_switch=kill,
        senescence=Senescence(Stage.SENESCENT, NOW - timedelta(days=60)),  # confirmed
    )


@pytest.mark.parametrize(
    ("credits", "fitness"), [(0.0, 0.5), (0.01, 0.0), (8.0, 0.0), (-1.0, 0.9), (0.2, 0.2)]
)
def test_immortal_never_leaves_thriving_and_no_clock_kills_it(
    credits: float, fitness: float
) -> None:
    # The hazard clock at certainty: a mortal golem dies of it (or of a clock) every time.
    hazard = {"hazard": {"makeham": 1.0, "cap": 1.0}}
    mortal = vitals_of(compiled("vitality", **hazard), credits=credits, fitness=fitness)
    assert mortal.cause is not None
    immortal = vitals_of(compiled("immortal", **hazard), credits=credits, fitness=fitness)
    assert (immortal.phase, immortal.vitality, immortal.cause) == (Phase.THRIVING, 1.0, None)
    assert immortal.economic == mortal.economic and immortal.epistemic == fitness  # measured


def test_only_the_kill_switch_ends_an_immortal() -> None:
    vitals = vitals_of(compiled("immortal"), credits=8.0, fitness=0.9, kill=True)
    assert vitals.cause is DeathCause.KILL_SWITCH
