"""`golem simulate --compare A,B,C`: the scenario's policy first (the reference), every
named policy's lineages, every outcome dimension for each with a verdict against the
reference, printed and written as compare.csv beside report.json; a policy it does not
know is one line naming it, exit 2."""

from __future__ import annotations

import csv
from pathlib import Path

import orjson
import pytest

from golem.cli import main
from golem.simulation.compare import COLUMNS, DIMENSIONS, Comparison, Dimension, compare

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"


def run(*args: str | Path) -> int:
    return main(["simulate", *(str(a) for a in args)])


def test_compare_runs_every_policy_and_writes_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ("--days", "0.02", "--seeds", "2", "--out", out)
    assert run(DECLINE, *args, "--compare", "fixed, immortal,rules,fixed") == 0
    report = orjson.loads((out / "report.json").read_bytes())
    assert set(report) == {"vitality", "fixed", "immortal", "rules"}
    assert all(report[p]["lives"] == 2 for p in report)
    with (out / "compare.csv").open(newline="") as file:
        reader = csv.DictReader(file)
        assert tuple(reader.fieldnames or ()) == COLUMNS
        rows = list(reader)
    assert len(rows) == 4 * len(DIMENSIONS)
    assert [r["policy"] for r in rows[:4]] == ["vitality", "fixed", "immortal", "rules"]
    assert {r["dimension"] for r in rows} == {d.key for d in DIMENSIONS}
    assert {r["reference"] for r in rows} == {"vitality"}
    for row in rows:
        if row["policy"] == "vitality":
            assert (row["verdict"], row["p_value"]) == ("reference", "")
        elif row["lives"] != "0":
            assert row["verdict"] in {"better", "worse", "higher", "lower", "no difference"}
            assert 0.0 <= float(row["p_value"]) <= 1.0 and row["test"] == "exact"
    spend = {r["policy"]: r for r in rows if r["dimension"] == "spend_usd"}
    assert float(spend["rules"]["median"]) == 0.0 < float(spend["vitality"]["median"])
    for policy in ("immortal", "rules"):
        assert (out / policy / "seed-1" / "summary.json").is_file()
    printed = capsys.readouterr().out
    for text in ("vitality-driven", "(reference)", "fixed budget", "immortal", "rules only"):
        assert text in printed
    assert "Mann–Whitney U" in printed and "compare.csv" in printed


def test_the_scenarios_policy_is_the_reference(tmp_path: Path) -> None:
    text = DECLINE.read_text().replace("[mortality]\n", '[mortality]\npolicy = "rules"\n', 1)
    scenario = tmp_path / "rules.toml"
    scenario.write_text(text)
    out = tmp_path / "out"
    assert run(scenario, "--days", "0.01", "--out", out, "--compare", "vitality") == 0
    with (out / "compare.csv").open(newline="") as file:
        rows = list(csv.DictReader(file))
    assert [r["policy"] for r in rows[:2]] == ["rules", "vitality"]
    assert rows[0]["verdict"] == "reference" and rows[0]["reference"] == "rules"


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("fixed,eternal", "unknown policy 'eternal' (known: vitality, fixed, immortal, rules)"),
        ("Fixed", "unknown policy 'Fixed'"),
        (",", "name at least one policy"),
    ],
)
def test_an_unknown_policy_exits_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, fragment: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(DECLINE, "--days", "0.01", "--out", tmp_path / "out", "--compare", value)
    assert exited.value.code == 2
    assert f"argument --compare: {fragment}" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_unknown_scenario_policy_exits_2_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    text = DECLINE.read_text()
    bad.write_text(text.replace("[mortality]\n", '[mortality]\npolicy = "eternal"\n'))
    assert run(bad, "--out", tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert "bad.toml: mortality.policy:" in err and "'immortal'" in err


def life(policy: str, **values: float | None) -> dict[str, object]:
    return {"policy": policy, **values}


def test_verdicts_follow_the_better_direction() -> None:
    lives = {
        "vitality": [life("vitality", sharpe=s, terminal_days=1.0) for s in (1.0, 1.1, 1.2, 1.3)],
        "fixed": [life("fixed", sharpe=s, terminal_days=2.0) for s in (0.1, 0.2, 0.3, 0.4)],
        "rules": [life("rules", sharpe=None, terminal_days=1.0) for _ in range(4)],
    }
    rows = {(r.dimension.key, r.policy): r for r in compare(lives, "vitality")}
    assert rows["sharpe", "fixed"].verdict == "worse"  # lower, and higher is better
    assert rows["sharpe", "fixed"].p_value == pytest.approx(2 / 70, abs=1e-6)
    assert rows["terminal_days", "fixed"].verdict == "worse"  # higher, and lower is better
    assert rows["sharpe", "rules"].verdict == "no data" and rows["sharpe", "rules"].lives == 0
    assert rows["terminal_days", "rules"].verdict == "no difference"
    assert (rows["sharpe", "vitality"].q1, rows["sharpe", "vitality"].q3) == (1.075, 1.225)
    generations = rows["generations", "fixed"]
    assert generations.median is None and generations.verdict == "no data"


def test_a_dimension_without_a_better_direction_says_higher_or_lower() -> None:
    row = Comparison(Dimension("spend_usd", "spend", None), "fixed", "vitality", 4, 1, 1, 1)
    lives = {
        "vitality": [life("vitality", spend_usd=v) for v in (1.0, 2.0, 3.0, 4.0)],
        "fixed": [life("fixed", spend_usd=v) for v in (5.0, 6.0, 7.0, 8.0)],
    }
    rows = {(r.dimension.key, r.policy): r for r in compare(lives, "vitality")}
    assert rows["spend_usd", "fixed"].verdict == "higher"
    assert row.row()["better"] == ""


def test_a_tiny_p_value_is_kept_to_significant_digits_not_rounded_to_zero() -> None:
    lives = {
        "vitality": [life("vitality", sharpe=1.0 + i / 100) for i in range(20)],
        "fixed": [life("fixed", sharpe=-1.0 - i / 100) for i in range(20)],
    }
    rows = {(r.dimension.key, r.policy): r for r in compare(lives, "vitality")}
    p = rows["sharpe", "fixed"].p_value
    assert p is not None and 0 < p < 1e-10  # 2 / C(40, 20), about 1.45e-11
    assert p == pytest.approx(2 / 137846528820, rel=1e-5)
