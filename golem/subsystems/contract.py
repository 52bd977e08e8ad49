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
    "RECENT_EPISODES",
    "Brief",
    "Document",
    "Dreaming",
    "Dying",
    "Event",
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
    "Provenance",
    "Recall",
    "Situation",
    "Subsystem",
]

# The episodes a Situation shows the subsystems: the most recent, resolved or not.
RECENT_EPISODES = 50


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
    health_critical: bool = False  # the health factor is below the critical threshold
    regime_flip: bool = False  # the price crossed the whole band since the last tick


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


class Provenance(Struct, frozen=True):
    """The check's verdict on one trade: what its proposing decision showed of external
    text, which step decided (`check`), and what called for the action or why it is
    blocked."""

    proposed_by: str  # the proposing decision's id, or its source ("deterministic", …)
    external: tuple[str, ...]  # the feed items its prompt showed, by ref
    # "no external text" | "rules" | "risk limits" | "counterfactual" | "parameters" | "off"
    check: str
    grounds: str = ""  # what called for the action: "rules: hedge", …
    blocked: bool = False
    reason: str = ""
    from_external: tuple[str, ...] = ()  # parameters found in external text
    # The counterfactual's: the clean answer's trade, which goes to risk in place of the
    # proposed one, and the proposed one in words when they differ ("exit", "hedge $50.00").
    goes_ahead: ProposedTrade | None = None
    replaces: str = ""

    def fields(self) -> dict[str, object]:
        """Risk's log line's `provenance_check`."""
        fields: dict[str, object] = {
            "proposed_by": self.proposed_by,
            "external": list(self.external),
            "check": self.check,
        }
        if self.grounds:
            fields["grounds"] = self.grounds
        if self.blocked:
            fields |= {"blocked": True, "reason": self.reason}
        if self.from_external:
            fields["from_external"] = list(self.from_external)
        if self.replaces:
            fields["in_place_of"] = self.replaces
        return fields


class Dying(Struct, frozen=True):
    """What the death subsystem is told of the life that ends: its `cause` (a DeathCause's
    value, or any text), and the vitality and mood readings before today's, oldest first."""

    cause: str = "unknown"
    vitality_history: tuple[float, ...] = ()
    mood_history: tuple[Mood, ...] = ()


class Dreaming(Struct, frozen=True):
    """What the dream subsystem is told of this dream: how many the golem has dreamt
    (`cycle`, which steps the rotation of kinds), and, when a caller names them, the kind
    (a DreamKind's value), the seed its picks follow and the threat it rehearses."""

    cycle: int | None = None
    kind: str | None = None
    seed: int | None = None
    threat_scenario: str | None = None
    # A senescent golem's largest recent misses, to replay (Bardo 02-epistemic-decay.md).
    residuals: tuple[str, ...] = ()


class Document(Struct, frozen=True):
    """A file an outcome asks the runtime to keep in the golem's state folder (death's
    testament): the subsystem says what, the runtime writes it."""

    name: str
    text: str


class Event(Struct, frozen=True):
    """A notable event for the daimon: its kind (e.g. "regime_shift", "trade_loss") and,
    for a trade's result, its size as a fraction (0.08 for an 8% loss), carried as a value
    from where it happens to the daimon. Its text (`str`) is what a brief and a memo key
    show: the kind, or `kind:0.0800`."""

    kind: str
    magnitude: float | None = None  # a fraction, never negative (a loss's size is its size)

    def __str__(self) -> str:
        return self.kind if self.magnitude is None else f"{self.kind}:{self.magnitude:.4f}"


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
    episodes: tuple[Episode, ...] = ()  # the last RECENT_EPISODES
    events: tuple[Event, ...] = ()  # notable events since the last run, e.g. regime_shift
    probes: Probes | None = None
    proposed: ProposedTrade | None = None  # what risk is asked to assess
    dying: Dying | None = None  # to the death subsystem: the life that ends
    dreaming: Dreaming | None = None  # to the dream subsystem: which dream this is
    # Epistemic senescence's stage when not normal ("warning": Stage 1, recovery actions
    # run, the curator audits and the dream replays the largest residuals; "senescent").
    senescence: str | None = None
    provenance: Provenance | None = None  # to risk: the check the proposed trade passed
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
    events: tuple[Event, ...] = ()  # for the daimon, e.g. Event("prediction_miss")
    documents: tuple[Document, ...] = ()  # for the runtime to write (death's testament)
    provenance: Provenance | None = None  # risk's: the check the trade it weighed passed
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
