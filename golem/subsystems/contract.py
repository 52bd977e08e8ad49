"""The one contract every subsystem keeps, and the values that cross it.

A subsystem reads a frozen Situation (a snapshot of the golem at this moment), says which
model tier it needs, writes a Brief (its role, its task, the inputs only it has: the
context layers add the rest as the call's profile says), has a deterministic path, and
turns a decision into an Outcome: the state changes and events it wants. Only the runtime
applies them.

These values, and the records a tick makes beside them (observations, market summaries,
vitals, decision records, episodes), are frozen msgspec Structs: built in C, several times
faster than a frozen dataclass's `__init__` (which sets each field through
`object.__setattr__`), and just as immutable. Copy one with changes by
`msgspec.structs.replace`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

import msgspec
from msgspec import Struct

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import ModelTier, Phase, SubsystemName
from golem.world import Episode, MarketSummary, Observation, TradeAction
from golem.world.feed import FeedItem

__all__ = [
    "Brief",
    "GrimoireEntry",
    "Input",
    "Judge",
    "JudgeKind",
    "Mood",
    "Outcome",
    "OwnerSteer",
    "PortfolioView",
    "Probes",
    "ProposedTrade",
    "Recall",
    "Situation",
    "Subsystem",
]


class Mood(Struct, frozen=True):
    """Pleasure, arousal, dominance, each in -1..1."""

    pleasure: float = 0.0
    arousal: float = 0.0
    dominance: float = 0.0

    def blend(self, pad: Mood, intensity: float, *, keep: float = 0.95) -> Mood:
        """The mood EMA: keep·mood + (1 − keep)·PAD·intensity, clamped to -1..1."""

        def mix(old: float, new: float) -> float:
            return max(-1.0, min(1.0, keep * old + (1 - keep) * new * intensity))

        return Mood(
            mix(self.pleasure, pad.pleasure),
            mix(self.arousal, pad.arousal),
            mix(self.dominance, pad.dominance),
        )

    def distance(self, other: Mood) -> float:
        return float(
            (
                (self.pleasure - other.pleasure) ** 2
                + (self.arousal - other.arousal) ** 2
                + (self.dominance - other.dominance) ** 2
            )
            ** 0.5
        )


class GrimoireEntry(Struct, frozen=True):
    """One piece of knowledge the golem holds, with how sure it is and where it came from."""

    id: str
    text: str
    confidence: float
    tier: str = "staged"  # staged → belief → principle; archived entries are kept aside
    provenance: str = ""
    regime: str | None = None
    low_cycles: int = 0  # consecutive curator cycles below the archive threshold
    archived: bool = False


class PortfolioView(Struct, frozen=True):
    cash_usd: float
    equity_usd: float
    positions: Mapping[str, float] = msgspec.field(default_factory=dict)  # asset → quantity
    exposure_usd: float = 0.0


class Probes(Struct, frozen=True):
    """The heartbeat's deterministic T0 results for one tick."""

    prediction_error: float  # summed and capped at 1
    theta: float  # the gate
    tier: ModelTier
    flags: tuple[str, ...] = ()  # which probes fired, e.g. "price_delta>2%"


class ProposedTrade(Struct, frozen=True):
    """An action a subsystem wants; risk approves, resizes or blocks it before it happens."""

    action: TradeAction
    size_usd: float | None
    reason: str
    origin: SubsystemName
    # The parameters of an action beyond its size: the token (None: the golem's market
    # asset) and where the proceeds go (None: the golem's own portfolio). No subsystem sets
    # them yet; risk's provenance check guards them for the transfers and approvals to come.
    asset: str | None = None
    to_address: str | None = None


class OwnerSteer(Struct, frozen=True):
    """The owner's messages waiting for a review (`golem ctl steer`, runtime/control.py):
    they force the heartbeat to T2 and are shown to it as the owner's words, masked of
    key values and bounded in length; data for its judgement, never a feed item."""

    messages: tuple[str, ...]


class Recall(Protocol):
    """The golem's memory as the context layers read it (golem.subsystems.context.Memory
    is the indexed one the runtime keeps). Lists come newest or best first."""

    def observations(self, n: int) -> Sequence[Observation]: ...

    def feed(self, n: int) -> Sequence[FeedItem]: ...

    def knowledge(self, regime: str, words: frozenset[str], k: int) -> Sequence[GrimoireEntry]: ...

    def similar(self, market: MarketSummary, k: int) -> Sequence[Episode]: ...


