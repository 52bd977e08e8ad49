"""`golem simulate --set KEY=V1,V2`: the grid of a sweep, its values read as TOML, and a
setting the scenario's models refuse stopped before anything runs (one line naming the
key and value, exit 2, nothing created); the results table's columns and types."""

from __future__ import annotations

from pathlib import Path

import pytest

from golem.cli import main
from golem.cli.simulate_batch import Batch, _check_resumable
from golem.mortality import PolicyName
from golem.simulation.results import read_rows, row, write_rows
from golem.simulation.scenario import load_scenario
from golem.simulation.sweep import grid, parse_setting, point_name

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"


def test_the_grid_is_every_combination_the_first_setting_slowest() -> None:
    budget = parse_setting("mortality.daily_budget_usd=0.5,1")
    theta = parse_setting("heartbeat.theta_base = 0.1, 0.2 ,0.3")
    points = grid([budget, theta])
    assert len(points) == 6
    assert points[0] == (("mortality.daily_budget_usd", 0.5), ("heartbeat.theta_base", 0.1))
    assert points[3] == (("mortality.daily_budget_usd", 1), ("heartbeat.theta_base", 0.1))
    assert point_name(points[5]) == "mortality.daily_budget_usd=1,heartbeat.theta_base=0.3"
    assert grid([]) == [()]


def test_values_are_toml_scalars_and_a_bare_word_is_a_string() -> None:
    assert parse_setting('k.x=1,2.5,true,"a b",15s').values == (1, 2.5, True, "a b", "15s")


def test_a_set_value_reaches_the_scenario_it_is_read_into() -> None:
    scenario = load_scenario(
        DECLINE, {"mortality.daily_budget_usd": 2.5, "heartbeat.interval": "1m"}
    )
    assert scenario.config.mortality.daily_budget_usd == 2.5
    assert scenario.config.heartbeat.interval.total_seconds() == 60
    assert load_scenario(DECLINE).config.mortality.daily_budget_usd == 1.0


BAD = [
    ("mortality.daily_budget_usdd=1", "--set: mortality.daily_budget_usdd=1: unknown key"),
    ("nosuch.key=1", "--set: nosuch.key=1: nosuch: unknown key"),
    ("mortality.daily_budget_usd=1,-1", "--set: mortality.daily_budget_usd=-1: must be > 0"),
    ("heartbeat.theta_base=abc", "--set: heartbeat.theta_base=abc: Input should be a valid"),
    ("mortality.daily_budget_usd.x=1", "mortality.daily_budget_usd is not a table"),
    ("mortality.policy=fixed", "--set: mortality.policy: not swept with --set: use --compare"),
    ("world.seed=1,2", "--set: world.seed: not swept with --set: use --seed/--seeds"),
    ("mortality.daily_budget_usd", "expected KEY=VALUE[,VALUE...]"),
    ("mortality.daily_budget_usd=1,,2", "give each value"),
    ("mortality.daily_budget_usd=1,1", "a value is given twice"),
    ("mortality.daily_budget_usd=[1]", "a single TOML value, not a table"),
]


