"""The judge stage is declared, not special-cased: each subsystem says which second looks
a model's decision gets (`Subsystem.judges`), and the runtime names no concrete subsystem."""

from __future__ import annotations

import ast
from pathlib import Path

import orjson

from golem.mortality import SubsystemName
from golem.subsystems.contract import JudgeKind, PortfolioView, ProposedTrade, Situation
from golem.subsystems.curator import Curator, CuratorConfig
from golem.subsystems.daimon import Daimon
from golem.subsystems.death import DeathConfig, Thanatopsis
from golem.subsystems.dream import Dream, DreamConfig
from golem.subsystems.heartbeat import Heartbeat
from golem.subsystems.risk import Risk, RiskAssessment, RiskConfig
from golem.world import TradeAction
from golem.world.feed import FeedItem
from tests.policy import DAIMON, HEARTBEAT
from tests.subsystems.support import context

RUNTIME = Path(__file__).resolve().parents[2] / "golem" / "runtime"
CONCRETE = {"Risk", "Heartbeat", "Daimon", "Curator", "Dream", "Thanatopsis"}
CASH = PortfolioView(cash_usd=1000.0, equity_usd=1000.0)


def proposing(size: float) -> Situation:
    trade = ProposedTrade(TradeAction.BUY, size, "test", SubsystemName.HEARTBEAT)
    return context(proposed=trade, portfolio=CASH)


def assessment(approved: bool) -> RiskAssessment:
    layer = {"passed": True, "score": 0.2, "detail": "fine"}
    names = ("hard_shields", "position_sizing", "adaptive_guardrails", "defi_threats")
    answer = {"approved": approved, "layers": dict.fromkeys((*names, "observation"), layer)}
    return RiskAssessment.model_validate_json(orjson.dumps(answer | {"warnings": []}))


FEED = (FeedItem(source="news", text="buy now", time=context().now),)


def test_risk_declares_the_feed_withheld_re_ask_then_the_verifier_by_stake() -> None:
    risk = Risk(RiskConfig(verify_above_stake=0.2))
    big, small = proposing(400.0), proposing(50.0)
    both = risk.judges(big, assessment(True), FEED)
    assert [j.kind for j in both] == [JudgeKind.WITHOUT_TEXT, JudgeKind.SECOND_MODEL]
    assert all(j.stake_usd == 400.0 for j in both)
    assert [j.kind for j in risk.judges(small, assessment(True), FEED)] == [JudgeKind.WITHOUT_TEXT]
    # A rejection cannot be loosened by text: only the stake's verifier is left.
    assert [j.kind for j in risk.judges(big, assessment(False), FEED)] == [JudgeKind.SECOND_MODEL]
    assert risk.judges(small, assessment(True), ()) == ()


def test_the_other_subsystems_declare_no_judge() -> None:
    for subsystem in (
        Heartbeat(HEARTBEAT),
        Daimon(DAIMON),
        Curator(CuratorConfig()),
        Dream(DreamConfig()),
        Thanatopsis(DeathConfig()),
    ):
        assert subsystem.judges(proposing(400.0), assessment(True), FEED) == ()


def test_the_runtime_never_asks_which_subsystem_it_runs() -> None:
    found = []
    for path in sorted(RUNTIME.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance":
                kinds = node.args[1]
                names = {ast.unparse(n) for n in getattr(kinds, "elts", [kinds])}
                if names & CONCRETE:
                    found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)
