"""Configs that cannot mean what they say (issue 33, items 13 and 14): a duration past
any clock's range, phase floors out of order, budget shares past the day, an empty
state_dir, a bool where a number goes, a heartbeat faster than a tick's own work. `config
check` and `run` each refuse them: one line naming the key and why, exit 2, nothing made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.user_errors.support import golem, tree

BASE = '[inference]\nt1 = ["synthetic"]\n'  # state_dir: ./state

# (case, the TOML added to BASE, the key the line names, a fragment of why)
CASES = [
    (
        "huge-interval",
        '[heartbeat]\ninterval = "99999999999d"\n',
        "heartbeat.interval",
        "at most 36500d (a century)",
    ),
    ("1ms-heartbeat", '[heartbeat]\ninterval = "1ms"\n', "heartbeat.interval", "at least 100ms"),
    (
        "phases-out-of-order",
        "[mortality.phases]\nthriving = 0.3\nstable = 0.5\n",
        "mortality.phases",
        "thriving > stable > conservation > declining",
    ),
    (
        "shares-800%",
        "[mortality.budgets.lines.risk]\nshare = 7.2\n",
        "mortality.budgets.lines",
        "the shares sum to 800% of the day's budget",
    ),
    ("empty-state-dir", '[golem]\nstate_dir = ""\n', "golem.state_dir", "an empty path"),
    ("seed-true", "[golem]\nseed = true\n", "golem.seed", "takes a number, not true"),
    (
        "bool-failures",
        "[golem]\nmax_consecutive_failures = true\n",
        "golem.max_consecutive_failures",
        "takes a number, not true",
    ),
]


def _config(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "golem.toml"
    path.write_text(BASE + extra)
    return path


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("command", [("config", "check"), ("run", "--for", "1s")], ids=str)
def test_refused_naming_the_key(
    tmp_path: Path, case: tuple[str, str, str, str], command: tuple[str, ...]
) -> None:
    _, extra, key, why = case
    config = _config(tmp_path, extra)
    before = tree(tmp_path)
    line = golem(*command, config, cwd=tmp_path).one_line_error(code=2)
    assert f"{key}: " in line and why in line, (case, line)
    assert tree(tmp_path) == before


@pytest.mark.parametrize("text", ["99999999999d", "P99999999999D"])
def test_a_huge_run_for_is_a_usage_error(tmp_path: Path, text: str) -> None:
    config = _config(tmp_path, "")
    line = golem("run", config, "--for", text, cwd=tmp_path).one_line_error(code=2)
    assert line == f"golem run: --for: a duration must be at most 36500d (a century), got {text!r}"


def test_running_a_scenario_points_at_golem_simulate(tmp_path: Path) -> None:
    """It said "simulation: unknown key", naming no way on (issue 33, item 20)."""
    scenario = Path(__file__).parents[2] / "simulations" / "decline.toml"
    line = golem("run", scenario, cwd=tmp_path).one_line_error(code=2)
    assert line == (
        f"golem run: {scenario} is a simulation scenario (it has a [simulation] table): "
        f"run it with `golem simulate {scenario}`"
    )
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("option", ["--state-dir", "--log-file"])
def test_an_empty_path_option_is_refused(tmp_path: Path, option: str) -> None:
    config = _config(tmp_path, "")
    before = tree(tmp_path)
    line = golem("run", config, option, "", cwd=tmp_path).one_line_error(code=2)
    assert f"argument {option}: an empty path (it would mean the working directory)" in line
    assert tree(tmp_path) == before
