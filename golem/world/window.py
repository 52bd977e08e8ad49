"""A bounded rolling window of recent observations and the cheap statistics the heartbeat's
T0 probes read every tick: price change over N ticks, SMA and σ over a period (the regime
band), volume against its recent average, the volatility of one-tick returns.
"""

from __future__ import annotations

import math
from collections import deque
from datetime import datetime
from enum import StrEnum
from typing import Any

from msgspec import Struct

from golem.world.observation import Observation, Regime

__all__ = ["MarketSummary", "MarketWindow", "PriceBand", "Pushed"]

_sqrt = math.sqrt
_CANCELLATION = 1e4  # beyond this ratio, sliding m2 keeps under ~1e-12 relative error
_DUST = 1e-24


# What one push changed (`MarketWindow.pushed`): the running sums before it, and the
# length and first value of each deque (observations, prices, volumes, returns) before it.
Pushed = tuple[Any, ...]


def _restore(values: deque[Any], length: int, first: Any) -> None:
    """Take back an append to `values`, which had `length` values first `first`."""
    values.pop()
    if len(values) < length:  # it was full: the append pushed `first` out
        values.appendleft(first)


class PriceBand(StrEnum):
    """Where the price sits against SMA ± k·σ: the heartbeat's regime probe."""

    ABOVE = "above"
    WITHIN = "within"
    BELOW = "below"


_ABOVE, _WITHIN, _BELOW = PriceBand.ABOVE, PriceBand.WITHIN, PriceBand.BELOW


class MarketSummary(Struct, frozen=True):
    """The few numbers that describe a moment of the market, for episodes and similarity.
    Fields are None where the window has too little history to say."""

    tick: int
    time: datetime
    price: float
    delta_1: float | None
    delta_period: float | None
    zscore: float | None
    volume_ratio: float | None
    return_volatility: float | None
    health_factor: float | None
    regime: Regime | None = None


