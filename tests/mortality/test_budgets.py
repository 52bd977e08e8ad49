"""Daily budgets under pressure and sustainability, the cost cap's tiers, DIEM."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from golem.mortality import (
    BudgetLine,
    BudgetPolicy,
    CostCapTier,
    KeyedValueError,
    SubsystemName,
    compute_reasoning_budgets,
    cost_cap_tier,
    split_diem,
)
from tests.policy import ALLOCATOR

S = SubsystemName
unit = st.floats(0, 1)
amounts = st.floats(0, 1e6)
ratios = st.one_of(st.none(), st.floats(0, 100))


def test_full_vitality_gives_the_shares() -> None:
    budgets = compute_reasoning_budgets(1.0, 100.0, policy=ALLOCATOR.budgets)
    assert list(budgets) == list(SubsystemName)
    assert budgets == pytest.approx(
        {
            S.HEARTBEAT: 20.0,
            S.RISK: 15.0,
            S.DREAM: 15.0,
            S.DAIMON: 5.0,
            S.CONTEXT: 10.0,
            S.CURATOR: 10.0,
            S.PLAYBOOK: 5.0,
            S.OPERATOR: 15.0,
            S.DEATH: math.inf,
        }
    )


@pytest.mark.parametrize(
    ("vitality", "expected"),
    [
        (
            0.35,  # p = 0.65
            {
                S.HEARTBEAT: 10 * 0.20 * (1 - 0.5 * 0.65),
                S.RISK: 1.5,
                S.DREAM: 10 * 0.15 * (1 - 0.3 * 0.65),
                S.DAIMON: 10 * 0.05 * (1 - 0.7 * 0.65),
                S.CONTEXT: 10 * 0.10 * (1 - 0.5 * 0.65),
                S.CURATOR: 10 * 0.10 * (1 - 0.3 * 0.65),
                S.PLAYBOOK: 10 * 0.05 * (1 - 0.5 * 0.65),
                S.OPERATOR: 1.5,
                S.DEATH: math.inf,
            },
        ),
        (
            0.0,  # p = 1
            {
                S.HEARTBEAT: 1.0,
                S.RISK: 1.5,
                S.DREAM: 1.05,
                S.DAIMON: 0.15,
                S.CONTEXT: 0.5,
                S.CURATOR: 0.7,
                S.PLAYBOOK: 0.25,
                S.OPERATOR: 1.5,
                S.DEATH: math.inf,
            },
        ),
    ],
)
def test_budget_table(vitality: float, expected: dict[SubsystemName, float]) -> None:
    assert compute_reasoning_budgets(vitality, 10.0, policy=ALLOCATOR.budgets) == pytest.approx(
        expected
    )


@pytest.mark.parametrize(
    ("ratio", "heartbeat", "risk", "operator"),
    [
        (None, 20.0, 15.0, 15.0),
        (2.0, 20.0, 15.0, 15.0),  # the rule needs strictly above 2.0
        (2.01, 30.0, 22.5, 22.5),
        (0.5, 20.0, 15.0, 15.0),
        (0.49, 6.0, 15.0, 4.5),  # risk and death are never contracted
        (0.0, 6.0, 15.0, 4.5),
        (math.inf, 30.0, 22.5, 22.5),  # income with no spend at all
    ],
)
def test_sustainability_ratio(
    ratio: float | None, heartbeat: float, risk: float, operator: float
) -> None:
    budgets = compute_reasoning_budgets(
        1.0, 100.0, sustainability_ratio=ratio, policy=ALLOCATOR.budgets
    )
    assert budgets[S.HEARTBEAT] == pytest.approx(heartbeat)
    assert budgets[S.RISK] == pytest.approx(risk)
    assert budgets[S.OPERATOR] == pytest.approx(operator)
    assert budgets[S.DEATH] == math.inf


@given(unit, unit, amounts, ratios)
def test_no_budget_grows_as_vitality_falls(
    v1: float, v2: float, daily: float, ratio: float | None
) -> None:
    low, high = sorted((v1, v2))
    poorer = compute_reasoning_budgets(
        low, daily, sustainability_ratio=ratio, policy=ALLOCATOR.budgets
    )
    richer = compute_reasoning_budgets(
        high, daily, sustainability_ratio=ratio, policy=ALLOCATOR.budgets
    )
    for subsystem in SubsystemName:
        assert poorer[subsystem] <= richer[subsystem]
        assert poorer[subsystem] >= 0.0


@given(unit, unit, amounts, ratios)
def test_risk_and_death_never_shrink_with_vitality(
    v1: float, v2: float, daily: float, ratio: float | None
) -> None:
    a = compute_reasoning_budgets(v1, daily, sustainability_ratio=ratio, policy=ALLOCATOR.budgets)
    b = compute_reasoning_budgets(v2, daily, sustainability_ratio=ratio, policy=ALLOCATOR.budgets)
    assert a[S.RISK] == b[S.RISK]
    assert a[S.DEATH] == b[S.DEATH] == math.inf


@given(unit, amounts, ratios)
def test_death_is_always_funded(vitality: float, daily: float, ratio: float | None) -> None:
    budgets = compute_reasoning_budgets(
        vitality, daily, sustainability_ratio=ratio, policy=ALLOCATOR.budgets
    )
    assert budgets[S.DEATH] == math.inf


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="vitality"):
        compute_reasoning_budgets(1.2, 10.0, policy=ALLOCATOR.budgets)
    with pytest.raises(ValueError, match="daily_budget_usd"):
        compute_reasoning_budgets(0.5, -1.0, policy=ALLOCATOR.budgets)
    with pytest.raises(ValueError, match="daily_budget_usd"):
        compute_reasoning_budgets(0.5, math.inf, policy=ALLOCATOR.budgets)
    with pytest.raises(ValueError, match="ratio"):
        compute_reasoning_budgets(0.5, 1.0, sustainability_ratio=-1.0, policy=ALLOCATOR.budgets)


def test_lines_given_lie_over_the_default_ones() -> None:
    defaults = BudgetPolicy().lines
    policy = BudgetPolicy.model_validate(
        {"lines": {"risk": {"share": 0.01}, "heartbeat": {"share": 0.4}}}
    )
    assert policy.lines[S.RISK] == BudgetLine(share=0.01)
    assert policy.lines[S.HEARTBEAT] == BudgetLine(share=0.4, pressure_weight=0.5)
    assert {k: v for k, v in policy.lines.items() if k not in (S.RISK, S.HEARTBEAT)} == {
        k: v for k, v in defaults.items() if k not in (S.RISK, S.HEARTBEAT)
    }
    # A subsystem made unlimited keeps no default line.
    unlimited = BudgetPolicy.model_validate({"unlimited": ["death", "operator"]})
    assert S.OPERATOR not in unlimited.lines


def test_policy_must_fund_every_subsystem_once() -> None:
    with pytest.raises(ValidationError, match="no budget line and not in unlimited") as missing:
        BudgetPolicy(unlimited=frozenset())
    with pytest.raises(ValidationError, match="unlimited subsystem") as both:
        BudgetPolicy(lines={S.DEATH: BudgetLine(share=0.1)})
    for raised in (missing, both):
        error = raised.value.errors()[0]["ctx"]["error"]
        assert isinstance(error, KeyedValueError)
        assert error.keys == ("lines.death",)
    with pytest.raises(ValueError, match="pressure_weight"):
        BudgetLine(share=0.1, pressure_weight=1.5)


@pytest.mark.parametrize(
    ("spent", "cap", "tier"),
    [
        (0.0, 10.0, CostCapTier.NORMAL),
        (6.99, 10.0, CostCapTier.NORMAL),
        (7.0, 10.0, CostCapTier.NO_TOP_TIER),
        (8.99, 10.0, CostCapTier.NO_TOP_TIER),
        (9.0, 10.0, CostCapTier.RISK_AND_DEATH_ONLY),
        (9.99, 10.0, CostCapTier.RISK_AND_DEATH_ONLY),
        (10.0, 10.0, CostCapTier.EXHAUSTED),
        (12.0, 10.0, CostCapTier.EXHAUSTED),
        (0.0, 0.0, CostCapTier.EXHAUSTED),
    ],
)
def test_cost_cap_tiers(spent: float, cap: float, tier: CostCapTier) -> None:
    assert cost_cap_tier(spent, cap, ALLOCATOR.cost_cap) is tier


@pytest.mark.parametrize(
    ("cost", "diem_left", "usd", "diem"),
    [
        (0.5, 2.0, 0.0, 0.5),
        (0.5, 0.2, 0.3, 0.2),
        (0.5, 0.0, 0.5, 0.0),
        (0.5, -1.0, 0.5, 0.0),
    ],
)
def test_split_diem(cost: float, diem_left: float, usd: float, diem: float) -> None:
    assert split_diem(cost, diem_left) == pytest.approx((usd, diem))
