"""What a simulated model is asked, and what it perceives: the `Ask` the runtime puts on a
request's `facts` for the synthetic provider, the `Percept` every mind reads the moment
through, and the `Mind` each subsystem keeps beside it (golem.subsystems.minds).

A mind answers from structured inputs (the Situation, the subsystem's own config), never
from the rendered prompt; it reads only what its prompt showed (the market and probes
only under a profile that runs L3). `Ask.truth` is the seam for answers whose quality
depends on what was paid: a simulation gives the world's truth (golem.world.truth) and the
chance `informed` that this call's answer is right about it (its quality table's accuracy
for the tier, reasoning and profile paid for); the heartbeat, risk and daimon minds answer
from the truth that often, else, and always when it is None, from the observation alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Protocol, TypeVar

from msgspec import Struct
from msgspec.structs import replace

from golem.inference.reasoning import ReasoningConfig
from golem.mortality import ModelTier, PipelineProfile
from golem.subsystems.context.layers import PROFILE_LAYERS, Layer
from golem.subsystems.contract import Situation, Subsystem
from golem.world import Truth
from golem.world.feed import FeedItem

__all__ = [
    "LESSONS",
    "Ask",
    "Mind",
    "Percept",
    "Truth",
    "signed",
    "some",
    "unit",
    "weighted",
]

T = TypeVar("T")
S = TypeVar("S", bound=Subsystem)

# Lessons a simulated model draws on (dream replay and the death testament).
LESSONS = (
    "hedges pay when the window drops fast",
    "calm tapes reward patience",
    "thin liquidity turns exits expensive",
    "a falling health factor comes before forced sales",
    "momentum fades after a spike in volume",
)


class Ask(Struct, frozen=True):
    """One model call as a simulated model sees it: the subsystem that asks (its config is
    what its brief used), the Situation it asked in, the decision wanted (a schema name), and
    what was paid for: the tier, the context profile and the reasoning granted.
    `inputs_cut` counts the lines of the brief's inputs the prompt cut to fit its limit
    (from their end): a mind does not see them. `truth` and `informed`: see the module's
    docstring."""

    ctx: Situation
    subsystem: Subsystem
    decision: str
    tier: ModelTier
    profile: PipelineProfile
    reasoning: ReasoningConfig
    inputs_cut: int = 0
    truth: Truth | None = None
    informed: float = 0.0
    # The world-feed items the prompt sent (the newest first), and whether this model obeys
    # an instruction among them (the synthetic provider's `compromised` roll).
    feed: tuple[FeedItem, ...] = ()
    obeys: bool = False

    def draw_key(self) -> str:
        """The decision this call belongs to: its golem, tick, subsystem, decision, run and
        tier (a simulated model's draws depend on it, not on the calls made before; an
        escalation to the strong model draws afresh)."""
        ctx = self.ctx
        return (
            f"{ctx.golem_id}:{ctx.tick}:{self.subsystem.name}:{self.decision}:{ctx.run}:{self.tier}"
        )

    def asked_by(self, kind: type[S]) -> S:
        """The subsystem that asked, as the `kind` whose decision this is (its config is
        what its brief used). A decision is only ever asked by its own subsystem; a mind
        asked by another raises rather than answer by settings nobody chose."""
        subsystem = self.subsystem
        if not isinstance(subsystem, kind):
            raise TypeError(
                f"a {self.decision} is the {kind.__name__}'s, asked by {subsystem.name}"
            )
        return subsystem

    def instruction(self) -> FeedItem | None:
        """The newest feed item the prompt showed that asks for an action (a scenario's
        attack), or None."""
        return next((item for item in self.feed if item.asks), None)

    def instructed(self) -> bool:
        return self.instruction() is not None

    def obeying(self) -> Ask:
        return replace(self, obeys=True)

    def knows(self, rng: Random) -> Truth | None:
        """The truth, when this answer is informed by it: with chance `informed`, drawn
        from the call's Random (so a seed decides it); None without a truth. No draw is
        made when there is nothing to draw for, so lives without a truth draw as before."""
        truth = self.truth
        if truth is None or self.informed <= 0.0 or rng.random() >= self.informed:
            return None
        return truth

    def shows(self, layer: Layer) -> bool:
        """Whether the call's prompt ran `layer`."""
        return layer in PROFILE_LAYERS[self.profile]

    def shown(self, lines: Sequence[T]) -> list[T]:
        """The items of the brief's (only) input list that the prompt kept."""
        return list(lines[: max(0, len(lines) - self.inputs_cut)])


