"""A simulated life's outcomes: each metric on hand-made series against values worked out
by hand (Sharpe, Sortino, drawdown, daily samples), productive life and Terminal days from
records made by hand, and a short simulated life whose summary holds them, consistent."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest
from msgspec.structs import replace

from golem.cli import main
from golem.mortality import ModelTier, Phase
from golem.runtime.record import DecisionRecord
from golem.runtime.stream import Record, VitalityRecord
from golem.simulation.outcomes import (
    OUTCOME_KEYS,
    Outcomes,
    grimoire_health,
    outcome_distribution,
    productive,
)
from golem.simulation.performance import daily_samples, max_drawdown, returns, sharpe, sortino
from golem.subsystems.contract import GrimoireEntry, Outcome
from tests.runtime.records import decision
from tests.subsystems.support import context, market

START = datetime(2026, 1, 5, tzinfo=UTC)
DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
RETURNS = [0.01, -0.01, 0.02, 0.0]


def at(days: float) -> datetime:
    return START + timedelta(days=days)


def vitality(
    days: float, phase: str = "stable", *, equity: float = 100.0, fitness: float = 0.5
) -> VitalityRecord:
    return VitalityRecord(
        golem="g1",
        tick=0,
        time=at(days),
        vitality=0.5,
        phase=Phase(phase),
        economic=0.5,
        epistemic=fitness,
        burn_rate_usd=0.0,
        credits_usd=1.0,
        equity_usd=equity,
    )


def heartbeat(days: float, health_factor: float) -> DecisionRecord:
    """A heartbeat's record on a market at `health_factor` (the Situation it read)."""
    seen = context(market=market(health_factor=health_factor))
    outcome = Outcome(summary="none: observe")
    return replace(decision(at(days)), situation=seen, outcome=outcome)


def test_sharpe_is_the_annualised_mean_over_the_sample_deviation() -> None:
    # mean 0.005; deviations ±0.005, ±0.015: sample variance (2·25e-6 + 2·225e-6) / 3
    expected = 0.005 / math.sqrt(500e-6 / 3) * math.sqrt(365)
    assert sharpe(RETURNS) == pytest.approx(expected)
    assert sharpe(RETURNS, periods_per_year=1) == pytest.approx(0.005 / math.sqrt(500e-6 / 3))
    assert sharpe([0.01]) is None  # one return has no deviation
    assert sharpe([0.01, 0.01]) is None  # nor do equal ones


def test_sortino_divides_by_the_downside_deviation_over_all_returns() -> None:
    # the one loss, -0.01, squared and averaged over all four: DD = √(1e-4 / 4) = 0.005
    assert sortino(RETURNS) == pytest.approx(0.005 / 0.005 * math.sqrt(365))
    assert sortino([-0.02, 0.0]) == pytest.approx(-0.01 / math.sqrt(4e-4 / 2) * math.sqrt(365))
    assert sortino([0.01, 0.02]) is None  # no losing return: no downside to price


def test_max_drawdown_is_the_deepest_fall_from_a_running_peak() -> None:
    assert max_drawdown([100, 120, 90, 130, 65, 70]) == pytest.approx(0.5)  # 130 → 65
    assert max_drawdown([100, 120, 90, 110]) == pytest.approx(0.25)  # 120 → 90
    assert max_drawdown([100, 101, 102]) == 0.0
    assert max_drawdown([]) == 0.0


def test_daily_samples_take_the_last_reading_of_each_whole_day() -> None:
    days = [0.0, 0.4, 1.0, 1.7, 2.5]
    values = [10.0, 11.0, 12.0, 13.0, 14.0]
    assert daily_samples(days, values, lifespan=2.6) == [10.0, 12.0, 13.0]
    assert daily_samples(days, values, lifespan=0.5) == [10.0]
    assert daily_samples([], [], lifespan=3) == []
    assert returns([100.0, 110.0, 99.0]) == pytest.approx([0.1, -0.1])


def test_productive_life_ends_at_the_last_model_escalation_or_risk_assessment() -> None:
    escalating = Outcome(summary="high: escalate to T2", escalate_to=ModelTier.T2)
    counted = [
        decision(at(1.0), "risk", 2, "model"),
        decision(at(2.0), "heartbeat", 2, "model"),
        replace(decision(at(2.5), "heartbeat", 1, "model"), outcome=escalating),
        replace(decision(at(2.7), "heartbeat", 1, "model"), tier_asked=ModelTier.T2),
    ]
    not_counted = [
        decision(at(3.0), "heartbeat", 1, "model"),  # a T1 answer that does not escalate
        decision(at(4.0), "daimon", 2, "model"),
        decision(at(5.0), "risk", 0, "deterministic"),
        decision(at(5.5), "risk", 1, "fallback"),
        decision(at(6.0), "heartbeat", 2, "fallback"),
    ]
    assert all(map(productive, counted)) and not any(map(productive, not_counted))
    outcomes = Outcomes(START)
    for record in sorted([*counted, *not_counted], key=lambda r: r.time):
        outcomes(record)
    summary = outcomes.summary(
        at(7.0),
        initial_cash=100.0,
        final_equity=100.0,
        grimoire=(),
        risk_by_model=1,
        risk_assessments=3,
    )
    assert summary["productive_life_days"] == pytest.approx(2.7)
    assert summary["risk_by_model_share"] == pytest.approx(1 / 3)
    empty = Outcomes(START).summary(
        at(1.0), initial_cash=1, final_equity=1, grimoire=(), risk_by_model=0, risk_assessments=0
    )
    assert empty["productive_life_days"] == 0.0 and empty["risk_by_model_share"] is None


