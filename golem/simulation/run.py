"""`golem simulate`: one golem's life on a virtual clock, through the daemon's own pieces
(`assemble`, `Life.run`, the state store, the decision log) with the synthetic provider
and a simulated market; the result is summary.json, the log, and the data for the plots.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

import orjson
import trio

from golem.mortality import utc_day
from golem.runtime import (
    Job,
    Life,
    LifeOptions,
    ProviderPool,
    VirtualClock,
    assemble,
    build_routes,
    every,
)
from golem.runtime.config import GolemConfig
from golem.runtime.logs import configure_logging
from golem.runtime.store import StateStore
from golem.simulation.outcomes import Outcomes
from golem.simulation.scenario import Scenario, load_scenario
from golem.simulation.tally import Tally

__all__ = ["LifeResult", "LifeSpec", "Policy", "live", "run_life"]

Policy = Literal["vitality", "fixed"]
_DAY = timedelta(days=1)
_COMMIT_EVERY = 2_000  # ticks per commit: the simulator's state is never resumed


@dataclass(frozen=True, slots=True)
class LifeSpec:
    """One life to simulate (picklable, for a worker process)."""

    scenario: Path
    seed: int
    out: Path
    days: float | None = None
    policy: Policy = "vitality"
    # Keep the full record: out/golem.log and out/state/golem.db (a 30-day life's are some
    # 150 and 30 MB); without it a life leaves its summary.json and testament only.
    record: bool = True


@dataclass(frozen=True, slots=True)
class LifeResult:
    summary: dict[str, Any]
    tally: Tally
    daily_spend: dict[int, dict[str, float]]  # day since start -> subsystem -> USD
    outcomes: Outcomes


def run_life(spec: LifeSpec, on_tick: Callable[[float], None] | None = None) -> LifeResult:
    """Live `spec` to its end and write out/summary.json (and, if `spec.record`, keep
    out/golem.log and the state database).
    summary.json is written last and whole (renamed into place), so it is there only for a
    life that finished: an interrupted life leaves its log and state as they were."""
    return trio.run(live, load_scenario(spec.scenario), spec, on_tick)


def seeded(config: GolemConfig, seed: int, out: Path) -> GolemConfig:
    """The scenario's config for `seed`, its state and log under `out`."""
    providers = config.providers.model_copy(
        update={"synthetic": config.providers.synthetic.model_copy(update={"seed": seed})}
    )
    return config.model_copy(
        update={
            "golem": config.golem.model_copy(update={"seed": seed, "state_dir": out / "state"}),
            "world": config.world.model_copy(update={"seed": seed}),
            "mortality": config.mortality.model_copy(update={"seed": seed}),
            "providers": providers,
            "logging": config.logging.model_copy(
                update={"file": out / "golem.log", "console": "off"}
            ),
        }
    )


