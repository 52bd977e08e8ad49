"""The simulator's truth: a capability its world offers the minds that need it.

A simulated model's answer may be *informed* by what the market then does, as often as
the quality table says for what the call paid for (golem.simulation.quality). Only the
simulated world knows that future, and only the synthetic provider's minds read it: the
golem's runtime never sees it, so the daemon's path and the simulator's are the same code.
The world hands it to the minds (`Foresight.minds`): before a mind answers a call, the
call's Ask is told the world's truth at its tick and the chance the answer is informed by
it, by the tier, the reasoning tokens and the context profile granted. The market is
looked ahead at most once a tick, and only when a call may be informed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from types import MappingProxyType
from typing import Any

from msgspec.structs import replace

from golem.inference.synthetic.provider import Mind
from golem.mortality import ModelTier, PipelineProfile
from golem.subsystems.facts import Ask
from golem.subsystems.heartbeat import HORIZON_TICKS
from golem.world import ForeseeableSource, Observation, Truth
from golem.world.costs import CostModel

__all__ = ["Foresight", "Quality"]

# The chance a call's answer is informed, by tier, reasoning tokens granted and profile.
Quality = Callable[[ModelTier, int, PipelineProfile], float]


class Foresight:
    """The truth of `market` (its move net of `costs`) for the calls `quality` informs."""

    def __init__(self, market: ForeseeableSource, quality: Quality, costs: CostModel) -> None:
        self._market, self._quality, self._costs = market, quality, costs
        self._truth: Truth | None = None  # the last tick's, kept for the tick's other calls
        self._at: tuple[int, object] | None = None  # (tick, time) of the observation it is of

    def truth(self, now: Observation) -> Truth:
        """The world's truth at `now` (the regime and the move over the episode horizon),
        looked ahead once for each observation."""
        at = (now.tick, now.time)
        if self._truth is None or self._at != at:
            self._truth = Truth.of(now, self._market.ahead(HORIZON_TICKS), self._costs)
            self._at = at
        return self._truth

    def told(self, ask: Ask) -> Ask:
        """`ask` with the truth it may be informed by, and the chance it is."""
        informed = self._quality(ask.tier, ask.reasoning.depth.budget_tokens(), ask.profile)
        if informed <= 0.0:
            return ask
        return replace(ask, truth=self.truth(ask.ctx.observation), informed=informed)

    def seeing(self, mind: Mind) -> Mind:
        """`mind`, answering each Ask as the world told it."""

        def answer(facts: object, rng: Random) -> dict[str, Any]:
            return mind(self.told(facts) if isinstance(facts, Ask) else facts, rng)

        return answer

    def minds(self, minds: Mapping[str, Mind]) -> Mapping[str, Mind]:
        """Each of `minds` seeing the truth."""
        return MappingProxyType({name: self.seeing(mind) for name, mind in minds.items()})
