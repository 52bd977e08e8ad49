"""`golem budget`: the JSON agrees with compute_reasoning_budgets; bad input exits 2."""

from __future__ import annotations

import contextlib
import io
import math
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.cli import main
from golem.mortality import SubsystemName, compute_reasoning_budgets
from tests.policy import ALLOCATOR


def budget_json(*argv: str) -> Any:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["budget", *argv, "--json"]) == 0
    return orjson.loads(out.getvalue())


def test_acceptance_example() -> None:
    data = budget_json("--vitality", "0.35", "--daily-budget", "10")
    expected = compute_reasoning_budgets(0.35, 10.0, policy=ALLOCATOR.budgets)
    assert data["phase"] == "conservation"
    assert data["pressure"] == pytest.approx(0.65)
    assert list(data["subsystems"]) == [s.value for s in SubsystemName]
    for subsystem, budget in expected.items():
        row = data["subsystems"][subsystem.value]
        assert row["budget_usd"] == (None if math.isinf(budget) else budget)
    assert data["subsystems"]["death"]["budget_usd"] is None  # unlimited
    assert data["subsystems"]["dream"]["degradation"] == {
        "reason": "phase_tier_cap",
        "fallback": "lower_tier",
    }
    assert data["subsystems"]["dream"]["granted_tier"] == "T1"
    assert data["subsystems"]["risk"]["degradation"] is None


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1e4), st.one_of(st.none(), st.floats(0, 10)))
def test_json_agrees_with_compute_reasoning_budgets(
    vitality: float, daily: float, ratio: float | None
) -> None:
    argv = ["--vitality", repr(vitality), "--daily-budget", repr(daily)]
    if ratio is not None:
        argv += ["--ratio", repr(ratio)]
    data = budget_json(*argv)
    expected = compute_reasoning_budgets(
        vitality, daily, sustainability_ratio=ratio, policy=ALLOCATOR.budgets
    )
    got = {name: row["budget_usd"] for name, row in data["subsystems"].items()}
    assert got == {s.value: (None if math.isinf(b) else b) for s, b in expected.items()}


def test_terminal_leaves_only_death() -> None:
    data = budget_json("--vitality", "0.05", "--daily-budget", "10")
    for name, row in data["subsystems"].items():
        if name == "death":
            assert row["granted_tier"] == "T2"
        else:
            assert row["granted_tier"] is None
            assert row["degradation"]["reason"] == "terminal"


def test_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["budget", "--vitality", "0.8", "--daily-budget", "5", "--ratio", "3"]) == 0
    out = capsys.readouterr().out
    assert "unlimited" in out
    assert "thriving" in out
    assert "heartbeat" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--vitality", "1.5", "--daily-budget", "10"], "between 0 and 1"),
        (["--vitality", "-0.1", "--daily-budget", "10"], "between 0 and 1"),
        (["--vitality", "nan", "--daily-budget", "10"], "not a finite number"),
        (["--vitality", "lots", "--daily-budget", "10"], "not a number"),
        (["--vitality", "0.5", "--daily-budget", "-1"], "0 or more"),
        (["--vitality", "0.5", "--daily-budget", "inf"], "not a finite number"),
        (["--vitality", "0.5", "--daily-budget", "1", "--ratio", "-2"], "0 or more"),
        (["--daily-budget", "1"], "--vitality"),
    ],
)
def test_bad_arguments_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["budget", *argv])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err
