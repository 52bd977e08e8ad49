"""The control experiment (Bardo 11-immortal-control): the thesis status from the six
dimensions' rank tests, an immortal's would-have-died under the mortal clocks, strategy
diversity and insights across a lineage, and `--compare immortal` printing the verdict."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from golem.cli import main
from golem.mortality import Phase, PolicyName
from golem.runtime import VitalityRecord
from golem.simulation.control import (
    DIMENSIONS,
    IMMORTAL,
    INCONCLUSIVE,
    MORTAL,
    WouldHaveDied,
    status_of,
    thesis,
)
from golem.simulation.diversity import Strategies, entropy_bits
from golem.simulation.run import LifeSpec, run_life
from golem.simulation.scenario import load_scenario

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
START = datetime(2026, 1, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("mortal", "immortal", "status"),
    [
        (6, 0, "supported"),
        (4, 2, "supported"),
        (3, 1, "weakly supported"),
        (3, 3, "inconclusive"),
        (2, 2, "inconclusive"),
        (0, 0, "inconclusive"),
        (1, 3, "weakly refuted"),
        (0, 4, "refuted"),
    ],
)
def test_the_thesis_status_is_the_designs(mortal: int, immortal: int, status: str) -> None:
    assert status_of(mortal, immortal) == status


def lives(shift: dict[str, float]) -> list[dict[str, Any]]:
    """8 lineages; each dimension's figure 1..8, shifted by `shift[figure]`."""
    return [
        {figure: k + shift.get(figure, 0.0) for _, _, figure, _ in DIMENSIONS} for k in range(8)
    ]


def test_mortal_better_on_four_dimensions_supports_the_thesis_if_lived_long_enough() -> None:
    # Better on four (the lower-is-better adaptation by being lower), worse on one.
    better = {
        "fitness_mean": 20,
        "strategy_entropy_bits": 20,
        "insights_per_day": 20,
        "adaptation_ticks_median": -20,
        "sharpe": -20,
    }
    verdict = thesis(lives(better), lives({}), mortal_name="vitality", horizon_days=30)
    by = {d.key: d.verdict for d in verdict.dimensions}
    assert by == {
        "epistemic": MORTAL,
        "diversity": MORTAL,
        "novelty": MORTAL,
        "returns": IMMORTAL,
        "grimoire": INCONCLUSIVE,  # the same figures
        "adaptation": MORTAL,
    }
    assert (verdict.mortal_wins, verdict.immortal_wins, verdict.status) == (4, 1, "supported")
    short = thesis(lives(better), lives({}), mortal_name="vitality", horizon_days=3)
    assert (short.mortal_wins, short.valid, short.status) == (4, False, "inconclusive")
    refuted = thesis(lives({}), lives(better), mortal_name="vitality", horizon_days=30)
    assert (refuted.immortal_wins, refuted.status) == (4, "refuted")


def record(hours: float, economic: float, tick: int) -> VitalityRecord:
    return VitalityRecord(
        golem="g",
        tick=tick,
        time=START + timedelta(hours=hours),
        vitality=1.0,
        phase=Phase.THRIVING,
        economic=economic,
        epistemic=0.9,
        burn_rate_usd=0.0,
        credits_usd=1.0,
        equity_usd=100.0,
    )


def test_an_immortal_whose_money_ran_out_would_have_died_of_the_economic_clock() -> None:
    config = load_scenario(DECLINE).config
    immortal = config.model_copy(
        update={
            "mortality": config.mortality.model_copy(
                update={"policy": PolicyName.IMMORTAL, "stochastic_death": False}
            )
        }
    )
    shadow = WouldHaveDied.of(immortal, START)
    assert shadow is not None and not shadow.policy.immortal
    assert WouldHaveDied.of(config, START) is None  # a mortal golem has no shadow
    for tick, (hours, economic) in enumerate([(0, 1.0), (6, 0.5), (12, 0.2), (18, 0.0), (24, 0.0)]):
        shadow(record(hours, economic, tick))
    assert (shadow.day, shadow.cause) == (0.75, "economic")  # the first reading at 0
    assert shadow.summary(3.0) == {
        "would_have_died_day": 0.75,
        "would_have_died_cause": "economic",
        "mortal_lifetimes": 4.0,
    }


def test_an_immortal_life_reports_when_the_hazard_would_have_ended_it(tmp_path: Path) -> None:
    scenario = tmp_path / "hazard.toml"
    # A hazard strong enough that a day cannot pass without it firing (~40 expected
    # deaths a day at the cap), whatever the fitness path: at makeham 0.001 and the default
    # cap a day passed without one about one seed in ten.
    scenario.write_text(DECLINE.read_text() + "\n[mortality.hazard]\nmakeham = 0.01\ncap = 0.02\n")
    spec = LifeSpec(scenario, 1, tmp_path / "out", days=1.0, policy=PolicyName.IMMORTAL)
    summary = run_life(spec).summary
    assert (summary["ended"], summary["deaths"]) == ("horizon", 0)  # it did not die
    assert summary["would_have_died_cause"] == "stochastic"
    day = summary["would_have_died_day"]
    assert 0 < day < 1 and summary["mortal_lifetimes"] == pytest.approx(1 / day)
    mortal = run_life(replace(spec, out=tmp_path / "mortal", policy=None)).summary
    assert mortal["would_have_died_day"] is None  # a mortal life's is its own death
    assert mortal["deaths_by_cause"]["stochastic"] == mortal["deaths"] >= 2


def test_strategies_count_niches_and_mix_across_members() -> None:
    strategies = Strategies()
    strategies.members = [
        Counter(observe=90, hedge=10),
        Counter(observe=95, exit=4, hedge=1),
        Counter(observe=100),
    ]
    strategies.insights = {"a", "b", "c"}
    summary = strategies.summary(lifespan_days=2.0)
    assert summary["strategy_niches"] == 3  # hedge, exit, observe
    whole = Counter(observe=285, hedge=11, exit=4)
    assert summary["strategy_entropy_bits"] == pytest.approx(entropy_bits(whole))
    assert (summary["insights_created"], summary["insights_per_day"]) == (3, 1.5)
    assert entropy_bits(Counter(a=1, b=1)) == 1.0 and entropy_bits(Counter(a=5)) == 0.0


def test_compare_immortal_prints_the_control_experiments_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["--days", "0.1", "--seeds", "2", "--jobs", "1", "--out", str(out)]
    assert main(["simulate", str(DECLINE), *args, "--compare", "immortal"]) == 0
    control = orjson.loads((out / "control.json").read_bytes())
    assert [d["dimension"] for d in control["dimensions"]] == [d[0] for d in DIMENSIONS]
    assert (control["mortal"], control["immortal_lives"], control["valid"]) == (
        "vitality",
        2,
        False,
    )
    assert control["status"] == "inconclusive"  # 0.1 days: shorter than the 30 the design asks
    printed = capsys.readouterr().out
    assert "the control experiment" in printed and "thesis: INCONCLUSIVE" in printed
    assert "immortal lives" in printed and "deaths per lineage" in printed
