"""The Golem: one life, assembled from its state store, clock, market and providers.

`tick()` is the heartbeat job: the owner's commands (`control.obey`), then observe, probe,
decide (escalate, ask risk, trade), record the episode, recompute vitality, appraise, and
die when a clock runs out. The scheduled jobs are `jobs.curate` and `jobs.dream`. Each
decision and each vitality reading worth telling is published on `stream` (the log file
and the simulator's tally subscribe). The daemon and the simulator drive the same object;
they differ only in clock, providers and world.
Its bookkeeping lives beside it: trades in `trading.py`, vitality and its grace clocks in
`vitals.py`, episodes in `episodes.py`, the grimoire and what it hears in `knowledge.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import structlog

from golem.inference.secrets import Redaction
from golem.mortality import (
    DeathCause,
    Vitals,
)
from golem.oracle import GateParams as OracleGate
from golem.runtime.approvals import Approvals
from golem.runtime.asking import Budgeting, Routes
from golem.runtime.compiled import Compiled
from golem.runtime.config.sections import GolemConfig
from golem.runtime.control import Control, obey
from golem.runtime.decide import Decisions
from golem.runtime.episodes import EpisodeBook, forecast
from golem.runtime.fast_forward import FastForward
from golem.runtime.heritage import in_step
from golem.runtime.jobs import JobRuns
from golem.runtime.kept_requests import RequestKeeper
from golem.runtime.knowledge import Knowledge
from golem.runtime.memo import DecisionMemo
from golem.runtime.options import LifeOptions, NowClock
from golem.runtime.passing import Passing
from golem.runtime.predictions import Predictor
from golem.runtime.provenance import untraded
from golem.runtime.purse import Purse, means
from golem.runtime.record import DecisionRecord
from golem.runtime.senses import Senses
from golem.runtime.situation import situation
from golem.runtime.store.state import StateStore
from golem.runtime.stream import RecordStream, Subscriber
from golem.runtime.trading import TradingDesk
from golem.runtime.vitals import VitalsChart
from golem.subsystems.context import Memory
from golem.subsystems.contract import Event, Mood, Situation
from golem.subsystems.curator import Curator
from golem.subsystems.daimon import Daimon
from golem.subsystems.dream import Dream
from golem.subsystems.heartbeat import (
    HORIZON_TICKS,
    Heartbeat,
    compute_probes,
    escalated,
)
from golem.subsystems.risk import Risk
from golem.world import (
    EpisodeLog,
    MarketSource,
    MarketSummary,
    PaperPortfolio,
)

__all__ = ["HORIZON_TICKS", "Golem", "LifeOptions"]

log = structlog.get_logger("golem")


class Golem:
    """One golem's life. Methods are called by one task at a time (the scheduler)."""

    def __init__(
        self,
        config: GolemConfig,
        *,
        store: StateStore,
        market: MarketSource,
        routes: Routes,
        now: Callable[[], datetime],
        options: LifeOptions | None = None,
        subscribers: Iterable[Subscriber] = (),
    ) -> None:
        self.stream = RecordStream(subscribers, hold=store.at_commit)
        if config.golem.keep_requests is not None:  # each model decision's, for replay
            keeper = RequestKeeper(store.requests, config.golem.keep_requests)
            self.stream.subscribe(keeper, within=True)
        store.settle_bills()  # what a killed life was billed for, in the tick it lost
        self.store = store
        self.market = market
        self.routes = routes
        self.now = now
        self.options = options or LifeOptions()
        self.on_death: Callable[[], None] = lambda: None
        # The config compiled once for this life: what ticks and decisions read of it.
        self.compiled = compiled = Compiled.of(config)
        self.policy, self.probes = compiled.mortality, compiled.probes
        self.schedule = compiled.schedule
        self.risk, self.daimon = Risk(compiled.risk), Daimon(compiled.daimon)
        self.heartbeat = Heartbeat(compiled.heartbeat)
        self._golem_id, self.wallet = config.golem.id, config.golem.wallet
        self.memo = DecisionMemo(compiled.memo) if compiled.memo.active else None
        self._appraises = compiled.appraises
        self.curator, self.dreamer = Curator(compiled.curator), Dream(compiled.dream)

        store.identify(config.golem.id, config.golem.seed)
        if store.initial_credits() is None:
            store.fund(config.mortality.initial_credits_usd, now())
        resumed = store.resume()
        self.tick_no = resumed.tick
        self.dead = resumed.death is not None
        self.control = Control(  # paused, the owner's daily budget and messages
            compiled.golem_id, compiled.budget_bounds, store, Redaction(self.options.secrets)
        )
        self.mood = (resumed.mood if self._appraises else None) or Mood()
        self.grimoire = {entry.id: entry for entry in resumed.grimoire}
        episodes = EpisodeLog()
        for episode in resumed.episodes:
            episodes.append(episode)
        # What the context layers retrieve from, indexed; the book and the knowledge below
        # keep it in step with the episodes and the grimoire.
        self.memory = Memory.of(self.grimoire.values(), episodes)
        self.episodes = EpisodeBook(episodes, store, self.memory)
        self.knowledge = Knowledge(self.grimoire, store, self.memory, config.world.feed)
        self.portfolio = (
            PaperPortfolio.from_dict(resumed.portfolio)
            if resumed.portfolio
            else PaperPortfolio(config.world.cash_usd, config.world.portfolio)
        )
        gating = config.prediction.gate
        self.predictor = Predictor(
            store.predictions,
            golem_id=self._golem_id,
            horizon=config.heartbeat.interval * HORIZON_TICKS,
            costs=config.world.portfolio.costs,
            gate=OracleGate(
                category_threshold=gating.category_threshold,
                inaction_comparison=gating.inaction_comparison,
                inaction_margin=gating.inaction_margin,
            ),
            gating=gating.enabled,
            corrector=compiled.corrector,
            calibration=compiled.calibration,
            novelty_threshold=compiled.novelty_threshold,
        )
        in_step(store, self.predictor, self._golem_id)  # an heir's OracleGenome; rollbacks
        self.chart = VitalsChart(
            store,
            self.policy,
            golem_id=self._golem_id,
            now=now,
            publish=self.stream.publish,
            last=resumed.vitality,
        )
        self.confidence: float | None = store.get_meta("last_confidence")
        self.senses = Senses(market, store, golem_id=self._golem_id)
        self.window = self.senses.window
        self.previous: MarketSummary | None = self.window.summary() if len(self.window) else None
        self.dreams = int(store.get_meta("dreams") or 0)
        self.job_runs = JobRuns(store)
        self.senses.resume(store.get_meta("market"), self.tick_no)
        # What decisions are paid from: the means fixed now, the standing read as each is
        # made (the apoptotic reserve locked now, logged by the first tick).
        self.purse = Purse(
            means(routes, store, clock=NowClock(now), compiled=compiled, options=self.options),
            store=store,
            chart=self.chart,
            control=self.control,
            policy=self.policy,
            now=now,
            income_usd_per_day=config.mortality.income_usd_per_day,
            positions=self._positions(),
        )
        self.decisions = Decisions(self.purse, self.memo, self.stream.publish, now)
        self.desk = TradingDesk(
            heartbeat=self.heartbeat,
            risk=self.risk,
            decisions=self.decisions,
            portfolio=self.portfolio,
            memory=self.memory,
            golem_id=self._golem_id,
            approvals=Approvals.of(config, store, self.risk.config.limits.sizing),
            predictor=self.predictor,
            now=now,
        )
        self.passing = Passing(
            decisions=self.decisions,
            store=store,
            portfolio=self.portfolio,
            state_dir=Path(config.golem.state_dir),
            golem_id=self._golem_id,
            now=now,
            death=compiled.death,
        )
        self.forward = FastForward(self)  # quiet stretches, when options.fast_forward

    @property
    def vitals(self) -> Vitals:
        """The last vitality reading (`chart` keeps it)."""
        return self.chart.vitals

    # --- the context every subsystem reads ---------------------------------------------

    def budgeting(self) -> Budgeting:
        """What a decision made now is paid from and governed by (`purse`)."""
        return self.purse.budgeting()

    @property
    def reserve_usd(self) -> float:
        return self.purse.reserve_usd

    @property
    def income_usd_per_day(self) -> float:
        return self.purse.income_usd_per_day

    @income_usd_per_day.setter
    def income_usd_per_day(self, usd: float) -> None:
        self.purse.income_usd_per_day = usd

    def context(self, market: MarketSummary, **changes: Any) -> Situation:
        """What this golem is now, on `market` (situation.py)."""
        return situation(self, market, **changes)

    # --- the heartbeat job --------------------------------------------------------------

    async def tick(self, *_: object) -> None:
        """One heartbeat: everything it changes commits in the caller's transaction."""
        if self.dead:
            return
        now = self.now()
        observation = await self.senses.observe(now)
        if observation is None:
            return  # a stale market: nothing observed, nothing traded; the heartbeat goes on
        self.senses.push(observation)
        self.knowledge.hear(observation)
        market = self.window.summary()
        self.portfolio.mark(observation.price)
        self.predictor.observe(now, market, self.portfolio)
        self.episodes.resolve(market, self.portfolio)
        if (
            not self.purse.reserve_logged
            or not self.tick_no % self.policy.reserve.recalculate_ticks
        ):
            self.purse.lock_reserve(self._golem_id, self.tick_no, self._positions())
        if await obey(self, now, market):
            return
        # A newborn golem appraises its own birth: its first feeling comes from a model.
        events: list[Event] = [Event("birth")] if self.tick_no == 0 else []
        probes = compute_probes(
            market,
            self.previous,
            vitality=self.vitals.vitality,
            arousal=self.mood.arousal,
            credits_usd=self.store.credits(),
            burn_rate_usd=self.vitals.burn_rate_usd,
            confidence=self.confidence,
            policy=self.probes,
        )
        self.previous = market
        if self.desk.approvals:  # trades held for the owner: approved ones execute now
            events += self.desk.approved(self.context(market, probes=probes))
        ctx = self.context(market, probes=probes, steer=self.control.steer)
        spent = 0.0
        record = await self.decisions.run(self.heartbeat, ctx)
        self.control.reviewed(self.tick_no, str(record.tier), record.source)
        spent += record.cost_usd
        outcome = record.outcome
        if outcome is not None and outcome.escalate_to is not None:
            record = await self.decisions.run(self.heartbeat, escalated(ctx, outcome.escalate_to))
            spent += record.cost_usd
            outcome = record.outcome
        if outcome is not None and outcome.events:
            events += outcome.events
        if outcome is not None and (outcome.trades or untraded(record, self.risk)):
            record, spent = await self.desk.trade(ctx, record, events, spent)
        if record.decision is not None:
            self.confidence = float(getattr(record.decision, "confidence", 0.5))
        self._predict(now, market, record)
        events += self.predictor.calibration_alarms(now)  # the daimon hears a large ECE
        if record.source == "model" or not self.tick_no % HORIZON_TICKS:
            self._record_episode(market, record)
        events += self._update_vitals(spent)
        await self.finish(now, market, events)

    async def finish(self, now: datetime, market: MarketSummary, events: list[Event]) -> None:
        """The end of a tick once its vitality is read (`tick`'s and a quiet stretch's
        last): death when a clock ran out, the daimon's appraisal of the tick's events,
        the tick counted (and snapshotted, when the life is resumable)."""
        if self.vitals.cause is not None:
            await self.die(self.vitals.cause, market)
        if events and self._appraises and not self.dead:
            appraisal = await self.decisions.run(
                self.daimon, self.context(market, events=tuple(events))
            )
            if appraisal.outcome is not None and appraisal.outcome.mood is not None:
                self.mood = appraisal.outcome.mood
                self.store.record_mood(self.tick_no, now, self.mood)
        self.tick_no += 1
        if self.options.resumable:
            self.snapshot()

    async def fast_forward(
        self, times: Callable[[int], Sequence[datetime]], jump: Callable[[datetime], None]
    ) -> int:
        """Live the quiet heartbeats at `times(n)` (at most n from the one due now; asked
        only when a stretch may start) in bulk, moving the clock with `jump`: how many
        were lived (0: none; `tick` lives this one). See fast_forward.py."""
        return await self.forward.live(times, jump)

    def snapshot(self) -> None:
        """What a restart resumes from, the tick counter and the market window's new
        observations with it: written every tick when the life is resumable, else at
        death and when the life ends (`Life.run`).
        A simulated market's state goes with the portfolio it marks, in one commit."""
        self.store.save_portfolio(self.tick_no, self.portfolio.to_dict())
        window = self.window
        self.store.observed.save(window.newest(self.senses.unsaved), keep=window.capacity)
        self.senses.unsaved = 0
        values: dict[str, Any] = {
            "last_confidence": self.confidence,
            "burn_rate_usd": self.vitals.burn_rate_usd,
            "tick": self.tick_no,
        }
        if self.senses.resumable is not None:
            values["market"] = self.senses.resumable.state()
        self.store.set_metas(values)

    async def die(self, cause: DeathCause | str, market: MarketSummary | None = None) -> None:
        """Thanatopsis (`passing`): the testament, settle, legacy; then the life ends."""
        if self.dead:
            return
        dying = self.passing.dying(cause)
        await self.passing.die(self.context(market or self.window.summary(), dying=dying))
        self.dead = True
        self.snapshot()
        self.on_death()

    # --- pieces of a tick ---------------------------------------------------------------

    def _record_episode(self, market: MarketSummary, record: DecisionRecord) -> None:
        """An episode for every model-made decision, and one per horizon otherwise (the
        caller asks on those ticks only): the last 100 scored episodes then span hours,
        so the epistemic clock's skill measures forecasts against real moves rather than
        against a few minutes of noise."""
        biased = self.options.forecast_bias
        bias = None if biased is None else biased(self.now())
        self.episodes.record(market, forecast(record, market, bias))

    def _predict(self, now: datetime, market: MarketSummary, record: DecisionRecord) -> None:
        """The claims this tick's decision makes (predictions.py): a model-made one's view;
        on a tick the rules acted, inaction's "holding is optimal"."""
        decision = record.decision
        if record.source == "model" and decision is not None:
            biased = self.options.forecast_bias
            bias = None if biased is None else biased(now)
            tier = str(record.tier).lower()
            self.predictor.claim(now, decision, market, tier=tier, bias=bias)
        else:
            confidence = float(getattr(decision, "confidence", 0.5))
            self.predictor.hold(now, self.portfolio.equity(), confidence)

    def _update_vitals(self, spent: float) -> list[Event]:
        """Vitality after this tick's spending (`chart.update`), on the prediction engine's
        fitness; no decision is reused across a phase change."""
        previous = self.vitals.phase
        predictor = self.predictor
        events = self.chart.update(
            self.tick_no,
            spent,
            self.portfolio.equity,
            reserve_usd=self.reserve_usd,
            fitness=predictor.fitness,
            regime_samples=predictor.regime_samples(),
        )
        if self.memo is not None and self.vitals.phase is not previous:
            self.memo.forget()
        return events

    def _positions(self) -> int:
        """How many positions are open now (the apoptotic reserve grows with them)."""
        return sum(1 for quantity in self.portfolio.quantities().values() if quantity)

    def credit_income(self, key: str, usd: float) -> None:
        """Income arrives: `usd` a day from now on, credited once per `key` (`purse`)."""
        self.purse.credit_income(key, usd)
