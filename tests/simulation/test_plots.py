"""The plots of a simulated life say what they show (issue 33, item 19): the policy lived
(every single-life PNG said "None policy"), each death of a lineage and the heir born at
it (vitality jumped from 0.10 to 0.69 with no sign a golem had died), and a last day the
life did not finish as the part of a day it is (it was drawn as a whole day's bar)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio
from PIL import Image

from golem.cli import main
from golem.simulation import Death
from golem.simulation.plots import figures
from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario
from golem.simulation.summary import LifeResult

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
HAZARD = "\n[mortality.hazard]\nmakeham = 0.001\n"  # at the cap: a death every ~4 hours
DAYS = 1.3


@pytest.fixture(scope="module")
def lineage(tmp_path_factory: pytest.TempPathFactory) -> LifeResult:
    root = tmp_path_factory.mktemp("lineage")
    path = root / "lineage.toml"
    path.write_text(DECLINE.read_text() + HAZARD)
    spec = LifeSpec(path, 1, root / "out", days=DAYS)
    return trio.run(live, load_scenario(path), spec)


def _axes(figure: Any) -> Any:
    return figure.axes[0]


def test_each_death_and_its_heir_are_marked_on_every_plot(lineage: LifeResult) -> None:
    deaths = Death.of_lineage(lineage.summary["lineage"])
    assert len(deaths) >= 2, lineage.summary["lineage"]
    assert [d.heir for d in deaths[:-1]] == [d.generation + 1 for d in deaths[:-1]]
    drawn = figures("t", lineage.tally, lineage.daily_spend, lineage.outcomes, deaths=deaths)
    assert len(drawn) == 7
    for name, figure in drawn.items():
        ax = _axes(figure)
        marked = sorted(
            float(line.get_xdata()[0])
            for line in ax.lines
            if line.get_linestyle() == "--" and len(set(line.get_xdata())) == 1
        )
        assert marked == pytest.approx([d.day for d in deaths]), name
        said = [text.get_text() for text in ax.texts]
        first = deaths[0]
        assert f"g{first.generation} died ({first.cause}), g{first.heir} born" in said, name
        assert "a golem died (its heir born)" in [t.get_text() for t in ax.get_legend().texts]
    assert figures("t", lineage.tally, lineage.daily_spend)["vitality.png"].axes[0].lines[0]


def test_the_last_partial_day_is_drawn_as_the_part_it_is(lineage: LifeResult) -> None:
    spend = _axes(figures("t", lineage.tally, lineage.daily_spend)["spend.png"])
    widths: dict[float, set[float]] = {}
    for bar in spend.patches:
        widths.setdefault(round(bar.get_x(), 6), set()).add(round(bar.get_width(), 6))
    lived = lineage.tally.days[-1] - 1
    assert widths == {0.0: {0.85}, 1.0: {round(lived * 0.85, 6)}}
    assert lived == pytest.approx(DAYS - 1, abs=0.01)
    assert [t.get_text() for t in spend.texts] == [f"partial day\n({lived:.2f} of 1)"]


def test_a_single_life_plot_names_the_policy_lived(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["simulate", str(DECLINE), "--days", "0.2", "--out", str(out)]) == 0
    for png in ("vitality.png", "spend.png", "equity.png"):
        with Image.open(out / png) as image:
            assert image.info["Title"] == "decline: seed 1, vitality policy"