def test_terminal_days_fitness_equity_and_breaches_from_the_records() -> None:
    outcomes = Outcomes(START)
    records: list[Record] = [
        vitality(0.0, "stable", equity=100.0, fitness=0.5),
        heartbeat(0.1, 1.5),
        heartbeat(0.2, 0.9),  # a breach
        heartbeat(0.2, 0.9),  # the same tick's escalated re-run: the same breach
        heartbeat(0.3, 0.95),
        vitality(1.0, "terminal", equity=110.0, fitness=0.2),
        heartbeat(1.1, 1.1),
        heartbeat(1.2, 0.8),  # a second breach
        vitality(1.5, "declining", equity=88.0, fitness=0.4),
        vitality(2.0, "terminal", equity=99.0, fitness=0.6),
    ]
    for record in records:
        outcomes(record)
    summary = outcomes.summary(
        at(3.0),
        initial_cash=100.0,
        final_equity=96.8,
        grimoire=(),
        risk_by_model=0,
        risk_assessments=0,
    )
    assert summary["terminal_days"] == pytest.approx(0.5 + 1.0)  # 1 → 1.5 and 2 → 3
    assert summary["fitness_final"] == 0.6
    assert summary["fitness_mean"] == pytest.approx((0.5 + 0.2 * 0.5 + 0.4 * 0.5 + 0.6) / 3)
    assert summary["health_factor_breaches"] == 2 and summary["health_factor_min"] == 0.8
    assert summary["pnl_usd"] == pytest.approx(-3.2) and summary["pnl_percent"] == pytest.approx(
        -3.2
    )
    assert summary["max_drawdown_percent"] == pytest.approx(20.0)  # 110 → 88
    # Daily samples: the last reading at or before days 0, 1, 2 and 3.
    assert daily_samples(outcomes.days, outcomes.equity, 3.0) == [100.0, 110.0, 99.0, 99.0]
    assert summary["sharpe"] == pytest.approx(sharpe(returns([100.0, 110.0, 99.0, 99.0])))
    assert summary["sortino"] == pytest.approx(sortino([0.1, -0.1, 0.0]))


def test_grimoire_health_counts_entries_in_use_validated_and_their_confidence() -> None:
    entries = [
        GrimoireEntry("a", "calm drifts up", 0.2),
        GrimoireEntry("b", "crashes cluster", 0.6, tier="belief"),
        GrimoireEntry("c", "hedge below 1.2", 0.9, tier="principle"),
        GrimoireEntry("d", "old hunch", 0.05, archived=True),
    ]
    health = grimoire_health(entries)
    assert health["grimoire_entries"] == 3 and health["grimoire_archived"] == 1
    assert health["grimoire_validated_share"] == pytest.approx(2 / 3)
    assert health["grimoire_mean_confidence"] == pytest.approx((0.2 + 0.6 + 0.9) / 3)
    assert grimoire_health([])["grimoire_mean_confidence"] is None


def test_the_distribution_of_an_outcome_skips_lives_without_a_value() -> None:
    lives: list[dict[str, float | None]] = [
        {"sharpe": 1.0, "productive_life_days": 2.0},
        {"sharpe": None},
        {"sharpe": 3.0},
    ]
    report = outcome_distribution(lives)
    assert report["sharpe"] == {"min": 1.0, "median": 2.0, "max": 3.0, "lives": 2}
    assert report["productive_life_days"]["lives"] == 1
    assert set(report) == set(OUTCOME_KEYS)


def test_a_short_life_reports_its_outcomes_consistently(tmp_path: Path) -> None:
    assert main(["simulate", str(DECLINE), "--days", "0.5", "--out", str(tmp_path)]) == 0
    summary = orjson.loads((tmp_path / "summary.json").read_bytes())
    for key in (*OUTCOME_KEYS, "health_factor_min", "grimoire_archived"):
        assert key in summary, key
    for key in ("lifespan_days", "risk_by_model", "spend_usd_by_subsystem", "final"):
        assert key in summary, key  # the keys that were there stay
    assert 0 <= summary["productive_life_days"] <= summary["lifespan_days"]
    if summary["risk_assessments"] == 0:  # half a day may bring no trade to assess
        assert summary["risk_by_model_share"] is None
    else:
        assert 0 <= summary["risk_by_model_share"] <= 1
        assert summary["risk_by_model_share"] == pytest.approx(
            summary["risk_by_model"] / summary["risk_assessments"]
        )
    assert 0 <= summary["terminal_days"] <= summary["lifespan_days"]
    initial = summary["final"]["equity_usd"] - summary["pnl_usd"]
    assert initial == pytest.approx(10_000.0)  # the scenario's paper cash (the default)
    assert summary["pnl_percent"] == pytest.approx(100 * summary["pnl_usd"] / initial)
    assert 0 <= summary["max_drawdown_percent"] <= 100
    assert summary["fitness_final"] == pytest.approx(summary["final"]["epistemic"])
    assert 0 <= summary["fitness_mean"] <= 1
    assert summary["sharpe"] is None  # half a day: no whole day's return yet
    for name in ("equity", "fitness"):
        assert (tmp_path / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
