"""The legacy: the testament rendered as Markdown for people and as JSON that parses back
into a DeathTestament, the two documents the runtime writes to the state directory."""

from __future__ import annotations

from golem.subsystems.contract import Document, Situation
from golem.subsystems.death.decision import DeathTestament

__all__ = ["SECTIONS", "legacy", "markdown"]

# The Markdown's sections, in the order a life review is read.
SECTIONS = (
    ("What I learned", "learned"),
    ("What I got wrong", "got_wrong"),
    ("What confused me", "confused_by"),
    ("What I never tested", "never_tested"),
    ("What killed me", "killed_by"),
    ("What I would change", "would_change"),
    ("What I suspect", "suspects"),
    ("Causal links", "causal_links"),
    ("Emotional arc", "emotional_arc"),
)


def _body(testament: DeathTestament, field: str) -> str:
    if field == "killed_by":
        return testament.killed_by
    if field == "emotional_arc":
        return f"{testament.emotional_arc or 'unrecorded'} (arc: {testament.arc_class})"
    if field == "causal_links":
        lines = [
            f"- {link.cause} → {link.effect} (confidence {link.confidence:.2f})"
            for link in testament.causal_links
        ]
    else:
        lines = [f"- {item}" for item in getattr(testament, field)]
    return "\n".join(lines) or "- nothing"


def markdown(testament: DeathTestament, ctx: Situation, cause: str) -> str:
    header = (
        f"# Testament of golem {ctx.golem_id}\n\n"
        f"Died at tick {ctx.tick} ({ctx.now.isoformat()}), vitality {ctx.vitality:.3f}, "
        f"phase {ctx.phase}; cause: {cause}.\n"
        # Acted on after the review is paid (decide): the credits the golem leaves, as
        # summary.json's final credits and the death record state them.
        f"Credits ${ctx.credits_usd:.2f} of ${ctx.initial_credits_usd:.2f} after paying for "
        f"this review; equity ${ctx.portfolio.equity_usd:.2f}."
    )
    sections = [f"## {title}\n\n{_body(testament, field)}" for title, field in SECTIONS]
    return "\n\n".join((header, *sections)) + "\n"


def legacy(
    names: tuple[str, str], testament: DeathTestament, ctx: Situation, cause: str
) -> tuple[Document, Document]:
    """The testament as the runtime keeps it: the JSON and the Markdown (`names`, in that
    order)."""
    return (
        Document(names[0], testament.model_dump_json(indent=2) + "\n"),
        Document(names[1], markdown(testament, ctx, cause)),
    )