class MarketWindow:
    """The last `capacity` observations, with `period`-tick statistics kept up to date in
    O(1) per push (sliding sums and a sliding Welford variance).

    Sliding sums gather rounding error over millions of ticks, so every `resync_every`
    pushes they are recomputed exactly from the values in the window (amortised O(1)).
    """

    __slots__ = (
        "_m2",
        "_mean",
        "_observations",
        "_period",
        "_prices",
        "_resync_every",
        "_ret_sq_sum",
        "_returns",
        "_until_resync",
        "_volume_sum",
        "_volumes",
    )

    def __init__(self, capacity: int = 240, period: int = 20, resync_every: int = 1024) -> None:
        if period < 2:
            raise ValueError("period must be at least 2")
        if capacity <= period:
            raise ValueError("capacity must exceed period")
        if resync_every < 1:
            raise ValueError("resync_every must be positive")
        self._period = period
        self._resync_every = resync_every
        self._observations: deque[Observation] = deque(maxlen=capacity)
        self._prices: deque[float] = deque(maxlen=period)
        # One more volume than the period: the ratio compares the latest with those before it.
        self._volumes: deque[float] = deque(maxlen=period + 1)
        self._returns: deque[float] = deque(maxlen=period)
        self._mean = 0.0
        self._m2 = 0.0
        self._volume_sum = 0.0
        self._ret_sq_sum = 0.0
        self._until_resync = resync_every

    @property
    def period(self) -> int:
        return self._period

    @property
    def capacity(self) -> int:
        maxlen = self._observations.maxlen
        assert maxlen is not None
        return maxlen

    def __len__(self) -> int:
        return len(self._observations)

    @property
    def latest(self) -> Observation | None:
        return self._observations[-1] if self._observations else None

    @property
    def observations(self) -> tuple[Observation, ...]:
        return tuple(self._observations)

    def newest(self, n: int) -> list[Observation]:
        """The newest `n` observations (all, if fewer), oldest first."""
        observations = self._observations
        n = min(n, len(observations))
        return [observations[i] for i in range(len(observations) - n, len(observations))]

    def push(self, obs: Observation) -> None:
        """Add the newest observation; the oldest falls out once the window is full."""
        # Locals instead of attribute reads: this runs on every heartbeat of a long life.
        observations = self._observations
        period = self._period
        price = obs.price
        # A large value leaving a sliding sum takes most of it along, and the subtraction
        # leaves rounding error of that value's size: each sum then is recomputed exactly.
        resync = False
        if observations:
            ret = price / observations[-1].price - 1.0
            returns = self._returns
            if len(returns) == period:
                old_sq = returns[0] * returns[0]
                self._ret_sq_sum += ret * ret - old_sq
                resync = old_sq > _CANCELLATION * self._ret_sq_sum
            else:
                self._ret_sq_sum += ret * ret
            returns.append(ret)
        observations.append(obs)

        prices = self._prices
        n = len(prices)
        mean = self._mean
        if n == period:
            old = prices[0]
            new_mean = mean + (price - old) / n
            self._m2 += (price - old) * (price - new_mean + old - mean)
            resync = resync or (old - mean) * (old - mean) > _CANCELLATION * self._m2
        else:
            new_mean = mean + (price - mean) / (n + 1)
            self._m2 += (price - mean) * (price - new_mean)
        self._mean = new_mean
        prices.append(price)

        # The sum covers the volumes before the latest, so the ratio needs no subtraction
        # of the latest (which would lose a small sum next to a huge latest volume).
        volumes = self._volumes
        if volumes:
            if len(volumes) > period:
                leaving = volumes[0]
                self._volume_sum += volumes[-1] - leaving
                resync = resync or leaving > _CANCELLATION * self._volume_sum
            else:
                self._volume_sum += volumes[-1]
        volumes.append(obs.volume)

        self._until_resync -= 1
        if resync or not self._until_resync:
            self._until_resync = self._resync_every
            self._resync()

    def pushed(self, obs: Observation) -> Pushed:
        """`push(obs)`, returning what `unpush` needs to take it back exactly (the fast
        forward's lookahead pushes a tick it may not live)."""
        o, p, v, r = self._observations, self._prices, self._volumes, self._returns
        undo = (
            self._mean,
            self._m2,
            self._volume_sum,
            self._ret_sq_sum,
            self._until_resync,
            len(o),
            o[0] if o else None,
            len(p),
            p[0] if p else None,
            len(v),
            v[0] if v else None,
            len(r),
            r[0] if r else None,
        )
        self.push(obs)
        return undo

    def unpush(self, pushed: Pushed) -> None:
        """Take back the newest push (`pushed` is what `pushed()` returned for it): the
        window is again exactly as it was before it, running sums included."""
        (
            self._mean,
            self._m2,
            self._volume_sum,
            self._ret_sq_sum,
            self._until_resync,
            observed,
            first_observation,
            priced,
            first_price,
            volumes,
            first_volume,
            returned,
            first_return,
        ) = pushed
        _restore(self._observations, observed, first_observation)
        _restore(self._prices, priced, first_price)
        _restore(self._volumes, volumes, first_volume)
        if observed:  # a return is pushed with every observation but the first
            _restore(self._returns, returned, first_return)

    def _resync(self) -> None:
        prices = self._prices
        mean = math.fsum(prices) / len(prices)
        self._mean = mean
        self._m2 = math.fsum((p - mean) ** 2 for p in prices)
        self._volume_sum = math.fsum(list(self._volumes)[:-1])
        self._ret_sq_sum = math.fsum(r * r for r in self._returns)

    def price_delta(self, ticks: int = 1) -> float | None:
        """Fractional price change over the last `ticks` ticks (0.01 is +1%)."""
        if ticks < 1:
            raise ValueError("ticks must be positive")
        observations = self._observations
        if ticks >= len(observations):
            return None
        return observations[-1].price / observations[-1 - ticks].price - 1.0

    def sma(self) -> float | None:
        """Mean of the last `period` prices (the current one included)."""
        return self._mean if len(self._prices) == self._period else None

    def std(self) -> float | None:
        """Population σ of the last `period` prices, as Bollinger bands use."""
        if len(self._prices) < self._period:
            return None
        m2 = self._m2
        return _sqrt(m2 / self._period) if m2 > 0.0 else 0.0

    def zscore(self) -> float | None:
        """(price − SMA) ÷ σ; 0 when the prices have not moved at all."""
        return self.summary().zscore if self._observations else None

    def band(self, k: float = 1.0) -> PriceBand | None:
        """The price against SMA ± k·σ."""
        z = self.zscore()
        if z is None:
            return None
        if z > k:
            return _ABOVE
        if z < -k:
            return _BELOW
        return _WITHIN

    def volume_ratio(self) -> float | None:
        """Latest volume ÷ mean volume of the `period` ticks before it."""
        return self.summary().volume_ratio if self._observations else None

    def return_volatility(self) -> float | None:
        """Root mean square of the last `period` one-tick returns (a per-tick σ)."""
        return self.summary().return_volatility if self._observations else None

    def summary(self) -> MarketSummary:
        """The latest moment, as episodes and the similarity search describe it: where
        the z-score, volume ratio and return volatility are computed (their methods read
        them from here), inline, once per tick."""
        observations = self._observations
        if not observations:
            raise ValueError("the window is empty")
        latest = observations[-1]
        price, period, n = latest.price, self._period, len(observations)
        delta_1 = price / observations[-2].price - 1.0 if n > 1 else None
        delta_period = price / observations[-1 - period].price - 1.0 if period < n else None
        zscore = volume_ratio = volatility = None
        if len(self._prices) >= period:
            m2, mean = self._m2, self._mean
            zscore = 0.0 if m2 <= _DUST * mean * mean else (price - mean) / _sqrt(m2 / period)
        volumes = self._volumes
        if len(volumes) > period:
            mean_before = self._volume_sum / period
            volume_ratio = volumes[-1] / mean_before if mean_before > 0.0 else None
        if len(self._returns) >= period:
            volatility = math.sqrt(max(self._ret_sq_sum, 0.0) / period)
        return MarketSummary(
            tick=latest.tick,
            time=latest.time,
            price=price,
            delta_1=delta_1,
            delta_period=delta_period,
            zscore=zscore,
            volume_ratio=volume_ratio,
            return_volatility=volatility,
            health_factor=latest.health_factor,
            regime=latest.regime,
        )
