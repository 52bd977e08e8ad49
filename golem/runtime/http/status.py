"""What /health and /status say, read from the running golem when asked: its vitals and
clocks, its wallet, its prediction engine, what each budget line has left today, and the
last decision of each subsystem (from the feed). Plain data for the app to render; nothing
here writes."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import orjson

from golem.mortality import SubsystemName, subsystem_budget, utc_day
from golem.runtime.golem import Golem
from golem.runtime.http.feed import DecisionFeed
from golem.runtime.life import Life

__all__ = ["budgets_today", "health", "last_tick", "oracle", "status"]


def last_tick(life: Life) -> datetime | None:
    """When the heartbeat last fired (kept across restarts); None before the first."""
    return life.golem.store.last_fire("heartbeat")


def health(life: Life) -> dict[str, Any]:
    """Alive, the phase, the tick and how long ago (in the golem's clock) it ran."""
    golem, now = life.golem, life.clock.now()
    tick = last_tick(life)
    return {
        "golem": golem.compiled.golem_id,
        "alive": not golem.dead,
        "paused": golem.control.paused,  # clocks on, no model calls, no trades
        "phase": str(golem.vitals.phase),
        "tick": golem.tick_no,
        "time": now.isoformat(),
        "last_tick": None if tick is None else tick.isoformat(),
        "last_tick_age_s": None if tick is None else round((now - tick).total_seconds(), 3),
    }


def budgets_today(golem: Golem, now: datetime) -> dict[str, Any]:
    """Today's (UTC) cost cap and each budget line: its budget at the golem's vitality,
    what it spent, what is left (death's unlimited line: budget and left null), as the
    allocator computes them for the next call."""
    state = golem.budgeting().state
    policy = golem.policy.allocator
    vitality = state.vitality if policy.mortal else 1.0  # a fixed budget does not scale
    day, ledger = utc_day(now), golem.store.ledger
    lines: dict[str, Any] = {}
    for name in SubsystemName:
        budget = subsystem_budget(
            name,
            vitality,
            state.daily_budget_usd,
            sustainability_ratio=state.sustainability_ratio,
            policy=policy.budgets,
        )
        spent = ledger.spent_usd(day, name)
        finite = math.isfinite(budget)
        lines[str(name)] = {
            "budget_usd": budget if finite else None,
            "spent_usd": spent,
            "left_usd": max(0.0, budget - spent) if finite else None,
        }
    spent = ledger.spent_usd(day)
    return {
        "day": day.isoformat(),
        "daily_budget_usd": state.daily_budget_usd,
        "spent_usd": spent,
        "left_usd": max(0.0, state.daily_budget_usd - spent),
        "subsystems": lines,
    }


def oracle(golem: Golem, now: datetime) -> dict[str, Any]:
    """The prediction engine: fitness, accuracy per category and regime, calibration, the
    gate's blocked trades (runtime/predictions.py), and the senescence stage."""
    senescence = golem.chart.senescence
    since = senescence.since
    return {
        **golem.predictor.report(now),
        "senescence": {
            "stage": str(senescence.stage),
            "since": None if since is None else since.isoformat(),
        },
    }


def status(life: Life, feed: DecisionFeed) -> dict[str, Any]:
    """The golem at a glance: /status's body."""
    golem, now = life.golem, life.clock.now()
    vitals = golem.vitals
    return {
        **health(life),
        "vitality": vitals.vitality,
        "clocks": {"economic": vitals.economic, "epistemic": vitals.epistemic},
        "death_probability": vitals.death_probability,
        "credits_usd": golem.store.credits(),
        "burn_rate_usd": vitals.burn_rate_usd,
        "equity_usd": golem.portfolio.equity(),
        "oracle": oracle(golem, now),
        "budgets": budgets_today(golem, now),
        "last_decisions": {
            subsystem: orjson.loads(entry.line) for subsystem, entry in feed.last().items()
        },
    }
