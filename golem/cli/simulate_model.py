"""`golem simulate SCENARIO --provider NAME[:MODEL] [--allow-spend USD]`: a scenario's life
on a real model, in virtual time: the embedded one (`local`, no money) or, under an
explicit cap, a provider that bills (its key from the environment). Every tier (and risk's
verifier) runs on it; the minds' truth is never computed, the judgement still reads the
path. Before it starts: what it will cost, from a dry run of the same scenario on its
synthetic stand-in (the model calls it made) and, for the embedded model, one timed call;
and the look-ahead caveat."""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from golem.cli.failure import UsageError
from golem.runtime.config import EMBEDDED, SYNTHETIC
from golem.simulation import LifeSpec, Scenario, run_life

__all__ = ["LOOK_AHEAD", "estimate", "model_overrides", "spend_cap"]

LOOK_AHEAD = (
    "look-ahead: the market is history; a model trained after {start:%Y-%m-%d} may know "
    "what came next, so its decisions here can be better than it could make live"
)


def model_overrides(provider: str) -> dict[str, Any]:
    """The scenario's chains, every one on `provider` (NAME or NAME:MODEL)."""
    if not provider.split(":", 1)[0]:
        raise UsageError(f"--provider {provider!r}: name a provider, e.g. local")
    return {f"inference.{tier}": [provider] for tier in ("t1", "t2", "death")}


def charges(provider: str) -> bool:
    """Whether `provider` bills: everything but the embedded and the synthetic model."""
    return provider.split(":", 1)[0] not in (EMBEDDED, SYNTHETIC)


def spend_cap(scenario: Scenario, provider: str, allow_spend: float | None) -> float:
    """The most the lineage can spend (its credits and every day's income to the horizon:
    a golem never spends more than it is given); a UsageError when the provider bills and
    --allow-spend does not cover it."""
    sim, mortality = scenario.simulation, scenario.config.mortality
    days = math.ceil(sim.horizon_days)
    income = sum(sim.income_on(day, mortality.income_usd_per_day) for day in range(days + 1))
    most = mortality.initial_credits_usd + income
    if charges(provider):
        if allow_spend is None:
            raise UsageError(
                f"--provider {provider}: it bills; this scenario can spend up to ${most:.2f} "
                f"(credits and income): give --allow-spend {most:.2f} or more"
            )
        if allow_spend < most:
            raise UsageError(
                f"--allow-spend {allow_spend:g}: this scenario can spend up to ${most:.2f}; "
                "lower [mortality] initial_credits_usd (--set is not for this) or allow more"
            )
    elif allow_spend is not None:
        raise UsageError(f"--allow-spend: {provider} costs nothing")
    return most


def estimate(scenario: Scenario, seed: int, days: float | None, provider: str) -> list[str]:
    """What the life will cost, before it starts: the model calls of the same life on the
    scenario's synthetic stand-in, times one timed call of the embedded model; the cap of
    a provider that bills."""
    with tempfile.TemporaryDirectory(prefix="golem-estimate-") as out:
        dry = run_life(LifeSpec(scenario.path, seed, Path(out), days, record=False))
    summary = dry.summary
    calls = int(summary["decisions_by_source"].get("model", 0))
    span = float(summary["lifespan_days"])
    lines = [
        f"estimate: {calls} model calls over {span:g} days "
        f"(the same life on the synthetic stand-in, {summary['ticks']} heartbeats)"
    ]
    if provider.split(":", 1)[0] == EMBEDDED:
        seconds = timed_local_call()
        lines.append(
            f"estimate: {seconds:.1f} s a call here (one heartbeat decision, timed now): "
            f"about {_duration(calls * seconds)} of wall time, $0"
        )
    elif charges(provider):
        cap = spend_cap(scenario, provider, math.inf)
        lines.append(
            f"estimate: at most ${cap:.2f} (credits and income; the stand-in spent "
            f"${summary['spend_usd']:.4f} at its emulated prices); wall time: the provider's"
        )
    lines.append(LOOK_AHEAD.format(start=scenario.start))
    return lines


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def timed_local_call() -> float:
    """Seconds one heartbeat decision takes on the embedded model, loaded first."""
    from golem.cli.ask import ask_request, provider_named  # noqa: PLC0415  (loads llama.cpp)
    from golem.inference.run import run_structured  # noqa: PLC0415
    from golem.subsystems.heartbeat.decision import HeartbeatDecision  # noqa: PLC0415

    provider = provider_named(EMBEDDED, None, None)
    request = ask_request(
        HeartbeatDecision,
        "ETH/USDT fell 4% in the last hour on rising volume. What now?",
        max_tokens=400,
    )

    async def once() -> float:
        started = time.perf_counter()
        await run_structured(provider, request, HeartbeatDecision)
        return time.perf_counter() - started

    return trio.run(once)