@pytest.mark.parametrize(("setting", "said"), BAD, ids=[s for s, _ in BAD])
def test_a_bad_setting_is_one_line_exit_2_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, said: str
) -> None:
    out = tmp_path / "out"
    code = main(["simulate", str(DECLINE), "--seeds", "2", "--set", setting, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("golem simulate: --set"), err
    assert said in lines[0], err
    assert not out.exists()


def test_a_key_set_twice_and_a_combination_the_models_refuse_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", str(DECLINE), "--out", str(tmp_path / "o")]
    twice = ["--set", "heartbeat.theta_base=0.1", "--set", "heartbeat.theta_base=0.2"]
    assert main([*args, *twice]) == 2
    assert "heartbeat.theta_base: set twice" in capsys.readouterr().err
    # Each value alone is valid beside decline's theta_base of 0.12; together they are not.
    both = ["--set", "heartbeat.theta_base=0.5", "--set", "heartbeat.theta_max=0.9,0.4"]
    assert main([*args, *both]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "golem simulate: --set: heartbeat.theta_base=0.5,heartbeat.theta_max=0.4: heartbeat: need"
    ), err


def test_batch_options_are_refused_for_one_life(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", str(DECLINE), "--out", str(tmp_path / "o")]
    assert main([*args, "--resume"]) == 2
    assert "--resume: only for a batch" in capsys.readouterr().err
    assert main([*args, "--seeds", "2", "--jobs", "2", "--scheduler", "tcp://h:8786"]) == 2
    assert "--jobs: sizes the local cluster" in capsys.readouterr().err


def test_the_table_has_the_life_its_settings_and_every_scalar_figure(tmp_path: Path) -> None:
    summary = {"lifespan_days": 1.5, "generations": 1, "final": {"vitality": 0.9}, "lineage": []}
    rows = [
        row(
            "a/vitality/seed-1",
            scenario="s",
            point=(("mortality.daily_budget_usd", 1),),
            policy="vitality",
            seed=1,
            summary=summary,
        ),
        row(
            "b/vitality/seed-1",
            scenario="s",
            point=(("mortality.daily_budget_usd", 0.5),),
            policy="vitality",
            seed=1,
            summary=None,
            error="ValueError: boom",
        ),
    ]
    write_rows(tmp_path, rows, ["mortality.daily_budget_usd"])
    header = (tmp_path / "results.csv").read_text().splitlines()[0].split(",")
    assert header == [
        "life",
        "scenario",
        "mortality.daily_budget_usd",
        "policy",
        "seed",
        "error",
        "final.vitality",
        "generations",
        "lifespan_days",
    ]
    back = read_rows(tmp_path)
    assert back[0]["mortality.daily_budget_usd"] == 1.0  # a column of one type: float
    assert back[0]["final.vitality"] == 0.9 and "error" not in back[0]
    assert back[1]["error"] == "ValueError: boom" and "lifespan_days" not in back[1]


def _made(out: Path, horizon_days: float, *, seed: int = 1, scenario: str = "decline") -> None:
    """results.parquet as a batch of one life of `decline` would leave it."""
    summary = {"horizon_days": horizon_days, "lifespan_days": horizon_days, "lineage": []}
    life = row(
        f"vitality/seed-{seed}",
        scenario=scenario,
        point=(),
        policy="vitality",
        seed=seed,
        summary=summary,
    )
    write_rows(out, [life], [])


@pytest.mark.parametrize(
    ("made", "args", "refusal"),
    [
        (
            {"horizon_days": 20.0},
            ["--days", "2"],
            "were made with a horizon of 20 days, this batch's is 2 (--days)",
        ),
        ({"horizon_days": 2.0}, [], "were made with a horizon of 2 days, this batch's is 60"),
        (
            {"horizon_days": 2.0, "seed": 7},
            ["--days", "2"],
            "hold life vitality/seed-7, which this batch does not have (another --seed, --seeds",
        ),
        (
            {"horizon_days": 2.0, "scenario": "whipsaw"},
            ["--days", "2"],
            "are of scenario 'whipsaw', not 'decline'",
        ),
    ],
)
def test_resume_refuses_rows_made_with_other_options_naming_the_option(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    made: dict[str, object],
    args: list[str],
    refusal: str,
) -> None:
    out = tmp_path / "o"
    _made(out, **made)  # type: ignore[arg-type]
    before = (out / "results.parquet").read_bytes()
    code = main(["simulate", str(DECLINE), "--seeds", "1", "--out", str(out), "--resume", *args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"golem simulate: --resume: the rows in {out / 'results.parquet'} {refusal}" in err
    assert (out / "results.parquet").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.parquet"]


def test_resume_keeps_rows_made_with_the_same_horizon_however_it_was_asked(
    tmp_path: Path,
) -> None:
    scenario = load_scenario(DECLINE)
    for days, made in ((None, 60.0), (2.0, 2.0), (90.0, 60.0)):  # --days beyond 60 is 60
        batch = Batch(scenario, [()], [PolicyName.VITALITY], range(1, 2), tmp_path, days, False)
        _made(tmp_path, made)
        _check_resumable(batch, batch.lives(), read_rows(tmp_path))
