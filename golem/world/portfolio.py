"""The paper portfolio: USD cash and spot positions that apply the actions they are told
(approval is the risk subsystem's job), charging fees and slippage, marking to market,
and reporting every fill for the decision log. Cash and quantities never go negative.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from golem.world.costs import CostModel

__all__ = ["Fill", "PaperPortfolio", "PortfolioConfig", "Position", "Side", "TradeAction"]


class TradeAction(StrEnum):
    """What the heartbeat and risk subsystems can ask of the portfolio."""

    OBSERVE = "observe"
    HOLD = "hold"
    REBALANCE = "rebalance"  # trade toward a target weight of the asset in equity
    HEDGE = "hedge"  # sell a fraction of the position (spot only: no short is opened)
    EXIT = "exit"  # sell the whole position to cash, never capped
    BUY = "buy"
    SELL = "sell"


class Side(StrEnum):
    BUY = "buy"
    SELL = "sell"
    NONE = "none"


class PortfolioConfig(BaseModel):
    """How orders are sized and what they cost."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    asset: str = "ETH"
    costs: CostModel = Field(default_factory=CostModel)
    max_order_usd: float | None = Field(default=None, gt=0)  # per order, except exits
    min_order_usd: float = Field(default=0.01, ge=0)  # smaller orders are not worth a fill
    target_weight: float = Field(default=0.5, ge=0, le=1)  # rebalance default
    hedge_fraction: float = Field(default=0.5, gt=0, le=1)  # hedge default
    # The share of the starting cash a golem is born holding in the asset, bought at the
    # first mark without fee or slippage (an endowment, not a trade): 0 is born in cash,
    # with nothing a hedge or an exit could trade.
    initial_weight: float = Field(default=0.0, ge=0, le=1)


@dataclass(frozen=True, slots=True)
class Position:
    quantity: float
    average_price: float  # volume-weighted execution price of the buys still held


@dataclass(frozen=True, slots=True)
class Fill:
    """What one `apply` did, a no-op included. `realised_pnl_usd` is net of this fill's
    fee; `slippage_usd` is the cost of trading away from the mark."""

    action: TradeAction
    asset: str
    side: Side
    quantity: float
    price: float
    execution_price: float
    notional_usd: float
    fee_usd: float
    slippage_usd: float
    slippage_bps: float
    realised_pnl_usd: float
    cash_after: float
    position_after: float
    requested_usd: float | None
    note: str = ""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


