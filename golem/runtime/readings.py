"""What the prediction engine reads of the world at a tick (predictions.py step by step,
quiet_oracle.py over a quiet stretch: one definition, so that both read the same numbers):
the golem's regime tag, the realised volatility scaled to an hour, the lending position's
health, and how often the hourly `oracle` line and the calibration gap are read.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from golem.world import MarketSummary

__all__ = ["HEALTH_LINE", "REPORT_EVERY", "health", "hourly_volatility", "regime_of"]

HEALTH_LINE = 1.0  # a lending position below health factor 1 is liquidatable
REPORT_EVERY = timedelta(hours=1)  # an `oracle` line (accuracy, fitness, gate) this often


def regime_of(market: MarketSummary, k: float = 1.0) -> str:
    """The golem's own regime tag: the price above, within or below SMA ± kσ of its window."""
    z = market.zscore
    if z is None:
        return "unknown"
    return "above" if z > k else "below" if z < -k else "within"


def hourly_volatility(market: MarketSummary, last: datetime | None, now: datetime) -> float | None:
    """The window's σ of returns scaled to one hour by the interval since the last reading
    (so that the band does not depend on the heartbeat's interval); None without one."""
    sigma = market.return_volatility
    if sigma is None or last is None or now <= last:
        return None
    return sigma * math.sqrt(3600.0 / (now - last).total_seconds())


def health(market: MarketSummary) -> float | None:
    """1.0 while the lending position is healthy, 0.0 once liquidatable; None without one."""
    factor = market.health_factor
    return None if factor is None else 1.0 if factor >= HEALTH_LINE else 0.0
