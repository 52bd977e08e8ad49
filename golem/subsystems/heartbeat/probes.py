"""The heartbeat's T0 probes and its gate: pure functions from one tick's market summary,
the previous tick's and the golem's credits to a prediction error PE in [0, 1], the gate
θ, and the model tier the tick needs (PE < θ: T0; θ ≤ PE < 2θ: T1; PE ≥ 2θ: T2).

Their numbers are compiled once from a `ProbeConfig` into a `ProbePolicy` (thresholds
as plain floats, the flags formatted), which the golem holds for its life and every
tick reads."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import ModelTier
from golem.subsystems.contract import Probes
from golem.world import MarketSummary, PriceBand

__all__ = [
    "Gate",
    "GateParams",
    "ProbeConfig",
    "ProbePolicy",
    "ProbeThresholds",
    "ProbeWeights",
    "Reading",
    "band_of",
    "compute_probes",
    "gate",
    "health_flag",
    "readings",
    "tier_for",
]


class ProbeThresholds(BaseModel):
    """Where each probe fires."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    price_minor: float = Field(default=0.005, gt=0)  # |price change| above 0.5%
    price_major: float = Field(default=0.02, gt=0)  # above 2%
    # On 15 s ticks a one-tick move of 0.5% is a 7σ event even in the simulated crash
    # regime, so by default the change is read over the window's period (20 ticks).
    price_horizon: Literal["tick", "period"] = "period"
    volume_spike: float = Field(default=3.0, gt=1)  # volume ÷ its recent mean
    health_warning: float = Field(default=1.5, gt=0)  # health factor below
    health_critical: float = Field(default=1.2, gt=0)
    band_sigmas: float = Field(default=1.0, gt=0)  # the regime band: 20-period SMA ± kσ
    runway_ticks: float = Field(default=5760, gt=0)  # credits ÷ burn below a day of 15 s ticks


class ProbeWeights(BaseModel):
    """What each fired probe adds to PE. With the default gate (θ ≈ 0.35 for a Thriving
    golem at confidence 0.5 and calm mood) a minor move, a band change or a health warning
    alone stays T0; a 2% move, or a warning with another probe, asks the cheap model; a
    critical health factor the strong one. The price sits outside ±1σ a third of the time
    and changes band on a quarter of the simulated ticks, so being outside weighs next to
    nothing and a change little; a flip across the whole band in one tick (0.2% of ticks)
    weighs more. A low health factor lasts for hours, which is why a warning alone stays
    below θ: it would otherwise call a model on every tick."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    price_minor: float = Field(default=0.15, ge=0)
    price_major: float = Field(default=0.5, ge=0)  # replaces price_minor
    volume_spike: float = Field(default=0.15, ge=0)
    health_warning: float = Field(default=0.3, ge=0)
    health_critical: float = Field(default=0.75, ge=0)  # replaces health_warning
    band_change: float = Field(default=0.1, ge=0)  # within ↔ above or below
    band_flip: float = Field(default=0.35, ge=0)  # above ↔ below in one tick; replaces change
    outside_band: float = Field(default=0.02, ge=0)
    runway_low: float = Field(default=0.15, ge=0)


class GateParams(BaseModel):
    """θ = base·(1 + c·confidence)·(1 − v·(1 − vitality))·(1 − a·|arousal|), clamped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base: float = Field(default=0.3, gt=0)
    confidence_weight: float = Field(default=0.5, ge=0)
    vitality_weight: float = Field(default=0.3, ge=0, le=1)
    arousal_weight: float = Field(default=0.2, ge=0, le=1)
    floor: float = Field(default=0.05, ge=0)
    ceiling: float = Field(default=0.8, le=1)
    default_confidence: float = Field(default=0.5, ge=0, le=1)  # before any decision


class ProbeConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    thresholds: ProbeThresholds = Field(default_factory=ProbeThresholds)
    weights: ProbeWeights = Field(default_factory=ProbeWeights)
    gate: GateParams = Field(default_factory=GateParams)


@dataclass(frozen=True, slots=True)
class Reading:
    """One probe that fired: its flag (as the prompt and the log show it) and its weight."""

    flag: str
    weight: float
    flip: bool = False  # the regime probe's: the price crossed the whole band


