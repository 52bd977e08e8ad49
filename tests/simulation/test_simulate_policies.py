"""The named policies in short simulated lives: an immortal golem on forty cents never
leaves Thriving, outlives its money without dying and spends no more than it had above the
apoptotic reserve ($0.30, held back for a death it may still die by the kill switch); a
rules-only golem calls no model and spends nothing; `[mortality] policy` and
LifeSpec.policy choose among them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

from golem.mortality import PolicyName
from golem.runtime.store.state import StateStore
from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario
from golem.simulation.summary import LifeResult
from golem.simulation.tally import PHASES

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"


def scenario(tmp_path: Path, name: str, *, credits: float = 8.0, extra: str = "") -> Path:
    text = DECLINE.read_text()
    assert "initial_credits_usd = 8.0" in text
    path = tmp_path / f"{name}.toml"
    path.write_text(
        text.replace("initial_credits_usd = 8.0", f"initial_credits_usd = {credits}") + extra
    )
    return path


def lived(path: Path, out: Path, days: float, **spec: Any) -> LifeResult:
    life = LifeSpec(path, 1, out, days=days, **spec)
    return trio.run(live, load_scenario(path), life)


def test_an_immortal_on_forty_cents_stays_thriving_and_spends_only_what_it_had(
    tmp_path: Path,
) -> None:
    path = scenario(tmp_path, "poor", credits=0.40)
    result = lived(path, tmp_path / "immortal", 2.0, policy=PolicyName.IMMORTAL, record=False)
    summary = result.summary
    assert summary["policy"] == "immortal"
    assert (summary["ended"], summary["deaths"], summary["generations"]) == ("horizon", 0, 1)
    assert summary["lifespan_days"] == 2.0 and summary["terminal_days"] == 0.0
    assert set(result.tally.phase) == {PHASES.index("thriving")}  # every vitality reading
    assert summary["final"]["phase"] == "thriving" and summary["final"]["vitality"] == 1.0
    # Its wallet less the reserve bounded it: spent down to the reserve, never into it.
    assert 0.30 <= summary["final"]["credits_usd"] < 0.31
    assert 0.09 < summary["spend_usd"] <= 0.10


def test_a_rules_only_golem_calls_no_model_and_spends_nothing(tmp_path: Path) -> None:
    out = tmp_path / "rules"
    summary = lived(scenario(tmp_path, "plain"), out, 1.0, policy=PolicyName.RULES).summary
    assert summary["policy"] == "rules"
    assert "model" not in summary["decisions_by_source"]
    assert summary["decisions_by_source"]["deterministic"] > 5000
    assert summary["degradations_by_reason"]["rules_only"] > 0
    assert summary["spend_usd"] == 0.0 and summary["spend_usd_by_subsystem"] == {}
    assert summary["productive_life_days"] == 0.0  # no model decided anything
    with StateStore.open(out / "state") as store:
        assert store.ledger.total_usd() == 0.0 and store.credits() == 8.0


def test_a_rules_only_golem_writes_its_testament_from_the_records(tmp_path: Path) -> None:
    # The hazard clock at its cap (0.1% a tick): dead within hours, its review the rules'.
    extra = "\n[mortality.hazard]\nmakeham = 1.0\n\n[simulation.succession]\nenabled = false\n"
    out = tmp_path / "rules"
    summary = lived(
        scenario(tmp_path, "hazard", extra=extra), out, 1.0, policy=PolicyName.RULES
    ).summary
    assert summary["ended"] == "died" and summary["death_testament_by_model"] is False
    assert summary["spend_usd"] == 0.0 and (out / "state" / "testament.json").is_file()


def test_the_scenario_chooses_the_policy_and_a_spec_overrides_it(tmp_path: Path) -> None:
    path = scenario(tmp_path, "rules")
    path.write_text(path.read_text().replace("[mortality]\n", '[mortality]\npolicy = "rules"\n'))
    assert load_scenario(path).config.mortality.policy == "rules"
    own = lived(path, tmp_path / "own", 0.05, record=False).summary
    assert own["policy"] == "rules" and own["spend_usd"] == 0.0
    vitality = lived(path, tmp_path / "v", 0.05, policy=PolicyName.VITALITY, record=False).summary
    assert vitality["policy"] == "vitality" and vitality["spend_usd"] > 0.0
