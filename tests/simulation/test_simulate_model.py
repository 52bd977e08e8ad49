"""`golem simulate --provider`: a real model runs one life at a time; one that bills needs
--allow-spend covering all the scenario can spend; what the life will cost and the
look-ahead caveat are printed before it starts. (The embedded model itself is measured in
tests/local_model; here the plumbing runs on the synthetic provider, named as a real one.)"""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from golem.runtime.config import ConfigError
from golem.simulation import load_scenario
from tests.user_errors.support import golem
from tests.world.test_candles import shared

SIMULATIONS = Path(__file__).parents[2] / "simulations"
LUNA = SIMULATIONS / "luna2022.toml"


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (("--provider", "openai:gpt-4o-mini"), "it bills; this scenario can spend up to $8.00"),
        (("--provider", "openai:gpt-4o-mini", "--allow-spend", "1"), "can spend up to $8.00"),
        (("--allow-spend", "5"), "--allow-spend: only with --provider"),
        (("--provider", "local", "--allow-spend", "5"), "local costs nothing"),
        (("--provider", "local", "--seeds", "2"), "one life at a time"),
        (("--provider", ":x"), "name a provider"),
    ],
)
def test_a_real_model_is_refused_unless_its_spend_is_allowed(
    tmp_path: Path, args: tuple[str, ...], complaint: str
) -> None:
    shared("luna_2022-05__binance_ETHUSDT_5m.csv")
    key = {"OPENAI_API_KEY": "sk-not-used"}  # refused before anything is asked
    line = golem("simulate", LUNA, *args, cwd=tmp_path, env=key).one_line_error()
    assert complaint in line
    assert not (tmp_path / "out").exists()


def test_a_scenario_runs_on_synthetic_unless_a_real_model_is_asked_for() -> None:
    shared("luna_2022-05__binance_ETHUSDT_5m.csv")
    local = {f"inference.{tier}": ["local"] for tier in ("t1", "t2", "death")}
    with pytest.raises(ConfigError, match="golem simulate --provider"):
        load_scenario(LUNA, local)
    assert (
        load_scenario(LUNA, local, real_model=True).config.inference.chain("t1")[0].provider
        == "local"
    )


def test_the_cost_and_the_look_ahead_are_said_before_the_life(tmp_path: Path) -> None:
    shared("luna_2022-05__binance_ETHUSDT_5m.csv")
    out = tmp_path / "o"
    ran = golem(
        "simulate",
        LUNA,
        "--provider",
        "synthetic:claude-haiku-4-5",
        "--days",
        "0.1",
        "--out",
        out,
        cwd=tmp_path,
        env={"COLUMNS": "200"},
    )
    assert ran.code == 0, ran.err
    summary = orjson.loads((out / "summary.json").read_bytes())
    calls = summary["decisions_by_source"]["model"]
    said = ran.out.splitlines()
    estimated = re.fullmatch(
        r"estimate: (\d+) model calls over 0.1 days "
        r"\(the same life on the synthetic stand-in, 145 heartbeats\)",
        said[0],
    )
    assert estimated is not None, said[0]
    assert abs(int(estimated[1]) - calls) <= calls / 2  # an estimate: the stand-in is informed
    assert said[1].startswith("look-ahead: the market is history; a model trained after 2022-05-04")
    assert summary["ticks"] == 145
