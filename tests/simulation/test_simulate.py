"""`golem simulate`: a scenario's life writes its log, summary.json and plots; the same
seed gives the same summary byte for byte; scenario errors exit 2 naming the key;
`--seeds` runs lives on a local Dask cluster; `--compare fixed` prints both policies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest

from golem.cli import main
from golem.runtime.logs.read import Malformed, read_events
from golem.runtime.store.state import StateStore
from golem.simulation.batch import distribution
from golem.simulation.scenario import load_scenario
from golem.simulation.tally import Tally
from tests.runtime.records import decision
from tests.world.test_candles import event_data

SIMULATIONS = Path(__file__).parents[2] / "simulations"
DECLINE = SIMULATIONS / "decline.toml"
SHORT = "0.03"  # days: up to 172 heartbeats


def _refuse(malformed: Malformed) -> None:
    raise AssertionError(f"a malformed log line: {malformed}")


def run(*args: str | Path) -> int:
    return main(["simulate", *(str(a) for a in args)])


def test_a_life_writes_its_log_summary_and_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(DECLINE, "--days", SHORT, "--seed", "3", "--out", tmp_path) == 0
    summary = orjson.loads((tmp_path / "summary.json").read_bytes())
    assert summary["scenario"] == "decline" and summary["seed"] == 3
    assert summary["ended"] == "horizon" and summary["lifespan_days"] == pytest.approx(0.03)
    assert summary["ticks"] > 100
    for key in (
        "cause_of_death",
        "spend_usd_by_subsystem",
        "decisions_by_tier",
        "degradations_by_reason",
        "reasks",
        "fallbacks",
        "final",
    ):
        assert key in summary
    assert summary["decisions_by_tier"]["T0"] > 80
    oracle = summary["oracle"]  # the prediction engine: every rules' tick claimed inaction
    inaction = oracle["accuracy"]["inaction"]
    assert inaction["total"] > 80 and 0 <= inaction["hit_rate"] <= 1
    assert oracle["fitness_by_generation"] == [pytest.approx(summary["final"]["epistemic"])]
    assert oracle["trades_executed"] >= 0 and oracle["trades_gated"] >= 0
    with StateStore.open(tmp_path / "state") as store:  # written as the life ended
        assert store.tick() == summary["ticks"]
        predictions, resolutions = store.predictions.load()  # the ledger, committed
        assert len(resolutions) == sum(a["total"] for a in oracle["accuracy"].values())
        assert len(predictions) >= len(resolutions)
        assert store.portfolio() is not None
    # A quiet stretch is one line that the log's readers expand into its decisions.
    events = list(read_events(tmp_path / "golem.log", on_malformed=_refuse))
    heartbeats = sum(e["event"] == "decision" and e["subsystem"] == "heartbeat" for e in events)
    assert heartbeats >= summary["ticks"]  # one a tick, and its escalations
    for name in ("vitality", "credits", "spend", "tiers", "degradations"):
        png = tmp_path / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    assert "lifespan_days" in capsys.readouterr().out


def test_the_same_seed_gives_a_byte_identical_summary(tmp_path: Path) -> None:
    assert run(DECLINE, "--days", SHORT, "--out", tmp_path / "a") == 0
    assert run(DECLINE, "--days", SHORT, "--out", tmp_path / "b") == 0
    first = (tmp_path / "a" / "summary.json").read_bytes()
    assert first == (tmp_path / "b" / "summary.json").read_bytes()
    assert run(DECLINE, "--days", SHORT, "--seed", "2", "--out", tmp_path / "c") == 0
    assert first != (tmp_path / "c" / "summary.json").read_bytes()


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("horizon_days = 60", "horizon_days = -1"), "simulation.horizon_days"),
        (("seed = 1\n", "seed = 1\nsurprise = 2\n"), "simulation.surprise"),
        (("start = 2026-01-05T00:00:00Z", "start = 2026-01-05T00:00:00"), "simulation.start"),
        (("daily_budget_usd = 1.0", "daily_budget_usd = -1.0"), "mortality.daily_budget_usd"),
        (('t1 = ["synthetic:claude-haiku-4-5"]', 't1 = ["openai:gpt-4o"]'), "inference.t1[0]"),
    ],
)
def test_scenario_errors_exit_2_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], key: str
) -> None:
    text = DECLINE.read_text()
    assert change[0] in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(change[0], change[1], 1))
    assert run(bad, "--out", tmp_path / "out") == 2
    assert f"bad.toml: {key}:" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_scenario_without_a_simulation_table_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "plain.toml"
    bad.write_text('[golem]\nid = "x"\n')
    assert run(bad) == 2
    assert "plain.toml: simulation: required table missing" in capsys.readouterr().err


def test_seeds_run_in_parallel_and_compare_prints_both_policies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run(DECLINE, "--days", "0.01", "--seeds", "2", "--compare", "fixed", "--out", tmp_path)
    assert code == 0
    report = orjson.loads((tmp_path / "report.json").read_bytes())
    assert set(report) == {"vitality", "fixed"}
    assert report["vitality"]["lives"] == report["fixed"]["lives"] == 2
    for policy in ("vitality", "fixed"):
        for seed in (1, 2):
            path = tmp_path / policy / f"seed-{seed}" / "summary.json"
            summary = orjson.loads(path.read_bytes())
            assert (summary["policy"], summary["seed"]) == (policy, seed)
    out = capsys.readouterr().out
    assert "vitality-driven" in out and "fixed" in out and "lifespan median" in out


_ORPHAN_SCRIPT = """
import os, time
from golem.simulation.batch import executor

