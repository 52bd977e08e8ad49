"""HeartbeatDecision: what a T1/T2 heartbeat tick decides when its probes' prediction
error passed the gate (severity, action, whether to escalate), and how it reads free text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.inference.narrow import either, keywords
from golem.subsystems.meaning import has_words, nonzero
from golem.subsystems.parts import Fraction, Part, repeats
from golem.subsystems.text import (
    YES_NO,
    Choices,
    as_value,
    clip,
    decision_from_text,
    first_number,
    items,
    read_choice,
    read_fraction,
    read_signed,
    section,
)

__all__ = [
    "HORIZON_TICKS",
    "HeartbeatAction",
    "HeartbeatDecision",
    "Severity",
    "Signal",
    "heartbeat_meaningful",
]

# How far ahead the heartbeat's forecast (expected_move) looks, in ticks: the horizon an
# episode's prediction is scored over, and a simulation's truth and judgement look ahead.
HORIZON_TICKS = 20


class Severity(StrEnum):
    """none: nothing notable; low .. critical: how serious what the probes saw is."""

    NONE = "none"
    LOW = "low"
    MODERATE = "moderate"
    HIGH = "high"
    CRITICAL = "critical"


class HeartbeatAction(StrEnum):
    """observe and analyze change nothing (analyze: look closer on the next ticks);
    escalate asks the strong model; rebalance, hedge and exit go to risk first."""

    OBSERVE = "observe"
    ANALYZE = "analyze"
    REBALANCE = "rebalance"
    HEDGE = "hedge"
    EXIT = "exit"
    ESCALATE = "escalate"


class Signal(Part):
    """One observation the decision rests on, e.g. price: "fell 4.2% in 15 minutes"."""

    source: str = Field(
        max_length=40, description="price, volume, governance, liquidity, or another short word"
    )
    description: str = Field(default="", max_length=160)
    magnitude: Fraction = Field(default=0.5, description="how strong the signal is, 0..1")


_SEVERE = frozenset({Severity.MODERATE, Severity.HIGH, Severity.CRITICAL})
_EXIT_CONFIDENCE = 0.5


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "BTC volume tripled in 10 minutes while BTC price held flat; health factor 2.1.",
        {
            "severity": "low",
            "action": "analyze",
            "confidence": 0.6,
            "rationale": "BTC volume tripled in 10 minutes while BTC price held flat.",
            "signals": [
                {
                    "source": "volume",
                    "description": "BTC volume tripled in 10 minutes",
                    "magnitude": 0.6,
                },
                {"source": "price", "description": "BTC price held flat", "magnitude": 0.2},
            ],
            "escalate": False,
            "expected_move": 0.01,
        },
    ),
    WorkedExample(
        "ETH fell 3% in 5 minutes; health factor 1.3 and falling.",
        {
            "severity": "high",
            "action": "hedge",
            "confidence": 0.7,
            "rationale": "ETH fell 3% fast and the health factor of 1.3 nears the floor.",
            "signals": [
                {"source": "price", "description": "ETH fell 3% in 5 minutes", "magnitude": 0.7},
                {
                    "source": "health",
                    "description": "health factor 1.3 and falling",
                    "magnitude": 0.8,
                },
            ],
            "escalate": False,
            "expected_move": -0.02,
        },
    ),
)


class HeartbeatDecision(StructuredOutput):
    """The heartbeat's decision on one escalated tick."""

    schema_name = "heartbeat_decision"
    worked_examples = EXAMPLES

    severity: Severity
    action: HeartbeatAction
    confidence: Fraction = Field(default=0.5, description="0..1")
    rationale: str = Field(default="", max_length=400, description="1-2 sentences")
    signals: list[Signal] = Field(default_factory=list, max_length=6)
    escalate: bool = Field(default=False, description="true: re-run this tick at T2")
    # Added by golem (the seeds have no forecast): the epistemic clock scores it.
    expected_move: float | None = Field(
        default=None,
        ge=-1,
        le=1,
        description=(
            f"the price change you expect over the next {HORIZON_TICKS} ticks as a fraction "
            "(e.g. -0.02 for a 2% fall); null if you have no view"
        ),
    )

    @property
    def escalates(self) -> bool:
        """The escalate flag or the escalate action: either asks the strong model."""
        return self.escalate or self.action is HeartbeatAction.ESCALATE

    @classmethod
    def narrowed_schema(cls, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """Severity none or low: no escalation, no exit; moderate and above: any action
        but an exit, which needs high or critical and confidence >= 0.5."""
        calm = [s.value for s in Severity if s not in _SEVERE]
        severe = [s.value for s in Severity if s in _SEVERE]
        exiting = [Severity.HIGH.value, Severity.CRITICAL.value]
        staying = [a.value for a in HeartbeatAction if a is not HeartbeatAction.EXIT]
        quiet = [a for a in staying if a != HeartbeatAction.ESCALATE]
        return either(
            schema,
            {
                "/severity": keywords(enum=calm),
                "/action": keywords(enum=quiet),
                "/escalate": keywords(const=False),
            },
            {"/severity": keywords(enum=severe), "/action": keywords(enum=staying)},
            {
                "/severity": keywords(enum=exiting),
                "/action": keywords(const=HeartbeatAction.EXIT.value),
                "/confidence": keywords(minimum=_EXIT_CONFIDENCE),
            },
        )

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if self.escalates and self.severity not in _SEVERE:
            pointer = "/escalate" if self.escalate else "/action"
            issues.append(SchemaIssue(pointer, "escalating needs severity moderate or above"))
        if self.action is HeartbeatAction.EXIT:
            if self.severity not in (Severity.HIGH, Severity.CRITICAL):
                issues.append(SchemaIssue("/action", "an exit needs severity high or critical"))
            if self.confidence < _EXIT_CONFIDENCE:
                issues.append(
                    SchemaIssue("/confidence", f"an exit needs confidence >= {_EXIT_CONFIDENCE}")
                )
        keys = (f"{s.source}: {s.description}" for s in self.signals)
        issues += repeats("/signals", keys, "/description", "a repeated signal")
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


# Each enum word and the phrases that plainly mean it; then looser paraphrases, which
# count only where no plain word stands ("the drop is serious" is high, unless the text
# also says "severity moderate").
_NONE = (
    r"nothing (?:notable|of note|to worry about|unusual|significant|concerning|alarming|"
    r"to see here)|no (?:concern|cause for concern|issue|problem|red flag|threat)s?|"
    r"not (?:worth worrying about|a concern|concerning)|all clear|(?:just|only|mostly) noise"
)
_SEVERITY_WORDS = {
    Severity.NONE: _NONE,
    Severity.LOW: r"low",
    Severity.MODERATE: r"moderate|medium",
    Severity.HIGH: r"high",
    Severity.CRITICAL: r"critical",
}
_SEVERITY_PARAPHRASES = {
    Severity.LOW: r"minor|mild|slight|negligible|small|limited|benign",
    Severity.MODERATE: r"elevated|notable|meaningful|mid|noticeable",
    Severity.HIGH: r"serious|significant|severe|major|large|big|sharp|alarming",
    Severity.CRITICAL: r"urgent|emergency|extreme|existential|catastrophic|dire",
}
SEVERITY_PROSE = Choices(_SEVERITY_WORDS, paraphrases=_SEVERITY_PARAPHRASES)
# As a labelled value ("Severity: none"), a bare "none" or a synonym is the answer itself.
SEVERITY = Choices(
    {
        choice: "|".join(filter(None, (_SEVERITY_WORDS.get(choice), extra)))
        for choice, extra in {
            Severity.NONE: r"none|nil|nothing|n/a|zero",
            **_SEVERITY_PARAPHRASES,
        }.items()
    }
)
_ACTION_WORDS = {
    HeartbeatAction.OBSERVE: (
        r"observ\w*|monitor\w*|watch\w*|wait\w*|hold|holding|do nothing|stay put|"
        r"sit tight|no action|stand pat|stay the course|keep an eye on|nothing to do|"
        r"no (?:change|move|trade)s?"
    ),
    HeartbeatAction.ANALYZE: (
        r"analy[sz]\w*|investigat\w*|look closer|closer look|look (?:more )?(?:closely|into)|"
        r"dig (?:deeper|into|in)|examin\w*|scrutini[sz]\w*|diagnos\w*"
    ),
    HeartbeatAction.REBALANCE: r"re-?balanc\w*|re-?weight\w*|back to (?:the )?target",
    HeartbeatAction.HEDGE: r"hedg\w*",
    HeartbeatAction.EXIT: (
        r"exit\w*|unwind\w*|sell (?:everything|it all|all|out)|sell(?:ing)? off|"
        r"clos(?:e|ing) (?:out )?(?:the |all |our |my |this |every )?(?:position|positions|"
        r"everything|it all)|positions? (?:\w+ ){0,3}closed|get(?:ting)? out|pull(?:ing)? out|"
        r"cash(?:ing)? out|flatten\w*|go(?:ing)? (?:fully )?(?:to|into) cash"
    ),
}
_ACTION_PARAPHRASES = {
    HeartbeatAction.REBALANCE: (
        r"(?:reduc\w*|cut\w*|lower\w*|trim\w*|scal\w* back|scal\w* down|shrink\w*) "
        r"(?:\w+ ){0,2}(?:exposure|position|allocation|weight)s?|de-?risk\w*|trim\w*|"
        r"rotat\w* into|shift\w* (?:\w+ ){0,2}into|move (?:\w+ ){0,2}(?:in)?to stables|"
        r"take (?:some )?(?:profits?|chips) off|take some off"
    ),
    HeartbeatAction.HEDGE: (
        r"protect\w* (?:the |our )?downside|downside protection|buy(?:ing)? (?:\w+ )?puts?|"
        r"short(?:ing)? (?:\w+ )?(?:perps?|futures)|open(?:ing)? a short|offset\w*|collar\w*"
    ),
}
ACTION = Choices(_ACTION_WORDS, paraphrases=_ACTION_PARAPHRASES)
# As a labelled value ("Action: escalate"), escalating is the action itself; in prose it is
# read as the escalate flag (ESCALATION), the action only where no other stands.
ACTION_NAMED = Choices(
    {**_ACTION_WORDS, HeartbeatAction.ESCALATE: r"escalat\w*"}, paraphrases=_ACTION_PARAPHRASES
)
ESCALATION = Choices(
    {
        True: (
            r"escalat\w*|t2|tier[ -]?2|deeper (?:look|review|analysis)|"
            r"(?:stronger|bigger|larger|smarter|better|more capable) model|second opinion|"
            r"hand(?:ing)? (?:this |it )?(?:off|over|up)"
        )
    },
    flip=lambda v: not v,
)
# An action with no stated severity implies at least this much.
_IMPLIED_SEVERITY = {
    HeartbeatAction.OBSERVE: Severity.LOW,
    HeartbeatAction.ANALYZE: Severity.LOW,
    HeartbeatAction.REBALANCE: Severity.MODERATE,
    HeartbeatAction.HEDGE: Severity.MODERATE,
    HeartbeatAction.EXIT: Severity.HIGH,
    HeartbeatAction.ESCALATE: Severity.MODERATE,
}
_SEVERITY_LABELS = (
    r"severity|sev",
    r"risk level|alert level|urgency|threat level|level of concern|concern level|risk|alert",
)
_ACTION_LABELS = (
    r"action|act|recommended action|recommendation|recommended|decision|next steps?|verdict|"
    r"call|plan",
)


def _read(text: str) -> dict[str, Any]:
    severity = read_choice(
        text, SEVERITY, labels=_SEVERITY_LABELS, prose=SEVERITY_PROSE, scale=_severity_at
    )
    action = read_choice(text, ACTION_NAMED, labels=_ACTION_LABELS, prose=ACTION)
    escalate = read_choice(text, YES_NO, labels=(r"escalat\w*",), use_prose=False)
    if escalate is None:
        escalate = ESCALATION.pick(text) or False
    if action is None and escalate:  # "escalate to a stronger model" is the action itself
        action = HeartbeatAction.ESCALATE
    if severity is None and action is None:
        raise UnparseableOutput("no severity and no action in the text", text=text)
    action = action or HeartbeatAction.OBSERVE
    rationale = section(text, r"^(?:rationale|reasoning|why|explanation)$")
    return {
        "severity": severity or _IMPLIED_SEVERITY[action],
        "action": action,
        "confidence": _confidence(text),
        "rationale": clip(rationale or text, 400),
        "signals": _signals(section(text, r"^(?:key )?signals?$") or ""),
        "escalate": escalate,
        "expected_move": _expected_move(text),
    }


_MOVE_LABELS = (
    r"expected[ _](?:price[ _])?(?:move|return|change)|forecast(?:ed)?[ _](?:move|return|change)"
)
# "expect a 2% fall", "expecting a 1.5% rise": the prose form, signed by the word after it.
_MOVE_PROSE = re.compile(
    r"expect(?:s|ed|ing)? (?:an? )?(?P<num>\d+(?:\.\d+)?)[ \t]*(?P<unit>%|percent\b)?[ \t]*"
    r"(?P<way>fall|drop|decline|dip|loss|rise|gain|increase|climb)",
    re.I,
)
_FALLING = ("fall", "drop", "decline", "dip", "loss")


def _expected_move(text: str) -> float | None:
    """The forecast, labelled ("Expected move: -2%", "forecast: -0.02") or in prose
    ("expect a 2% fall"); None when the text states none (or one outside -1..1)."""
    labelled = read_signed(text, _MOVE_LABELS)
    if labelled is not None:
        return labelled
    prose = _MOVE_PROSE.search(text)
    if prose is None:
        return None
    size = float(prose["num"]) / (100.0 if prose["unit"] else 1.0)
    if size > 1:
        return None
    return -size if prose["way"].lower() in _FALLING else size


def _severity_at(fraction: float) -> Severity:
    """A severity written as a number: "4/5", "0.8", "80%"."""
    if fraction == 0:
        return Severity.NONE
    levels = ((0.3, Severity.LOW), (0.6, Severity.MODERATE), (0.85, Severity.HIGH))
    return next((level for top, level in levels if fraction <= top), Severity.CRITICAL)


def _confidence(text: str) -> float:
    found = read_fraction(
        text, r"confidence|certainty|conviction", after=r"confiden\w*|sure|certain|conviction"
    )
    return 0.5 if found is None else found


def _signals(body: str) -> list[Signal]:
    return [_signal(item) for item in items(body, limit=6, max_chars=200)]


def _signal(item: str) -> Signal:
    """`price: fell 4.2% (sharp)` → source price, the rest as its description, magnitude
    from the number in it (|-4.2%| is 0.042; a number outside 0..1 is left at 0.5); an
    item with no source before a separator is named by its first word."""
    named = re.match(r"(?P<name>[^:=]{1,40}?)\s*(?:[:=]|\s[-–—])\s*(?P<rest>.*)", item)
    if named is None:
        return Signal(source=_source(item.split(maxsplit=1)[0]), description=clip(item, 160))
    rest = named["rest"]
    number = first_number(rest)
    magnitude = abs(as_value(number)) if number is not None else 0.5
    return Signal(
        source=_source(named["name"]),
        description=clip(rest.strip(" ,;"), 160),
        magnitude=magnitude if magnitude <= 1 else 0.5,
    )


def _source(words: str) -> str:
    return clip(re.sub(r"\W+", "_", words.lower()).strip("_"), 40)


def heartbeat_meaningful(decision: HeartbeatDecision, prompt: str) -> list[str]:
    """A rationale of a sentence, a confidence above zero, signals that name a source and
    say what it showed."""
    problems = has_words(decision.rationale, "/rationale", 3)
    problems += nonzero([decision.confidence], "/confidence")
    for i, signal in enumerate(decision.signals):
        problems += has_words(signal.source, f"/signals/{i}/source", 1)
        problems += has_words(signal.description, f"/signals/{i}/description", 2)
    return problems
