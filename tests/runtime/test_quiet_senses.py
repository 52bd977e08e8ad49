"""The senses' part of the fast-forward (issue [speed]) against the step-by-step tick: two
golems from the same config and market; one lives the heartbeats as `Golem.tick` observes,
pushes, hears, summarises, marks and probes, the other lives them through
`QuietSenses.begin`, `step` and `end`. Their markets, windows (running sums included),
what they heard, their marks and the summaries, prices and equities the stretch shows are
the same to the bit, and the quiet count is the first tick at which a probe fires (or a
feed item arrives, or the data ends)."""

from __future__ import annotations

import csv
import math
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.golem import Golem
from golem.runtime.quiet import Stretch
from golem.runtime.quiet_records import QuietRecords
from golem.runtime.quiet_senses import QuietSenses
from golem.runtime.store.state import StateStore
from golem.subsystems.heartbeat.probes import (
    ProbeConfig,
    ProbePolicy,
    ProbeThresholds,
    Reading,
    readings,
)
from golem.world import (
    CandleReplay,
    CSVReplay,
    MarketSource,
    MarketSummary,
    Regime,
    SimulatedMarket,
    TradeAction,
    read_candles,
)
from tests.runtime.test_life import routes

START = datetime(2026, 3, 1, tzinfo=UTC)
TICK = timedelta(seconds=15)
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "markets"
CRASH = SHARED / "crash_2021-05-19__binance_ETHUSDT_5m.csv"


def _regime(mean_s: int, **rest: Any) -> dict[str, Any]:
    return {"mean_duration": mean_s, "transitions": dict.fromkeys(Regime, 1.0), **rest}


# Regimes of a few minutes, random shocks and a scheduled one: a market that moves.
REGIMES = {
    "calm": _regime(900, drift=0.05, volatility=0.2),
    "trending": _regime(600, drift=4.0, volatility=0.4, volume_multiplier=1.3),
    "volatile": _regime(450, drift=-0.3, volatility=1.2, volume_multiplier=1.8),
    "crash": _regime(300, drift=-50.0, volatility=1.5, volume_multiplier=4.0),
}


def config(
    tmp_path: Path, *, seed: int, sigmas: float = 1.0, feed_at: int | None = None
) -> dict[str, Any]:
    world: dict[str, Any] = {
        "market": {
            "regimes": REGIMES,
            "random_shocks": {"rate_per_day": 100.0, "duration": 120},
            "shocks": [{"at": 900, "magnitude": -0.08, "duration": 300}],
        }
    }
    if feed_at is not None:
        world["feed"] = [{"at": f"{feed_at}s", "text": "ETH unlock next week"}]
    return {
        "golem": {"id": "g-quiet", "state_dir": str(tmp_path / "state"), "seed": seed},
        "mortality": {"initial_credits_usd": 5.0, "stochastic_death": False},
        "heartbeat": {"interval": "15s"},
        # Not a config key: `twin` compiles these thresholds into the golem's probes.
        "probes": {"band_sigmas": sigmas, "price_minor": 0.01 * sigmas},
        "world": world,
    }


# Probes that no move of this market fires: every tick is quiet but for the feed, the
# runway and the data's end.
LOOSE = {
    "price_minor": 0.5,
    "price_major": 0.9,
    "volume_spike": 1e9,
    "health_warning": 1e-9,
    "health_critical": 1e-10,
}


@dataclass
class Twin:
    """A golem, and the burn rate its probes read (decayed as each quiet tick's vitality
    update decays it: the vitals part's, here by its formula)."""

    golem: Golem

    @property
    def burn(self) -> float:
        return self.golem.chart.vitals.burn_rate_usd

    @burn.setter
    def burn(self, usd: float) -> None:
        chart = self.golem.chart
        chart.vitals = replace(chart.vitals, burn_rate_usd=usd)


@contextmanager
def twin(raw: dict[str, Any], market: MarketSource, burn: float) -> Iterator[Twin]:
    thresholds = ProbeThresholds(**raw["probes"])
    cfg = parse_config({k: v for k, v in raw.items() if k != "probes"})
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = Golem(cfg, store=store, market=market, routes=routes()[0], now=clock.now)
        golem.probes = ProbePolicy.of(ProbeConfig(thresholds=thresholds))
        store.set_meta("born", START.isoformat())
        made = Twin(golem)
        made.burn = burn
        yield made


