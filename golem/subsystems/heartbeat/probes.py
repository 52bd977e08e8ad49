"""The heartbeat's T0 probes and its gate: pure functions from one tick's market summary,
the previous tick's and the golem's credits to a prediction error PE in [0, 1], the gate
θ, and the model tier the tick needs (PE < θ: T0; θ ≤ PE < 2θ: T1; PE ≥ 2θ: T2)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import ModelTier
from golem.subsystems.contract import Probes
from golem.world import MarketSummary, PriceBand

__all__ = [
    "GateParams",
    "ProbeConfig",
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


def band_of(summary: MarketSummary | None, sigmas: float = 1.0) -> PriceBand | None:
    """Where the price sits against SMA ± kσ, from the summary's z-score."""
    if summary is None or summary.zscore is None:
        return None
    if summary.zscore > sigmas:
        return _ABOVE
    return _BELOW if summary.zscore < -sigmas else _WITHIN


def readings(
    market: MarketSummary,
    previous: MarketSummary | None,
    *,
    credits_usd: float,
    burn_rate_usd: float,
    config: ProbeConfig | None = None,
) -> tuple[Reading, ...]:
    """Every probe that fires this tick, in a fixed order."""
    config = config or ProbeConfig()
    r = _readings_of(config.thresholds, config.weights)
    by_period, major, minor, spike, critical, warning, sigmas, runway = r.limits
    fired: list[Reading] = []
    delta = market.delta_period if by_period else market.delta_1
    move = abs(delta) if delta is not None else 0.0
    if move > major:
        fired.append(r.price_major)
    elif move > minor:
        fired.append(r.price_minor)
    if market.volume_ratio is not None and market.volume_ratio > spike:
        fired.append(r.volume_spike)
    health = market.health_factor
    if health is not None and health < critical:
        fired.append(r.health_critical)
    elif health is not None and health < warning:
        fired.append(r.health_warning)
    now, before = band_of(market, sigmas), band_of(previous, sigmas)
    if now is not None and before is not None and now is not before:
        fired.append(r.band_moves[before, now])
    elif now is not None and now is not _WITHIN:
        fired.append(r.above if now is _ABOVE else r.below)
    if burn_rate_usd > 0 and credits_usd / burn_rate_usd < runway:
        fired.append(r.runway_low)
    return tuple(fired)


@functools.cache
def health_flag(threshold: float) -> str:
    """The flag of the health probe that fires below `threshold`."""
    return f"health_factor<{threshold:g}"


@dataclass(frozen=True, slots=True)
class _Readings:
    """The readings a config can give, formatted once, and the thresholds they fire at
    (plain numbers: a pydantic model's are slow reads on 3.11, and these are read on
    every tick)."""

    limits: tuple[bool, float, float, float, float, float, float, float]
    price_major: Reading
    price_minor: Reading
    volume_spike: Reading
    health_critical: Reading
    health_warning: Reading
    band_moves: dict[tuple[PriceBand, PriceBand], Reading]  # (before, now) -> change or flip
    above: Reading
    below: Reading
    runway_low: Reading


def _readings_of(t: ProbeThresholds, w: ProbeWeights) -> _Readings:
    """The config's fixed readings, kept for the config last asked about (by identity:
    hashing the two models would cost as much as formatting the flags)."""
    kept = _LAST_READINGS
    if kept and kept[0] is t and kept[1] is w:
        readings: _Readings = kept[2]
        return readings
    readings = _Readings(
        limits=(
            t.price_horizon == "period",
            t.price_major,
            t.price_minor,
            t.volume_spike,
            t.health_critical,
            t.health_warning,
            t.band_sigmas,
            t.runway_ticks,
        ),
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
    )
    _LAST_READINGS[:] = [t, w, readings]
    return readings


def _band_move(before: PriceBand, now: PriceBand, w: ProbeWeights) -> Reading:
    """The regime probe's reading for a band change; a flip crosses the whole band."""
    if PriceBand.WITHIN in (now, before):
        return Reading(f"regime_change:{before}>{now}", w.band_change)
    return Reading(f"regime_flip:{before}>{now}", w.band_flip)


_LAST_READINGS: list[Any] = []
_DEFAULT_GATE = GateParams()
_LAST_GATE: list[tuple[GateParams | None, tuple[float, ...]]] = [(None, ())]

# Enum members read on every tick, bound once: on Python 3.11 `Enum.MEMBER` goes through
# EnumType's __getattr__ hook, some 0.2 µs a read.
_ABOVE, _BELOW, _WITHIN = PriceBand.ABOVE, PriceBand.BELOW, PriceBand.WITHIN
_T0, _T1, _T2 = ModelTier.T0, ModelTier.T1, ModelTier.T2


def gate(
    confidence: float | None,
    vitality: float,
    arousal: float,
    params: GateParams | None = None,
) -> float:
    """The gate θ. A confident, healthy, calm golem looks away more; a dying or agitated
    one escalates sooner."""
    p = params or _DEFAULT_GATE
    kept = _LAST_GATE[0]
    if kept[0] is not p:  # the parameters as plain numbers, for the params last asked about
        weights = (p.base, p.confidence_weight, p.vitality_weight, p.arousal_weight)
        kept = _LAST_GATE[0] = (p, (*weights, p.floor, p.ceiling, p.default_confidence))
    base, confidence_weight, vitality_weight, arousal_weight, floor, ceiling, default = kept[1]
    # Clamps spelled out as min()/max() answer them (on every tick, without their calls):
    # max(a, b) is `b if b > a else a`, min(a, b) is `b if b < a else a`.
    if confidence is None:
        conf = default
    else:
        conf = confidence if confidence > 0.0 else 0.0
        conf = conf if conf < 1.0 else 1.0
    vitality = vitality if vitality > 0.0 else 0.0
    vitality = vitality if vitality < 1.0 else 1.0
    agitation = abs(arousal)
    agitation = agitation if agitation < 1.0 else 1.0
    theta = (
        base
        * (1 + confidence_weight * conf)
        * (1 - vitality_weight * (1 - vitality))
        * (1 - arousal_weight * agitation)
    )
    theta = theta if theta > floor else floor
    return theta if theta < ceiling else ceiling


def tier_for(prediction_error: float, theta: float) -> ModelTier:
    if prediction_error < theta:
        return _T0
    return _T1 if prediction_error < 2 * theta else _T2


def compute_probes(
    market: MarketSummary,
    previous: MarketSummary | None,
    *,
    vitality: float,
    arousal: float,
    credits_usd: float,
    burn_rate_usd: float,
    confidence: float | None = None,
    config: ProbeConfig | None = None,
) -> Probes:
    """The tick's Probes, computed by the runtime before it builds the Context.
    `previous` is the last tick's summary (the regime probe compares bands);
    `confidence` the last heartbeat decision's (None before the first)."""
    config = config or ProbeConfig()
    fired = readings(
        market, previous, credits_usd=credits_usd, burn_rate_usd=burn_rate_usd, config=config
    )
    theta = gate(confidence, vitality, arousal, config.gate)
    if not fired:  # a quiet tick, most of them
        return Probes(prediction_error=0.0, theta=theta, tier=tier_for(0.0, theta))
    prediction_error = min(1.0, sum(r.weight for r in fired))
    return Probes(
        prediction_error=prediction_error,
        theta=theta,
        tier=tier_for(prediction_error, theta),
        flags=tuple(r.flag for r in fired),
    )
