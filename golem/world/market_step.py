"""One grid step of the simulated market (market.py): its per-regime constants for a step
of dt seconds (the drift, the part of it a shock keeps, the diffusion, the volume and the
funding rate), computed from the market's parameters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from golem.world.observation import Regime
from golem.world.scenario import MarketParams

__all__ = ["MEAN_ABS_NORMAL", "Step", "step_constants"]

YEAR_SECONDS = 365.0 * 24 * 3600
MEAN_ABS_NORMAL = math.sqrt(2.0 / math.pi)  # E|Z|, to keep mean volume at its base


@dataclass(frozen=True, slots=True)
class Step:
    """Per-regime constants of one step of dt seconds (precomputed for the tick interval)."""

    drift: float  # (μ − σ²/2)·dt
    ito: float  # −σ²/2·dt, the part of the drift a shock keeps
    diffusion: float  # σ·√dt
    volume: float  # base volume × regime multiplier × normalisation × dt/interval
    funding: float


def step_constants(params: MarketParams, regime: Regime, dt: float, interval_s: float) -> Step:
    """The constants of a `dt`-second step in `regime`, its volume scaled to the tick
    interval of `interval_s` seconds."""
    p = params.regimes[regime]
    years = dt / YEAR_SECONDS
    ito = -0.5 * p.volatility * p.volatility * years
    # Normalised by E[1 + s·|Z|] and E[exp(noise·Z)] so that mean volume stays at its base.
    volume = (
        params.base_volume
        * p.volume_multiplier
        * math.exp(-0.5 * params.volume_noise**2)
        / (1.0 + params.volume_return_sensitivity * MEAN_ABS_NORMAL)
        * dt
        / interval_s
    )
    return Step(
        drift=p.drift * years + ito,
        ito=ito,
        diffusion=p.volatility * math.sqrt(years),
        volume=volume,
        funding=p.funding_rate,
    )
