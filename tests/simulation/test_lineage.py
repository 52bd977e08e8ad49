"""Succession in the simulator: a golem that dies with money left is followed at once by a
successor funded with what it left (never more: the group's money is the scenario's
credits), born with its testament's lessons at a reduced confidence, until the money is
spent or the horizon comes; the summary reports the lineage and measures it whole."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
import trio

from golem.runtime.store.state import StateStore
from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario
from golem.simulation.summary import LifeResult
from golem.subsystems.death import CausalLink, DeathTestament, inherited_lessons
from golem.subsystems.death.records import NOTHING_LEARNED

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
HAZARD = "\n[mortality.hazard]\nmakeham = 0.001\n"  # at the cap: a death every ~4 hours


def lineage(
    tmp_path: Path,
    *,
    credits: float = 8.0,
    succession: str = "",
    days: float = 1.0,
    still: bool = False,
) -> LifeResult:
    text = DECLINE.read_text().replace(
        "initial_credits_usd = 8.0", f"initial_credits_usd = {credits}"
    )
    if still:  # neither curator nor dreams: a successor's grimoire stays as it was born
        for job, every in (("curator", "30m"), ("dream", "2h")):
            table = f'[subsystems.{job}]\nschedule = "{every}"'
            assert table in text
            text = text.replace(table, f"[subsystems.{job}]\nenabled = false")
    path = tmp_path / "lineage.toml"
    path.write_text(text + HAZARD + (f"\n[simulation.succession]\n{succession}\n"))
    spec = LifeSpec(path, 1, tmp_path / "out", days=days)
    return trio.run(live, load_scenario(path), spec)


def test_lessons_pass_staged_at_the_factor_per_generation() -> None:
    testament = DeathTestament(
        learned=["hedge before a crash", "Hedge before a crash!", NOTHING_LEARNED],
        got_wrong=["sold the bottom"],
        would_change=["keep more cash"],
        suspects=["funding leads price"],
        confused_by=["the calm before day 9"],
        never_tested=["shorting volatility"],
        causal_links=[CausalLink(cause="thin books", effect="slippage", confidence=0.6)],
        killed_by="chance",
    )
    second = {e.text: e for e in inherited_lessons(testament, generation=2, factor=0.85)}
    assert {text: e.confidence for text, e in second.items()} == {
        "hedge before a crash": 0.85,  # once: the same words twice are one lesson
        "sold the bottom": 0.85,
        "keep more cash": 0.85,
        "funding leads price": 0.425,  # a suspicion is half-trusted
        "thin books → slippage": pytest.approx(0.51),  # its own confidence, reduced
    }  # confusions, untested ideas and the placeholder for nothing learned are no lessons
    assert all(e.tier == "staged" and not e.archived for e in second.values())
    assert second["sold the bottom"].provenance == "testament of generation 1: got_wrong"
    third = inherited_lessons(testament, generation=3, factor=0.85)
    assert third[0].confidence == pytest.approx(0.85**2) and third[0].id.startswith("inherited-g3")
    with pytest.raises(ValueError, match="2 or more"):
        inherited_lessons(testament, generation=1, factor=0.85)


def test_a_successor_inherits_the_lessons_and_the_money_left(tmp_path: Path) -> None:
    summary = lineage(tmp_path, still=True).summary
    lives = summary["lineage"]
    assert summary["generations"] == len(lives) >= 3
    assert [g["generation"] for g in lives] == list(range(1, len(lives) + 1))
    for before, after in itertools.pairwise(lives):
        assert before["ended"] == "died" and before["cause_of_death"] == "stochastic"
        assert after["funded_usd"] == before["credits_left_usd"]  # what it left, no more
        assert after["born_day"] == pytest.approx(before["born_day"] + before["lifespan_days"])
        assert after["inherited_lessons"] > 0
    assert lives[0]["funded_usd"] == 8.0 and lives[0]["inherited_lessons"] == 0
    # The group's money: the founder's credits, spent by the generations in turn.
    spent = math.fsum(g["spend_usd"] for g in lives)
    assert spent == pytest.approx(summary["spend_usd"])
    assert lives[-1]["credits_left_usd"] == pytest.approx(8.0 - spent)
    assert summary["final"]["credits_usd"] == lives[-1]["credits_left_usd"]
    # The whole lineage is measured: its time, ticks and deaths.
    assert summary["lifespan_days"] == pytest.approx(1.0)
    assert summary["ticks"] == sum(g["ticks"] for g in lives)
    assert summary["deaths"] == len(lives) - (lives[-1]["ended"] != "died")
    assert summary["productive_life_days"] > lives[0]["lifespan_days"]
    # Each golem's own return net of its costs beside the baselines over its own life: an
    # heir is born in cash (its predecessor's death settled the portfolio), so holding
    # what it was born with makes nothing, and its net return is what it paid for.
    for g in lives:
        assert g["cash_percent"] == 0.0 and g["buy_hold_percent"] is not None
        assert g["return_net_percent"] is not None
    for g in lives[1:]:
        assert g["hold_initial_percent"] == 0.0
    assert {g["buy_hold_percent"] > 0 for g in lives} == {True, False}  # each its own path

    out = tmp_path / "out"
    founder = DeathTestament.model_validate_json((out / "state" / "testament.json").read_bytes())
    expected = inherited_lessons(founder, generation=2, factor=0.85)
    with StateStore.open(out / "generation-2" / "state") as store:
        born_with = [e for e in store.grimoire() if e.id.startswith("inherited-")]
    assert [(e.id, e.text, e.confidence, e.tier) for e in born_with] == [
        (e.id, e.text, e.confidence, e.tier) for e in expected
    ]
    assert len(born_with) == lives[1]["inherited_lessons"] > 0
    # Each heir's first heartbeat is at its birth, the instant its predecessor last looked
    # at the shared market: it sees what that one saw, and no job fails.
    for number in range(2, len(lives) + 1):
        log = (out / f"generation-{number}" / "golem.log").read_text()
        assert '"event":"job_failed"' not in log
        assert log.startswith('{"timestamp"') and '"tick":0,"subsystem":"heartbeat"' in log


def test_the_inherited_confidence_is_configured(tmp_path: Path) -> None:
    lineage(tmp_path, succession="inherited_confidence = 0.5", days=0.5, still=True)
    out = tmp_path / "out"
    founder = DeathTestament.model_validate_json((out / "state" / "testament.json").read_bytes())
    expected = {e.id: e.confidence for e in inherited_lessons(founder, generation=2, factor=0.5)}
    with StateStore.open(out / "generation-2" / "state") as store:
        born_with = {e.id: e.confidence for e in store.grimoire() if e.id in expected}
    assert born_with == expected and max(born_with.values()) == 0.5


def test_the_lineage_ends_when_its_money_is_spent(tmp_path: Path) -> None:
    # Sixty cents: a death's review costs some twenty, so the money runs out in a few
    # generations, well before the horizon; no successor is funded with no more than the
    # $0.30 apoptotic reserve it would hold back (it could pay for nothing but its death).
    lives = lineage(tmp_path, credits=0.6, days=3.0).summary["lineage"]
    assert lives[-1]["ended"] == "died" and lives[-1]["credits_left_usd"] <= 0.30
    assert lives[-1]["born_day"] + lives[-1]["lifespan_days"] < 3.0
    assert all(g["credits_left_usd"] > 0.30 for g in lives[:-1])


def test_a_higher_minimum_ends_it_sooner(tmp_path: Path) -> None:
    summary = lineage(tmp_path, succession="min_credits_usd = 7.99", days=0.5).summary
    assert summary["generations"] == 1 and summary["ended"] == "died"
    assert 0.0 < summary["lineage"][0]["credits_left_usd"] < 7.99


def test_succession_can_be_off(tmp_path: Path) -> None:
    stale = tmp_path / "out" / "generation-2" / "state"  # an earlier run's successor
    stale.mkdir(parents=True)
    summary = lineage(tmp_path, succession="enabled = false", days=0.5).summary
    assert summary["generations"] == 1 and summary["ended"] == "died"
    assert summary["final"]["credits_usd"] > 7.0  # died rich, and nobody followed
    assert not (tmp_path / "out" / "generation-2").exists()  # no successor's, old or new
