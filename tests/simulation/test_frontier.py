"""The allocator judged at equal spend: `--compare fixed@R,...` arms, the frontier they
draw, and the vitality policy placed on it per seed (interpolated, never extrapolated)
with a Wilcoxon signed-rank verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from golem.cli import main
from golem.mortality import PolicyName
from golem.simulation.arms import Arm, parse_arms
from golem.simulation.frontier import ABOVE, BELOW, ON, OUTSIDE, interpolate, place

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
SEEDS = range(1, 9)  # 8 paired seeds: the signed-rank test can reject (p = 2/256)


def test_arms_name_a_policy_and_a_daily_budget_for_the_fixed_one() -> None:
    arms = parse_arms("vitality, fixed@0.25,fixed@1,immortal,fixed@1")
    assert arms == [
        Arm(PolicyName.VITALITY),
        Arm(PolicyName.FIXED, 0.25),
        Arm(PolicyName.FIXED, 1.0),
        Arm(PolicyName.IMMORTAL),
    ]
    assert [str(a) for a in arms] == ["vitality", "fixed@0.25", "fixed@1", "immortal"]
    assert arms[1].overrides == (("mortality.daily_budget_usd", 0.25),)
    assert arms[0].overrides == ()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("fixed@x", "'fixed@x': the daily budget 'x' is not a number"),
        ("fixed@0", "'fixed@0': the daily budget must be a positive amount of USD"),
        ("fixed@inf", "'fixed@inf': the daily budget must be a positive amount of USD"),
        ("vitality@1", "'vitality@1': only fixed takes a daily budget"),
        ("fixd@1", "unknown policy 'fixd'"),
        ("fixed,,immortal", "an empty name"),
    ],
)
def test_a_bad_arm_is_one_line_and_exit_2(
    text: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match="^" + says.replace("(", r"\(")):
        parse_arms(text)
    with pytest.raises(SystemExit) as exited:
        main(["simulate", str(DECLINE), "--out", str(tmp_path), "--compare", text])
    assert exited.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--compare" in error and says in error


def test_interpolation_is_linear_inside_the_spends_and_none_outside() -> None:
    points = [(1.0, 10.0), (3.0, 30.0), (2.0, 14.0), (2.0, 26.0)]  # two at 2: their mean
    assert interpolate(points, 1.5) == pytest.approx(15.0)
    assert interpolate(points, 2.0) == pytest.approx(20.0)
    assert interpolate(points, 3.0) == pytest.approx(30.0)
    assert interpolate(points, 0.99) is None and interpolate(points, 3.01) is None
    assert interpolate([(1.0, 5.0), (1.0, 7.0)], 1.0) is None  # one spend: no frontier


def lives(subject_spend: float, subject_life: Any) -> dict[str, list[dict[str, Any]]]:
    """Three fixed budgets whose productive life is 10 days a dollar, on every seed."""
    arms: dict[str, list[dict[str, Any]]] = {}
    for usd in (1.0, 2.0, 3.0):
        arms[f"fixed@{usd:g}"] = [
            {"seed": s, "spend_usd": usd + s / 100, "productive_life_days": 10 * (usd + s / 100)}
            for s in SEEDS
        ]
    arms["vitality"] = [
        {"seed": s, "spend_usd": subject_spend, "productive_life_days": subject_life(s)}
        for s in SEEDS
    ]
    return arms


@pytest.mark.parametrize(
    ("life", "verdict"),
    [
        (lambda s: 25.0 + s, ABOVE),  # 1 to 8 days more than fixed budgets that spent $2.5
        (lambda s: 25.0 - s, BELOW),
        (lambda s: 25.0 + (-1) ** s * 0.5, ON),  # half above, half below: no difference
    ],
)
def test_vitality_is_placed_against_the_frontier_at_its_own_spend(life: Any, verdict: str) -> None:
    placement = place(lives(2.5, life))[0]
    assert placement.metric == "productive_life_days"
    assert (placement.seeds, placement.outside, placement.verdict) == (8, 0, verdict)
    assert placement.frontier_median == pytest.approx(25.0)  # 10 a dollar at $2.50
    assert placement.curve_value == pytest.approx(25.0)
    if verdict != ON:
        assert placement.p_value is not None and placement.p_value < 0.05
        assert placement.difference_median is not None
        assert (placement.difference_median > 0) == (verdict == ABOVE)


def test_a_spend_outside_the_frontier_is_said_not_extrapolated() -> None:
    placement = place(lives(5.0, lambda s: 100.0))[0]
    assert (placement.seeds, placement.outside, placement.verdict) == (0, 8, OUTSIDE)
    assert placement.frontier_median is None and placement.curve_value is None
    assert placement.curve_range == pytest.approx((1.045, 3.045))


def test_compare_at_several_budgets_writes_the_frontier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ("--days", "0.1", "--seeds", "2", "--jobs", "1", "--out", out)
    assert main(["simulate", str(DECLINE), *map(str, args), "--compare", "fixed@0.05,fixed@1"]) == 0
    report = orjson.loads((out / "report.json").read_bytes())
    assert set(report) == {"vitality", "fixed@0.05", "fixed@1"}  # written with sorted keys
    spend = {arm: report[arm]["spend_usd_mean"] for arm in report}
    assert spend["fixed@0.05"] < spend["fixed@1"]  # the budget is the arm's
    placements = orjson.loads((out / "frontier.json").read_bytes())
    assert [p["metric"] for p in placements] == [
        "productive_life_days",
        "right_decisions",
        "sharpe",
    ]
    assert (out / "frontier.png").stat().st_size > 10_000
    assert (out / "fixed@0.05" / "seed-2" / "summary.json").is_file()
    printed = capsys.readouterr().out
    assert "fixed-budget frontier" in printed and "Wilcoxon" in printed
