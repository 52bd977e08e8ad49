"""Baselines on every report: the golem's return net of fees, slippage and inference beside
holding its initial position, buying and holding, and cash, on the same path; in one
life's summary and in a batch's report."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import orjson
import pytest

from golem.simulation import LifeSpec, load_scenario, run_life
from golem.simulation.performance import baselines
from golem.world import CandleReplay, CostModel, PaperPortfolio, PortfolioConfig
from tests.user_errors.support import golem
from tests.world.test_candles import event_data, shared

SIMULATIONS = Path(__file__).parents[2] / "simulations"


def cash(usd: float = 10_000.0) -> dict[str, object]:
    return PaperPortfolio(usd).to_dict()


def test_buy_and_hold_pays_the_venue_and_follows_the_price() -> None:
    costs = CostModel()
    up = baselines(cash(), 100.0, 150.0)
    assert up["cash_percent"] == 0.0 and up["hold_initial_percent"] == 0.0
    notional = 10_000.0 / (1 + costs.fee_rate)
    bought = notional / (100.0 * (1 + costs.slippage_bps(notional) / 10_000))
    assert up["buy_hold_percent"] == pytest.approx(100 * (bought * 150.0 / 10_000 - 1))
    assert 49.0 < up["buy_hold_percent"] < 50.0  # +50% less the fee and slippage paid
    down = baselines(cash(), 100.0, 50.0)
    assert -51.0 < down["buy_hold_percent"] < -50.0


def test_buy_and_hold_is_not_capped_by_the_golems_order_size() -> None:
    capped = PaperPortfolio(10_000.0, PortfolioConfig(max_order_usd=100.0)).to_dict()
    assert baselines(capped, 100.0, 150.0)["buy_hold_percent"] > 49.0


def test_holding_the_initial_position_marks_what_the_golem_was_born_with() -> None:
    portfolio = PaperPortfolio(10_000.0)
    portfolio.apply("rebalance", 100.0, target_weight=0.5)
    held = baselines(portfolio.to_dict(), 100.0, 200.0)
    start = portfolio.equity()
    quantity = portfolio.quantity()
    assert held["hold_initial_percent"] == pytest.approx(
        100 * ((portfolio.cash + quantity * 200.0) / start - 1)
    )
    assert 0 < held["hold_initial_percent"] < held["buy_hold_percent"]


def test_a_real_event_life_reports_its_return_beside_the_baselines(tmp_path: Path) -> None:
    event_data(SIMULATIONS / "luna2022.toml")
    scenario = load_scenario(SIMULATIONS / "luna2022.toml")
    assert scenario.candles is not None
    run_life(LifeSpec(scenario.path, 1, tmp_path, 0.25))
    summary = orjson.loads((tmp_path / "summary.json").read_bytes())
    replay = CandleReplay(scenario.candles, timedelta(seconds=60))
    first = replay.price(scenario.start)
    last = replay.price(scenario.start + timedelta(days=0.25))
    expected = baselines(cash(), first, last)
    for key, value in expected.items():
        assert summary[key] == pytest.approx(value), key
    equity = summary["final"]["equity_usd"]
    net = 100 * ((equity - summary["spend_usd"]) / 10_000.0 - 1)
    assert summary["return_net_percent"] == pytest.approx(net, abs=1e-6)
    assert summary["return_net_percent"] < summary["pnl_percent"]  # inference was paid


def test_a_batch_report_shows_the_baselines(tmp_path: Path) -> None:
    shared("luna_2022-05__binance_ETHUSDT_5m.csv")
    args = ("--seeds", "2", "--compare", "fixed", "--days", "0.05", "--jobs", "1")
    ran = golem(
        "simulate",
        SIMULATIONS / "luna2022.toml",
        *args,
        "--out",
        tmp_path / "o",
        cwd=tmp_path,
        env={"COLUMNS": "200"},
    )
    assert ran.code == 0, ran.err
    assert "return on the same path" in ran.out
    for row in ("holding the initial position", "buy and hold", "cash", "net of fees"):
        assert row in ran.out, row
    report = orjson.loads((tmp_path / "o" / "report.json").read_bytes())
    for policy in ("vitality", "fixed"):
        assert report[policy]["buy_hold_percent"]["lives"] == 2


def test_the_batch_plot_draws_the_baselines_across_the_return_panel() -> None:
    from matplotlib.figure import Figure

    from golem.simulation.batch_plots import _baselines

    ax = Figure().add_subplot()
    lives = [{"buy_hold_percent": -23.16, "hold_initial_percent": 0.0}] * 2
    _baselines(ax, [*lives, {"buy_hold_percent": -20.0, "hold_initial_percent": 0.0}])
    drawn = {line.get_label(): line.get_ydata()[0] for line in ax.get_lines()}
    assert drawn == {
        "buy and hold -23.2%": -23.16,
        "holding the initial position 0%": 0.0,
        "cash 0%": 0.0,
    }