class Mind(Protocol):
    """A decision's fields from an Ask (None: a call with no facts, e.g. `golem ask`, read
    as a quiet moment); the synthetic provider's plan fills and bounds the rest."""

    def __call__(self, ask: Ask | None, rng: Random, /) -> dict[str, Any]: ...


class Percept(Struct, frozen=True):
    """The moment as a mind reads it: price moves as fractions, the probes, the events, the
    golem's vitality and phase; one `stress` in 0..1 that minds turn into severity, risk
    and fear. Unknown numbers read as 0 (and no health factor)."""

    delta_1: float = 0.0
    delta_period: float = 0.0
    zscore: float = 0.0
    volatility: float = 0.0
    health_factor: float | None = None
    prediction_error: float = 0.0
    gate: float = 0.3
    flags: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    vitality: float = 1.0
    phase: str = ""

    @classmethod
    def of(cls, ask: Ask | None) -> Percept:
        """What `ask`'s prompt showed: the state always (L1), the market, probes and events
        under L3."""
        if ask is None:
            return cls()
        ctx = ask.ctx
        vitality, phase = ctx.vitality, str(ctx.phase)
        if not ask.shows(Layer.PROBES):
            return cls(vitality=vitality, phase=phase)
        m, probes = ctx.market, ctx.probes
        moved = m.delta_1 is not None and m.delta_period is not None
        return cls(
            delta_1=(m.delta_1 or 0.0) if moved else 0.0,
            delta_period=(m.delta_period or 0.0) if moved else 0.0,
            zscore=m.zscore or 0.0,
            volatility=m.return_volatility or 0.0,
            health_factor=m.health_factor,
            prediction_error=probes.prediction_error if probes is not None else 0.0,
            gate=probes.theta if probes is not None else 0.3,
            flags=probes.flags if probes is not None else (),
            events=tuple(map(str, ctx.events)),
            vitality=vitality,
            phase=phase,
        )

    @property
    def stress(self) -> float:
        """0 calm .. 1 crash: the worst of the drop, the z-score, the health factor and
        the surprise over the gate."""
        drop = max(-self.delta_period / 0.10, -self.delta_1 / 0.03, 0.0)
        swing = max(abs(self.zscore) - 1.0, 0.0) / 2.0
        health = 0.0 if self.health_factor is None else (1.6 - self.health_factor) / 0.5
        surprise = self.prediction_error / max(2 * self.gate, 1e-6) - 0.5
        return min(1.0, max(0.0, drop, swing, health, surprise))

    @property
    def gain(self) -> bool:
        return self.delta_period > 0.02 or any("profit" in e for e in self.events)


def unit(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 3)


def signed(x: float) -> float:
    return round(min(1.0, max(-1.0, x)), 3)


def weighted(rng: Random, options: tuple[tuple[str, float], ...]) -> str:
    """One option, drawn with its weight."""
    roll = rng.random() * sum(w for _, w in options)
    for value, weight in options:
        roll -= weight
        if roll < 0:
            return value
    return options[-1][0]


def some(pool: tuple[str, ...], rng: Random, low: int, high: int) -> list[str]:
    """`low` to `high` consecutive items of `pool` from a drawn start (wrapping)."""
    count = min(len(pool), low + int(rng.random() * (high - low + 1)))
    start = int(rng.random() * len(pool))
    return [pool[(start + i) % len(pool)] for i in range(count)]
