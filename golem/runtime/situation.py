"""The Situation every subsystem reads at a golem's tick (`Golem.context`): its vitality,
credits, portfolio, mood, knowledge and memory as they stand, beside the market's summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from golem.subsystems.contract import PortfolioView, Situation
from golem.world import MarketSummary

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = ["situation"]


def situation(golem: Golem, market: MarketSummary, **changes: Any) -> Situation:
    """What `golem` is now, on `market`; `changes`: the fields a caller sets (probes,
    events, steer, dying, ...)."""
    observation = golem.window.latest
    assert observation is not None, "a context needs an observation"
    portfolio, vitals = golem.portfolio, golem.vitals
    equity, cash = portfolio.equity(), portfolio.cash
    return Situation(
        golem_id=golem.compiled.golem_id,
        tick=golem.tick_no,
        now=golem.now(),
        vitality=vitals.vitality,
        phase=vitals.phase,
        credits_usd=golem.store.credits(),
        initial_credits_usd=golem.policy.initial_credits_usd,
        burn_rate_usd=vitals.burn_rate_usd,
        observation=observation,
        market=market,
        portfolio=PortfolioView(
            cash_usd=cash,
            equity_usd=equity,
            positions=portfolio.quantities(),
            exposure_usd=equity - cash,
        ),
        mood=golem.mood,
        grimoire=golem.knowledge.entries(),
        episodes=golem.episodes.recent(),
        wallet=golem.wallet,
        memory=golem.memory,
        **changes,
    )
