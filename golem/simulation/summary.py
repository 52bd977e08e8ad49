"""A simulated lineage's result (`golem simulate`'s summary.json): its time, money and work
summed over the generations, the outcomes, judgement and strategies its subscribers measured,
the prediction engine's record, regime adaptation and deaths, and the daily spend for the plots.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from golem.mortality import PolicyName
from golem.runtime import Golem
from golem.simulation.adaptation import Shock, regime_adaptation
from golem.simulation.control import WouldHaveDied
from golem.simulation.deaths import deaths_summary
from golem.simulation.injection import InjectionTally
from golem.simulation.lineage import Generation
from golem.simulation.outcomes import Outcomes
from golem.simulation.tally import Tally

if TYPE_CHECKING:
    from golem.simulation.run import World

__all__ = ["LifeResult", "days_of", "engine_of", "lineage_result"]


@dataclass(frozen=True, slots=True)
class LifeResult:
    summary: dict[str, Any]
    tally: Tally
    daily_spend: dict[int, dict[str, float]]  # day since start -> subsystem -> USD
    outcomes: Outcomes
    injection: InjectionTally | None = None  # an attack simulation's tally


def engine_of(golem: Golem) -> dict[str, Any]:
    """What one generation's prediction engine did (runtime/predictions.py)."""
    predictor = golem.predictor
    return {
        "fitness": predictor.fitness,
        "executed": predictor.permitted,
        "gated": predictor.blocked,
        "would_be_pnl_usd": predictor.would_be_pnl_usd,
        "resolved": {category: list(counts) for category, counts in predictor.resolved.items()},
    }


def _oracle(generations: list[dict[str, Any]]) -> dict[str, Any]:
    """The lineage's prediction engine: accuracy per category over every claim resolved,
    each generation's final fitness, trades executed and blocked by the action gate, and
    the blocked ones' would-be P&L (resolved at their horizon)."""
    accuracy: dict[str, dict[str, Any]] = {}
    for category in generations[0]["resolved"] if generations else ():
        total = sum(g["resolved"][category][0] for g in generations)
        hits = sum(g["resolved"][category][1] for g in generations)
        accuracy[category] = {"total": total, "hit_rate": _round(hits / total) if total else None}
    return {
        "accuracy": accuracy,
        "fitness_by_generation": [_round(g["fitness"]) for g in generations],
        "trades_executed": sum(g["executed"] for g in generations),
        "trades_gated": sum(g["gated"] for g in generations),
        "gated_would_be_pnl_usd": _round(math.fsum(g["would_be_pnl_usd"] for g in generations)),
    }


def lineage_result(world: World, generations: list[Generation], golem: Golem) -> LifeResult:
    """The lineage's summary: its time from the founder's birth to the last golem's end,
    its money and work summed over the generations, its outcomes measured over that time
    (one tally and one outcome subscriber heard every generation), its final state the
    last golem's."""
    scenario, spec, start = world.scenario, world.spec, world.scenario.start
    now = world.clock.now()
    daily: defaultdict[int, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    by_subsystem: defaultdict[str, list[float]] = defaultdict(list)
    for time, subsystem, usd, _ in world.charges:
        daily[int(days_of(time - start))][subsystem] += usd
        by_subsystem[subsystem].append(usd)
    last, tally, vitals = generations[-1], world.tally, golem.vitals
    deaths = [g for g in generations if g.ended == "died"]
    spent = math.fsum(u for usd in by_subsystem.values() for u in usd)
    equity = golem.portfolio.equity()
    risk_assessments, risk_by_model = tally.risk_assessments, tally.risk_by_model
    summary: dict[str, Any] = {
        "scenario": scenario.name,
        "seed": spec.seed,
        "policy": str(PolicyName(spec.policy or scenario.config.mortality.policy)),
        "horizon_days": _round(days_of(world.end - start)),
        # died, horizon, or data_ended (the market CSV ran out): how the last golem ended
        "ended": last.ended,
        "lifespan_days": _round(days_of(now - start)),
        "cause_of_death": last.cause_of_death,
        "generations": len(generations),
        "lineage": [g.fields() for g in generations],
        "ticks": sum(g.ticks for g in generations),
        "final": {
            "vitality": _round(vitals.vitality),
            "phase": str(vitals.phase),
            "economic": _round(vitals.economic),
            "epistemic": _round(vitals.epistemic),
            "credits_usd": _round(last.credits_left_usd),
            "equity_usd": _round(equity),
        },
        "income_usd": _round(math.fsum(g.income_usd for g in generations)),
        "spend_usd": _round(math.fsum(u for usd in by_subsystem.values() for u in usd)),
        "spend_usd_by_subsystem": {k: _round(math.fsum(v)) for k, v in by_subsystem.items()},
        "diem_spent": _round(math.fsum(diem for *_, diem in world.charges)),
        "decisions_by_tier": dict(tally.decisions_by_tier),
        "decisions_by_source": dict(tally.decisions_by_source),
        "degradations_by_reason": dict(tally.degradations_by_reason),
        "reasks": tally.reasks,
        "fallbacks": tally.fallbacks,
        "cache_hits": tally.cache_hits,
        "cache_misses": tally.cache_misses,
        "cache_hit_rate": None if tally.cache_hit_rate is None else _round(tally.cache_hit_rate),
        "verdicts_reused": tally.verdicts_reused,
        "risk_assessments": risk_assessments,
        "risk_by_model": risk_by_model,
        "risk_in_terminal": tally.risk_in_terminal,
        "deaths": len(deaths),
        "testaments_by_model": sum(bool(g.testament_by_model) for g in deaths),
        "death_testament_by_model": last.testament_by_model,
        "oracle": _oracle(world.oracle),
        **world.outcomes.summary(
            now,
            initial_cash=golem.portfolio.initial_cash,
            final_equity=equity,
            grimoire=golem.grimoire.values(),
            risk_by_model=risk_by_model,
            risk_assessments=risk_assessments,
            initial=world.founding,
            spend_usd=math.fsum(usd for *_, usd, _ in world.charges),
        ),
        **_adaptation(world, now),
        **world.judgement.summary(),
        **world.strategies.summary(days_of(now - start)),
        **WouldHaveDied.summary_of(world.shadow, days_of(now - start)),
        **deaths_summary([g.fields() for g in generations], spend=_round(spent)),
    }
    if world.injection is not None:
        summary["injection"] = world.injection.summary()
    spend = {day: dict(subsystems) for day, subsystems in sorted(daily.items())}
    return LifeResult(summary, world.tally, spend, world.outcomes, world.injection)


def _adaptation(world: World, now: datetime) -> dict[str, Any]:
    """Regime adaptation to the scenario's scheduled shocks (none on a recorded market)."""
    config, start = world.scenario.config, world.scenario.start
    market = config.world.market
    shocks = () if world.scenario.replay is not None else market.shocks
    return regime_adaptation(
        world.outcomes.days,
        world.outcomes.fitness,
        [Shock(days_of(s.at), days_of(s.at + s.duration)) for s in shocks],
        days_of(now - start),
        days_of(config.heartbeat.interval),
    )


def _round(value: float) -> float:
    return round(value, 9)


def days_of(delta: timedelta) -> float:
    """`delta` in days (fractional)."""
    return delta.total_seconds() / 86_400.0
