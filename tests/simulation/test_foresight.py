"""The simulator's truth as its world offers it to the minds (golem.simulation.foresight):
the chance a call's answer is informed, asked with the tier, the reasoning tokens granted
and the profile paid for; the truth looked ahead only when that chance is above 0, once an
observation; the mind reading the Ask told, the request itself never carrying it."""

from __future__ import annotations

from random import Random
from typing import Any

import orjson
from msgspec.structs import replace

from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, PipelineProfile
from golem.runtime.decide import decide
from golem.simulation.foresight import Foresight
from golem.subsystems.facts import Ask
from golem.world import Observation, SimulatedMarket, Truth
from golem.world.costs import CostModel
from tests.inference.decisions import VALID
from tests.runtime.test_decide import PRICE, Toy, budgeting, context


class Counted(SimulatedMarket):
    looks: int = 0

    def ahead(self, steps: int) -> list[Observation]:
        self.looks += 1
        return super().ahead(steps)


async def asked() -> Ask:
    """The Ask a granted call of the toy subsystem sends (no truth in it)."""
    provider = ScriptedProvider([orjson.dumps(VALID).decode()], price=PRICE)
    await decide(Toy(), context(), budgeting(provider))
    ask = provider.requests[0].facts
    assert isinstance(ask, Ask) and (ask.truth, ask.informed) == (None, 0.0)
    return ask


async def test_the_mind_is_told_the_truth_as_often_as_the_call_paid_for() -> None:
    ask = await asked()
    market = Counted(seed=3)
    now = market.observe(ask.ctx.now)
    ask = replace(ask, ctx=replace(ask.ctx, observation=now))
    paid: list[tuple[ModelTier, int, PipelineProfile]] = []
    read: list[Ask | None] = []

    def mind(facts: object, rng: Random) -> dict[str, Any]:
        read.append(facts if isinstance(facts, Ask) else None)
        return {}

    for chance in (0.4, 0.0):

        def quality(tier: ModelTier, tokens: int, profile: PipelineProfile) -> float:
            paid.append((tier, tokens, profile))
            return chance  # noqa: B023 (called within this iteration)

        foresight = Foresight(market, quality, CostModel())
        seeing = foresight.minds({"pulse": mind})["pulse"]
        seeing(ask, Random(1))
        seeing(ask, Random(2))  # the tick's other call: no second look
        told = read[-1]
        assert told is not None
        if chance:
            assert isinstance(told.truth, Truth) and told.informed == 0.4
            assert told.truth.tick == now.tick and told.truth.price == now.price
        else:
            assert (told.truth, told.informed) == (None, 0.0)
        assert paid[-1] == (ModelTier.T1, ask.reasoning.depth.budget_tokens(), ask.profile)
    assert market.looks == 1  # once, for the informed call's tick
    seeing(None, Random(3))  # a call with no facts (`golem ask`) reads none
    assert read[-1] is None
