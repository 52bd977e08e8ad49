"""Every scenario's header tells a user what to run: each `golem ...` command shown there
runs (exit 0), in order, in a fresh directory, and every file the header names exists
afterwards. To stay fast, a `golem simulate` command's horizon is capped at `_DAYS` and its
`--seeds` at `_SEEDS`; the commands are otherwise run as written."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import tomllib
from pathlib import Path

import pytest

from golem.world import market_data_dirs, resolve_candles
from tests.user_errors.support import golem

SIMULATIONS = Path(__file__).resolve().parents[1] / "simulations"
_DAYS = "0.05"
_SEEDS = 2
_FILE = re.compile(r"[\w./-]+\.(?:toml|json|jsonl|log|csv|png|md)\b")


def header(scenario: Path) -> str:
    """The comment lines the file opens with, without their `#`."""
    lines = []
    for line in scenario.read_text().splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.removeprefix("#"))
    return "\n".join(lines)


def commands(text: str) -> list[list[str]]:
    return [shlex.split(line)[1:] for line in text.splitlines() if line.split()[:1] == ["golem"]]


def capped(args: list[str]) -> list[str]:
    """`args` of a `golem simulate` with a short horizon and at most `_SEEDS` seeds."""
    if args[:1] != ["simulate"]:
        return args
    out = list(args)
    for flag, value in (("--days", _DAYS), ("--seeds", str(_SEEDS))):
        if flag in out:
            at = out.index(flag) + 1
            out[at] = value if flag == "--days" else str(min(int(out[at]), _SEEDS))
        elif flag == "--days":
            out += [flag, value]
    return out


SCENARIOS = sorted(SIMULATIONS.glob("*.toml"))


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 6


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_commands_in_a_scenario_header_run_and_make_the_files_it_names(
    tmp_path: Path, scenario: Path
) -> None:
    candles = tomllib.loads(scenario.read_text()).get("world", {}).get("candles")
    if candles and resolve_candles(Path(candles), market_data_dirs(os.environ)) is None:
        pytest.skip(f"{candles} absent (the shared real market data)")
    text = header(scenario)
    shown = commands(text)
    assert shown, f"{scenario.name}: its header shows no `golem ...` command"
    shutil.copytree(SIMULATIONS, tmp_path / "simulations")
    for args in shown:
        ran = golem(*capped(args), cwd=tmp_path)
        # `golem inspect` exits 1 when no event matches, as grep does; on a capped horizon
        # the events a filter looks for may not have happened yet.
        quiet = args[0] == "inspect" and ran.code == 1 and "no event in" in ran.err
        assert ran.code == 0 or quiet, (args, ran.err)
        assert "Traceback" not in ran.err, ran.err
    everything = {p.name for p in tmp_path.rglob("*")}
    for named in _FILE.findall(text):
        if "/" in named:
            assert (tmp_path / named).exists(), f"{scenario.name}: names {named}"
        else:
            assert Path(named).name in everything, f"{scenario.name}: names {named}"
