"""The real-event scenarios: each names its candle file (found in the working directory,
$GOLEM_MARKET_DATA or the checkout's ../shared/data/markets); a missing file is one line
naming the `golem data fetch` command that makes it; a life on real candles sees the
real prices and its decisions are judged against the real path."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import orjson
import pytest

from golem.runtime.config import ConfigError
from golem.simulation import LifeSpec, load_scenario, run_life
from golem.world import CandleReplay
from tests.user_errors.support import golem
from tests.world.test_candles import ROWS, event_data, write_csv

SIMULATIONS = Path(__file__).parents[2] / "simulations"
EVENTS = ("may2021", "luna2022", "celsius2022", "rally2020", "sideways2023")


def test_a_missing_candle_file_names_the_fetch_that_makes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GOLEM_MARKET_DATA", raising=False)
    overrides = {"world.candles": "nowhere.parquet", "world.timeframe": "1h"}
    with pytest.raises(ConfigError) as caught:
        load_scenario(SIMULATIONS / "luna2022.toml", overrides)
    message = str(caught.value)
    assert "world.candles: no such file: nowhere.parquet" in message
    assert message.endswith(
        "make it with: golem data fetch binance ETH/USDT 1h --since 2022-05-04T00:00:00Z "
        "--until 2022-05-16T00:00:00Z --out nowhere.parquet"
    )
    changed = {**overrides, "world.exchange": "kraken", "world.symbol": "BTC/USD"}
    with pytest.raises(ConfigError, match="golem data fetch kraken BTC/USD 1h"):
        load_scenario(SIMULATIONS / "luna2022.toml", changed)


def test_the_command_line_says_it_in_one_line(tmp_path: Path) -> None:
    scenario = tmp_path / "luna.toml"
    text = (SIMULATIONS / "luna2022.toml").read_text()
    scenario.write_text(text.replace("luna_2022-05__binance_ETHUSDT_5m.csv", "gone.csv"))
    line = golem("simulate", scenario, cwd=tmp_path).one_line_error()
    assert "golem data fetch binance ETH/USDT 5m" in line and "--out gone.csv" in line


def test_golem_market_data_names_where_the_files_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    write_csv(tmp_path / "data" / "mine.csv", [ROWS[0]] * 2000)
    monkeypatch.setenv("GOLEM_MARKET_DATA", str(tmp_path / "data"))
    scenario = load_scenario(
        SIMULATIONS / "luna2022.toml",
        {"world.candles": "mine.csv", "simulation.horizon_days": 1},
    )
    assert scenario.candles is not None
    assert scenario.candles.path == tmp_path / "data" / "mine.csv"


@pytest.mark.parametrize("name", EVENTS)
def test_a_real_event_life_sees_the_real_prices(tmp_path: Path, name: str) -> None:
    event_data(SIMULATIONS / f"{name}.toml")
    scenario = load_scenario(SIMULATIONS / f"{name}.toml")
    assert scenario.candles is not None, name
    run_life(LifeSpec(scenario.path, 1, tmp_path, 0.25))
    replay = CandleReplay(scenario.candles, timedelta(seconds=60))
    lines = [orjson.loads(line) for line in (tmp_path / "golem.log").read_bytes().splitlines()]
    ticks = [line for line in lines if line["event"] == "decision" and "market" in line]
    assert ticks, name
    summary = orjson.loads((tmp_path / "summary.json").read_bytes())
    # 6 hours at 60 s, both ends (fewer once Conservation doubles the interval), to the end
    assert summary["ended"] == "horizon" and summary["lifespan_days"] == pytest.approx(0.25)
    assert 181 <= summary["ticks"] <= 361
    judged = summary["decisions_judged"]
    assert judged["heartbeat"], "decisions judged against the real path"
    assert replay.price(scenario.start) == scenario.candles.open[0]
