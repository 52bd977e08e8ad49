"""The decision's stages: the standing a decision is paid from is read only by the grant
stage (a run that needs no model reads none), and every decision the golem runs is
published by the one runner (`Decisions`)."""

from __future__ import annotations

import orjson

from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, SubsystemName, utc_day
from golem.runtime.asking import Budgeting
from golem.runtime.decide import Decisions, decide
from golem.runtime.record import DecisionRecord
from tests.inference.decisions import VALID

from .test_decide import NOW, PRICE, Toy, budgeting, context


class CountedFunds:
    """Funds that count how often a decision read its standing."""

    def __init__(self, env: Budgeting) -> None:
        self.env, self.read = env, 0

    def budgeting(self) -> Budgeting:
        self.read += 1
        return self.env


async def test_a_run_without_a_model_reads_no_standing() -> None:
    funds = CountedFunds(budgeting(ScriptedProvider([])))
    rules = await decide(Toy(wanted=ModelTier.T0), context(), funds)
    skipped = await decide(Toy(skip="nothing to do"), context(), funds)
    assert (rules.source, skipped.source) == ("deterministic", "skipped")
    assert funds.read == 0


async def test_a_model_run_reads_its_standing_once_and_is_charged_at_it() -> None:
    provider = ScriptedProvider([orjson.dumps(VALID).decode()], price=PRICE)
    funds = CountedFunds(budgeting(provider))
    record = await decide(Toy(), context(), funds)
    assert record.source == "model"
    assert funds.read == 1
    spent = funds.env.ledger.spent_usd(utc_day(NOW), SubsystemName.HEARTBEAT)
    assert spent == record.cost_usd > 0


async def test_the_runner_publishes_each_decision_and_names_a_re_ask_after_its_original() -> None:
    provider = ScriptedProvider([orjson.dumps(VALID).decode()] * 2, price=PRICE)
    published: list[DecisionRecord] = []
    decisions = Decisions(budgeting(provider), None, published.append)
    first = await decisions.run(Toy(), context())
    again = await decisions.again(Toy(), context(run=1), of=first, seed=None)
    assert published == [first, again]
    assert (first.counterfactual_of, again.counterfactual_of) == (None, first.decision_id)
