"""`golem simulate`: one lineage on a virtual clock, through the daemon's own pieces
(`assemble`, `Life.run`, the state store, the decision log) with the synthetic provider
and a simulated market: the founder's life and, when it dies with money left, its
successors' (lineage.py), one after another in the same world. The result is summary.json
(summary.py), the logs, and the data for the plots, over the whole lineage's time.
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import trio

from golem.mortality import PolicyName, utc_day
from golem.oracle import OracleGenome
from golem.runtime import (
    Golem,
    Job,
    LifeOptions,
    ProviderPool,
    Routes,
    VirtualClock,
    assemble,
    build_routes,
    every,
    make_market,
)
from golem.runtime.config import GolemConfig
from golem.runtime.heritage import keep
from golem.runtime.logs import configure_logging
from golem.runtime.notify import Notifier
from golem.runtime.store import StateStore
from golem.runtime.telemetry import traces_of
from golem.simulation.control import WouldHaveDied
from golem.simulation.diversity import Strategies
from golem.simulation.foresight import Foresight
from golem.simulation.injection import InjectionTally
from golem.simulation.judgement import Judgement, Rightness
from golem.simulation.lineage import Generation, Heir, heir_of, successor_config
from golem.simulation.outcomes import Outcomes
from golem.simulation.performance import net_returns
from golem.simulation.scenario import Scenario, load_scenario
from golem.simulation.summary import LifeResult, days_of, engine_of, lineage_result
from golem.simulation.tally import Tally
from golem.subsystems.minds import MINDS
from golem.world import ForeseeableSource, MarketSource

__all__ = ["LifeSpec", "live", "run_life"]

_DAY = timedelta(days=1)
_COMMIT_EVERY = 2_000  # ticks per commit: the simulator's state is never resumed
_DEATH = "death"  # the subsystem whose charges are the testament's


@dataclass(frozen=True, slots=True)
class LifeSpec:
    """One life to simulate (picklable, for a worker process)."""

    scenario: Path
    seed: int
    out: Path
    days: float | None = None
    policy: PolicyName | None = None  # the scenario's ([mortality] policy) by default
    # Keep the full record: out/golem.log and out/state/golem.db (a 30-day life's are some
    # 150 and 30 MB); without it a life leaves its summary.json and testament only.
    record: bool = True
    # Set in the scenario before it is read (`golem simulate --set`): (dotted key, value).
    overrides: tuple[tuple[str, Any], ...] = ()
    # A real model (`golem simulate --provider`): its key from the environment, and no
    # truth computed for minds it does not have.
    real_model: bool = False


def run_life(spec: LifeSpec, on_tick: Callable[[float], None] | None = None) -> LifeResult:
    """Live `spec` to its end and write out/summary.json (and, if `spec.record`, keep
    out/golem.log and the state database).
    summary.json is written last and whole (renamed into place), so it is there only for a
    life that finished: an interrupted life leaves its log and state as they were."""
    scenario = load_scenario(spec.scenario, dict(spec.overrides), real_model=spec.real_model)
    return trio.run(live, scenario, spec, on_tick)


def seeded(
    config: GolemConfig, seed: int, out: Path, policy: PolicyName | None = None
) -> GolemConfig:
    """The scenario's config for `seed` (and `policy`, if given), its state and log under
    `out`."""
    providers = config.providers.model_copy(
        update={"synthetic": config.providers.synthetic.model_copy(update={"seed": seed})}
    )
    return config.model_copy(
        update={
            "golem": config.golem.model_copy(update={"seed": seed, "state_dir": out / "state"}),
            "world": config.world.model_copy(update={"seed": seed}),
            "mortality": config.mortality.model_copy(
                update={"seed": seed, "policy": PolicyName(policy or config.mortality.policy)}
            ),
            "providers": providers,
            "logging": config.logging.model_copy(
                update={"file": out / "golem.log", "console": "off"}
            ),
        }
    )


@dataclass
class World:
    """What the generations of one lineage share: the clock, the market and the providers
    (the world goes on when a golem dies), the subscribers that measure the lineage, the
    days whose income was credited, and every charge paid, as (time, subsystem, USD, DIEM)."""

    scenario: Scenario
    spec: LifeSpec
    clock: VirtualClock
    market: MarketSource
    routes: Routes
    tally: Tally
    outcomes: Outcomes
    end: datetime
    judgement: Judgement = field(default_factory=Judgement)
    injection: InjectionTally | None = None  # an attack simulation's (see _injection)
    strategies: Strategies = field(default_factory=Strategies)
    # An immortal life's mortal shadow: when the mortal clocks would have ended it.
    shadow: WouldHaveDied | None = None
    credited: set[str] = field(default_factory=set)
    founding: dict[str, Any] | None = None  # the founder's portfolio at birth (baselines)
    charges: list[tuple[datetime, str, float, float]] = field(default_factory=list)
    oracle: list[dict[str, Any]] = field(default_factory=list)  # each generation's engine


async def live(
    scenario: Scenario, spec: LifeSpec, on_tick: Callable[[float], None] | None = None
) -> LifeResult:
    """Live `spec`'s lineage: the founder (in `spec.out`) and each successor (in
    `spec.out`/generation-N) until one ends without an heir; then write summary.json."""
    sim = scenario.simulation
    config = seeded(scenario.config, spec.seed, spec.out, spec.policy)
    market = scenario.replay or make_market(config, candles=scenario.candles)
    world = World(
        scenario,
        spec,
        VirtualClock(sim.start),
        market,
        build_routes(_pool(scenario, spec, config, market)),
        Tally(sim.start, on_tick),
        Outcomes(sim.start),
        sim.start + scenario.horizon(spec.days),
        injection=_injection(config),
        shadow=WouldHaveDied.of(config, sim.start),
    )
    for stale in spec.out.glob("generation-*"):  # an earlier run's successors
        shutil.rmtree(stale)
    generations: list[Generation] = []
    heir: Heir | None = None
    while True:
        if heir is None:
            generation, golem = await _generation(world, config, spec.out, None)
        else:
            out = spec.out / f"generation-{heir.generation}"
            heirs = successor_config(seeded(config, spec.seed, out), heir)
            generation, golem = await _generation(world, heirs, out, heir)
        generations.append(generation)
        heir = heir_of(
            generation,
            golem.portfolio.to_dict(),
            sim.succession,
            time_left=world.clock.now() < world.end,
            reserve=config.mortality.reserve,
            genome=OracleGenome.of(golem.predictor.oracle),
        )
        if heir is None:
            break
    result = lineage_result(world, generations, golem)
    partial = spec.out / "summary.json.partial"
    partial.write_bytes(
        orjson.dumps(result.summary, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
    )
    partial.replace(spec.out / "summary.json")
    return result


def _pool(
    scenario: Scenario, spec: LifeSpec, config: GolemConfig, market: MarketSource
) -> ProviderPool:
    """The lineage's providers: a real model's, its key from the environment; else the
    synthetic provider, whose minds see the world's truth as the quality table says (on
    a market that can look ahead)."""
    if spec.real_model:
        return ProviderPool(config, os.environ)
    minds = MINDS
    if isinstance(market, ForeseeableSource):
        accuracy = scenario.quality.accuracy()
        minds = Foresight(market, accuracy, config.world.portfolio.costs).minds(MINDS)
    return ProviderPool(config, {}, minds)


async def _generation(
    world: World, config: GolemConfig, out: Path, heir: Heir | None
) -> tuple[Generation, Golem]:
    """Live one golem of the lineage in `out` from now until it dies or the horizon comes;
    an heir is born with its predecessor's portfolio and lessons in its state."""
    sim, clock, spec = world.scenario.simulation, world.clock, world.spec
    out.mkdir(parents=True, exist_ok=True)
    for name in ("summary.json", "golem.log"):
        (out / name).unlink(missing_ok=True)
    for stale in (out / "state").glob("golem.db*"):
        stale.unlink()
    default_income = config.mortality.income_usd_per_day
    bias = sim.prediction_bias
    options = LifeOptions(
        resumable=False,
        forecast_bias=None if bias is None else lambda now: bias.at(days_of(now - sim.start)),
        fast_forward=sim.fast_forward,
    )
    born = clock.now()
    # [notify]: the life's notices go out as they happen, in real time, rate-limited.
    notifier = Notifier.of(config.notify, config.golem.id, os.environ)
    traces = traces_of(config.telemetry, config.golem.id)  # [telemetry]: spans over OTLP
    with (
        notifier or nullcontext(),
        StateStore.open(
            config.golem.state_dir, synchronous="OFF", commit_every=_COMMIT_EVERY
        ) as store,
        configure_logging(
            now=clock.now,
            file=config.log_file if spec.record else None,
            console="off",
            buffered=True,
        ) as sinks,
        traces or nullcontext(),  # closed first: its telemetry_unsent line reaches the log
    ):
        if heir is not None:
            store.save_portfolio(0, heir.portfolio)
            for entry in heir.lessons:
                store.save_grimoire_entry(entry)
            if heir.genome is not None:
                keep(store, heir.genome)
        life, _ = assemble(
            config,
            clock=clock,
            store=store,
            routes=world.routes,
            options=options,
            market=world.market,
            subscribers=[
                sinks.publish,
                world.tally,
                world.outcomes,
                world.judgement,
                world.strategies,
                *([world.shadow] if world.shadow is not None else []),
                *([world.injection] if world.injection is not None else []),
                *([notifier.publish] if notifier is not None else []),
                *([traces.publish] if traces is not None else []),
            ],
        )
        if notifier is not None:
            life.scheduler.on_failed = notifier.job_failed
            notifier.watch_approvals(life.golem.desk.approvals)
            life.golem.desk.tell_blocked = notifier.trade_blocked
        golem = life.golem
        world.judgement.rightness = Rightness.of(golem)
        born_with = golem.portfolio.to_dict()
        if world.founding is None:
            world.founding = born_with
        world.outcomes.new_life()
        world.strategies.new_life()

        async def credit_income(*_: object) -> None:
            # Each day's income once to the lineage: an heir born on a day its
            # predecessor was paid for takes over the rate, not the money again.
            key = f"income:{utc_day(clock.now())}"
            usd = sim.income_on(days_of(clock.now() - sim.start), default_income)
            if key in world.credited:
                golem.income_usd_per_day = usd
                return
            world.credited.add(key)
            golem.credit_income(key, usd)

        life.scheduler.add(Job("income", every(_DAY, start=sim.start + _DAY), credit_income))
        await credit_income()
        ended = await life.run(duration=world.end - clock.now())
        world.oracle.append(engine_of(golem))
        store.flush()
        death = store.death()
        spent = _charges(store, born, clock.now())
        world.charges += spent
        spend_usd = math.fsum(usd for _, _, usd, _ in spent)
        testament_usd = math.fsum(usd for _, subsystem, usd, _ in spent if subsystem == _DEATH)
        outcomes = world.outcomes
        returns = net_returns(
            born_with,
            outcomes.life_first_price,
            outcomes.last_price,
            golem.portfolio.equity(),
            spend_usd,
        )
        files = death["testament"] if death else []
        generation = Generation(
            number=1 if heir is None else heir.generation,
            born_day=days_of(born - sim.start),
            ended_day=days_of(clock.now() - sim.start),
            ended="died" if death else "data_ended" if ended == "data_ended" else "horizon",
            cause_of_death=death["cause"] if death else None,
            ticks=golem.tick_no,
            funded_usd=store.initial_credits() or 0.0,
            income_usd=store.income(),
            spend_usd=spend_usd,
            testament_usd=testament_usd if death else 0.0,
            credits_left_usd=store.credits(),
            inherited_lessons=0 if heir is None else len(heir.lessons),
            testament_by_model=world.tally.death_source == "model" if death else None,
            testament=Path(files[0]) if files else None,
            returns=returns,
        )
    if not spec.record:
        for database in (out / "state").glob("golem.db*"):
            database.unlink()
    return generation, golem


def _injection(config: GolemConfig) -> InjectionTally | None:
    """The attack tally, for a scenario whose feed carries attacks (items that say what
    they ask for) or whose synthetic model is compromised; None for any other."""
    if not any(e.asks for e in config.world.feed) and config.providers.synthetic.compromised <= 0:
        return None
    return InjectionTally()


def _charges(
    store: StateStore, since: datetime, until: datetime
) -> list[tuple[datetime, str, float, float]]:
    """Every charge in `store`'s ledger, of the days from `since` to `until`."""
    days = math.ceil(days_of(until - since)) + 1  # the UTC days from `since`'s to `until`'s
    return [
        (charge.time, str(charge.subsystem), charge.usd, charge.diem)
        for offset in range(days)
        for charge in store.ledger.charges(utc_day(since + offset * _DAY))
    ]
