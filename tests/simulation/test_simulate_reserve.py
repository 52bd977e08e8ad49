"""The apoptotic reserve in simulated lives of decline.toml (seed 1): no call but death's is
granted beyond the credits less the reserve, death's testament is paid from it, and a
golem funded with no more than the reserve has nothing to live on."""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path

import trio

from golem.mortality import SubsystemName
from golem.runtime.store.state import StateStore
from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario
from golem.simulation.summary import LifeResult

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
RESERVE = 0.30  # max($0.30, 2% of the initial credits) for every wallet below $15
START = date(2026, 1, 5)  # decline.toml's
HAZARD = "\n[mortality.hazard]\nmakeham = 1.0\n"  # at its cap, 0.1% a tick: dead in hours


def lived(tmp_path: Path, credits: str, days: float, extra: str = "") -> LifeResult:
    text = DECLINE.read_text()
    assert "initial_credits_usd = 8.0" in text
    path = tmp_path / "scenario.toml"
    path.write_text(
        text.replace("initial_credits_usd = 8.0", f"initial_credits_usd = {credits}") + extra
    )
    spec = LifeSpec(path, 1, tmp_path / "out", days=days)
    return trio.run(live, load_scenario(path), spec)


def test_two_cents_are_all_reserve_the_golem_dies_at_birth(tmp_path: Path) -> None:
    # Before the reserve: risk was granted a T2 call ($0.014) with $0.0017 left, and the
    # credits went to -$0.0123 before death, -$0.17 after its testament. Now nothing is
    # spendable: the economic clock reads 0 at the first tick, and the only call is the
    # testament's, fitted to the two cents (no heir: the group's money is spent).
    summary = lived(tmp_path, "0.02", 1.0).summary
    assert (summary["cause_of_death"], summary["generations"]) == ("economic", 1)
    assert summary["lifespan_days"] == 0.0 and summary["death_testament_by_model"] is True
    assert set(summary["spend_usd_by_subsystem"]) == {"death"}
    assert 0.0 < summary["spend_usd"] <= 0.02 and summary["final"]["credits_usd"] >= 0.0


def test_a_wallet_of_nothing_grants_the_daimon_no_call_at_birth(tmp_path: Path) -> None:
    # Before: the daimon was granted a call at tick 0. Now death's testament is the one
    # call, one attempt without reasoning, the only overdraw there is.
    summary = lived(tmp_path, "1e-9", 0.01).summary
    assert summary["decisions_by_source"]["model"] == 1
    assert set(summary["spend_usd_by_subsystem"]) == {"death"}
    assert summary["spend_usd"] < 0.01


def test_the_reserve_is_held_for_death_and_pays_its_testament(tmp_path: Path) -> None:
    summary = lived(tmp_path, "0.35", 1.0, HAZARD).summary
    assert summary["ended"] == "died" and summary["death_testament_by_model"] is True
    with StateStore.open(tmp_path / "out" / "state") as store:
        charges = list(store.ledger.charges(START))  # a day's life, all on its first day
        assert math.fsum(c.usd for c in charges) == store.ledger.total_usd()
    credits, lowest = 0.35, 0.35
    for paid in charges:
        credits -= paid.usd
        if paid.subsystem is not SubsystemName.DEATH:
            lowest = min(lowest, credits)
    assert any(c.subsystem is not SubsystemName.DEATH for c in charges)
    # Nothing but death spent the reserve (before it: the lowest was $0.2541).
    assert lowest >= RESERVE - 1e-12
    death = sum(c.usd for c in charges if c.subsystem is SubsystemName.DEATH)
    assert 0 < death <= RESERVE and credits >= 0  # and death's testament was paid from it