def band_of(summary: MarketSummary | None, sigmas: float = 1.0) -> PriceBand | None:
    """Where the price sits against SMA ± kσ, from the summary's z-score."""
    if summary is None or summary.zscore is None:
        return None
    if summary.zscore > sigmas:
        return PriceBand.ABOVE
    return PriceBand.BELOW if summary.zscore < -sigmas else PriceBand.WITHIN


@dataclass(frozen=True, slots=True)
class Gate:
    """A `GateParams`' numbers, plain (a pydantic model's fields are slower reads)."""

    base: float
    confidence_weight: float
    vitality_weight: float
    arousal_weight: float
    floor: float
    ceiling: float
    default_confidence: float

    @classmethod
    def of(cls, p: GateParams) -> Gate:
        return cls(
            p.base,
            p.confidence_weight,
            p.vitality_weight,
            p.arousal_weight,
            p.floor,
            p.ceiling,
            p.default_confidence,
        )

    def theta(self, confidence: float | None, vitality: float, arousal: float) -> float:
        """θ = base·(1 + c·confidence)·(1 − v·(1 − vitality))·(1 − a·|arousal|), clamped."""
        conf = self.default_confidence if confidence is None else min(1.0, max(0.0, confidence))
        vitality = min(1.0, max(0.0, vitality))
        agitation = min(1.0, abs(arousal))
        theta = (
            self.base
            * (1 + self.confidence_weight * conf)
            * (1 - self.vitality_weight * (1 - vitality))
            * (1 - self.arousal_weight * agitation)
        )
        return min(self.ceiling, max(self.floor, theta))

    def by_vitality(self, confidence: float | None, arousal: float) -> Callable[[float], float]:
        """`theta(confidence, vitality, arousal)` as a function of the vitality alone (a
        quiet stretch's θ on a confidence and mood that hold): the same operations in
        the same order, the ones that do not read the vitality done once."""
        conf = self.default_confidence if confidence is None else min(1.0, max(0.0, confidence))
        lead = self.base * (1 + self.confidence_weight * conf)
        calm = 1 - self.arousal_weight * min(1.0, abs(arousal))
        weight, floor, ceiling = self.vitality_weight, self.floor, self.ceiling

        def theta(vitality: float) -> float:
            v = min(1.0, max(0.0, vitality))
            return min(ceiling, max(floor, lead * (1 - weight * (1 - v)) * calm))

        return theta


@dataclass(frozen=True, slots=True)
class ProbePolicy:
    """A `ProbeConfig` compiled once for a life: where each probe fires (plain numbers),
    the reading it gives (flag formatted, weight), and the gate."""

    by_period: bool
    price_major_at: float
    price_minor_at: float
    volume_spike_at: float
    health_critical_at: float
    health_warning_at: float
    band_sigmas: float
    runway_ticks: float
    price_major: Reading
    price_minor: Reading
    volume_spike: Reading
    health_critical: Reading
    health_warning: Reading
    band_moves: Mapping[tuple[PriceBand, PriceBand], Reading]  # (before, now) -> reading
    above: Reading
    below: Reading
    runway_low: Reading
    gate: Gate

    @classmethod
    def of(cls, config: ProbeConfig) -> ProbePolicy:
        t, w = config.thresholds, config.weights
        return cls(
            by_period=t.price_horizon == "period",
            price_major_at=t.price_major,
            price_minor_at=t.price_minor,
            volume_spike_at=t.volume_spike,
            health_critical_at=t.health_critical,
            health_warning_at=t.health_warning,
            band_sigmas=t.band_sigmas,
            runway_ticks=t.runway_ticks,
            price_major=Reading(f"price_delta>{t.price_major:.1%}", w.price_major),
            price_minor=Reading(f"price_delta>{t.price_minor:.1%}", w.price_minor),
            volume_spike=Reading(f"volume>{t.volume_spike:g}x", w.volume_spike),
            health_critical=Reading(health_flag(t.health_critical), w.health_critical),
            health_warning=Reading(health_flag(t.health_warning), w.health_warning),
            band_moves={
                (before, now): _band_move(before, now, w)
                for before in PriceBand
                for now in PriceBand
                if before is not now
            },
            above=Reading(f"outside_band:{PriceBand.ABOVE}", w.outside_band),
            below=Reading(f"outside_band:{PriceBand.BELOW}", w.outside_band),
            runway_low=Reading("credit_runway_low", w.runway_low),
            gate=Gate.of(config.gate),
        )


