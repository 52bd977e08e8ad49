"""A simulation scenario: a golem config (the schema of configs/golem.toml) plus a
`[simulation]` table saying when the life starts, how long it may last, what income
arrives and when, and whether forecasts go bad, and an optional `[quality]` table (how
often a model's answer is informed by the world's truth: golem.simulation.quality).
Errors are ConfigErrors naming the key (a candle file that is nowhere: with the
`golem data fetch` command that makes it), or WorldDataErrors naming the market data (a
bad row, or data that cannot serve the life).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Self

from pydantic import AwareDatetime, Field, ValidationError, model_validator

from golem.inference.seed import Seed
from golem.runtime.config import SYNTHETIC, ConfigError, GolemConfig, Problem, Section, parse_config
from golem.runtime.markets import find_candles
from golem.simulation.quality import QualityTable
from golem.world import CandleReplay, Candles, CSVReplay, read_candles

__all__ = [
    "IncomeStep",
    "PredictionBias",
    "Scenario",
    "SimulationSection",
    "SuccessionSection",
    "load_scenario",
]


class IncomeStep(Section):
    """From `from_day` (days after the start) on, `usd_per_day` is credited each midnight
    (UTC), until a later step replaces it."""

    from_day: float = Field(ge=0)
    usd_per_day: float = Field(ge=0)


class PredictionBias(Section):
    """Forecasts that go bad: from `from_day` on, every forecast is off by `per_day` (a
    fraction of the price) more each day, up to `max`."""

    from_day: float = Field(default=0.0, ge=0)
    per_day: float = Field(gt=0, le=1)
    max: float = Field(default=0.2, gt=0, le=1)

    def at(self, days: float) -> float:
        return min(self.max, max(0.0, days - self.from_day) * self.per_day)


class SuccessionSection(Section):
    """The lineage (the Bardo design's succession): a golem that dies with at least
    `min_credits_usd` of its money left is followed, at once, by a successor funded with
    what is left and born with its testament's lessons at `inherited_confidence` per
    generation, until the money is spent or the horizon ends. `enabled = false`: one life."""

    enabled: bool = True
    inherited_confidence: float = Field(default=0.85, gt=0, le=1)
    min_credits_usd: float = Field(default=0.10, ge=0)


class SimulationSection(Section):
    start: AwareDatetime
    horizon_days: float = Field(gt=0, le=3650)
    seed: Seed = 1  # the default of --seed
    income: tuple[IncomeStep, ...] = ()  # default: [mortality] income_usd_per_day from day 0
    prediction_bias: PredictionBias | None = None
    succession: SuccessionSection = SuccessionSection()
    # Live quiet stretches of heartbeats in bulk, with the same answers (runtime/
    # fast_forward.py); false: one tick at a time, the reference (`golem simulate --step`).
    fast_forward: bool = True

    @model_validator(mode="after")
    def _steps_in_order(self) -> Self:
        days = [step.from_day for step in self.income]
        if days != sorted(set(days)):
            raise ValueError("income steps must have increasing from_day")
        return self

    def income_on(self, days: float, default: float) -> float:
        """USD a day credited `days` after the start."""
        if not self.income:
            return default
        amount = 0.0
        for step in self.income:
            if step.from_day <= days:
                amount = step.usd_per_day
        return amount


_DEFAULT_QUALITY = QualityTable()
_SYNTHETIC_ONLY = "a simulation runs on 'synthetic' (a real model: golem simulate --provider)"


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    path: Path
    config: GolemConfig
    simulation: SimulationSection
    replay: CSVReplay | None = None  # the recorded market ([world] source = "csv"), checked
    quality: QualityTable = _DEFAULT_QUALITY
    candles: Candles | None = None  # real candles ([world] source = "candles"), checked

    @property
    def start(self) -> datetime:
        return self.simulation.start

    def horizon(self, days: float | None = None) -> timedelta:
        cap = self.simulation.horizon_days if days is None else days
        return timedelta(days=min(cap, self.simulation.horizon_days))


def load_scenario(
    path: Path | str, overrides: Mapping[str, Any] | None = None, *, real_model: bool = False
) -> Scenario:
    """Read and check a scenario file, with `overrides` (dotted key -> TOML value, as
    `golem simulate --set` gives them) set in it first. Raises ConfigError naming the file
    and the key. A scenario runs on the synthetic provider unless `real_model`
    (`golem simulate --provider`)."""
    path = Path(path)
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(path, [Problem("", "no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, [Problem("", f"cannot read: {exc}")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [Problem("", f"invalid TOML: {exc}")]) from None
    for key, value in (overrides or {}).items():
        _set(data, key, value, path)
    table = data.pop("simulation", None)
    if not isinstance(table, dict):
        raise ConfigError(path, [Problem("simulation", "required table missing")])
    try:
        simulation = SimulationSection.model_validate(table)
    except ValidationError as exc:
        raise ConfigError(path, [_problem(e, "simulation") for e in exc.errors()]) from None
    quality_table = data.pop("quality", {})
    if not isinstance(quality_table, dict):
        raise ConfigError(path, [Problem("quality", "must be a table")])
    try:
        quality = QualityTable.of(quality_table)
    except ValidationError as exc:
        raise ConfigError(path, [_problem(e, "quality") for e in exc.errors()]) from None
    config = parse_config(data, path, os.environ if real_model else {})
    problems = [
        Problem(f"{config.inference.chain_key(tier)}[{i}]", _SYNTHETIC_ONLY)
        for tier in ("t1", "t2", "death")
        for i, entry in enumerate(config.inference.chain(tier))
        if entry.provider != SYNTHETIC and not real_model
    ]
    verifier = config.subsystems.risk.verifier()
    if verifier is not None and verifier.provider != SYNTHETIC and not real_model:
        problems.append(Problem("subsystems.risk.verify_with", _SYNTHETIC_ONLY))
    if problems:
        raise ConfigError(path, list(dict.fromkeys(problems)))
    replay = None
    if config.world.csv is not None:  # only with source = "csv" (the config checks it)
        replay = CSVReplay(config.world.csv)
        start = simulation.start
        replay.check_serves(start, start + timedelta(days=simulation.horizon_days))
    candles = None
    if config.world.source == "candles":
        start, end = simulation.start, simulation.start + timedelta(days=simulation.horizon_days)
        candles = read_candles(find_candles(config, os.environ, start, end))
        CandleReplay(candles, config.heartbeat.interval).check_serves(start, end)
    return Scenario(path.stem, path, config, simulation, replay, quality, candles)


def _set(data: dict[str, Any], key: str, value: Any, path: Path) -> None:
    """Set the dotted `key` (`mortality.daily_budget_usd`) in the TOML tables `data`,
    making the tables on the way that the file leaves out."""
    *tables, name = key.split(".")
    for depth, part in enumerate(tables):
        inner = data.setdefault(part, {})
        if not isinstance(inner, dict):
            where = ".".join(tables[: depth + 1])
            raise ConfigError(path, [Problem(key, f"{where} is not a table")])
        data = inner
    data[name] = value


def _problem(error: Mapping[str, Any], table: str) -> Problem:
    key = table + "".join(
        f"[{part}]" if isinstance(part, int) else f".{part}" for part in error["loc"]
    )
    if error["type"] == "extra_forbidden":
        return Problem(key, "unknown key")
    if error["type"] == "missing":
        return Problem(key, "required key missing")
    return Problem(key, str(error["msg"]).removeprefix("Value error, "))