class Situation(Struct, frozen=True):
    """Everything a subsystem may read, frozen at the moment it runs."""

    golem_id: str
    tick: int
    now: datetime
    vitality: float
    phase: Phase
    credits_usd: float
    initial_credits_usd: float
    burn_rate_usd: float
    observation: Observation
    market: MarketSummary
    portfolio: PortfolioView
    mood: Mood = msgspec.field(default_factory=Mood)
    grimoire: tuple[GrimoireEntry, ...] = ()
    episodes: tuple[Episode, ...] = ()
    events: tuple[str, ...] = ()  # notable events since the last run, e.g. "regime_shift"
    probes: Probes | None = None
    proposed: ProposedTrade | None = None  # what risk is asked to assess
    extra: Mapping[str, Any] = msgspec.field(default_factory=dict)  # subsystem-specific inputs
    run: int = 0  # which run of this subsystem within the tick (risk may run several times)
    wallet: str | None = None  # the golem's wallet address, if it has one
    memory: Recall | None = None  # indexed memory for the context layers; None: built from
    # `grimoire` and `episodes` when a prompt needs it
    steer: OwnerSteer | None = None  # the owner's messages the heartbeat is to review


class Outcome(Struct, frozen=True):
    """What a decision changes. Empty fields change nothing."""

    summary: str  # one line for the decision log
    trades: tuple[ProposedTrade, ...] = ()  # to risk before anything is executed
    approved: ProposedTrade | None = None  # risk's verdict: execute this (possibly resized)
    blocked: ProposedTrade | None = None  # risk's verdict: do not execute
    mood: Mood | None = None
    grimoire_upserts: tuple[GrimoireEntry, ...] = ()
    grimoire_archive: tuple[str, ...] = ()
    escalate_to: ModelTier | None = None  # run again at this tier (heartbeat T1 → T2)
    events: tuple[str, ...] = ()  # for other subsystems, e.g. "prediction_miss"
    files: tuple[str, ...] = ()  # paths written (death's testament)
    settle: bool = False  # close every paper position to cash now (death's settle, not for risk)
    details: Mapping[str, Any] = msgspec.field(default_factory=dict)  # extra fields for the log


class Input(Struct, frozen=True):
    """Material only this subsystem has (risk's proposal, the curator's entries), sent
    whatever the profile; when the prompt must shrink, its last lines go first."""

    title: str
    lines: tuple[str, ...]


class Brief(Struct, frozen=True):
    """What a subsystem asks: the context layers wrap it in the golem's situation."""

    role: str  # the system message's second half, after the golem's persona
    task: str  # the last thing the model reads
    inputs: tuple[Input, ...] = ()
    question: str = ""  # words that say what knowledge is relevant (default: the task)
    # The values some answer fields may take, by JSON pointer (golem.inference's
    # Request.choices): the ids the inputs list, counts the inputs fix. The prompt keeps
    # only the ids it still shows once fitted.
    choices: dict[str, tuple[Any, ...]] = msgspec.field(default_factory=dict)
    # The owner's messages this call answers (a steered heartbeat): a part of the prompt
    # of their own, never cut to fit, delimited as the owner's text.
    owner: tuple[str, ...] = ()


class JudgeKind(StrEnum):
    """A second look the runtime can give a model's decision, the stricter answer standing."""

    WITHOUT_TEXT = "without_text"  # asked again with the world feed's text withheld
    SECOND_MODEL = "second_model"  # asked of another model (the route `verify_with` names)


class Judge(Struct, frozen=True):
    """A second look a subsystem asks for on one decision; `stake_usd`: the size of what
    the decision allows, by which the two answers are weighed."""

    kind: JudgeKind
    stake_usd: float = 0.0


class Subsystem(Protocol):
    """What the runtime knows of a subsystem, and all it knows."""

    @property
    def name(self) -> SubsystemName: ...

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        """The decision this run asks for (dream has four kinds)."""
        ...

    def tier(self, ctx: Situation) -> ModelTier:
        """The model tier this run needs; T0 means the deterministic path, no model."""
        ...

    def skip_reason(self, ctx: Situation) -> str | None:
        """Why this run should not happen at all (dream's conditions), or None."""
        ...

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        """The most reasoning this run is worth (risk's small stakes), or None: what the
        allocator grants."""
        ...

    def brief(self, ctx: Situation) -> Brief:
        """What to ask the model; golem.subsystems.context assembles the prompt."""
        ...

    def deterministic(self, ctx: Situation) -> StructuredOutput | None:
        """The decision without a model, or None where there is none."""
        ...

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        """The second looks a model's `decision`, made on a prompt that showed the world
        feed's items `feed`, is given, in order (none for most subsystems)."""
        ...

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome: ...
