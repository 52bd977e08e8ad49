"""`golem run CONFIG --successor-of OLD_STATE_DIR`: the successor is born with the dead
predecessor's testament in its grimoire, each lesson at its confidence in the testament
× 0.85 (generation 2); a predecessor still alive (lock held, or no death recorded), one
without a testament, or a successor's state that already holds a life is refused: one
line, exit 2, nothing made."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.cli import main
from golem.cli.successor import LINEAGE_META, with_lineage
from golem.oracle import Oracle, OracleGenome
from golem.runtime.config import GolemConfig
from golem.runtime.heritage import GENOME_META, genome_of
from golem.runtime.store import StateLock
from golem.runtime.store.state import DB_NAME, StateStore
from golem.subsystems.death import DeathTestament
from golem.subsystems.death.inheritance import LESSON_CONFIDENCE
from tests.policy import COMPILED

CONFIG = """
[golem]
id = "g-heir"
state_dir = "{state}"
seed = 4

[inference]
t1 = ["synthetic"]
t2 = ["synthetic:gpt-4o"]
death = ["synthetic:gpt-4o"]

[providers.synthetic]
emulate = "openai"
model = "gpt-4o-mini"

[heartbeat]
interval = "100ms"

[logging]
console = "off"
"""


def config(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(CONFIG.format(state=tmp_path / name))
    return path


def killed(tmp_path: Path) -> Path:
    """A golem its owner killed at its first tick: dead, with a testament."""
    state = tmp_path / "first"
    StateStore.open(state).close()
    assert main(["ctl", str(state), "kill"]) == 0
    assert main(["run", str(config(tmp_path, "first")), "--for", "5s"]) == 0
    return state


def test_the_successor_inherits_the_testament_at_reduced_confidence(tmp_path: Path) -> None:
    old = killed(tmp_path)
    with StateStore.open(old) as store:
        death = store.death()
    assert death is not None and death["cause"] == "kill_switch"
    [json_file] = [f for f in death["testament"] if f.endswith(".json")]
    testament = DeathTestament.model_validate_json(Path(json_file).read_bytes())
    stated = {
        text: LESSON_CONFIDENCE[section]
        for section in LESSON_CONFIDENCE
        for text in getattr(testament, section)
    }
    assert (
        main(["run", str(config(tmp_path, "second")), "--successor-of", str(old), "--for", "1s"])
        == 0
    )
    with StateStore.open(tmp_path / "second") as store:
        inherited = [e for e in store.grimoire() if e.id.startswith("inherited-g2-")]
        assert store.get_meta("generation") == 2
        assert store.get_meta("predecessor")["predecessor_cause"] == "kill_switch"
    assert any(entry.text in stated for entry in inherited)
    for entry in inherited:
        if entry.text in stated:
            assert entry.confidence == pytest.approx(stated[entry.text] * 0.85)
        assert entry.confidence <= 0.85
    log = [
        orjson.loads(line) for line in (tmp_path / "second" / "golem.log").read_bytes().splitlines()
    ]
    [line] = [e for e in log if e["event"] == "succession"]
    assert line["inherited_lessons"] == len(inherited)


def refused(tmp_path: Path, old: Path, capsys: pytest.CaptureFixture[str]) -> str:
    new = tmp_path / "second"
    assert main(["run", str(config(tmp_path, "second")), "--successor-of", str(old)]) == 2
    assert not (new / DB_NAME).exists()  # nothing made
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    return err


def test_a_predecessor_holding_its_lock_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = killed(tmp_path)
    capsys.readouterr()
    with StateLock(old):
        assert "still alive" in refused(tmp_path, old, capsys)


def test_a_predecessor_with_no_death_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(config(tmp_path, "first")), "--for", "1s"]) == 0
    capsys.readouterr()
    assert "no death recorded" in refused(tmp_path, tmp_path / "first", capsys)


def test_a_predecessor_without_a_testament_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = killed(tmp_path)
    for testament in old.glob("testament*"):
        testament.unlink()
    capsys.readouterr()
    assert "no testament" in refused(tmp_path, old, capsys)
    assert "not a golem's state directory" in refused(tmp_path, tmp_path / "nowhere", capsys)


def test_a_successor_is_born_in_a_state_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = killed(tmp_path)
    capsys.readouterr()
    path = config(tmp_path, "first")  # the predecessor's own state
    assert main(["run", str(path), "--successor-of", str(old)]) == 2
    assert "already holds a life" in capsys.readouterr().err


def test_the_successor_inherits_the_oracle_genome_and_the_lineages_money(
    tmp_path: Path,
) -> None:
    """Its Oracle's genome (what its predecessor learnt, pooled with what that one
    inherited) at 0.7, and the founder's money as its economic clock's 1.0."""
    old = killed(tmp_path)
    learnt = Oracle()
    for i in range(40):
        learnt.corrector.record("price_direction", "within", 0.01 * (i % 5), i % 4 != 0)
        learnt.calibrator.record("price_direction", "within", 0.8, i % 2 == 0)
    with StateStore.open(old) as store:  # as if it had been an heir itself
        store.set_meta(GENOME_META, OracleGenome.of(learnt).to_dict())
        founded = store.initial_credits()
        expected = genome_of(
            store, corrector=COMPILED.corrector, calibration=COMPILED.calibration
        ).scaled(0.7)
    assert founded is not None and expected.residuals
    new = config(tmp_path, "second")
    assert main(["run", str(new), "--successor-of", str(old), "--for", "1s"]) == 0
    with StateStore.open(tmp_path / "second") as store:
        kept = OracleGenome.from_dict(store.get_meta(GENOME_META))
        assert store.get_meta(LINEAGE_META) == founded
        assert store.get_meta("predecessor")["lineage_credits_usd"] == founded
    [(key, prior)] = kept.residuals.items()
    assert key == ("price_direction", "within")
    assert prior.weight == pytest.approx(0.7 * 40) == expected.residuals[key].weight
    assert kept.curves[key][0.8] == pytest.approx((28.0, 14.0))
    with StateStore.open(old) as store:  # a founder that learnt nothing leaves nothing
        store.set_meta(GENOME_META, None)
        assert not genome_of(store, corrector=COMPILED.corrector, calibration=COMPILED.calibration)


def test_a_successor_s_config_takes_the_lineage_s_money_unless_the_owner_set_it() -> None:
    config = GolemConfig.model_validate({"golem": {"id": "g"}})
    assert config.mortality.lineage_credits_usd is None
    assert with_lineage(config, 8.0).mortality.lineage_credits_usd == 8.0
    assert with_lineage(config, None).mortality.lineage_credits_usd is None  # a founder
    owned = with_lineage(config, 5.0)
    assert with_lineage(owned, 8.0).mortality.lineage_credits_usd == 5.0


def test_the_successor_s_economic_clock_measures_the_lineage_s_money(tmp_path: Path) -> None:
    """Funded with $1 of a lineage founded with $5, a successor is born near 0.2 (as the
    simulator's heirs), and a restart of it (no --successor-of) still reads the lineage's."""
    old = killed(tmp_path)
    new = tmp_path / "second.toml"
    new.write_text(
        CONFIG.format(state=tmp_path / "second") + "\n[mortality]\ninitial_credits_usd = 1.0\n"
    )
    assert main(["run", str(new), "--successor-of", str(old), "--for", "1s"]) == 0
    assert main(["run", str(new), "--for", "1s"]) == 0  # its restart
    with StateStore.open(tmp_path / "second") as store:
        history = store.vitality_history()
        assert store.initial_credits() == 1.0
    assert len({h.tick for h in history}) > 1
    assert all(0.1 < h.economic < 0.21 for h in history)
