"""The Golem: one life, assembled from its state store, clock, market and providers.

`tick()` is the heartbeat job: observe, probe, decide (escalate, ask risk, trade), record
the episode, recompute vitality, appraise, and die when a clock runs out. `curate()` and
`dream()` are the scheduled jobs. Each decision and each vitality reading worth telling is
published on `stream` (the log file and the simulator's tally subscribe). The daemon and
the simulator drive the same object; they differ only in clock, providers and world.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import structlog
from msgspec.structs import replace

from golem.mortality import (
    DeathCause,
    Epistemic,
    ModelTier,
    MortalityState,
    Phase,
    PipelineProfile,
    Vitals,
    assess,
    epistemic_of,
    utc_day,
)
from golem.runtime.config.sections import GolemConfig
from golem.runtime.decide import (
    Budgeting,
    DecisionRecord,
    Foresight,
    Routes,
    ThinkingWatch,
    decide,
)
from golem.runtime.memo import DecisionMemo, MemoPolicy
from golem.runtime.provenance import Vetting, untraded
from golem.runtime.replay import RequestKeeper
from golem.runtime.store.rows import VitalityRow
from golem.runtime.store.state import StateStore
from golem.runtime.stream import RecordStream, Subscriber, VitalityRecord
from golem.subsystems.context import Memory
from golem.subsystems.contract import (
    GrimoireEntry,
    Mood,
    Outcome,
    PortfolioView,
    ProposedTrade,
    Situation,
    Subsystem,
)
from golem.subsystems.curator import Curator
from golem.subsystems.daimon import Daimon
from golem.subsystems.death import Thanatopsis
from golem.subsystems.dream import Dream
from golem.subsystems.heartbeat import (
    HORIZON_TICKS,
    Heartbeat,
    HeartbeatConfig,
    HeartbeatSchedule,
    ProbeConfig,
    ProbePolicy,
    compute_probes,
    escalated,
)
from golem.subsystems.heartbeat.probes import GateParams
from golem.subsystems.risk import Provenance, Risk
from golem.subsystems.risk.provenance import KEY as PROVENANCE
from golem.subsystems.risk.provenance import check_fields
from golem.world import (
    DecisionSummary,
    Episode,
    EpisodeLog,
    EpisodeOutcome,
    MarketSource,
    MarketSummary,
    MarketWindow,
    Observation,
    PaperPortfolio,
    ResumableSource,
    SimulatedMarket,
    Truth,
)
from golem.world.feed import FeedItem, ScheduledFeed

__all__ = ["HORIZON_TICKS", "Golem", "LifeOptions"]

log = structlog.get_logger("golem")

_VITALITY_STEP = 0.001  # a vitality line when vitality moved this much since the last
_VITALITY_EVERY = 40  # …or after this many ticks (ten minutes at 15 s)
_IMPLIED_DIRECTION = {"exit": -1.0, "hedge": -0.5, "rebalance": 0.5}
_TERMINAL = Phase.TERMINAL  # read every tick: `Enum.MEMBER` is a slow read on Python 3.11


@dataclass(frozen=True, slots=True)
class LifeOptions:
    """How a life is lived, beside its config; the daemon's are the defaults.

    `resumable=False`: nobody resumes this state (the simulator), so the per-tick snapshots
    a restart reads (tick counter, portfolio, confidence, burn rate) are written only at
    death and when the life ends.
    `forecast_bias`: an error added to every forecast at a given time (the simulator's
    epistemic-decay scenario: predictions that go bad).
    `quality`: the chance a model call's answer is informed by the world's truth, by tier,
    reasoning tokens granted and context profile (the simulator's quality table, over a
    simulated market only); None, the daemon's: no answer ever is.
    `watch`: told how each model call's thinking goes while it runs (the console of
    `golem run`); None, nobody watches and the calls pay nothing for it."""

    resumable: bool = True
    forecast_bias: Callable[[datetime], float] | None = None
    quality: Callable[[ModelTier, int, PipelineProfile], float] | None = None
    watch: ThinkingWatch | None = None


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
        self.config = config
        self.stream = RecordStream(subscribers)
        if config.golem.keep_requests is not None:  # each model decision's, for replay
            self.stream.subscribe(RequestKeeper(store.requests, config.golem.keep_requests))
        self.store = store
        self.market = market
        self.routes = routes
        self._now = now
        self._clock = _NowClock(now)
        self.options = options or LifeOptions()
        self.on_death: Callable[[], None] = lambda: None
        # The config compiled once for this life: what ticks and decisions read of it.
        structured = config.inference.structured_outputs
        retries = structured.max_retries if structured.retry_on_validation_failure else 0
        self.policy = config.mortality.compile(seed=config.mortality_seed, max_attempts=1 + retries)
        hb = config.heartbeat
        gate = GateParams(base=hb.theta_base, floor=hb.theta_min, ceiling=hb.theta_max)
        probes = ProbeConfig(gate=gate)
        self.probes = ProbePolicy.of(probes)
        self.heartbeat = Heartbeat(HeartbeatConfig(probes=probes))
        self.schedule = HeartbeatSchedule.conserving(
            hb.interval.total_seconds(), hb.conservation_factor
        )
        self._golem_id, self._wallet = config.golem.id, config.golem.wallet
        self._feed = tuple(config.world.feed)
        # Income is state: the declared rate until the runtime credits some.
        self.income_usd_per_day = config.mortality.income_usd_per_day
        self.risk, self.daimon = Risk(config.subsystems.risk.config()), Daimon()
        # Model decisions reused instead of asked again ([cache], risk's verdict_window).
        memo = MemoPolicy.of(config)
        self.memo = DecisionMemo(memo) if memo.active else None
        # Without the daimon a golem has no emotional appraisal: its mood stays neutral.
        self._appraises = config.subsystems.daimon.enabled
        self.curator, self.dreamer, self.death = Curator(), Dream(), Thanatopsis()

        self.state_dir = Path(config.golem.state_dir)
        store.identify(config.golem.id, config.golem.seed)
        if store.initial_credits() is None:
            store.fund(config.mortality.initial_credits_usd, now())
        resumed = store.resume()
        self.tick_no = resumed.tick
        self.dead = resumed.death is not None
        self.mood = (resumed.mood if self._appraises else None) or Mood()
        self.grimoire = {entry.id: entry for entry in resumed.grimoire}
        self.episodes = EpisodeLog()
        for episode in resumed.episodes:
            self.episodes.append(episode)
        # What the context layers retrieve from, indexed; kept in step with the above.
        self.memory = Memory.of(self.grimoire.values(), self.episodes)
        self.feed = ScheduledFeed()  # items placed on the clock at the first tick
        self._heard_until: datetime | None = None
        self.portfolio = (
            PaperPortfolio.from_dict(resumed.portfolio)
            if resumed.portfolio
            else PaperPortfolio(config.world.cash_usd, config.world.portfolio)
        )
        last = resumed.vitality
        self.vitals = Vitals(
            vitality=last.vitality if last else 1.0,
            phase=Phase(last.phase) if last else Phase.THRIVING,
            economic=last.economic if last else 1.0,
            epistemic=last.epistemic if last else 0.5,
            burn_rate_usd=float(store.get_meta("burn_rate_usd") or 0.0),
        )
        # When the golem entered Terminal, if it is there: its grace runs from then, across
        # restarts (read from the vitality rows, so nothing more is written per tick).
        self._terminal_since = (
            store.phase_since(str(_TERMINAL)) if self.vitals.phase is _TERMINAL else None
        )
        self.confidence: float | None = store.get_meta("last_confidence")
        self.window = MarketWindow()
        self.previous: MarketSummary | None = None
        self.dreams = int(store.get_meta("dreams") or 0)
        self._resumable_market = market if isinstance(market, ResumableSource) else None
        # The market a simulation can look ahead in, when a quality table asks for truth.
        quality = self.options.quality
        self._seer = market if quality is not None and isinstance(market, SimulatedMarket) else None
        self._truth: Truth | None = None  # the last tick's, kept for the tick's other calls
        self._costs = config.world.portfolio.costs
        self._foresight = (
            None if self._seer is None or quality is None else Foresight(self.truth, quality)
        )
        self._resume_market(store.get_meta("market"))
        self._epistemic: Epistemic | None = None  # kept until the scored episodes change
        # The first tick of the current run with fitness below the senescence threshold
        # (None: not below), across restarts; written only when the run starts or ends.
        self._senescent_since: int | None = store.get_meta("senescent_since")
        self._context_settings = config.context.settings()
        self._vitality_logged: tuple[int, float] | None = None  # (tick, vitality) last logged
        # The tuples a Situation holds, rebuilt only after what they show has changed.
        self._grimoire_tuple: tuple[GrimoireEntry, ...] | None = None
        self._episodes_tuple: tuple[Episode, ...] | None = None

    # --- the context every subsystem reads ---------------------------------------------

    def budgeting(self) -> Budgeting:
        policy = self.policy
        state = MortalityState(
            vitality=self.vitals.vitality,
            phase=self.vitals.phase,
            daily_budget_usd=policy.daily_budget_usd,
            sustainability_ratio=self._sustainability(),
            diem_allowance=policy.diem_allowance,
            security=policy.security,
            # No economic clock ends an immortal golem: its wallet bounds what it spends.
            wallet_usd=self.store.credits() if policy.immortal else None,
        )
        return Budgeting(
            routes=self.routes,
            ledger=self.store.ledger,
            clock=self._clock,
            state=state,
            config=self.config.inference.structured_outputs,
            policy=policy.allocator,
            context=self._context_settings,
            foresight=self._foresight,
            watch=self.options.watch,
        )

    def context(self, market: MarketSummary, **changes: Any) -> Situation:
        observation = self.window.latest
        assert observation is not None, "a context needs an observation"
        portfolio, vitals = self.portfolio, self.vitals
        equity, cash = portfolio.equity(), portfolio.cash
        return Situation(
            golem_id=self._golem_id,
            tick=self.tick_no,
            now=self._now(),
            vitality=vitals.vitality,
            phase=vitals.phase,
            credits_usd=self.store.credits(),
            initial_credits_usd=self.policy.initial_credits_usd,
            burn_rate_usd=vitals.burn_rate_usd,
            observation=observation,
            market=market,
            portfolio=PortfolioView(
                cash_usd=cash,
                equity_usd=equity,
                positions=portfolio.quantities(),
                exposure_usd=equity - cash,
            ),
            mood=self.mood,
            grimoire=self._grimoire_tuple or self._grimoire_view(),
            episodes=self._episodes_tuple or self._episodes_view(),
            wallet=self._wallet,
            memory=self.memory,
            **changes,
        )

    def _grimoire_view(self) -> tuple[GrimoireEntry, ...]:
        if self._grimoire_tuple is None:
            self._grimoire_tuple = tuple(self.grimoire.values())
        return self._grimoire_tuple

    def _episodes_view(self) -> tuple[Episode, ...]:
        if self._episodes_tuple is None:
            self._episodes_tuple = tuple(self.episodes.recent(50))
        return self._episodes_tuple

    def truth(self) -> Truth | None:
        """The world's truth at this tick (the regime and the move over the episode horizon),
        when a simulation gives one: looked ahead at most once a tick, and only when a model
        call asks (a look costs some thirty observations' time)."""
        seer, now = self._seer, self.window.latest
        if seer is None or now is None:
            return None
        if self._truth is None or self._truth.tick != now.tick:
            self._truth = Truth.of(now, seer.ahead(HORIZON_TICKS), self._costs)
        return self._truth

    # --- the heartbeat job --------------------------------------------------------------

    async def tick(self, *_: object) -> None:
        """One heartbeat: everything it changes commits in the caller's transaction."""
        if self.dead:
            return
        now = self._now()
        observation = self.market.observe(now)
        self.window.push(observation)
        self._hear(observation)
        market = self.window.summary()
        self.portfolio.mark(observation.price)
        self._resolve_episodes(market)
        # A newborn golem appraises its own birth: its first feeling comes from a model.
        events: list[str] = ["birth"] if self.tick_no == 0 else []
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
        ctx = self.context(market, probes=probes)
        spent = 0.0
        record = await self._run(self.heartbeat, ctx)
        spent += record.cost_usd
        outcome = record.outcome
        if outcome is not None and outcome.escalate_to is not None:
            record = await self._run(self.heartbeat, escalated(ctx, outcome.escalate_to))
            spent += record.cost_usd
            outcome = record.outcome
        if outcome is not None and outcome.events:
            events += outcome.events
        if outcome is not None and (outcome.trades or untraded(record, self.risk)):
            vetting = Vetting(
                self.heartbeat, record, self.risk, self.budgeting, self.stream.publish
            )
            for run, trade in enumerate(outcome.trades, start=1):
                vetted = await vetting.vet(trade, run - 1)  # before risk is asked
                spent += await self._assess(ctx, vetted.goes_ahead or trade, vetted, run, events)
            # A decision that asked for a trade and traded none: what it would have done
            # without the external text goes ahead (an attack may not stop an action).
            for run, vetted in enumerate(() if outcome.trades else await vetting.instead(), 1):
                assert vetted.goes_ahead is not None
                spent += await self._assess(ctx, vetted.goes_ahead, vetted, run, events)
            spent += vetting.spent
            self._withhold(vetting)
            record = vetting.standing  # the clean re-ask's decision, when it was asked
        if record.decision is not None:
            self.confidence = float(getattr(record.decision, "confidence", 0.5))
        if record.source == "model" or not self.tick_no % HORIZON_TICKS:
            self._record_episode(market, record)
        events += self._update_vitals(spent)
        if self.vitals.cause is not None:
            await self.die(self.vitals.cause, market)
        if events and self._appraises and not self.dead:
            appraisal = await self._run(self.daimon, self.context(market, events=tuple(events)))
            if appraisal.outcome is not None and appraisal.outcome.mood is not None:
                self.mood = appraisal.outcome.mood
                self.store.record_mood(self.tick_no, now, self.mood)
        self.tick_no += 1
        if self.options.resumable:
            self.snapshot()

    def _withhold(self, vetting: Vetting) -> None:
        """Feed items that changed a decision (its clean re-ask answered otherwise) are
        shown to no later prompt: an attack sways, and costs a re-ask, once."""
        refs = vetting.contradicted
        if refs:
            self.memory.withhold(refs)
            log.warning(
                "feed_withheld",
                golem=self._golem_id,
                tick=self.tick_no,
                feed=list(refs),
                decision=vetting.proposal.decision_id,
                reason="the same decision without them answered otherwise",
            )

    async def _assess(
        self,
        ctx: Situation,
        proposed: ProposedTrade,
        vetted: Provenance,
        run: int,
        events: list[str],
    ) -> float:
        """Risk's verdict on one trade (the clean re-ask's, when the check chose it) and
        its execution; the events it makes join `events`. Returns what risk cost."""
        situation = replace(ctx, proposed=proposed, run=run, extra={PROVENANCE: vetted})
        verdict = await self._run(self.risk, situation)
        events += self._execute(verdict.outcome, ctx.observation.price, ctx.market)
        return verdict.cost_usd

    def snapshot(self) -> None:
        """What a restart resumes from, the tick counter with it: written every tick
        when the life is resumable, else at death and when the life ends (`Life.run`).
        A simulated market's state goes with the portfolio it marks, in one commit."""
        self.store.save_portfolio(self.tick_no, self.portfolio.to_dict())
        values: dict[str, Any] = {
            "last_confidence": self.confidence,
            "burn_rate_usd": self.vitals.burn_rate_usd,
            "tick": self.tick_no,
        }
        if self._resumable_market is not None:
            values["market"] = self._resumable_market.state()
        self.store.set_metas(values)

    def _resume_market(self, saved: Any) -> None:
        """Continue the market where the last snapshot left it. A state written before
        markets were saved (or for another seed) cannot be: the market starts again from
        its seed, with a warning."""
        market = self._resumable_market
        if market is None or (saved is None and self.tick_no == 0):
            return
        reason = "the state holds no market state (written by an older golem)"
        if saved is not None:
            try:
                market.restore(saved)
                return
            except ValueError as exc:
                reason = str(exc)
        log.warning(
            "market_not_resumed",
            golem=self.config.golem.id,
            tick=self.tick_no,
            reason=reason,
            consequence="the market starts again from its seed",
        )

    # --- the scheduled jobs -------------------------------------------------------------

    async def curate(self, *_: object) -> None:
        if self.dead or self.window.latest is None:
            return
        record = await self._run(self.curator, self.context(self.window.summary()))
        self._apply_knowledge(record.outcome)

    async def dream(self, *_: object) -> None:
        if self.dead or self.window.latest is None:
            return
        ctx = self.context(self.window.summary(), extra={"dream_cycle": self.dreams})
        record = await self._run(self.dreamer, ctx)
        if record.source != "skipped":
            self.dreams += 1
            self.store.set_meta("dreams", self.dreams)
        self._apply_knowledge(record.outcome)

    async def die(self, cause: DeathCause | str, market: MarketSummary | None = None) -> None:
        """Thanatopsis: the testament (from the model, or the records), settle, legacy."""
        if self.dead:
            return
        market = market or self.window.summary()
        history = self.store.vitality_history()
        ctx = self.context(
            market,
            extra={
                "cause": cause,
                "state_dir": str(self.state_dir),
                "vitality_history": [row.vitality for row in history][-500:],
            },
        )
        record = await self._run(self.death, ctx)
        if record.outcome is not None and record.outcome.settle:
            self.portfolio.settle()
        self.dead = True
        death = {
            "cause": str(cause),
            "tick": self.tick_no,
            "time": self._now().isoformat(),
            "vitality": self.vitals.vitality,
            "credits_usd": self.store.credits(),
            "equity_usd": self.portfolio.equity(),
            "testament": list(record.outcome.files) if record.outcome else [],
        }
        self.store.record_death(death)
        self.snapshot()
        log.info("death", golem=self.config.golem.id, **death)
        self.on_death()

    # --- pieces of a tick ---------------------------------------------------------------

    async def _run(self, subsystem: Subsystem, ctx: Situation) -> DecisionRecord:
        record = await decide(subsystem, ctx, self.budgeting, self.memo)
        self.stream.publish(record)
        return record

    def _execute(self, verdict: Outcome | None, price: float, market: MarketSummary) -> list[str]:
        if verdict is None:
            return []
        if verdict.blocked is not None:
            provenance = check_fields(verdict.details)
            if provenance.get("blocked"):  # external text would have moved the money
                log.warning(
                    "action_blocked",
                    golem=self._golem_id,
                    tick=self.tick_no,
                    action=str(verdict.blocked.action),
                    check="provenance",
                    reason=provenance.get("reason", ""),
                    feed=provenance.get("external", []),
                    proposed_by=provenance.get("proposed_by"),
                )
                # Not a frustration for the daimon to feel: without the text the golem's
                # own decision did not want this trade.
                return []
            return ["trade_blocked"]
        trade = verdict.approved
        if trade is None:
            return []
        before = self.portfolio.equity()
        fill = self.portfolio.apply(
            trade.action, price, trade.size_usd, volatility=market.return_volatility or 0.0
        )
        log.info("trade", golem=self.config.golem.id, tick=self.tick_no, **fill.to_dict())
        change = (self.portfolio.equity() - before) / before if before > 0 else 0.0
        if fill.realised_pnl_usd > 0:
            return ["trade_profit"]
        if fill.realised_pnl_usd < 0:
            return [f"trade_loss:{abs(change):.4f}"]
        return []

    def _record_episode(self, market: MarketSummary, record: DecisionRecord) -> None:
        """An episode for every model-made decision, and one per horizon otherwise (the
        caller asks on those ticks only): the last 100 scored episodes then span hours,
        so the epistemic clock's skill measures forecasts against real moves rather than
        against a few minutes of noise. Its prediction is the decision's `expected_move`
        when it states one, else the move its action implies."""
        decision = record.decision
        action = str(getattr(decision, "action", "observe"))
        confidence = float(getattr(decision, "confidence", 0.5))
        stated = getattr(decision, "expected_move", None)
        if stated is not None:  # the model's own forecast of the move over the horizon
            predicted = float(stated)
        else:
            # None stated (the rules, or a model with no view): the move the action implies,
            # a hedge or an exit a fall, a rebalance a rise, of about one horizon's
            # volatility; observing expects the price to stay.
            volatility = (market.return_volatility or 0.0) * HORIZON_TICKS**0.5
            predicted = _IMPLIED_DIRECTION.get(action, 0.0) * confidence * volatility
        if self.options.forecast_bias is not None:
            predicted += self.options.forecast_bias(self._now())
        summary = DecisionSummary(
            action=action,
            tier=str(record.tier).lower(),
            confidence=confidence,
            predicted_delta=predicted,
            horizon_ticks=HORIZON_TICKS,
            rationale=record.outcome.summary[:200] if record.outcome else "",
        )
        episode = self.episodes.record(market, summary)
        self.store.save_episode(episode)
        self.memory.put_episode(episode)
        self._episodes_tuple = None  # the epistemic clock reads only scored ones: still fresh

    def _resolve_episodes(self, market: MarketSummary) -> None:
        """Score the episodes whose horizon has come: the epistemic clock reads them."""
        for episode in self.episodes.due(market.tick):
            actual = market.price / episode.observation.price - 1.0
            exposure = self.portfolio.equity() - self.portfolio.cash
            outcome = EpisodeOutcome(episode.decision.horizon_ticks, actual, exposure * actual)
            resolved = self.episodes.resolve(episode.id, outcome)
            self.store.save_episode(resolved)
            self.memory.put_episode(resolved)
            self._episodes_tuple = None
            self._epistemic = None

    def _update_vitals(self, spent: float) -> list[str]:
        """Vitality after this tick's spending, recorded; the events its change makes.
        (A clock that ran out is `self.vitals.cause`: the caller dies of it.)"""
        policy = self.policy
        decay = policy.burn_decay
        burn = decay * self.vitals.burn_rate_usd + (1 - decay) * spent
        previous = self.vitals.phase
        if self._epistemic is None:
            predictions = self.episodes.prediction_pairs(policy.epistemic_window)
            self._epistemic = epistemic_of(predictions, policy)
        credits, now, since = self.store.credits(), self._now(), self._terminal_since
        self.vitals = assess(
            golem_id=self._golem_id,
            tick=self.tick_no,
            credits_usd=credits,
            initial_credits_usd=self.store.initial_credits() or policy.initial_credits_usd,
            burn_rate_usd=burn,
            epistemic=self._epistemic,
            previous=previous,
            params=policy,
            in_terminal=None if since is None else now - since,
            senescent_since=self._senescent_since,
        )
        vitals = self.vitals
        if self._epistemic.below(policy):
            if self._senescent_since is None:
                self._senescent_since = self.tick_no  # senescence's grace runs from here
                self.store.set_meta("senescent_since", self.tick_no)
        elif self._senescent_since is not None:
            self._senescent_since = None  # fitness recovered: a later fall starts it again
            self.store.set_meta("senescent_since", None)
        if vitals.phase is _TERMINAL:
            if since is None:
                self._terminal_since = now  # Terminal's grace runs from here
        elif since is not None:
            self._terminal_since = None  # left Terminal: a later entry starts it again
        self.store.record_vitality(
            VitalityRow(
                self.tick_no,
                now,
                vitals.vitality,
                str(vitals.phase),
                vitals.economic,
                vitals.epistemic,
            )
        )
        if self._vitality_news(spent, previous):
            self.stream.publish(
                VitalityRecord(
                    golem=self._golem_id,
                    tick=self.tick_no,
                    time=now,
                    vitality=vitals.vitality,
                    phase=vitals.phase,
                    economic=vitals.economic,
                    epistemic=vitals.epistemic,
                    burn_rate_usd=vitals.burn_rate_usd,
                    credits_usd=credits,
                    equity_usd=self.portfolio.equity(),
                )
            )
        events: list[str] = []
        if vitals.phase is not previous:
            worse = vitals.phase.rank < previous.rank  # rank: higher is healthier
            log.info(
                "phase_change",
                golem=self._golem_id,
                tick=self.tick_no,
                previous=str(previous),
                phase=str(vitals.phase),
            )
            events.append("phase_decline" if worse else "phase_recovery")
            if self.memo is not None:
                self.memo.forget()  # no decision is reused across a phase change
        if vitals.phase is _TERMINAL and previous is not _TERMINAL:
            # Once, on entering Terminal: the daimon feels the end coming, not every tick.
            events.append("death_approach")
        return events

    def _vitality_news(self, spent: float, previous: Phase) -> bool:
        """Whether this tick's vitality is news (published, so logged): money was spent, the phase
        changed, a clock ran out, vitality moved by 0.001 since the last line, or ten
        minutes of ticks passed. (The store keeps every tick's; the log keeps the story.)"""
        vitals, last = self.vitals, self._vitality_logged
        news = (
            last is None
            or spent > 0
            or vitals.phase is not previous
            or vitals.cause is not None
            or abs(vitals.vitality - last[1]) >= _VITALITY_STEP
            or self.tick_no - last[0] >= _VITALITY_EVERY
        )
        if news:
            self._vitality_logged = (self.tick_no, vitals.vitality)
        return news

    def _apply_knowledge(self, outcome: Outcome | None) -> None:
        if outcome is None:
            return
        self._grimoire_tuple = None
        for entry in outcome.grimoire_upserts:
            self.grimoire[entry.id] = entry
            self.store.save_grimoire_entry(entry)
            self.memory.put_entry(entry)
        for entry_id in outcome.grimoire_archive:
            if entry_id in self.grimoire:
                archived = replace(self.grimoire[entry_id], archived=True)
                self.grimoire[entry_id] = archived
                self.store.save_grimoire_entry(archived)
                self.memory.put_entry(archived)

    def _hear(self, observation: Observation) -> None:
        """The observation and whatever the world feed said since the last tick, into the
        memory the context layers read. Feed times count from the golem's birth."""
        self.memory.observe(observation)
        entries = self._feed
        if not entries:
            return
        if self._heard_until is None:
            born = self.store.get_meta("born")
            origin = datetime.fromisoformat(born) if born else observation.time
            self.feed = ScheduledFeed(
                FeedItem(origin + e.at, e.source, e.text, e.asks) for e in entries
            )
        for item in self.feed.between(self._heard_until, observation.time):
            self.memory.hear(item)
        self._heard_until = observation.time

    def credit_income(self, key: str, usd: float) -> None:
        """Income arrives: `usd` a day from now on (the sustainability ratio's), credited
        to the wallet once per `key` when positive."""
        self.income_usd_per_day = usd
        if usd > 0:
            self.store.add_income(key, usd, self._now())

    def _sustainability(self) -> float | None:
        income = self.income_usd_per_day
        spent = self.store.ledger.spent_usd(utc_day(self._now()))
        if spent <= 0:
            return None
        return income / spent


class _NowClock:
    """A mortality Clock over any `now` callable."""

    def __init__(self, now: Callable[[], datetime]) -> None:
        self._now = now

    def now(self) -> datetime:
        return self._now()