def reference(t: Twin, time: datetime) -> tuple[MarketSummary, tuple[Reading, ...], float]:
    """The senses' share of `Golem.tick` at `time`: the summary, the probes that fired,
    the equity after the mark."""
    golem = t.golem
    observation = golem.market.observe(time)
    golem.senses.push(observation)
    golem.knowledge.hear(observation)
    market = golem.window.summary()
    golem.portfolio.mark(observation.price)
    fired = readings(
        market,
        golem.previous,
        credits_usd=golem.store.credits(),
        burn_rate_usd=t.burn,
        policy=golem.probes,
    )
    golem.previous = market
    decay = golem.policy.burn_decay
    t.burn = decay * t.burn + (1 - decay) * 0.0
    return market, fired, golem.portfolio.equity()


def part(t: Twin, allows: Callable[[tuple[Reading, ...]], bool] | None = None) -> QuietSenses:
    """The part as the driver makes it; `Senses.quiet` is the same with each piece named."""
    return QuietSenses.of(t.golem, allows)


def window_state(golem: Golem) -> dict[str, Any]:
    window = golem.window
    return {
        name: list(value) if hasattr(value, "maxlen") else value
        for name in type(window).__slots__
        for value in [getattr(window, name)]
    }


def senses_state(golem: Golem) -> dict[str, Any]:
    market = golem.market
    return {
        "window": window_state(golem),
        "unsaved": golem.senses.unsaved,
        "market": market.state() if hasattr(market, "state") else None,
        "heard": golem.memory.observations(10_000),
        "heard_until": golem.knowledge._heard_until,  # the feed heard up to
        "portfolio": golem.portfolio.to_dict(),
        "equity": golem.portfolio.equity(),
        "previous": golem.previous,
    }


def times_from(first: datetime, count: int, step: timedelta = TICK) -> list[datetime]:
    return [first + k * step for k in range(count)]


@dataclass
class Case:
    """Three golems on one market path: `probe` finds the reference's quiet count, `a`
    lives the kept ticks step by step, `b` lives them through the part."""

    probe: Twin
    a: Twin
    b: Twin
    step: timedelta = TICK
    start: datetime = START
    ends: datetime | None = None
    allows: Callable[[tuple[Reading, ...]], bool] | None = None
    fired: list[tuple[Reading, ...]] = field(default_factory=list)  # the part's, each tick
    refused: tuple[Reading, ...] = ()  # the probes of the tick that ended the stretch


def compare(case: Case, *, warm: int, length: int, keep: float, after: int = 40) -> int:
    """Warm all three up step by step (and buy), then live `length` heartbeats; `b`
    keeps a `keep` share of its quiet ticks; all live `after` more step by step. Returns
    the quiet count."""
    twins, step = (case.probe, case.a, case.b), case.step
    for time in times_from(case.start, warm, step):
        for t in twins:
            reference(t, time)
    for t in twins:  # a position, so that the equity follows the price
        t.golem.portfolio.apply(TradeAction.REBALANCE, t.golem.window.summary().price, 2_000.0)
    times = times_from(case.start + warm * step, length, step)
    senses = part(case.b, case.allows)
    stretch = Stretch(first_tick=warm, times=times)
    quiet = senses.begin(stretch)
    assert len(stretch.summaries) == len(stretch.prices) == len(stretch.equities) == quiet
    # The reference's count: the first tick a probe fires, a feed item arrives, or the
    # data has ended (the step path's heartbeat ends the life there).
    lived: list[tuple[MarketSummary, tuple[Reading, ...], float]] = []
    for time in times:
        if case.ends is not None and time > case.ends:
            break
        feed = len(case.probe.golem.memory.feed(100))
        summary, fired, equity = reference(case.probe, time)
        if fired and (case.allows is None or not case.allows(fired)):
            case.refused = fired
            break
        if len(case.probe.golem.memory.feed(100)) > feed:
            break
        lived.append((summary, fired, equity))
    assert quiet == len(lived)
    assert stretch.summaries == [s for s, _, _ in lived]
    assert senses.fired == [f for _, f, _ in lived]
    case.fired = senses.fired
    assert stretch.prices.tolist() == [s.price for s, _, _ in lived]
    assert stretch.equities.tolist() == [e for _, _, e in lived]
    done = math.floor(keep * quiet)
    for i in range(done):
        assert senses.step(i) == ()
    senses.end(done)
    if done:  # marked once, at the last tick lived (no part reads it before)
        assert case.b.golem.portfolio.equity() == stretch.equities[done - 1]
    if done:
        case.b.golem.previous = senses.last
    case.b.burn = _decayed(case.b, done)
    for time in times[:done]:
        reference(case.a, time)
    assert senses_state(case.b.golem) == senses_state(case.a.golem)
    assert case.b.burn == case.a.burn
    for time in times_from(times[done] if done < len(times) else times[-1] + step, after, step):
        if case.ends is not None and time > case.ends:
            break
        assert reference(case.b, time) == reference(case.a, time)
    assert senses_state(case.b.golem) == senses_state(case.a.golem)
    market = case.a.golem.market
    if isinstance(market, SimulatedMarket | CandleReplay):
        assert market.ahead(5) == case.b.golem.market.ahead(5)  # type: ignore[attr-defined]
    return quiet


