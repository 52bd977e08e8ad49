"""The parameters of a simulated market: regimes as a continuous-time Markov chain with
per-regime drift and volatility, scheduled and random shocks, volume and the lending
position whose health factor the heartbeat watches. Frozen, validated, sane by default.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from golem.world.observation import Regime

__all__ = [
    "DEFAULT_REGIMES",
    "LendingParams",
    "MarketParams",
    "RandomShocks",
    "RegimeParams",
    "ScheduledShock",
]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class RegimeParams(BaseModel):
    """One regime: GBM drift and volatility (annualised), how long it lasts on average
    (exponentially distributed) and where it goes next (weights, normalised)."""

    model_config = _FROZEN

    drift: float  # μ per year
    volatility: float = Field(ge=0)  # σ per √year
    mean_duration: timedelta
    volume_multiplier: float = Field(default=1.0, gt=0)
    funding_rate: float = 0.0  # per 8 hours
    transitions: dict[Regime, float]

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.mean_duration <= timedelta(0):
            raise ValueError("mean_duration must be positive")
        if any(w < 0 for w in self.transitions.values()):
            raise ValueError("transition weights must be non-negative")
        if sum(self.transitions.values()) <= 0:
            raise ValueError("transition weights must not all be zero")
        return self


DEFAULT_REGIMES: dict[Regime, RegimeParams] = {
    Regime.CALM: RegimeParams(
        drift=0.05,
        volatility=0.35,
        mean_duration=timedelta(hours=48),
        volume_multiplier=0.8,
        funding_rate=0.0001,
        transitions={Regime.TRENDING: 0.55, Regime.VOLATILE: 0.42, Regime.CRASH: 0.03},
    ),
    Regime.TRENDING: RegimeParams(
        drift=4.0,
        volatility=0.5,
        mean_duration=timedelta(hours=24),
        volume_multiplier=1.2,
        funding_rate=0.0003,
        transitions={Regime.CALM: 0.55, Regime.VOLATILE: 0.4, Regime.CRASH: 0.05},
    ),
    Regime.VOLATILE: RegimeParams(
        drift=-0.3,
        volatility=1.0,
        mean_duration=timedelta(hours=12),
        volume_multiplier=1.8,
        funding_rate=0.0,
        transitions={Regime.CALM: 0.55, Regime.TRENDING: 0.3, Regime.CRASH: 0.15},
    ),
    Regime.CRASH: RegimeParams(
        drift=-250.0,  # about -6% over its mean two hours
        volatility=1.5,
        mean_duration=timedelta(hours=2),
        volume_multiplier=4.0,
        funding_rate=-0.0005,
        transitions={Regime.VOLATILE: 0.7, Regime.CALM: 0.3},
    ),
}


class ScheduledShock(BaseModel):
    """A scripted move: the price is multiplied by (1 + magnitude) over `duration`,
    starting `at` after the first observation, on top of the regime's noise. While it
    lasts the market is in `regime` (by default crash for a fall, volatile for a rise)."""

    model_config = _FROZEN

    at: timedelta
    magnitude: float = Field(gt=-1)
    duration: timedelta = timedelta(hours=1)
    regime: Regime | None = None

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.at < timedelta(0):
            raise ValueError("a shock cannot start before the first observation")
        if self.duration <= timedelta(0):
            raise ValueError("a shock's duration must be positive")
        return self

    @property
    def effective_regime(self) -> Regime:
        if self.regime is not None:
            return self.regime
        return Regime.CRASH if self.magnitude < 0 else Regime.VOLATILE


class RandomShocks(BaseModel):
    """Unscripted shocks arriving as a Poisson process, magnitudes normally distributed
    (clipped so that the price stays positive)."""

    model_config = _FROZEN

    rate_per_day: float = Field(default=0.05, ge=0)
    mean_magnitude: float = -0.1
    magnitude_std: float = Field(default=0.05, ge=0)
    duration: timedelta = timedelta(minutes=30)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.duration <= timedelta(0):
            raise ValueError("a shock's duration must be positive")
        return self


class LendingParams(BaseModel):
    """A lending position: collateral in the simulated asset (its USD value at the
    initial price) against a USD debt. Health factor = collateral value × liquidation
    threshold ÷ debt; the defaults start at 1.83."""

    model_config = _FROZEN

    collateral_usd: float = Field(default=10_000.0, gt=0)
    debt_usd: float = Field(default=4_500.0, gt=0)
    liquidation_threshold: float = Field(default=0.825, gt=0, le=1)


class MarketParams(BaseModel):
    """Everything that shapes a simulated market; the seed is given separately."""

    model_config = _FROZEN

    initial_price: float = Field(default=3_000.0, gt=0)
    tick_interval: timedelta = timedelta(seconds=15)
    initial_regime: Regime = Regime.CALM
    regimes: dict[Regime, RegimeParams] = Field(default_factory=lambda: dict(DEFAULT_REGIMES))
    base_volume: float = Field(default=50_000.0, gt=0)  # USD per tick interval
    volume_noise: float = Field(default=0.3, ge=0)  # σ of the log-normal volume noise
    volume_return_sensitivity: float = Field(default=1.5, ge=0)  # volume grows with |return|
    shocks: tuple[ScheduledShock, ...] = ()
    random_shocks: RandomShocks | None = None
    lending: LendingParams | None = Field(default_factory=LendingParams)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.tick_interval <= timedelta(0):
            raise ValueError("tick_interval must be positive")
        needed = {self.initial_regime}
        for params in self.regimes.values():
            needed.update(r for r, w in params.transitions.items() if w > 0)
        needed.update(shock.effective_regime for shock in self.shocks)
        if self.random_shocks is not None:
            needed.update((Regime.CRASH, Regime.VOLATILE))
        missing = needed - set(self.regimes)
        if missing:
            names = ", ".join(sorted(missing))
            raise ValueError(f"regimes are referenced but not defined: {names}")
        return self
