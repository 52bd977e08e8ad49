"""A seeded market: geometric Brownian motion whose drift and volatility follow a
continuous-time Markov chain of regimes, with scheduled and random shocks, volume that
rises with |return| and regime, and the health factor of a lending position.

The market steps on its own grid (`tick_interval` apart, from the first observation), not on
its observers' ticks: the price at a time is the price at the last grid step at or before
it, a pure function of the seed and that step, so every policy, heir and heartbeat interval
sees the same path (common random numbers); an observer that looks less often walks the
grid steps in between, and the volume it sees is the volume traded since it last looked.

`state()` / `restore()` carry everything the path depends on (the RNG, the clocks of the
regime chain and the shocks, the last price and time) as plain data, so a resumed golem
walks on where it stopped instead of replaying its birth. `ahead(n)` walks a copy n steps
on (O(n), the generator's state copied once) and leaves this path as it was: the truth a
simulation knows and no golem can. The saved record and the shocks are market_state.py's,
a step's per-regime constants market_step.py's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import msgspec

from golem.world.market_state import SavedMarket, Shock, finite, infinite
from golem.world.market_step import MEAN_ABS_NORMAL, Step, step_constants
from golem.world.observation import Observation, Regime, saved_state
from golem.world.scenario import MarketParams

__all__ = ["MARKET_STATE_VERSION", "SimulatedMarket"]

MARKET_STATE_VERSION = 2  # of `SimulatedMarket.state()`; another version is not restored

_KEPT_STEPS = 32  # step constants kept for (regime, step length) pairs
_TWO_PI = 2.0 * math.pi
_sqrt, _log, _exp, _cos, _sin = math.sqrt, math.log, math.exp, math.cos, math.sin


class SimulatedMarket:
    """A market that is a pure function of its seed, its parameters and the times asked.

    `observe(time)` advances the market to `time` (the first call fixes time zero and
    returns the initial state); `run(start, count)` yields observations on the tick grid.
    Both use `random.Random(seed)` alone, so a seed gives the same path on every machine.
    Regime switches and shocks take effect at the first tick at or after their time.
    """

    __slots__ = (
        "_active",
        "_elapsed",
        "_grid",
        "_grid_volume",
        "_hf_per_price",
        "_interval_s",
        "_last",
        "_last_step",
        "_next_event",
        "_next_random",
        "_params",
        "_pending",
        "_price",
        "_regime",
        "_regime_end",
        "_rng",
        "_seed",
        "_start",
        "_steps",
        "_tick",
        "_uniform",
        "_volume_noise",
        "_volume_sensitivity",
    )

    def __init__(self, seed: int | str = 0, params: MarketParams | None = None) -> None:
        self._params = params or MarketParams()
        self._seed = seed
        self._rng = random.Random(seed)
        self._uniform = self._rng.random
        self._volume_sensitivity = self._params.volume_return_sensitivity
        self._volume_noise = self._params.volume_noise
        self._interval_s = self._params.tick_interval.total_seconds()
        self._price = self._params.initial_price
        self._regime = self._params.initial_regime
        self._tick = -1
        self._start: datetime | None = None
        self._last: Observation | None = None  # the latest observation, asked again at its time
        self._elapsed = 0.0  # seconds from the first observation to the last
        self._grid = 0  # grid steps walked: the price is that of step `_grid`
        self._grid_volume = 0.0  # the volume of the last grid step
        self._last_step = self._interval_s
        self._steps: dict[tuple[Regime, float], Step] = {}
        lending = self._params.lending
        self._hf_per_price = (
            None
            if lending is None
            else lending.collateral_usd
            / self._params.initial_price
            * lending.liquidation_threshold
            / lending.debt_usd
        )
        self._regime_end = self._sojourn(self._regime)
        self._pending = sorted(
            (
                Shock(
                    start=s.at.total_seconds(),
                    end=(s.at + s.duration).total_seconds(),
                    log_move=math.log1p(s.magnitude),
                    regime=s.effective_regime,
                )
                for s in self._params.shocks
            ),
            key=lambda s: s.start,
        )
        self._active: list[Shock] = []
        self._next_random = self._random_shock_wait(0.0)
        self._next_event = self._earliest_event()

    @property
    def params(self) -> MarketParams:
        return self._params

    @property
    def seed(self) -> int | str:
        return self._seed

    @property
    def regime(self) -> Regime:
        """The hidden regime of the Markov chain (a shock's label may mask it)."""
        return self._regime

    def state(self) -> dict[str, Any]:
        """Where the market is, as plain data (JSON-ready): `restore()` on a market of the
        same seed continues exactly as this one would."""
        saved = SavedMarket(
            version=MARKET_STATE_VERSION,
            seed=self._seed,
            rng=self._rng.getstate(),
            tick=self._tick,
            start=self._start,
            elapsed=self._elapsed,
            grid=self._grid,
            last_volume=self._grid_volume,
            price=self._price,
            regime=self._regime,
            regime_end=finite(self._regime_end),
            next_random=finite(self._next_random),
            pending=[shock.saved() for shock in self._pending],
            active=[shock.saved() for shock in self._active],
        )
        state: dict[str, Any] = msgspec.to_builtins(saved)
        return state

    def restore(self, state: Any) -> None:
        """Continue from `state()` of a market with this seed. Raises ValueError (and
        changes nothing) for a state of another version or seed, or one that is malformed."""
        saved = saved_state(state, SavedMarket, MARKET_STATE_VERSION, "market state")
        if saved.seed != self._seed:
            raise ValueError(f"market state of seed {saved.seed!r}, not {self._seed!r}")
        if saved.start is not None and saved.start.tzinfo is None:
            raise ValueError("not a market state: its start time has no timezone")
        try:
            self._rng.setstate(saved.rng)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"not a market state: its generator's state is unusable ({exc})"
            ) from exc
        self._tick = saved.tick
        self._start = saved.start
        self._last = None
        self._elapsed = saved.elapsed
        self._grid = saved.grid
        self._grid_volume = saved.last_volume
        self._price = saved.price
        self._regime = saved.regime
        self._regime_end = infinite(saved.regime_end)
        self._next_random = infinite(saved.next_random)
        self._pending = [Shock(*shock) for shock in saved.pending]
        self._active = [Shock(*shock) for shock in saved.active]
        self._next_event = self._earliest_event()

    def ahead(self, steps: int) -> list[Observation]:
        """The next `steps` observations this market would give at the spacing of its last
        step (the tick interval before it has stepped), walked on a copy: this market's own
        path is left exactly as it was. Raises ValueError before the first observation."""
        if self._start is None:
            raise ValueError("a market looks ahead only from an observation")
        if steps < 0:
            raise ValueError("steps must not be negative")
        twin = self._twin()
        start, step, elapsed = self._start, self._last_step, self._elapsed
        return [
            twin._advance(start + timedelta(seconds=elapsed + k * step), elapsed + k * step)
            for k in range(1, steps + 1)
        ]

    def _twin(self) -> SimulatedMarket:
        """A copy that walks on independently: its own generator (in the same state), its
        own lists of shocks; the step constants are recomputed as it needs them."""
        twin = object.__new__(SimulatedMarket)
        for name in SimulatedMarket.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._rng = random.Random.__new__(random.Random)  # not seeded: its state is set
        twin._rng.setstate(self._rng.getstate())
        twin._uniform = twin._rng.random
        twin._pending = list(self._pending)
        twin._active = list(self._active)
        twin._steps = dict(self._steps)
        return twin

    def observe(self, time: datetime) -> Observation:
        """Advance the market to `time`, which must not be earlier than the previous call's;
        asked again at that time, the market shows what it showed (a lineage's heir is born
        at the instant its predecessor last looked)."""
        if self._start is None:
            return self._first(time)
        return self._advance(time, (time - self._start).total_seconds())

    def run(self, start: datetime, count: int | None = None) -> Iterator[Observation]:
        """Observations at `start` and every tick interval after it, `count` of them or
        without end."""
        interval = self._params.tick_interval
        offset = 0.0 if self._start is None else (start - self._start).total_seconds()
        k = 0
        time = start
        if self._start is None and count != 0:
            yield self._first(start)
            k = 1
            time = start + interval
        interval_s = self._interval_s
        advance = self._advance
        while count is None or k < count:
            # Elapsed seconds as k·interval, not a running sum, so no rounding creeps in.
            yield advance(time, offset + k * interval_s)
            time += interval
            k += 1

    def _first(self, time: datetime) -> Observation:
        if time.tzinfo is None:
            raise ValueError("time must be timezone-aware")
        self._start = time
        self._tick = 0
        step = self._step(self._regime, self._interval_s)
        self._grid_volume = step.volume * (1.0 + self._volume_sensitivity * MEAN_ABS_NORMAL)
        self._last = first = Observation(
            tick=0,
            time=time,
            price=self._price,
            volume=self._grid_volume,
            health_factor=None if self._hf_per_price is None else self._hf_per_price * self._price,
            funding_rate=step.funding,
            regime=self._regime,
        )
        return first

    def _advance(self, time: datetime, elapsed: float) -> Observation:
        """The observation at `elapsed` seconds: the grid walked up to the last step at or
        before it (a step at k·interval counts as reached within a microsecond of it)."""
        dt = elapsed - self._elapsed
        if dt <= 0.0:
            last = self._last
            if dt == 0.0 and last is not None and last.time == time:
                return last
            raise ValueError(f"time must move forward: {time.isoformat()} is not after the last")
        self._elapsed = elapsed
        self._last_step = dt
        interval = self._interval_s
        target = int((elapsed + 1e-6) // interval)
        volume, regime, funding = 0.0, self._regime, 0.0
        if target > self._grid:
            while self._grid < target:
                regime, funding = self._walk()
                volume += self._grid_volume
        else:
            # Between two grid steps: the price stands; the volume is the last step's rate.
            volume = self._grid_volume * dt / interval
            last = self._last
            if last is not None:
                regime, funding = last.regime or regime, last.funding_rate or 0.0
        price = self._price
        self._tick = tick = self._tick + 1
        hf = self._hf_per_price
        self._last = seen = Observation(
            tick, time, price, volume, None if hf is None else hf * price, funding, regime
        )
        return seen

    def _walk(self) -> tuple[Regime, float]:
        """One grid step: events, then the price's move and the step's volume; the regime
        (a shock's label while one lasts) and funding rate of the step."""
        t0 = self._grid * self._interval_s
        self._grid += 1
        t1 = self._grid * self._interval_s
        if t1 >= self._next_event or self._active:
            shock_move, shock_regime = self._events(t0, t1)
        else:
            shock_move, shock_regime = 0.0, None
        regime = self._regime if shock_regime is None else shock_regime
        step = self._step(regime, self._interval_s)
        # Box–Muller by hand: both normals of a pair are used (price, volume noise), and
        # it costs a third of two random.gauss() calls.
        uniform = self._uniform
        radius = _sqrt(-2.0 * _log(1.0 - uniform()))
        angle = _TWO_PI * uniform()
        z = radius * _cos(angle)
        drift = step.drift if shock_regime is None else step.ito + shock_move
        self._price *= _exp(drift + step.diffusion * z)
        self._grid_volume = (
            step.volume
            * (1.0 + self._volume_sensitivity * abs(z))
            * _exp(self._volume_noise * radius * _sin(angle))
        )
        return regime, step.funding

    def _events(self, t0: float, t1: float) -> tuple[float, Regime | None]:
        """Regime switches and shocks due in (t0, t1]: the shocks' log move over the step
        and the regime a shock imposes (None when no shock covers the step)."""
        rng = self._rng
        while self._regime_end <= t1:
            self._regime = self._next_regime(self._regime)
            self._regime_end += self._sojourn(self._regime)
        while self._pending and self._pending[0].start <= t1:
            self._active.append(self._pending.pop(0))
        random_shocks = self._params.random_shocks
        while random_shocks is not None and self._next_random <= t1:
            magnitude = max(
                rng.gauss(random_shocks.mean_magnitude, random_shocks.magnitude_std), -0.9
            )
            start = self._next_random
            self._active.append(
                Shock(
                    start=start,
                    end=start + random_shocks.duration.total_seconds(),
                    log_move=math.log1p(magnitude),
                    regime=Regime.CRASH if magnitude < 0 else Regime.VOLATILE,
                )
            )
            self._next_random = self._random_shock_wait(start)
        move = 0.0
        regime: Regime | None = None
        for shock in self._active:
            overlap = min(t1, shock.end) - max(t0, shock.start)
            if overlap > 0.0:
                move += shock.log_move * overlap / (shock.end - shock.start)
                regime = shock.regime
        self._active = [s for s in self._active if s.end > t1]
        self._next_event = self._earliest_event()
        return move, regime

    def _earliest_event(self) -> float:
        pending = self._pending[0].start if self._pending else math.inf
        return min(self._regime_end, pending, self._next_random)

    def _sojourn(self, regime: Regime) -> float:
        mean = self._params.regimes[regime].mean_duration.total_seconds()
        return self._rng.expovariate(1.0 / mean)

    def _next_regime(self, regime: Regime) -> Regime:
        transitions = self._params.regimes[regime].transitions
        draw = self._rng.random() * sum(transitions.values())
        for target, weight in transitions.items():
            draw -= weight
            if draw < 0.0 and weight > 0.0:
                return target
        return next(t for t, w in reversed(transitions.items()) if w > 0.0)

    def _random_shock_wait(self, after: float) -> float:
        shocks = self._params.random_shocks
        if shocks is None or shocks.rate_per_day == 0.0:
            return math.inf
        return after + self._rng.expovariate(shocks.rate_per_day / 86_400.0)

    def _step(self, regime: Regime, dt: float) -> Step:
        """The constants of a `dt`-second step in `regime`, computed once per pair: a
        golem whose heartbeat has slowed steps two or four intervals at a time for the
        rest of its life. (On a real clock every step differs a little: a few are kept.)"""
        step = self._steps.get((regime, dt))
        if step is None:
            if len(self._steps) >= _KEPT_STEPS:
                self._steps.clear()
            step = self._steps[regime, dt] = step_constants(
                self._params, regime, dt, self._interval_s
            )
        return step
