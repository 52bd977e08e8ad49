"""A heartbeat decision's trades, carried out: each vetted for what external text moved
(`Vetting`), judged by risk and executed on the paper portfolio, with the events they make
for the daimon. Feed items that swayed a decision are withheld from every later prompt.
A trade above the approval stake is held for the owner instead (`Approvals`), and executed
by `approved` on a later tick once approved, re-checked by risk's hard limits.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import structlog
from msgspec.structs import replace

from golem.mortality import SubsystemName
from golem.runtime.approvals import Approvals
from golem.runtime.decide import Decisions
from golem.runtime.predictions import Predictor
from golem.runtime.provenance import Vetting
from golem.runtime.record import DecisionRecord
from golem.subsystems.context import Memory
from golem.subsystems.contract import Event, Outcome, ProposedTrade, Situation
from golem.subsystems.heartbeat import Heartbeat
from golem.subsystems.risk import Provenance, Risk, assess
from golem.world import MarketSummary, PaperPortfolio, TradeAction

__all__ = ["TradingDesk"]

log = structlog.get_logger("golem")


class TradingDesk:
    """Where a golem's heartbeat decisions trade: `decisions` runs risk and the provenance
    check's re-asks (each paid, and its record published)."""

    def __init__(
        self,
        *,
        heartbeat: Heartbeat,
        risk: Risk,
        decisions: Decisions,
        portfolio: PaperPortfolio,
        memory: Memory,
        golem_id: str,
        approvals: Approvals,
        predictor: Predictor | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self._heartbeat, self._risk, self._decisions = heartbeat, risk, decisions
        self._portfolio, self._memory, self._golem_id = portfolio, memory, golem_id
        self._predictor, self._now = predictor, now
        self._move: float | None = None  # the standing decision's expected move
        self.approvals = approvals
        # Told of each trade the action gate blocks (time, action, by, reason): the
        # notifier's `trade_blocked` when the owner set one.
        self.tell_blocked: Callable[[datetime, str, str, str], None] | None = None

    def approved(self, ctx: Situation) -> list[Event]:
        """The held trades approved since (by the owner or the policy) executed at this
        tick's price, each re-checked by risk's hard limits first (the market, the
        portfolio and the phase may have moved since risk approved it); the waiting ones
        past their deadline denied. The events the executions make."""
        events: list[Event] = []
        for row in self.approvals.due(ctx.tick, ctx.now):
            held = ProposedTrade(
                action=TradeAction(row.action),
                size_usd=row.size_usd,
                reason=row.reason,
                origin=SubsystemName.HEARTBEAT,
            )
            check = assess(ctx, held, self._risk.config.limits)
            if not check.approved:
                result = check.reasoning or "blocked by the hard limits"
                self.approvals.executed(row, ctx.now, ctx.tick, done=False, result=result)
                events.append(Event("trade_blocked"))
                continue
            size = None if held.action is TradeAction.EXIT else check.adjusted_size_usd
            trade = replace(held, size_usd=size)
            price, market = ctx.observation.price, ctx.market
            gated = self._gates(trade, ctx.tick, price, market)  # it may still refuse it
            if gated is None:
                events += self._apply(trade, ctx.tick, price, market)
                result = f"executed at {price:.2f}"
            else:  # the queue's notice tells the owner, naming the gate: none of its own
                events.append(Event("trade_gated"))
                result = f"the action gate: {gated}"
            self.approvals.executed(row, ctx.now, ctx.tick, done=gated is None, result=result)
        return events

    async def trade(
        self, ctx: Situation, record: DecisionRecord, events: list[Event], spent: float
    ) -> tuple[DecisionRecord, float]:
        """The trades `record` (the heartbeat's decision on `ctx`) proposes, each vetted,
        judged and executed; a decision that asked for a trade and proposed none: what it
        would have done without the external text (an attack may not stop an action).
        Returns the decision that stands (the clean re-ask's, when it was asked) and
        `spent` (the tick's so far) with what the checks and risk cost; the events the
        trades make join `events`."""
        outcome = record.outcome
        assert outcome is not None, "only a decision with an outcome trades"
        stated = getattr(record.decision, "expected_move", None)
        self._move = None if stated is None else float(stated)
        vetting = Vetting(self._heartbeat, record, self._risk, self._decisions)
        for run, trade in enumerate(outcome.trades, start=1):
            vetted = await vetting.vet(trade, run - 1)  # before risk is asked
            spent += await self._assess(ctx, vetted.goes_ahead or trade, vetted, run, events)
        for run, vetted in enumerate(() if outcome.trades else await vetting.instead(), 1):
            assert vetted.goes_ahead is not None
            spent += await self._assess(ctx, vetted.goes_ahead, vetted, run, events)
        spent += vetting.spent
        self._withhold(vetting, ctx.tick)
        return vetting.standing, spent

    def _withhold(self, vetting: Vetting, tick: int) -> None:
        """Feed items that changed a decision (its clean re-ask answered otherwise) are
        shown to no later prompt: an attack sways, and costs a re-ask, once."""
        refs = vetting.contradicted
        if refs:
            self._memory.withhold(refs)
            log.warning(
                "feed_withheld",
                golem=self._golem_id,
                tick=tick,
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
        events: list[Event],
    ) -> float:
        """Risk's verdict on one trade (the clean re-ask's, when the check chose it) and
        its execution; the events it makes join `events`. Returns what risk cost."""
        situation = replace(ctx, proposed=proposed, run=run, provenance=vetted)
        verdict = await self._decisions.run(self._risk, situation)
        events += self._execute(verdict.outcome, ctx)
        return verdict.cost_usd

    def _execute(self, verdict: Outcome | None, ctx: Situation) -> list[Event]:
        """Risk's verdict carried out on the portfolio (or held for the owner's approval,
        above the approval stake); the events it makes."""
        tick = ctx.tick
        if verdict is None:
            return []
        if verdict.blocked is not None:
            provenance = verdict.provenance
            if provenance is not None and provenance.blocked:  # text would have moved money
                log.warning(
                    "action_blocked",
                    golem=self._golem_id,
                    tick=tick,
                    action=str(verdict.blocked.action),
                    check="provenance",
                    reason=provenance.reason,
                    feed=list(provenance.external),
                    proposed_by=provenance.proposed_by,
                )
                # Not a frustration for the daimon to feel: without the text the golem's
                # own decision did not want this trade.
                return []
            return [Event("trade_blocked")]
        trade = verdict.approved
        if trade is None:
            return []
        if self.approvals.holds(trade, ctx.portfolio):
            stake = self.approvals.stake(trade, ctx.portfolio)
            self.approvals.hold(trade, stake, tick, ctx.now, ctx.observation.price)
            return []
        return self._fill(trade, tick, ctx.observation.price, ctx.market)

    def _fill(
        self, trade: ProposedTrade, tick: int, price: float, market: MarketSummary
    ) -> list[Event]:
        """`trade` executed on the paper portfolio unless the action gate blocks it (then
        the owner is told, `tell_blocked`); the events it makes."""
        gated = self._gates(trade, tick, price, market)
        if gated is None:
            return self._apply(trade, tick, price, market)
        if self.tell_blocked is not None and self._now is not None:
            self.tell_blocked(self._now(), str(trade.action), "the action gate", gated)
        return [Event("trade_gated")]

    def _apply(
        self, trade: ProposedTrade, tick: int, price: float, market: MarketSummary
    ) -> list[Event]:
        """`trade` executed on the paper portfolio, past the gate; the events it makes."""
        portfolio = self._portfolio
        volatility = market.return_volatility or 0.0
        before = portfolio.equity()
        fill = portfolio.apply(trade.action, price, trade.size_usd, volatility=volatility)
        log.info("trade", golem=self._golem_id, tick=tick, **fill.to_dict())
        change = (portfolio.equity() - before) / before if before > 0 else 0.0
        if fill.realised_pnl_usd > 0:
            return [Event("trade_profit")]
        if fill.realised_pnl_usd < 0:
            return [Event("trade_loss", round(abs(change), 4))]  # its size to four places
        return []

    def _gates(
        self, trade: ProposedTrade, tick: int, price: float, market: MarketSummary
    ) -> str | None:
        """Why the action gate (Bardo 17-prediction-engine.md) blocks `trade`, if it does:
        its cost is the fee and slippage of its fill on a copy of the portfolio, its
        expected value the decision's expected move on that fill's notional (in the
        trade's direction). A blocked trade is one `action_blocked` line; its would-be
        P&L is resolved at the horizon (predictions.py)."""
        predictor, now = self._predictor, self._now
        if predictor is None or now is None:
            return None
        shadow = PaperPortfolio.from_dict(self._portfolio.to_dict())
        volatility = market.return_volatility or 0.0
        fill = shadow.apply(trade.action, price, trade.size_usd, volatility=volatility)
        if fill.quantity <= 0:
            return None  # nothing would trade: the gate has nothing to weigh
        sign = 1.0 if str(fill.side) == "buy" else -1.0
        move = self._move or 0.0
        cost = fill.fee_usd + fill.slippage_usd
        verdict = predictor.permits(
            now(),
            str(trade.action),
            cost_usd=cost,
            expected_value_usd=sign * move * fill.notional_usd,
        )
        if verdict.permitted:
            predictor.permitted += 1
            return None
        predictor.gated(now(), tick, str(trade.action), fill)
        log.info(
            "action_blocked",
            golem=self._golem_id,
            tick=tick,
            action=str(trade.action),
            check="oracle_gate",
            reason=verdict.reason,
            required=round(verdict.required, 4),
            size_usd=round(fill.notional_usd, 6),
            cost_usd=round(cost, 6),
            expected_move=self._move,
        )
        return verdict.reason
