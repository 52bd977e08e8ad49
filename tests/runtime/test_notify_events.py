"""The notices of issue 38's owner events, made from the records and queue rows the golem
tells (`notices`, `approval_notice`) and sent through apprise to a local webhook: a trade
risk blocked, risk's second opinion disagreeing, senescence's confirmed stage, a trade
waiting for approval and its fate, and a trade blocked outside risk (the gate's hook)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

from msgspec.structs import replace

from golem.mortality import Phase, SubsystemName
from golem.oracle import GateParams
from golem.runtime.approvals import ApprovalRow, Status
from golem.runtime.config.owner import NotifySection
from golem.runtime.notify import Notifier, _Seen, approval_notice, notices
from golem.runtime.predictions import Predictor
from golem.runtime.store.state import StateStore
from golem.runtime.stream import VitalityRecord
from golem.runtime.trading import TradingDesk
from golem.runtime.verify import Verification
from golem.subsystems.contract import Event, Outcome, ProposedTrade
from golem.world import PaperPortfolio, PortfolioConfig, TradeAction
from golem.world.costs import CostModel
from tests.runtime.records import decision
from tests.runtime.test_notify import Webhook, webhook
from tests.subsystems.support import market

__all__ = ["webhook"]  # the fixture, shared

NOW = datetime(2026, 3, 1, tzinfo=UTC)
HEDGE = ProposedTrade(TradeAction.HEDGE, 250.0, "health falling", SubsystemName.HEARTBEAT)


def risk(outcome: Outcome, verification: Verification | None = None) -> object:
    return replace(decision(NOW, "risk", 2, "model"), outcome=outcome, verification=verification)


def vitality(*, senescent: bool, confirmed: bool) -> VitalityRecord:
    return VitalityRecord(
        golem="g1",
        tick=0,
        time=NOW,
        vitality=0.2,
        phase=Phase.DECLINING,
        economic=0.9,
        epistemic=0.2,
        burn_rate_usd=0.0,
        credits_usd=1.0,
        equity_usd=1.0,
        senescent=senescent,
        confirmed=confirmed,
    )


def test_a_blocked_trade_and_a_disagreement_are_notices() -> None:
    blocked = Outcome(summary="blocked hedge: observation", blocked=HEDGE)
    [notice] = notices(risk(blocked), _Seen())  # type: ignore[arg-type]
    assert notice.event == "trade_blocked" and "risk blocked hedge $250.00" in notice.text
    check = Verification(by="synthetic:claude-sonnet-4", agreed=False)
    found = notices(risk(blocked, check), _Seen())  # type: ignore[arg-type]
    assert [n.event for n in found] == ["trade_blocked", "risk_disagreement"]
    assert "synthetic:claude-sonnet-4" in found[1].text and "the first's stands" in found[1].text
    agreed = replace(check, agreed=True)
    assert [n.event for n in notices(risk(blocked, agreed), _Seen())] == ["trade_blocked"]  # type: ignore[arg-type]


def test_senescence_s_confirmed_stage_is_told_once() -> None:
    seen = _Seen()
    first = notices(vitality(senescent=True, confirmed=False), seen)
    assert [n.text.split(":")[0] for n in first] == ["senescence stage 1 (warning)"]
    second = notices(vitality(senescent=True, confirmed=True), seen)
    assert [n.text.split(":")[0] for n in second] == ["senescence stage 2 (confirmed)"]
    assert notices(vitality(senescent=True, confirmed=True), seen) == []


def test_a_held_trade_s_notices() -> None:
    row = ApprovalRow(
        id=3,
        time=NOW,
        tick=9,
        action="exit",
        size_usd=None,
        stake_usd=4321.0,
        price=2000.0,
        reason="critical health",
        deadline=NOW + timedelta(hours=1),
        status=Status.WAITING,
    )
    waiting = approval_notice(row, "g1")
    assert waiting is not None and waiting.event == "approval"
    assert waiting.text.startswith("trade #3 exit all (stake $4,321.00) waits for your approval")
    decided = dataclasses.replace(row, decided_by="timeout", decided_time=NOW + timedelta(hours=1))
    denied = approval_notice(dataclasses.replace(decided, status=Status.DENIED), "g1")
    assert denied is not None and denied.event == "trade_blocked"
    assert denied.text.endswith("denied by timeout")
    assert approval_notice(dataclasses.replace(decided, status=Status.APPROVED), "g1") is None
    done = dataclasses.replace(
        decided, status=Status.EXECUTED, decided_by="owner", result="executed at 1990.00"
    )
    executed = approval_notice(done, "g1")
    assert executed is not None and executed.event == "trade"
    assert executed.text.endswith("approved by owner, executed at 1990.00")


def test_the_gate_s_hook_sends_a_blocked_trade(webhook: Webhook) -> None:
    section = NotifySection(urls=(webhook.url,), events=("trade_blocked",))
    with Notifier(section, "g1") as notifier:
        notifier.trade_blocked(NOW, "hedge", "the action gate", "accuracy 0.41 < 0.60")
        notifier.trade_blocked(NOW, "exit", "the action gate", "no record")
    assert webhook.events() == ["trade_blocked", "trade_blocked"]
    assert "the action gate blocked hedge: accuracy 0.41 < 0.60" in webhook.lines()[0]
    assert len(webhook.bodies) == 1  # batched into one message
    off = NotifySection(urls=(webhook.url,), events=("death",))
    with Notifier(off, "g1") as notifier:
        notifier.trade_blocked(NOW, "hedge", "the action gate", "no record")
    assert notifier.queued == {}


def test_a_trade_the_desk_s_action_gate_blocks_is_a_trade_blocked_notice(
    webhook: Webhook, tmp_path: Path
) -> None:
    """The desk's fill, gated (a newborn: no record, no trade), tells the notifier's hook."""
    section = NotifySection(urls=(webhook.url,), events=("trade_blocked",))
    seen = market(price=3000.0)
    with StateStore.open(tmp_path) as store, Notifier(section, "g1") as notifier:
        oracle = Predictor(
            store.predictions,
            golem_id="g1",
            horizon=timedelta(minutes=5),
            costs=CostModel(),
            gate=GateParams(),
        )
        portfolio = PaperPortfolio(1000.0, PortfolioConfig())
        oracle.observe(NOW, seen, portfolio)
        desk = TradingDesk(
            heartbeat=None,  # type: ignore[arg-type]
            risk=None,  # type: ignore[arg-type]
            decisions=None,  # type: ignore[arg-type]
            portfolio=portfolio,
            memory=None,  # type: ignore[arg-type]
            golem_id="g1",
            predictor=oracle,
            now=lambda: NOW,
            approvals=None,  # type: ignore[arg-type]
        )
        desk.tell_blocked = notifier.trade_blocked
        trade = ProposedTrade(TradeAction.REBALANCE, 500.0, "buy", SubsystemName.HEARTBEAT)
        assert desk._fill(trade, 7, 3000.0, seen) == [Event("trade_gated")]
        assert portfolio.cash == 1000.0  # nothing traded
    assert webhook.events() == ["trade_blocked"]
    line = webhook.lines()[0]
    assert "the action gate blocked rebalance: insufficient data: price_direction n=0" in line
