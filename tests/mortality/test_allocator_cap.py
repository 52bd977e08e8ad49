"""The allocator's promise, as a property: for any sequence of calls it approved, with
re-asks up to the allowed count and failures that still charge, the USD charged on each
UTC day by every subsystem but death stays within the day's cap (the state's daily
budget), and every line but risk's and death's within its own budget."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from hypothesis import given, settings, target
from hypothesis import strategies as st

from golem.inference.pricing import Price
from golem.inference.types import Usage
from golem.mortality import (
    Allocation,
    AllocatorPolicy,
    BudgetPolicy,
    CallEstimate,
    Charge,
    InMemoryLedger,
    ModelTier,
    MortalityState,
    Phase,
    ReasoningConfig,
    SubsystemName,
    allocate,
    compute_reasoning_budgets,
    phase_of,
    split_diem,
    utc_day,
)
from tests.policy import ALLOCATOR, MORTALITY

S = SubsystemName


@dataclass
class SteppingClock:
    at: datetime

    def now(self) -> datetime:
        return self.at


@dataclass(frozen=True)
class Step:
    subsystem: SubsystemName
    tier: ModelTier
    call: CallEstimate
    attempts_wanted: int  # how many attempts the structured loop would like (≥ 1)
    spent_fraction: float  # of each attempt's worst case actually charged
    vitality: float
    minutes_later: int


calls = st.builds(
    CallEstimate,
    price=st.builds(Price, st.floats(0, 15), st.floats(0, 60)),
    input_tokens=st.integers(0, 30_000),
    max_output_tokens=st.integers(0, 4_000),
    reask_tokens=st.integers(0, 4_000),
    diem=st.booleans(),
)
steps = st.builds(
    Step,
    subsystem=st.sampled_from(SubsystemName),
    tier=st.sampled_from(ModelTier),
    call=calls,
    attempts_wanted=st.integers(1, 5),
    spent_fraction=st.one_of(st.just(1.0), st.floats(0, 1)),
    vitality=st.floats(0, 1),
    minutes_later=st.integers(0, 180),
)


def _run(
    sequence: list[Step],
    daily_budget: float,
    ratio: float | None,
    diem_allowance: float,
    vary_vitality: bool,
) -> InMemoryLedger:
    ledger = InMemoryLedger()
    clock = SteppingClock(datetime(2026, 5, 4, 20, 0, tzinfo=UTC))
    phase: Phase | None = None
    first_vitality = sequence[0].vitality if sequence else 1.0
    for n, step in enumerate(sequence):
        clock.at += timedelta(minutes=step.minutes_later)
        vitality = step.vitality if vary_vitality else first_vitality
        phase = phase_of(vitality, phase, MORTALITY.phases)
        state = MortalityState(vitality, phase, daily_budget, ratio, diem_allowance)
        result = allocate(
            step.subsystem,
            step.tier,
            state,
            ledger,
            clock,
            call=step.call,
            policy=AllocatorPolicy(),
        )
        if not isinstance(result, Allocation) or result.tier is ModelTier.T0:
            continue
        assert result.max_attempts >= 1
        # The structured loop stops at the allocation's count; every attempt, failed or
        # not, is charged.
        for attempt in range(1, min(step.attempts_wanted, result.max_attempts) + 1):
            cost = step.call.attempt_cost(attempt, result.reasoning) * step.spent_fraction
            day = utc_day(clock.now())
            usd, diem = cost, 0.0
            if step.call.diem:
                usd, diem = split_diem(cost, diem_allowance - ledger.spent_diem(day))
            ledger.record(
                Charge(
                    step.subsystem,
                    "venice" if step.call.diem else "anthropic",
                    "m",
                    Usage(),
                    usd,
                    diem,
                    clock.now(),
                    f"{n}:{attempt}",
                )
            )
    return ledger


def _days() -> list[date]:
    start = date(2026, 5, 4)
    return [start + timedelta(days=i) for i in range(50)]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(steps, max_size=120),
    st.floats(0, 5),
    st.one_of(st.none(), st.floats(0, 5)),
    st.floats(0, 0.5),
)
def test_the_day_never_spends_beyond_the_cap(
    sequence: list[Step], daily_budget: float, ratio: float | None, diem_allowance: float
) -> None:
    ledger = _run(sequence, daily_budget, ratio, diem_allowance, vary_vitality=True)
    fullest = 0.0
    for day in _days():
        mortal = math.fsum(c.usd for c in ledger.charges(day) if c.subsystem is not S.DEATH)
        assert mortal <= daily_budget
        assert ledger.spent_diem(day) <= diem_allowance + 1e-12
        fullest = max(fullest, mortal / daily_budget if daily_budget else 0.0)
    target(fullest, label="fullest day, as a fraction of the cap")  # search near the cap


@settings(max_examples=100, deadline=None)
@given(st.lists(steps, max_size=120), st.floats(0, 5), st.one_of(st.none(), st.floats(0, 5)))
def test_each_line_stays_within_its_budget(
    sequence: list[Step], daily_budget: float, ratio: float | None
) -> None:
    ledger = _run(sequence, daily_budget, ratio, 0.0, vary_vitality=False)
    vitality = sequence[0].vitality if sequence else 1.0
    budgets = compute_reasoning_budgets(
        vitality, daily_budget, sustainability_ratio=ratio, policy=ALLOCATOR.budgets
    )
    for day in _days():
        spent: defaultdict[SubsystemName, list[float]] = defaultdict(list)
        for charge in ledger.charges(day):
            spent[charge.subsystem].append(charge.usd)
        for subsystem, amounts in spent.items():
            if subsystem in (S.RISK, S.DEATH):
                continue  # risk answers to the cap alone; death to nothing
            assert math.fsum(amounts) <= budgets[subsystem] * (1 + 1e-12)


def test_risk_spends_up_to_the_cap_and_no_further() -> None:
    ledger = InMemoryLedger()
    clock = SteppingClock(datetime(2026, 5, 4, 9, 0, tzinfo=UTC))
    call = CallEstimate(Price(3.0, 15.0), input_tokens=20_000, max_output_tokens=2_000)
    state = MortalityState(0.5, Phase.STABLE, daily_budget_usd=5.0)
    # Its whole line: the cap is what holds it.
    policy = AllocatorPolicy(budgets=BudgetPolicy.model_validate({"lines": {"risk": {"share": 1}}}))
    one_attempt = call.attempt_cost(1, ReasoningConfig.high())
    for n in range(1000):
        result = allocate(S.RISK, ModelTier.T2, state, ledger, clock, call=call, policy=policy)
        if not isinstance(result, Allocation):
            break
        for attempt in range(1, result.max_attempts + 1):  # every attempt fails, is charged
            cost = call.attempt_cost(attempt, result.reasoning)
            ledger.record(
                Charge(S.RISK, "a", "m", Usage(), cost, 0.0, clock.now(), f"{n}:{attempt}")
            )
    spent = ledger.spent_usd(utc_day(clock.now()))
    assert 5.0 - one_attempt < spent <= 5.0
