"""A simulated life's foresight, a capability its world offers the minds that read it
(golem.simulation.foresight): with a quality, every model call's Ask, as the mind reads
it, carries the world's truth at its tick, which is exactly what the market then does; the
market looks ahead at most once a tick and its path is the one it walks without looking.
The golem's runtime never carries it: the requests it sends hold no truth, and a life
whose minds are not offered it (the daemon's) looks nothing up."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path

from golem.inference import Request, Response
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, PipelineProfile
from golem.runtime.asking import Route, Routes
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.golem import LifeOptions
from golem.runtime.life import assemble
from golem.runtime.markets import make_market
from golem.runtime.store.state import StateStore
from golem.simulation.foresight import Foresight
from golem.subsystems.facts import Ask
from golem.world import Observation, SimulatedMarket
from tests.runtime.test_life import PRICE, START, answer, config

HORIZON = 20


class Watched(SimulatedMarket):
    """A market that keeps what it showed and counts its looks ahead (by their tick)."""

    looks: list[int]
    shown: list[Observation]

    def observe(self, time: datetime) -> Observation:
        self.shown.append(super().observe(time))
        return self.shown[-1]

    def ahead(self, steps: int) -> list[Observation]:
        self.looks.append(self._tick)
        return super().ahead(steps)


def always(tier: ModelTier, tokens: int, profile: PipelineProfile) -> float:
    return 1.0


async def live(tmp_path: Path, *, seeing: bool) -> tuple[list[Ask], Watched]:
    """An hour of a jumpy golem's life; each call's Ask as a mind reads it (told by the
    world's foresight when `seeing`), after checking the request itself carried no truth."""
    data = config(tmp_path).model_dump(mode="json")
    data["heartbeat"] |= {"theta_base": 0.06, "theta_min": 0.04}  # a jumpy golem: many calls
    cfg = parse_config(data)
    plain = make_market(cfg)
    assert isinstance(plain, SimulatedMarket)
    market = Watched(plain.seed, plain.params)
    market.looks, market.shown = [], []
    foresight = Foresight(market, always, cfg.world.portfolio.costs)
    read: list[Ask] = []

    def mind(request: Request) -> Response | str:
        ask = request.facts
        assert isinstance(ask, Ask) and (ask.truth, ask.informed) == (None, 0.0)
        read.append(foresight.told(ask) if seeing else ask)
        return answer(request)

    provider = ScriptedProvider([mind] * 10_000)
    route = Route(provider, "scripted-1", PRICE)
    provider_routes = Routes({ModelTier.T1: route, ModelTier.T2: route}, death=route)
    with StateStore.open(cfg.golem.state_dir) as store:
        life, _ = assemble(
            cfg,
            clock=VirtualClock(START),
            store=store,
            routes=provider_routes,
            options=LifeOptions(resumable=False),
            market=market,
        )
        await life.run(duration=timedelta(hours=1))
    return read, market


async def test_every_model_call_knows_what_the_market_then_does(tmp_path: Path) -> None:
    asks, market = await live(tmp_path / "seeing", seeing=True)
    assert len(asks) >= 20
    path, exact = market.shown, 0
    for ask in asks:
        truth, tick = ask.truth, ask.ctx.observation.tick
        assert truth is not None and ask.informed == 1.0 and truth.tick == tick
        assert (truth.price, truth.regime) == (path[tick].price, path[tick].regime)
        # Exact while the heartbeat keeps its pace over the horizon (a phase that slows it
        # makes the truth the move at the old pace).
        steps = {b.time - a.time for a, b in pairwise(path[tick - 1 : tick + HORIZON + 1])}
        if tick > 0 and len(steps) == 1 and tick + HORIZON < len(path):
            assert truth.future_return == path[tick + HORIZON].price / path[tick].price - 1
            exact += 1
    assert exact >= 10
    assert len(market.looks) == len(set(market.looks))  # at most once a tick
    assert set(market.looks) == {ask.ctx.observation.tick for ask in asks}

    blind, unwatched = await live(tmp_path / "blind", seeing=False)
    assert unwatched.state() == market.state()  # looking ahead moved nothing
    assert unwatched.looks == []
    assert {(ask.truth, ask.informed) for ask in blind} == {(None, 0.0)}
