"""A parameter sweep (`golem simulate --set KEY=V1,V2,...`): each setting a dotted key of
the scenario's TOML with the values it takes, the grid their every combination (a
`Point`), checked against the scenario's own models before any life runs.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from golem.runtime.config import ConfigError, Problem
from golem.simulation.scenario import load_scenario

__all__ = ["SET_OPTION", "Point", "Setting", "check_grid", "grid", "parse_setting", "point_name"]

SET_OPTION = "--set"  # where a bad setting is said to come from: "--set: KEY=VALUE: ..."

Point = tuple[tuple[str, Any], ...]  # (dotted key, value) per setting, in the order given

# Keys every life sets itself (its seed, policy and out directory): swept, they would be
# overwritten without a word, so a sweep names the option that varies them instead.
_OWN_KEYS = {
    "simulation.seed": "use --seed/--seeds",
    "golem.seed": "use --seed/--seeds",
    "world.seed": "use --seed/--seeds",
    "mortality.seed": "use --seed/--seeds",
    "providers.synthetic.seed": "use --seed/--seeds",
    "mortality.policy": "use --compare",
    "golem.state_dir": "each life's state is under --out",
    "logging.file": "each life's log is under --out",
    "logging.console": "a simulated life logs to its file only",
}


@dataclass(frozen=True, slots=True)
class Setting:
    """`KEY=V1,V2`: the key and its values, parsed as TOML scalars (`0.5`, `true`,
    `"text"`); a bare word that is not TOML (`15s`, `fixed`) is taken as a string."""

    key: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]  # the values as the user wrote them (for names and errors)


def parse_setting(text: str) -> Setting:
    """Parse `KEY=V1,V2,...`. Raises ConfigError (from `--set`) naming what is wrong."""
    key, sep, rest = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise _error(text, "expected KEY=VALUE[,VALUE...]")
    if any(not part.strip() for part in key.split(".")):
        raise _error(text, "a key is dotted names, e.g. mortality.daily_budget_usd")
    texts = tuple(part.strip() for part in rest.split(","))
    if not any(texts) or not all(texts):
        raise _error(text, "give each value (e.g. KEY=0.5,1,2)")
    if len(set(texts)) != len(texts):
        raise _error(text, "a value is given twice")
    refused = _OWN_KEYS.get(key)
    if refused is not None:
        raise _error(key, f"not swept with --set: {refused}")
    return Setting(key, tuple(_scalar(key, value) for value in texts), texts)


def grid(settings: Sequence[Setting]) -> list[Point]:
    """Every combination of the settings' values, the first setting varying slowest; one
    empty point without settings."""
    return [
        tuple(zip((s.key for s in settings), values, strict=True))
        for values in itertools.product(*(s.values for s in settings))
    ]


def check_grid(scenario: Path, settings: Sequence[Setting]) -> list[Point]:
    """The grid, each value and then each combination checked by reading the scenario
    with it. Raises ConfigError (from `--set`) naming the key and value the scenario's
    models refuse (an unknown key, a value out of range)."""
    seen: set[str] = set()
    for setting in settings:
        if setting.key in seen:
            raise _error(setting.key, "set twice; give every value in one --set")
        seen.add(setting.key)
        for value, text in zip(setting.values, setting.texts, strict=True):
            _check(scenario, ((setting.key, value),), f"{setting.key}={text}")
    points = grid(settings)
    if len(settings) > 1:  # a combination can break a rule between keys
        for point in points:
            _check(scenario, point, point_name(point))
    return points


def point_name(point: Point) -> str:
    """`mortality.daily_budget_usd=0.5,heartbeat.theta_base=0.1`: a point's directory
    under --out and its label ("" without settings)."""
    return ",".join(f"{key}={_text(value)}" for key, value in point).replace("/", "_")


def _check(scenario: Path, point: Point, label: str) -> None:
    try:
        load_scenario(scenario, dict(point))
    except ConfigError as exc:
        keys = {key for key, _ in point}
        named = [p for p in exc.problems if p.key in keys or p.key.startswith(tuple(keys))]
        problem = (named or list(exc.problems))[0]
        said = problem.message if problem.key in keys else f"{problem.key}: {problem.message}"
        raise _error(label, said.removeprefix(": ")) from None


def _scalar(key: str, text: str) -> Any:
    try:
        value = tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text
    if isinstance(value, dict | list):
        raise _error(f"{key}={text}", "a swept value is a single TOML value, not a table")
    return value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _error(where: str, message: str) -> ConfigError:
    return ConfigError(SET_OPTION, [Problem(where, message)])