def readings(
    market: MarketSummary,
    previous: MarketSummary | None,
    *,
    credits_usd: float,
    burn_rate_usd: float,
    policy: ProbePolicy,
) -> tuple[Reading, ...]:
    """Every probe that fires this tick, in a fixed order, by the life's compiled `policy`."""
    r = policy
    fired: list[Reading] = []
    delta = market.delta_period if r.by_period else market.delta_1
    move = abs(delta) if delta is not None else 0.0
    if move > r.price_major_at:
        fired.append(r.price_major)
    elif move > r.price_minor_at:
        fired.append(r.price_minor)
    if market.volume_ratio is not None and market.volume_ratio > r.volume_spike_at:
        fired.append(r.volume_spike)
    health = market.health_factor
    if health is not None and health < r.health_critical_at:
        fired.append(r.health_critical)
    elif health is not None and health < r.health_warning_at:
        fired.append(r.health_warning)
    sigmas = r.band_sigmas
    now, before = band_of(market, sigmas), band_of(previous, sigmas)
    if now is not None and before is not None and now is not before:
        fired.append(r.band_moves[before, now])
    elif now is not None and now is not PriceBand.WITHIN:
        fired.append(r.above if now is PriceBand.ABOVE else r.below)
    if burn_rate_usd > 0 and credits_usd / burn_rate_usd < r.runway_ticks:
        fired.append(r.runway_low)
    return tuple(fired)


@functools.cache
def health_flag(threshold: float) -> str:
    """The flag of the health probe that fires below `threshold`."""
    return f"health_factor<{threshold:g}"


def _band_move(before: PriceBand, now: PriceBand, w: ProbeWeights) -> Reading:
    """The regime probe's reading for a band change; a flip crosses the whole band."""
    if PriceBand.WITHIN in (now, before):
        return Reading(f"regime_change:{before}>{now}", w.band_change)
    return Reading(f"regime_flip:{before}>{now}", w.band_flip, flip=True)


def gate(
    confidence: float | None,
    vitality: float,
    arousal: float,
    params: GateParams,
) -> float:
    """The gate θ with `params`. A confident, healthy, calm golem looks away more; a dying
    or agitated one escalates sooner."""
    return Gate.of(params).theta(confidence, vitality, arousal)


def tier_for(prediction_error: float, theta: float) -> ModelTier:
    if prediction_error < theta:
        return ModelTier.T0
    return ModelTier.T1 if prediction_error < 2 * theta else ModelTier.T2


def compute_probes(
    market: MarketSummary,
    previous: MarketSummary | None,
    *,
    vitality: float,
    arousal: float,
    credits_usd: float,
    burn_rate_usd: float,
    policy: ProbePolicy,
    confidence: float | None = None,
) -> Probes:
    """The tick's Probes, computed by the runtime before it builds the Situation.
    `previous` is the last tick's summary (the regime probe compares bands);
    `confidence` the last heartbeat decision's (None before the first); `policy` the
    life's compiled probes (no default stands in for it)."""
    fired = readings(
        market, previous, credits_usd=credits_usd, burn_rate_usd=burn_rate_usd, policy=policy
    )
    theta = policy.gate.theta(confidence, vitality, arousal)
    if not fired:  # a quiet tick, most of them
        return Probes(prediction_error=0.0, theta=theta, tier=tier_for(0.0, theta))
    prediction_error = min(1.0, sum(r.weight for r in fired))
    return Probes(
        prediction_error=prediction_error,
        theta=theta,
        tier=tier_for(prediction_error, theta),
        flags=tuple(r.flag for r in fired),
        health_critical=any(r is policy.health_critical for r in fired),
        regime_flip=any(r.flip for r in fired),
    )