class PaperPortfolio:
    """Cash in USD plus positions, realised PnL net of fees, and unrealised PnL against
    the last mark, so that equity = initial cash + realised + unrealised at all times."""

    def __init__(self, cash: float, config: PortfolioConfig | None = None) -> None:
        if not (math.isfinite(cash) and cash >= 0):
            raise ValueError("cash must be a finite non-negative amount")
        self._config = config or PortfolioConfig()
        self._asset = self._config.asset  # read on every mark: a plain attribute
        self._initial_cash = cash
        self._cash = cash
        self._positions: dict[str, Position] = {}
        self._marks: dict[str, float] = {}
        self._realised = 0.0
        self._fees = 0.0

    @property
    def config(self) -> PortfolioConfig:
        return self._config

    @property
    def cash(self) -> float:
        return self._cash

    @property
    def initial_cash(self) -> float:
        return self._initial_cash

    @property
    def positions(self) -> Mapping[str, Position]:
        return dict(self._positions)

    def quantities(self) -> dict[str, float]:
        """The quantity held of each asset (a new dict)."""
        return {asset: position.quantity for asset, position in self._positions.items()}

    @property
    def marks(self) -> Mapping[str, float]:
        return dict(self._marks)

    @property
    def realised_pnl(self) -> float:
        return self._realised

    @property
    def fees_paid_usd(self) -> float:
        return self._fees

    def to_dict(self) -> dict[str, Any]:
        """The portfolio in JSON types, for the daemon's store; `from_dict` inverts it."""
        return {
            "config": self._config.model_dump(mode="json"),
            "initial_cash": self._initial_cash,
            "cash": self._cash,
            "positions": {a: [p.quantity, p.average_price] for a, p in self._positions.items()},
            "marks": dict(self._marks),
            "realised_pnl": self._realised,
            "fees_paid": self._fees,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PaperPortfolio:
        """The inverse of `to_dict`; a malformed dict raises ValueError."""
        try:
            config = PortfolioConfig.model_validate(data["config"])
            portfolio = cls(float(data["initial_cash"]), config)
            portfolio._cash = float(data["cash"])
            portfolio._positions = {
                str(a): Position(float(q), float(p)) for a, (q, p) in data["positions"].items()
            }
            portfolio._marks = {str(a): _checked_price(m) for a, m in data["marks"].items()}
            portfolio._realised = float(data["realised_pnl"])
            portfolio._fees = float(data["fees_paid"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a portfolio: {exc}") from exc
        return portfolio

    def quantity(self, asset: str | None = None) -> float:
        position = self._positions.get(asset or self._asset)
        return 0.0 if position is None else position.quantity

    def mark(self, price: float, asset: str | None = None) -> None:
        """The asset's price now. The first mark of a new portfolio is its birth: it then
        holds `initial_weight` of its cash in its asset, at that price."""
        born = not self._marks
        self._marks[asset or self._asset] = _checked_price(price)
        if born and self._config.initial_weight and (asset or self._asset) == self._asset:
            self._endow(self._marks[self._asset])

    def _endow(self, price: float) -> None:
        spend = self._cash * self._config.initial_weight
        self._cash -= spend
        self._positions[self._asset] = Position(spend / price, price)

    def unrealised_pnl(self) -> float:
        return sum(
            p.quantity * (self._marks[a] - p.average_price) for a, p in self._positions.items()
        )

    def equity(self) -> float:
        """Cash plus every position at its last mark."""
        # A loop, not sum(): plain left-to-right float additions on every Python version
        # (sum() compensates the rounding from 3.12 on), so a seeded life is one number.
        marks = self._marks
        held = 0.0
        for asset, position in self._positions.items():
            held += position.quantity * marks[asset]
        return self._cash + held

    def weight(self, asset: str | None = None) -> float:
        """The asset's share of equity (0 when equity is 0)."""
        asset = asset or self._asset
        equity = self.equity()
        value = self.quantity(asset) * self._marks.get(asset, 0.0)
        return value / equity if equity > 0 else 0.0

    def apply(
        self,
        action: TradeAction | str,
        price: float,
        size_usd: float | None = None,
        *,
        asset: str | None = None,
        volatility: float = 0.0,
        target_weight: float | None = None,
        fraction: float | None = None,
    ) -> Fill:
        """Carry out `action` on `asset` at mark `price` and report the fill.

        `size_usd` caps the order (a buy without it spends what cash and `max_order_usd`
        allow); `volatility` is the per-tick σ of returns that widens slippage;
        `target_weight` and `fraction` override the config for rebalance and hedge.
        """
        action = TradeAction(action)
        asset = asset or self._asset
        self.mark(price, asset)
        if size_usd is not None and not (math.isfinite(size_usd) and size_usd >= 0):
            raise ValueError("size_usd must be a finite non-negative amount")
        if not (math.isfinite(volatility) and volatility >= 0):
            raise ValueError("volatility must be a finite non-negative number")
        order = _Order(action, asset, price, volatility, size_usd)
        held_usd = self.quantity(asset) * price
        if action in (TradeAction.OBSERVE, TradeAction.HOLD):
            return self._nothing(order, "")
        if action is TradeAction.EXIT:
            return self._sell(order, held_usd, whole=True)
        if action is TradeAction.HEDGE:
            share = self._config.hedge_fraction if fraction is None else fraction
            if not 0 < share <= 1:
                raise ValueError("fraction must be in (0, 1]")
            return self._sell(order, share * held_usd)
        if action is TradeAction.SELL:
            return self._sell(order, held_usd if size_usd is None else size_usd)
        if action is TradeAction.BUY:
            return self._buy(order, self._cash if size_usd is None else size_usd)
        weight = self._config.target_weight if target_weight is None else target_weight
        if not 0 <= weight <= 1:
            raise ValueError("target_weight must be in [0, 1]")
        gap = weight * self.equity() - held_usd
        return self._buy(order, gap) if gap > 0 else self._sell(order, -gap)

    def settle(self, prices: Mapping[str, float] | None = None) -> list[Fill]:
        """Close every position to cash at `prices` (or the last marks): death's settle."""
        fills = []
        for asset in sorted(self._positions):
            price = (prices or {}).get(asset, self._marks[asset])
            self.mark(price, asset)
            order = _Order(TradeAction.EXIT, asset, price, 0.0, None)
            fills.append(self._sell(order, self._positions[asset].quantity * price, whole=True))
        return fills

    def _capped(self, wanted: float, size_usd: float | None) -> tuple[float, str]:
        caps = [(wanted, "")]
        if size_usd is not None:
            caps.append((size_usd, "capped by size_usd"))
        if self._config.max_order_usd is not None:
            caps.append((self._config.max_order_usd, "capped by max_order_usd"))
        return min(caps, key=lambda c: c[0])

    def _buy(self, order: _Order, wanted: float) -> Fill:
        notional, note = self._capped(wanted, order.size_usd)
        costs = self._config.costs
        if notional * (1.0 + costs.fee_rate) > self._cash:
            notional, note = self._cash / (1.0 + costs.fee_rate), "capped by cash"
        if notional < max(self._config.min_order_usd, 1e-12):
            return self._nothing(order, note or "below the minimum order")
        slip_bps = costs.slippage_bps(notional, order.volatility)
        execution = order.price * (1.0 + slip_bps / 10_000.0)
        quantity = notional / execution
        # Charged as one amount, clamped to the cash, so rounding cannot overdraw it.
        total = min(notional * (1.0 + costs.fee_rate), self._cash)
        fee = total - notional
        self._cash -= total
        held = self._positions.get(order.asset, Position(0.0, 0.0))
        after = held.quantity + quantity
        average = (held.quantity * held.average_price + quantity * execution) / after
        self._positions[order.asset] = Position(after, average)
        self._realised -= fee
        self._fees += fee
        return self._fill(order, Side.BUY, quantity, execution, notional, fee, slip_bps, -fee, note)

    def _sell(self, order: _Order, wanted: float, *, whole: bool = False) -> Fill:
        held = self._positions.get(order.asset)
        if held is None:
            return self._nothing(order, "no position")
        notional, note = (wanted, "") if whole else self._capped(wanted, order.size_usd)
        held_usd = held.quantity * order.price
        if notional >= held_usd:
            notional, whole = held_usd, True
        elif notional < max(self._config.min_order_usd, 1e-12):
            return self._nothing(order, note or "below the minimum order")
        quantity = held.quantity if whole else notional / order.price
        costs = self._config.costs
        slip_bps = costs.slippage_bps(notional, order.volatility)
        execution = order.price * (1.0 - slip_bps / 10_000.0)
        proceeds = quantity * execution
        fee = proceeds * costs.fee_rate
        self._cash += proceeds - fee
        pnl = quantity * (execution - held.average_price) - fee
        self._realised += pnl
        self._fees += fee
        if whole:
            del self._positions[order.asset]
        else:
            self._positions[order.asset] = Position(held.quantity - quantity, held.average_price)
        return self._fill(order, Side.SELL, quantity, execution, proceeds, fee, slip_bps, pnl, note)

    def _nothing(self, order: _Order, note: str) -> Fill:
        return self._fill(order, Side.NONE, 0.0, order.price, 0.0, 0.0, 0.0, 0.0, note)

    def _fill(  # noqa: PLR0917  (a private constructor; every caller passes all of these)
        self,
        order: _Order,
        side: Side,
        quantity: float,
        execution: float,
        notional: float,
        fee: float,
        slip_bps: float,
        pnl: float,
        note: str,
    ) -> Fill:
        return Fill(
            action=order.action,
            asset=order.asset,
            side=side,
            quantity=quantity,
            price=order.price,
            execution_price=execution,
            notional_usd=notional,
            fee_usd=fee,
            slippage_usd=quantity * abs(execution - order.price),
            slippage_bps=slip_bps,
            realised_pnl_usd=pnl,
            cash_after=self._cash,
            position_after=self.quantity(order.asset),
            requested_usd=order.size_usd,
            note=note,
        )


@dataclass(frozen=True, slots=True)
class _Order:
    action: TradeAction
    asset: str
    price: float
    volatility: float
    size_usd: float | None


def _checked_price(price: float) -> float:
    if not (math.isfinite(price) and price > 0):
        raise ValueError(f"price must be a positive finite number, got {price!r}")
    return price
