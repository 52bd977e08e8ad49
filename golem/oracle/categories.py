"""The predictions golem's world can resolve, built from what the golem knows when it makes
them: the price's direction, the volatility regime, the lending position's health, and
inaction's "holding is optimal". Each names the reading (`PRICE`, `VOLATILITY`, `HEALTH`,
`EQUITY`) the caller hands `PredictionBook.resolve` every tick.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from golem.oracle.book import Category, Prediction, Source
from golem.oracle.claims import Above, Band, Boolean, Claim, Direction, Move

__all__ = [
    "EQUITY",
    "HEALTH",
    "PRICE",
    "VOLATILITY",
    "Draft",
    "VolatilityBands",
    "holding_is_optimal",
    "position_health",
    "price_direction",
    "volatility_regime",
]

PRICE, VOLATILITY, HEALTH, EQUITY = "price", "volatility", "health_ok", "equity"


@dataclass(frozen=True, slots=True)
class Draft:
    """Who predicts, when, in which regime, at what stated confidence, for which
    checkpoints: what every category's prediction shares."""

    created_at: datetime
    regime: str
    checkpoints: tuple[timedelta, ...]
    confidence: float = 0.5
    source: Source = Source.ANALYTICAL
    source_detail: str = ""
    action_ref: str | None = None
    calibrated: float | None = None  # the calibrated confidence, when the caller has it

    def predict(self, id_: int, category: Category, claim: Claim, item: str) -> Prediction:
        return Prediction(
            id=id_,
            created_at=self.created_at,
            category=category,
            source=self.source,
            claim=claim,
            item=item,
            checkpoints=self.checkpoints,
            regime=self.regime,
            confidence=self.confidence if self.calibrated is None else self.calibrated,
            confidence_raw=self.confidence,
            source_detail=self.source_detail,
            action_ref=self.action_ref,
        )


@dataclass(frozen=True, slots=True)
class VolatilityBands:
    """Realised volatility (the window's σ of returns) cut into calm / normal / wild."""

    calm_below: float
    wild_from: float

    def __post_init__(self) -> None:
        if not 0 <= self.calm_below < self.wild_from:
            raise ValueError("VolatilityBands needs 0 <= calm_below < wild_from")

    def band(self, name: str) -> Band:
        return Band((self.calm_below, self.wild_from), ("calm", "normal", "wild"), name)


def price_direction(
    id_: int, draft: Draft, *, price: float, direction: Direction, flat_bps: float
) -> Prediction:
    """The price at each checkpoint is up, flat (within `flat_bps`) or down from `price`."""
    claim = Move(direction, price, flat_bps)
    return draft.predict(id_, Category.PRICE_DIRECTION, claim, PRICE)


def volatility_regime(id_: int, draft: Draft, *, bands: VolatilityBands, band: str) -> Prediction:
    """Realised volatility at each checkpoint is in the named band."""
    return draft.predict(id_, Category.VOLATILITY_REGIME, bands.band(band), VOLATILITY)


def position_health(id_: int, draft: Draft, *, healthy: bool) -> Prediction:
    """The lending position is (or is not) healthy at each checkpoint: the `HEALTH`
    reading is 1.0 when its health factor is at or above the caller's line."""
    return draft.predict(id_, Category.POSITION_HEALTH, Boolean(healthy), HEALTH)


def holding_is_optimal(
    id_: int, draft: Draft, *, equity: float, tolerance_bps: float
) -> Prediction:
    """Inaction's prediction on a suppressed tick: holding loses no more than
    `tolerance_bps` of the portfolio's value by each checkpoint (a fall larger than that,
    a trade would have avoided)."""
    claim = Above(equity * (1 - tolerance_bps / 10_000))
    return draft.predict(id_, Category.INACTION, claim, EQUITY)
