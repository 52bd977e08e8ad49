"""The prediction engine in a life (issue 37): what a decision claims, inaction's claim, the
ledger in the state database surviving a restart (and a tick that did not commit leaving
nothing in it), and the action gate before a trade, with the blocked trade's would-be P&L."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from golem.mortality import SubsystemName
from golem.oracle import Category, GateParams
from golem.runtime.clock import VirtualClock
from golem.runtime.predictions import Predictor
from golem.runtime.store.state import StateStore
from golem.runtime.trading import TradingDesk
from golem.subsystems import HeartbeatDecision
from golem.subsystems.contract import Event, ProposedTrade
from golem.world import PaperPortfolio, PortfolioConfig, TradeAction
from golem.world.costs import CostModel
from tests.runtime.test_life import START, config, life
from tests.subsystems.support import NOW, market

HORIZON = timedelta(minutes=5)


def predictor(store: StateStore) -> Predictor:
    return Predictor(
        store.predictions,
        golem_id="g",
        horizon=HORIZON,
        costs=CostModel(),
        gate=GateParams(),
    )


def test_a_decision_claims_the_views_it_states_and_inaction_claims_holding(
    tmp_path: Path,
) -> None:
    with StateStore.open(tmp_path) as store:
        p = predictor(store)
        seen = market(price=3000.0, health_factor=2.5)
        p.observe(NOW, seen, PaperPortfolio(1000.0))
        decision = HeartbeatDecision.of(
            {"severity": "high", "action": "hedge", "confidence": 0.7, "expected_move": -0.02}
        )
        made = p.claim(NOW, decision, seen, tier="t1")
        claims = {str(m.category): m.claim.predicted for m in made}
        assert claims == {
            "price_direction": "down",
            "volatility_regime": "wild",
            "position_health": "true",
        }
        assert all(m.checkpoints == (HORIZON,) and m.confidence_raw == 0.7 for m in made)
        quiet = HeartbeatDecision.of({"severity": "none", "action": "observe"})
        assert [str(m.category) for m in p.claim(NOW, quiet, seen, tier="t1")] == [
            "volatility_regime",  # no move stated, none implied: no direction claim
            "position_health",
        ]
        held = p.hold(NOW, equity=1000.0)
        assert held.category is Category.INACTION
        # One horizon later the price fell 3%: the direction claim held; a move within one
        # trade's cost (35 bps) would have been "flat".
        later = market(price=2910.0, health_factor=2.5)
        resolved = p.observe(NOW + HORIZON, later, PaperPortfolio(1000.0))
        by = {r.prediction_id: r for r in resolved}
        assert by[made[0].id].correct and by[made[0].id].observed == "down"
        assert by[held.id].correct  # all cash: holding lost nothing


async def test_the_ledger_survives_a_restart_and_holds_only_committed_ticks(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = life(cfg, clock, store).golem
        for _ in range(60):
            with store.transaction():
                await golem.tick()
            clock.advance(cfg.heartbeat.interval)
        oracle = golem.predictor.oracle
        fitness, pending, next_id = (
            golem.predictor.fitness,
            oracle.book.pending,
            oracle.book.next_id(),
        )
        reports = [
            oracle.book.report(c, now=clock.now(), window=timedelta(days=7)) for c in Category
        ]
        assert next_id > 60 and reports[-1].total > 0  # inaction claims resolved
        with pytest.raises(RuntimeError), store.transaction():  # a tick killed mid-way
            await golem.tick()
            raise RuntimeError("killed")
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = life(cfg, clock, store).golem
        oracle = golem.predictor.oracle
        assert oracle.book.next_id() == next_id  # the killed tick's claims were not kept
        assert oracle.book.pending == pending
        assert golem.predictor.fitness == fitness
        again = [oracle.book.report(c, now=clock.now(), window=timedelta(days=7)) for c in Category]
        assert again == reports


def test_the_gate_blocks_a_newborn_s_trade_and_resolves_what_it_would_have_made(
    tmp_path: Path,
) -> None:
    """Cold start as Bardo: no record, no trade. The blocked trade is one action_blocked
    line with its reason, the daimon hears "trade_gated", and at the horizon its would-be
    P&L (its fill on a copy of the portfolio, marked then) is resolved."""
    with StateStore.open(tmp_path) as store:
        p = predictor(store)
        portfolio = PaperPortfolio(1000.0, PortfolioConfig())
        seen = market(price=3000.0)
        p.observe(NOW, seen, portfolio)
        desk = TradingDesk(
            heartbeat=None,  # type: ignore[arg-type]
            risk=None,  # type: ignore[arg-type]
            decisions=None,  # type: ignore[arg-type]
            portfolio=portfolio,
            memory=None,  # type: ignore[arg-type]
            golem_id="g",
            predictor=p,
            now=lambda: NOW,
            approvals=None,  # type: ignore[arg-type]
        )
        trade = ProposedTrade(TradeAction.REBALANCE, 500.0, "buy", SubsystemName.HEARTBEAT)
        with capture_logs() as logs:
            events = desk._fill(trade, 7, 3000.0, seen)  # risk approved it, no owner holds it
        assert events == [Event("trade_gated")]
        assert portfolio.cash == 1000.0  # nothing traded
        [line] = [e for e in logs if e["event"] == "action_blocked"]
        assert line["check"] == "oracle_gate"
        assert line["reason"] == "insufficient data: price_direction n=0"
        assert p.blocked == 1
        with capture_logs() as logs:
            p.observe(NOW + HORIZON, market(price=3300.0), portfolio)  # +10%
        [resolved] = [e for e in logs if e["event"] == "gated_trade_resolved"]
        assert resolved["would_be_pnl_usd"] > 0 and p.would_be_pnl_usd > 0


async def test_a_rolled_back_tick_s_claims_leave_the_book_with_their_rows(
    tmp_path: Path,
) -> None:
    # The golem lives on after a failed tick: a claim that tick made, kept in the book
    # while its row was undone, would be resolved later under a committed tick and name a
    # prediction the ledger never kept (the next start failed: LedgerError).
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = life(cfg, clock, store).golem
        for _ in range(30):
            with store.transaction():
                await golem.tick()
            clock.advance(cfg.heartbeat.interval)
        with pytest.raises(RuntimeError), store.transaction():
            await golem.tick()
            raise RuntimeError("failed")
        clock.advance(cfg.heartbeat.interval)
        for _ in range(60):  # past the horizon of the undone tick's claims
            with store.transaction():
                await golem.tick()
            clock.advance(cfg.heartbeat.interval)
        fitness, next_id = golem.predictor.fitness, golem.predictor.oracle.book.next_id()
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = life(cfg, clock, store).golem
        assert golem.predictor.oracle.book.next_id() == next_id
        assert golem.predictor.fitness == fitness
