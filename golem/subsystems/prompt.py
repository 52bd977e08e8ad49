"""Prompt building shared by the subsystems: the golem's situation rendered as short,
labelled sections, and one Request shape for every subsystem.

Sections are plain text so that any model, the 270M local one included, can read them.
"""

from __future__ import annotations

from collections.abc import Iterable

from golem.inference import Message, Request
from golem.subsystems.contract import Context

__all__ = ["episodes_section", "grimoire_section", "market_section", "request", "state_section"]

_PERSONA = (
    "You are one subsystem of a golem: an autonomous agent with a finite wallet that trades "
    "a paper portfolio and pays for every thought. Be concise and concrete."
)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:+.2f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def state_section(ctx: Context) -> str:
    mood = ctx.mood
    positions = ", ".join(f"{a} {q:.4g}" for a, q in ctx.portfolio.positions.items()) or "none"
    return (
        "## State\n"
        f"vitality {ctx.vitality:.2f} ({ctx.phase}); credits ${ctx.credits_usd:.2f} of "
        f"${ctx.initial_credits_usd:.2f}; burn ${ctx.burn_rate_usd:.4f}/tick\n"
        f"portfolio: cash ${ctx.portfolio.cash_usd:.2f}, equity ${ctx.portfolio.equity_usd:.2f},"
        f" positions {positions}\n"
        f"mood: pleasure {mood.pleasure:+.2f}, arousal {mood.arousal:+.2f}, "
        f"dominance {mood.dominance:+.2f}"
    )


def market_section(ctx: Context) -> str:
    m = ctx.market
    lines = [
        "## Market",
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
        lines.append("events: " + ", ".join(ctx.events))
    return "\n".join(lines)


def grimoire_section(ctx: Context, limit: int = 8) -> str:
    entries = sorted(
        (e for e in ctx.grimoire if not e.archived), key=lambda e: e.confidence, reverse=True
    )[:limit]
    if not entries:
        return "## Knowledge\nnone yet"
    body = "\n".join(f"- [{e.id}] ({e.confidence:.2f}, {e.tier}) {e.text}" for e in entries)
    return f"## Knowledge\n{body}"


def episodes_section(ctx: Context, limit: int = 5) -> str:
    recent = ctx.episodes[-limit:]
    if not recent:
        return "## Episodes\nnone yet"
    lines = []
    for ep in recent:
        outcome = "pending" if ep.outcome is None else f"pnl {ep.outcome.pnl_usd:+.2f}"
        lines.append(
            f"- #{ep.id} tick {ep.observation.tick}: {ep.decision.action} "
            f"(confidence {ep.decision.confidence:.2f}) → {outcome}"
        )
    return "## Episodes\n" + "\n".join(lines)


def request(ctx: Context, *, role: str, task: str, sections: Iterable[str]) -> Request:
    """The Request every subsystem sends: persona and role as the system message, the
    situation and the task as the user message."""
    body = "\n\n".join((*sections, f"## Task\n{task}"))
    return Request(
        messages=(Message.system(f"{_PERSONA}\n{role}"), Message.user(body)),
    )