if __name__ == "__main__":
    with executor(workers=1) as client:
        print(*client.run(os.getpid).values(), flush=True)
        time.sleep(120)
"""


def test_a_worker_whose_parent_was_killed_exits(tmp_path: Path) -> None:
    """A batch killed outright (SIGKILL, or SIGTERM with no handler) cannot stop its
    local cluster: each worker process watches its parent and exits when it is gone."""
    script = tmp_path / "orphan.py"
    script.write_text(_ORPHAN_SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}  # this checkout's golem
    # stderr dropped: the killed parent's resource tracker says, rightly, that the
    # cluster's semaphores leaked, and would say it into pytest's output.
    with subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    ) as parent:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        parent.send_signal(signal.SIGKILL)
    deadline = time.monotonic() + 30
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)
    assert not alive, "the orphaned worker is still running"


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"


def test_golem_inspect_reads_a_simulated_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(DECLINE, "--days", SHORT, "--out", tmp_path) == 0
    capsys.readouterr()
    assert main(["inspect", str(tmp_path / "golem.log"), "--summary", "--json"]) == 0
    captured = capsys.readouterr()
    summary = orjson.loads(captured.out)
    assert summary["subsystems"]["heartbeat"]["decisions"] > 100
    assert "malformed" not in captured.err


@pytest.mark.parametrize("name", sorted(path.stem for path in SIMULATIONS.glob("*.toml")))
def test_the_shipped_scenarios_parse(name: str) -> None:
    if "candles" in tomllib.loads((SIMULATIONS / f"{name}.toml").read_text()).get("world", {}):
        event_data(SIMULATIONS / f"{name}.toml")  # a real event's data is shared, not ours
    scenario = load_scenario(SIMULATIONS / f"{name}.toml")
    assert scenario.name == name
    assert scenario.simulation.horizon_days > 0
    header = (SIMULATIONS / f"{name}.toml").read_text().splitlines()[0]
    assert header.startswith(f"# {name}:")


def test_a_tally_counts_decisions_by_tier_source_and_day() -> None:
    start = datetime(2026, 1, 5, tzinfo=UTC)
    tally = Tally(start=start)
    for day, subsystem, tier, source in [
        (1, "heartbeat", 0, "deterministic"),
        (0, "heartbeat", 1, "model"),
        (0, "heartbeat", 0, "deterministic"),
        (0, "daimon", 1, "fallback"),
        (1, "death", 2, "model"),
    ]:
        moment = start + timedelta(days=day, hours=1)
        attempts = 2 if source == "model" else None
        tally(decision(moment, subsystem, tier, source, attempts=attempts))
    assert tally.decisions_by_tier == {"T0": 2, "T1": 2, "T2": 1}
    assert tally.decisions_by_source == {"deterministic": 2, "model": 2, "fallback": 1}
    assert (tally.fallbacks, tally.reasks, tally.death_source) == (1, 2, "model")
    assert list(tally.heartbeat_tiers) == [0, 1]  # days in order
    assert tally.heartbeat_tiers[0] == {"T1": 1, "T0": 1} and tally.heartbeat_tiers[1] == {"T0": 1}


def test_risk_coverage_counts_terminal_assessments_apart() -> None:
    """Terminal asks no model but the death reflection: its risk assessments are the
    rules', counted apart, and coverage is the model's share of the rest."""
    start = datetime(2026, 1, 5, tzinfo=UTC)
    tally = Tally(start=start)
    for phase, source in [
        ("stable", "model"),
        ("stable", "fallback"),
        ("terminal", "deterministic"),
    ]:
        tally(decision(start, "risk", 1, source, phase=phase))
    assert (tally.risk_assessments, tally.risk_by_model, tally.risk_in_terminal) == (3, 1, 1)
    life = {
        "lifespan_days": 1.0, "ended": "died", "cause_of_death": "economic",
        "death_testament_by_model": True, "spend_usd": 1.0,
        "risk_assessments": 3, "risk_by_model": 1, "risk_in_terminal": 1,
        "deaths": 1, "testaments_by_model": 1, "generations": 1,
    }  # fmt: skip
    report = distribution([life, {**life, "risk_by_model": 2}])
    assert report["risk_in_terminal"] == 2
    assert report["risk_coverage"] == 0.75  # 3 of the 4 assessments a model could make
