"""The economic clock measures the lineage's money: an heir is funded with what its
predecessors left, and its clock reads that against the founder's funding (its
`[mortality] lineage_credits_usd`), so an heir of a lineage with 30% of its money left is
born near 0.3, not at 1.0 against its own new funding."""

from __future__ import annotations

from pathlib import Path

import pytest

from golem.runtime.config import GolemConfig
from golem.runtime.store.state import StateStore
from golem.simulation.lineage import Heir, successor_config
from golem.simulation.scenario import load_scenario
from tests.runtime.test_no_dead_knobs import golem_of

from .test_lineage import lineage

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"


def born_economic(config: GolemConfig) -> float:
    with golem_of(config) as golem:
        golem._update_vitals(0.0)
        return golem.vitals.economic


def test_an_heir_with_30_percent_of_the_lineages_money_is_born_near_0_3() -> None:
    founder = load_scenario(DECLINE).config
    assert founder.mortality.initial_credits_usd == 8.0
    heir = successor_config(founder, Heir(2, 2.4, {}, ()))
    assert (heir.mortality.initial_credits_usd, heir.mortality.lineage_credits_usd) == (2.4, 8.0)
    grandchild = successor_config(heir, Heir(3, 1.0, {}, ()))
    assert grandchild.mortality.lineage_credits_usd == 8.0  # the founder's, not the heir's
    reserve = heir.mortality.reserve.amount(2.4, 0)  # born in cash: no position to settle
    economic = born_economic(heir)
    assert economic == pytest.approx((2.4 - reserve) / (8.0 - reserve))
    assert 0.2 < economic < 0.3
    # Funded with the same money on its own (no lineage), a golem is born at 1.0.
    alone = heir.model_copy(
        update={"mortality": heir.mortality.model_copy(update={"lineage_credits_usd": None})}
    )
    assert born_economic(alone) == 1.0


def test_each_heir_of_a_simulated_lineage_is_born_where_its_money_stands(
    tmp_path: Path,
) -> None:
    lives = lineage(tmp_path, still=True).summary["lineage"]
    assert len(lives) >= 3
    config = load_scenario(DECLINE).config
    starts = []
    for g in lives[1:]:
        state = tmp_path / "out" / f"generation-{g['generation']}" / "state"
        with StateStore.open(state) as store:
            first = store.vitality_history()[0].economic
        reserve = config.mortality.reserve.amount(g["funded_usd"], 0)
        assert first == pytest.approx((g["funded_usd"] - reserve) / (8.0 - reserve))
        starts.append(first)
    # The lineage's money only falls (no income here): each heir starts below the last.
    assert starts == sorted(starts, reverse=True) and starts[0] < 1.0
