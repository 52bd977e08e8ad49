"""The text of each layer: short labelled lines any model can read, the 270M local one
included. Lines of retrieved layers come best first, so the assembler cuts from the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from golem.subsystems.contract import GrimoireEntry, Situation
from golem.world import Episode

__all__ = [
    "CallBudget",
    "budget_lines",
    "entry_line",
    "episode_line",
    "knowledge_line",
    "probe_lines",
    "state_lines",
]


@dataclass(frozen=True, slots=True)
class CallBudget:
    """What L6 tells the model about this call's price and length."""

    max_output_tokens: int
    worst_case_usd: float  # one attempt at most
    attempts: int
    budget_left_usd: float  # of today's budget for this subsystem
    reasoning: str  # the reasoning depth granted


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:+.2f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def state_lines(ctx: Situation) -> list[str]:
    """L1: vitality, phase, credits and burn, wallet, positions, mood."""
    mood, book = ctx.mood, ctx.portfolio
    positions = ", ".join(f"{a} {q:.4g}" for a, q in book.positions.items()) or "none"
    lines = [
        f"vitality {ctx.vitality:.2f} ({ctx.phase}); credits ${ctx.credits_usd:.2f} of "
        f"${ctx.initial_credits_usd:.2f}; burn ${ctx.burn_rate_usd:.4f}/tick",
        f"portfolio: cash ${book.cash_usd:.2f}, equity ${book.equity_usd:.2f}, "
        f"positions {positions}",
        f"mood: pleasure {mood.pleasure:+.2f}, arousal {mood.arousal:+.2f}, "
        f"dominance {mood.dominance:+.2f}",
    ]
    if ctx.wallet:
        lines.append(f"wallet: {ctx.wallet}")
    return lines


def probe_lines(ctx: Situation) -> list[str]:
    """L3: the market summary the probes read, which fired, and the prediction error."""
    m = ctx.market
    lines = [
        f"price {m.price:.2f}; change last tick {_pct(m.delta_1)}, over the window "
        f"{_pct(m.delta_period)}; z-score vs 20-period SMA {_num(m.zscore)}",
        f"volume ratio {_num(m.volume_ratio)}; volatility {_num(m.return_volatility, 4)}; "
        f"health factor {_num(m.health_factor)}",
    ]
    if ctx.probes is not None:
        flags = ", ".join(ctx.probes.flags) or "none"
        lines.append(
            f"probes fired: {flags}; prediction error {ctx.probes.prediction_error:.2f} "
            f"(gate {ctx.probes.theta:.2f})"
        )
    if ctx.events:
        lines.append("events: " + ", ".join(map(str, ctx.events)))
    return lines


def knowledge_line(entry: GrimoireEntry) -> str:
    """L4: one grimoire entry with its confidence."""
    regime = entry.regime or "any regime"
    return f"- [{entry.id}] ({entry.confidence:.2f}, {entry.tier}, {regime}) {entry.text}"


def entry_line(entry: GrimoireEntry) -> str:
    """A grimoire entry as a subsystem's input lists it (with where it came from)."""
    return (
        f"- [{entry.id}] ({entry.confidence:.2f}, from {entry.provenance or 'unknown'}) "
        f"{entry.text}"
    )


def episode_line(episode: Episode) -> str:
    """L5 (and the dream's replay): one episode and what came of it."""
    decision, outcome = episode.decision, episode.outcome
    result = (
        "pending"
        if outcome is None
        else f"pnl {outcome.pnl_usd:+.2f}, price {outcome.actual_delta * 100:+.2f}% "
        f"against {decision.predicted_delta * 100:+.2f}% predicted"
    )
    return (
        f"- #{episode.id} tick {episode.observation.tick}: {decision.action} "
        f"(confidence {decision.confidence:.2f}) → {result}"
    )


def budget_lines(budget: CallBudget) -> list[str]:
    """L6: the price and length the answer must fit."""
    words = budget.max_output_tokens * 3 // 4
    return [
        f"this call may cost up to ${budget.worst_case_usd:.4f} an attempt "
        f"({budget.attempts} attempt{'s' if budget.attempts != 1 else ''} allowed); "
        f"${budget.budget_left_usd:.4f} left of today's budget for this subsystem",
        f"answer in at most {budget.max_output_tokens} tokens (about {words} words); "
        f"reasoning: {budget.reasoning}. Keep every text field short.",
    ]
