"""Market data a life cannot use, for `golem run`, `golem simulate` and `golem config
check`: one line naming the file (and the line and column of a bad cell, or both ranges
of data that cannot serve the life), exit 2, no traceback, nothing created."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.user_errors.support import golem, tree

CONFIG = """
[golem]
id = "g-data"
state_dir = "state"

[inference]
t1 = ["synthetic"]

[logging]
console = "off"

[world]
source = "csv"
csv = "market.csv"
"""
SCENARIO = "[simulation]\nstart = 2026-01-05T00:00:00Z\nhorizon_days = 1\n" + CONFIG


def rows(first: str, count: int = 3, header: str = "time,price,volume") -> str:
    start = datetime.fromisoformat(first)
    times = (start + timedelta(minutes=i) for i in range(count))
    return header + "\n" + "".join(f"{t.isoformat()},3000,10\n" for t in times)


# What market.csv holds (None: no such file), and what the one line must say.
CSVS: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "starts-after-the-life": (
        rows("2099-01-01T00:00:00+00:00"),
        ("market.csv", "2099-01-01T00:00:00+00:00 to 2099-01-01T00:02:00+00:00", "starts after"),
    ),
    "ends-before-the-life": (
        rows("2020-01-01T00:00:00+00:00"),
        ("market.csv", "2020-01-01T00:00:00+00:00 to 2020-01-01T00:02:00+00:00", "ends before"),
    ),
    "bad-cell": (
        "time,price,volume\n2026-01-05T00:00:00Z,3000,10\n2026-01-05T00:01:00Z,abc,10\n",
        ("market.csv:3, column price", "not a number: 'abc'"),
    ),
    "missing-column": (
        "time,price\n2026-01-05T00:00:00Z,3000\n",
        ("market.csv:1, column volume", "missing required column"),
    ),
    "missing-file": (None, ("world.csv", "no such file: market.csv")),
}

Command = Callable[[Path], tuple[str, ...]]
COMMANDS: dict[str, Command] = {
    "run": lambda tmp: ("run", tmp / "golem.toml", "--for", "5s"),
    "simulate": lambda tmp: ("simulate", tmp / "scenario.toml", "--out", tmp / "out"),
    "config-check": lambda tmp: ("config", "check", tmp / "golem.toml"),
    "config-check-scenario": lambda tmp: ("config", "check", tmp / "scenario.toml"),
}
# What the life's range says: now for a config (a year the test cannot know), the
# scenario's start for a scenario.
LIFE = {"simulate": "2026-01-05T00:00:00+00:00", "config-check-scenario": "2026-01-05T00:00"}


CASES = [(command, case) for command in ("run", "simulate", "config-check") for case in CSVS]
CASES.append(("config-check-scenario", "starts-after-the-life"))


@pytest.mark.parametrize(("command", "case"), CASES, ids=[f"{c}-{k}" for c, k in CASES])
def test_market_data_a_life_cannot_use(tmp_path: Path, command: str, case: str) -> None:
    text, fragments = CSVS[case]
    (tmp_path / "golem.toml").write_text(CONFIG)
    (tmp_path / "scenario.toml").write_text(SCENARIO)
    if text is not None:
        (tmp_path / "market.csv").write_text(text)
    before = tree(tmp_path)

    line = golem(*COMMANDS[command](tmp_path), cwd=tmp_path).one_line_error(2)

    for fragment in fragments:
        assert fragment in line
    if case in {"starts-after-the-life", "ends-before-the-life"} and command in LIFE:
        assert f"the life from {LIFE[command]}" in line
    assert tree(tmp_path) == before