def _decayed(t: Twin, ticks: int) -> float:
    """The burn rate after `ticks` quiet ticks (the vitals part's; here by the formula)."""
    decay, burn = t.golem.policy.burn_decay, t.burn
    for _ in range(ticks):
        burn = decay * burn + (1 - decay) * 0.0
    return burn


@contextmanager
def case_of(raw: dict[str, Any], market: Any, *, burn: float = 0.0, **kw: Any) -> Iterator[Case]:
    """Three twins on three copies of `market` (a factory of fresh sources)."""
    base = Path(raw["golem"]["state_dir"])
    dirs = [{**raw, "golem": {**raw["golem"], "state_dir": str(base / n)}} for n in "pab"]
    with (
        twin(dirs[0], market(), burn) as probe,
        twin(dirs[1], market(), burn) as a,
        twin(dirs[2], market(), burn) as b,
    ):
        yield Case(probe, a, b, **kw)


def simulated(raw: dict[str, Any]) -> Any:
    cfg = parse_config({k: v for k, v in raw.items() if k != "probes"})
    return lambda: SimulatedMarket(cfg.golem.seed, cfg.world.market)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    warm=st.integers(25, 400),
    length=st.integers(1, 300),
    keep=st.sampled_from([0.0, 0.5, 1.0]),
    sigmas=st.sampled_from([1.0, 2.5, 6.0]),
)
def test_a_simulated_stretch_is_the_step_by_step_ticks(
    seed: int, warm: int, length: int, keep: float, sigmas: float
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = config(Path(tmp), seed=seed, sigmas=sigmas)
        with case_of(raw, simulated(raw)) as case:
            compare(case, warm=warm, length=length, keep=keep)


def test_a_long_quiet_stretch_through_a_shock(tmp_path: Path) -> None:
    """Loose probes: hundreds of quiet ticks, the scheduled shock at 900 s inside them;
    kept whole, in part and not at all."""
    counts = []
    for keep in (1.0, 0.3, 0.0):
        raw = config(tmp_path / str(keep), seed=3, sigmas=50.0)
        raw["probes"] |= LOOSE
        with case_of(raw, simulated(raw)) as case:
            counts.append(compare(case, warm=30, length=400, keep=keep))
    assert counts == [400, 400, 400]


@pytest.mark.parametrize(("runway", "quiet"), [(5759.9, 0), (5760.1, 50)])
def test_a_low_runway_is_not_quiet(tmp_path: Path, runway: float, quiet: int) -> None:
    """Credits of 5 at the stretch's start last `runway` ticks at its burn rate (after
    the 30 ticks of warming up): under a day's 5,760 the runway probe fires on the first
    tick; just over it, never (the rate decays on every quiet tick)."""
    raw = config(tmp_path, seed=1, sigmas=50.0)
    raw["probes"] |= LOOSE
    with case_of(raw, simulated(raw), burn=5.0 / runway / 0.95**30) as case:
        assert compare(case, warm=30, length=50, keep=1.0) == quiet


def test_probes_a_driver_allows_keep_the_stretch_going(tmp_path: Path) -> None:
    """A driver that lives ticks whose probes the rules answer at T0 (here: any probe)
    reads each tick's probes from `fired`; the runway probe fires while the burn rate,
    decaying tick by tick, is high, and stops when credits / burn passes a day."""
    raw = config(tmp_path, seed=2, sigmas=1.0)
    with case_of(raw, simulated(raw), burn=5.0 / 5000 / 0.95**30, allows=bool) as case:
        assert compare(case, warm=30, length=120, keep=0.7) == 120
        runway = case.b.golem.probes.runway_low
        low = [runway in fired for fired in case.fired]
        assert low[0] and not low[-1] and low == sorted(low, reverse=True)
        assert any(fired and runway not in fired for fired in case.fired)  # the band's


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), keep=st.sampled_from([0.0, 0.5, 1.0]))
@example(seed=2, keep=1.0)
def test_the_rules_allowance_lives_probes_below_the_gate_and_stops_at_a_flip(
    seed: int, keep: float
) -> None:
    """The driver's allowance (the records part's `allows`: no regime flip, no critical
    health factor, PE below θ's largest in the stretch): a stretch lives the ticks whose probes
    the rules may answer at T0 with no event, as step by step, each tick's probes in
    `Stretch.fired` for the records part, and ends before the first tick it refuses."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = config(Path(tmp), seed=seed, sigmas=1.0)
        with case_of(raw, simulated(raw)) as case:
            policy = case.b.golem.probes
            case.probe.golem.probes = case.a.golem.probes = policy  # one life's readings
            case.allows = QuietRecords.of(case.b.golem).allows
            length = 200
            quiet = compare(case, warm=30, length=length, keep=keep)
            flips = [r for r in policy.band_moves.values() if r.flip]
            assert not any(r in flips or r is policy.health_critical for f in case.fired for r in f)
            if seed == 2:  # an example: probes lived below the gate, a flip refused
                assert any(case.fired) and quiet < length
                assert any(r.flip for r in case.refused)


def test_a_feed_item_ends_the_quiet(tmp_path: Path) -> None:
    """An item due 10.5 heartbeats into the stretch: heard on its 11th tick, not quiet."""
    raw = config(tmp_path, seed=5, sigmas=50.0, feed_at=(30 + 10) * 15 + 7)
    raw["probes"] |= LOOSE
    with case_of(raw, simulated(raw)) as case:
        assert compare(case, warm=30, length=50, keep=1.0) == 11


def write_csv(path: Path, rows: int, every: timedelta) -> Path:
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["time", "price", "volume"])
        for k in range(rows):
            price = 2000.0 * (1.0 + 0.0004 * math.sin(k / 7.0))
            out.writerow([(START + k * every).isoformat(), price, 100.0 + (k % 5)])
    return path


@pytest.mark.parametrize(("every", "keep"), [(TICK, 1.0), (4 * TICK, 0.5)])
def test_a_csv_replay_stretch_stops_where_the_data_ends(
    tmp_path: Path, every: timedelta, keep: float
) -> None:
    """Rows every 15 s (or 60 s, each shown to four heartbeats), ending 150 heartbeats
    in; a stretch of 300 lives to the last row's time and no further."""
    path = write_csv(tmp_path / "m.csv", 150 * TICK // every + 1, every)
    raw = config(tmp_path, seed=0, sigmas=3.0)
    with case_of(raw, lambda: CSVReplay(path), ends=START + 150 * TICK) as case:
        quiet = compare(case, warm=30, length=300, keep=keep)
    assert quiet <= 121


@pytest.mark.skipif(not CRASH.exists(), reason="../shared market data is absent")
@pytest.mark.parametrize("keep", [1.0, 0.5])
def test_a_candle_replay_stretch_is_the_step_by_step_ticks(tmp_path: Path, keep: float) -> None:
    """Real candles of the May 2021 crash, a heartbeat a quarter of a 5-minute candle;
    stretches from several days of it (the crash on the 19th among them)."""
    candles = read_candles(CRASH)
    step = timedelta(seconds=75)
    quiets = []
    for day in (0.5, 3, 9, 9.4, 12):
        raw = config(tmp_path / str(day), seed=0, sigmas=2.0)
        start = candles.start + timedelta(days=day)
        with case_of(raw, lambda: CandleReplay(candles, step), step=step, start=start) as case:
            quiets.append(compare(case, warm=30, length=120, keep=keep))
    assert any(quiets), quiets


class Unforeseeable:
    """A source that can only be asked (a live exchange is one)."""

    def __init__(self) -> None:
        self.market = SimulatedMarket(0)

    def observe(self, time: datetime) -> Any:
        return self.market.observe(time)


def test_a_source_that_cannot_look_ahead_lives_every_tick_step_by_step(tmp_path: Path) -> None:
    raw = config(tmp_path, seed=0, sigmas=50.0)
    with twin(raw, Unforeseeable(), 0.0) as t:
        for time in times_from(START, 30):
            reference(t, time)
        golem = t.golem
        senses = golem.senses.quiet(
            portfolio=golem.portfolio,
            knowledge=golem.knowledge,
            probes=golem.probes,
            store=golem.store,
            chart=golem.chart,
            burn_decay=golem.policy.burn_decay,
            previous=lambda: golem.previous,
        )
        stretch = Stretch(first_tick=30, times=times_from(START + 30 * TICK, 10))
        assert senses.begin(stretch) == 0
        senses.end(0)
        assert t.golem.senses.unsaved == 30


def test_a_newborn_golem_lives_its_first_tick_step_by_step(tmp_path: Path) -> None:
    raw = config(tmp_path, seed=0)
    with twin(raw, SimulatedMarket(0), 0.0) as t:
        stretch = Stretch(first_tick=0, times=times_from(START, 10))
        assert part(t).begin(stretch) == 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    keeps=st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=8),
    sigmas=st.sampled_from([1.0, 2.5]),
)
@example(seed=1, keeps=[1.0, 1.0, 1.0, 1.0], sigmas=1.0)
@example(seed=2, keeps=[1.0, 0.0, 1.0, 0.5, 1.0, 1.0], sigmas=2.5)
def test_a_life_of_stretches_is_the_step_by_step_life(
    seed: int, keeps: list[float], sigmas: float
) -> None:
    """As the driver lives: stretches (each keeping a share of its quiet ticks), the tick
    that ended each lived step by step (once 7 s late, another time than the lookahead
    saw; a slower heartbeat from then on), against a life of step-by-step ticks only."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = config(Path(tmp), seed=seed, sigmas=sigmas)
        with case_of(raw, simulated(raw)) as case:
            a, b = case.a, case.b
            now, step, seen = START, TICK, []
            for _ in range(30):
                seen.append((reference(a, now), reference(b, now)))
                now += step
            senses = part(b)
            for round_, keep in enumerate(keeps):
                if round_ == len(keeps) // 2:
                    step = 2 * TICK  # the heartbeat slows: the next tick is not one seen
                times = times_from(now, 60, step)
                stretch = Stretch(first_tick=0, times=times)
                done = math.floor(keep * senses.begin(stretch))
                for i in range(done):
                    senses.step(i)
                senses.end(done)
                if done:
                    b.golem.previous = senses.last
                b.burn = _decayed(b, done)
                for i in range(done):
                    summary, _, equity = reference(a, times[i])
                    assert (summary, equity) == (stretch.summaries[i], stretch.equities[i])
                now = times[done] if done < len(times) else times[-1] + step
                if round_ == len(keeps) // 2 - 1:
                    now += timedelta(seconds=7)
                seen.append((reference(a, now), reference(b, now)))  # the tick that ended it
                now += step
                assert senses_state(b.golem) == senses_state(a.golem)
            assert all(x == y for x, y in seen)


def test_a_feed_not_yet_placed_is_not_quiet(tmp_path: Path) -> None:
    """A feed is placed on the clock at the first observation heard (a life resumed in a
    new process has heard none): until then no tick is quiet; after it, until its item."""
    raw = config(tmp_path, seed=0, sigmas=50.0, feed_at=600)
    with twin(raw, SimulatedMarket(0), 0.0) as t:
        knowledge = t.golem.knowledge
        assert not knowledge.hears_nothing(START)
        reference(t, START)
        assert knowledge.hears_nothing(START + timedelta(seconds=599))
        assert not knowledge.hears_nothing(START + timedelta(seconds=600))