async def live(
    scenario: Scenario, spec: LifeSpec, on_tick: Callable[[float], None] | None = None
) -> LifeResult:
    sim = scenario.simulation
    out = spec.out
    out.mkdir(parents=True, exist_ok=True)
    for name in ("summary.json", "golem.log"):
        (out / name).unlink(missing_ok=True)
    for stale in (out / "state").glob("golem.db*"):
        stale.unlink()
    config = seeded(scenario.config, spec.seed, out)
    default_income = config.mortality.income_usd_per_day
    clock = VirtualClock(sim.start)
    tally = Tally(sim.start, on_tick)
    outcomes = Outcomes(sim.start)
    bias = sim.prediction_bias
    options = LifeOptions(
        resumable=False,
        mortal=spec.policy != "fixed",
        forecast_bias=None if bias is None else lambda now: bias.at(_days(now - sim.start)),
        quality=scenario.quality.accuracy(),
    )
    with (
        StateStore.open(
            config.golem.state_dir, synchronous="OFF", commit_every=_COMMIT_EVERY
        ) as store,
        configure_logging(
            now=clock.now,
            file=config.log_file if spec.record else None,
            console="off",
            buffered=True,
        ) as sinks,
    ):
        routes = build_routes(ProviderPool(config, {}))
        life, _ = assemble(
            config,
            clock=clock,
            store=store,
            routes=routes,
            options=options,
            market=scenario.replay,
            subscribers=[sinks.publish, tally, outcomes],
        )

        async def credit_income(*_: object) -> None:
            days = _days(clock.now() - sim.start)
            usd = sim.income_on(days, default_income)
            life.golem.credit_income(f"income:{utc_day(clock.now())}", usd)

        life.scheduler.add(Job("income", every(_DAY, start=sim.start + _DAY), credit_income))
        await credit_income()
        ended = await life.run(duration=scenario.horizon(spec.days))
        store.flush()
        result = _result(
            scenario, spec, life=life, store=store, tally=tally, outcomes=outcomes, ended=ended
        )
    if not spec.record:
        for database in (out / "state").glob("golem.db*"):
            database.unlink()
    partial = out / "summary.json.partial"
    partial.write_bytes(
        orjson.dumps(result.summary, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
    )
    partial.replace(out / "summary.json")
    return result


def _days(delta: timedelta) -> float:
    return delta.total_seconds() / 86_400.0


def _result(
    scenario: Scenario,
    spec: LifeSpec,
    *,
    life: Life,
    store: StateStore,
    tally: Tally,
    outcomes: Outcomes,
    ended: str,
) -> LifeResult:
    start, now = scenario.start, life.clock.now()
    daily: defaultdict[int, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    by_subsystem: defaultdict[str, list[float]] = defaultdict(list)
    diem: list[float] = []
    for offset in range(math.ceil(_days(now - start)) + 1):
        for charge in store.ledger.charges(utc_day(start + offset * _DAY)):
            daily[int(_days(charge.time - start))][str(charge.subsystem)] += charge.usd
            by_subsystem[str(charge.subsystem)].append(charge.usd)
            diem.append(charge.diem)
    death = store.death()
    vitals, golem = life.golem.vitals, life.golem
    equity = golem.portfolio.equity()
    risk_assessments, risk_by_model = tally.risk_assessments, tally.risk_by_model
    summary: dict[str, Any] = {
        "scenario": scenario.name,
        "seed": spec.seed,
        "policy": spec.policy,
        "horizon_days": _round(_days(scenario.horizon(spec.days))),
        # died, horizon, or data_ended: the market CSV ran out before the horizon
        "ended": "died" if death else "data_ended" if ended == "data_ended" else "horizon",
        "lifespan_days": _round(_days(now - start)),
        "cause_of_death": death["cause"] if death else None,
        "ticks": golem.tick_no,
        "final": {
            "vitality": _round(vitals.vitality),
            "phase": str(vitals.phase),
            "economic": _round(vitals.economic),
            "epistemic": _round(vitals.epistemic),
            "credits_usd": _round(store.credits()),
            "equity_usd": _round(equity),
        },
        "income_usd": _round(store.income()),
        "spend_usd": _round(math.fsum(u for usd in by_subsystem.values() for u in usd)),
        "spend_usd_by_subsystem": {k: _round(math.fsum(v)) for k, v in by_subsystem.items()},
        "diem_spent": _round(math.fsum(diem)),
        "decisions_by_tier": dict(tally.decisions_by_tier),
        "decisions_by_source": dict(tally.decisions_by_source),
        "degradations_by_reason": dict(tally.degradations_by_reason),
        "reasks": tally.reasks,
        "fallbacks": tally.fallbacks,
        "risk_assessments": risk_assessments,
        "risk_by_model": risk_by_model,
        "risk_in_terminal": tally.risk_in_terminal,
        "death_testament_by_model": tally.death_source == "model" if death else None,
        **outcomes.summary(
            now,
            initial_cash=golem.portfolio.initial_cash,
            final_equity=equity,
            grimoire=golem.grimoire.values(),
            risk_by_model=risk_by_model,
            risk_assessments=risk_assessments,
        ),
    }
    spend = {day: dict(subsystems) for day, subsystems in sorted(daily.items())}
    return LifeResult(summary, tally, spend, outcomes)


def _round(value: float) -> float:
    return round(value, 9)
