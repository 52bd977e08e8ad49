"""Seeds out of range (beyond 64 bits, or negative), in every place golem reads one:
exit 2, one line naming the key or option, no traceback, nothing created."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.user_errors.support import golem, tree

HUGE = 2**70
LARGEST = 2**63 - 1

# Keyless and quick: the synthetic provider, not the embedded model.
CONFIG = """\
[golem]
id = "seeded"
state_dir = "state"
{golem}

[inference]
t1 = ["synthetic"]

[providers.synthetic]
{synthetic}

[providers.local]
{local}

[mortality]
{mortality}

[world]
{world}
"""

SCENARIO = """\
[simulation]
start = 2026-01-05T00:00:00Z
horizon_days = 1
{simulation}

[golem]
id = "seeded"

[inference]
t1 = ["synthetic"]
"""


def _config(tmp_path: Path, **seeds: int) -> Path:
    tables = {"golem": "", "synthetic": "", "local": "", "mortality": "", "world": ""}
    tables.update({table: f"seed = {seed}" for table, seed in seeds.items()})
    path = tmp_path / "golem.toml"
    path.write_text(CONFIG.format(**tables))
    return path


def _scenario(tmp_path: Path, seed: int | None = None) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO.format(simulation="" if seed is None else f"seed = {seed}"))
    return path


@dataclass(frozen=True)
class Case:
    name: str
    table: str  # the table given `seed` ("simulation": a scenario's)
    seed: int
    command: tuple[str, ...]
    args: tuple[str, ...]  # after the file
    fragment: str  # the one line names it


def _check(table: str, seed: int = HUGE) -> Case:
    key = f"providers.{table}.seed" if table in ("synthetic", "local") else f"{table}.seed"
    return Case(f"config check {key}={seed}", table, seed, ("config", "check"), (), key)


CASES = [
    *(_check(table) for table in ("golem", "world", "mortality", "synthetic", "local")),
    _check("golem", -1),
    Case("run", "golem", HUGE, ("run",), ("--for", "1s"), "golem.seed"),
    Case("simulation.seed", "simulation", HUGE, ("simulate",), (), "simulation.seed"),
    Case("--seed", "simulation", 1, ("simulate",), ("--seed", str(HUGE)), "--seed"),
    Case("--seed negative", "simulation", 1, ("simulate",), ("--seed", "-3"), "--seed"),
    Case(
        "--seeds past the last seed",
        "simulation",
        1,
        ("simulate",),
        ("--seed", str(LARGEST - 1), "--seeds", "3"),
        "--seeds",
    ),
    Case(
        "--seeds from the scenario's",
        "simulation",
        LARGEST,
        ("simulate",),
        ("--seeds", "2"),
        "--seeds",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_seed_out_of_range_is_one_line_naming_it(tmp_path: Path, case: Case) -> None:
    if case.table == "simulation":
        path = _scenario(tmp_path, case.seed)
    else:
        path = _config(tmp_path, **{case.table: case.seed})
    before = tree(tmp_path)
    args = case.args
    if case.command == ("simulate",):
        args = (*args, "--out", str(tmp_path / "out"))
    line = golem(*case.command, path, *args, cwd=tmp_path).one_line_error()
    assert case.fragment in line and "from 0 to 2**63 - 1" in line, line
    assert tree(tmp_path) == before
