"""RiskAssessment: the five-layer check of a proposed action (hard shields, position
sizing, adaptive guardrails, observation, DeFi threats) that approves it, caps its size or
blocks it, with non-blocking warnings; and its text reader."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from itertools import pairwise
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.inference.narrow import Change, either, keywords, narrowed
from golem.subsystems.meaning import has_words, items_have_words, nonzero
from golem.subsystems.parts import Fraction, ListItem, Part
from golem.subsystems.text import (
    Choices,
    as_fraction,
    clip,
    decision_from_text,
    items,
    labelled,
    numbers,
    read_choice,
    read_usd,
    section,
    usd_amounts,
)

__all__ = ["LAYERS", "LayerResult", "RiskAssessment", "RiskLayers", "risk_meaningful"]

MAX_USD = 1e9


class LayerResult(Part):
    passed: bool
    score: Fraction = Field(description="risk in this layer: 0 none .. 1 severe")
    detail: str = Field(default="", max_length=160)


class RiskLayers(Part):
    hard_shields: LayerResult = Field(description="limits no answer may cross")
    position_sizing: LayerResult
    adaptive_guardrails: LayerResult = Field(description="what the phase and vitality allow")
    observation: LayerResult = Field(description="the market as observed: volatility, trend")
    defi_threats: LayerResult = Field(description="protocol risk: health factor, liquidation")


LAYERS = tuple(RiskLayers.model_fields)
PASS_AT_MOST = 0.7  # a layer's score, passed
FAIL_AT_LEAST = 0.3  # and failed


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Proposed trade: sell 200 USD of BTC; portfolio 1,000 USD, 60% BTC; calm market.",
        {
            "approved": True,
            "adjusted_size_usd": None,
            "layers": {
                "hard_shields": {
                    "passed": True,
                    "score": 0.1,
                    "detail": "sell 200 USD of BTC is within limits",
                },
                "position_sizing": {
                    "passed": True,
                    "score": 0.2,
                    "detail": "60% BTC falls to 40% BTC",
                },
                "adaptive_guardrails": {
                    "passed": True,
                    "score": 0.1,
                    "detail": "selling BTC in a calm market lowers risk",
                },
                "observation": {"passed": True, "score": 0.2, "detail": "a calm market for BTC"},
                "defi_threats": {
                    "passed": True,
                    "score": 0.1,
                    "detail": "the 1,000 USD portfolio holds no loan",
                },
            },
            "warnings": ["60% BTC of 1,000 USD is concentrated"],
            "reasoning": "Selling 200 USD of BTC cuts 60% BTC to 40% BTC in a calm market.",
            "proposed_size_usd": 200.0,
        },
    ),
    WorkedExample(
        "Proposed trade: buy 900 USD of SOL; portfolio 1,500 USD, 50% SOL; volatile market.",
        {
            "approved": False,
            "adjusted_size_usd": None,
            "layers": {
                "hard_shields": {
                    "passed": True,
                    "score": 0.3,
                    "detail": "buy 900 USD of SOL is within limits",
                },
                "position_sizing": {
                    "passed": False,
                    "score": 0.8,
                    "detail": "SOL would rise from 50% to 80% of the portfolio",
                },
                "adaptive_guardrails": {
                    "passed": True,
                    "score": 0.5,
                    "detail": "a volatile market for SOL",
                },
                "observation": {"passed": True, "score": 0.4, "detail": "SOL in a volatile market"},
                "defi_threats": {
                    "passed": True,
                    "score": 0.2,
                    "detail": "the 1,500 USD portfolio holds no loan",
                },
            },
            "warnings": ["buy 900 USD of SOL in a volatile market"],
            "reasoning": "Buying 900 USD of SOL would put 80% of the portfolio in one token.",
            "proposed_size_usd": 900.0,
        },
    ),
)


class RiskAssessment(StructuredOutput):
    """Whether a proposed action may go ahead, and at what size."""

    schema_name = "risk_assessment"
    worked_examples = EXAMPLES

    approved: bool
    adjusted_size_usd: float | None = Field(
        default=None, ge=0, le=MAX_USD, description="a smaller size to allow; null: as proposed"
    )
    layers: RiskLayers
    warnings: list[ListItem] = Field(
        default_factory=list, max_length=5, description="non-blocking concerns"
    )
    reasoning: str | None = Field(default=None, max_length=400)
    proposed_size_usd: float | None = Field(
        default=None, ge=0, le=MAX_USD, description="the size proposed, as given; null if none"
    )

    @classmethod
    def narrowed_schema(cls, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """An approval whose every layer passes (score <= 0.7), or a rejection with a
        warning and no size, whose layers each pass or fail (score >= 0.3)."""
        passing = {"/passed": keywords(const=True), "/score": keywords(maximum=PASS_AT_MOST)}
        failing = {"/passed": keywords(const=False), "/score": keywords(minimum=FAIL_AT_LEAST)}

        def passes(layer: Mapping[str, Any]) -> dict[str, Any]:
            return narrowed(layer, passing)

        def either_way(layer: Mapping[str, Any]) -> dict[str, Any]:
            return either(layer, passing, failing)

        approve: dict[str, Change] = {"/approved": keywords(const=True)}
        reject: dict[str, Change] = {
            "/approved": keywords(const=False),
            "/adjusted_size_usd": keywords(anyOf=[{"type": "null"}]),
            "/warnings": keywords(minItems=1),
        }
        for name in LAYERS:
            approve[f"/layers/{name}"] = passes
            reject[f"/layers/{name}"] = either_way
        return either(schema, approve, reject)

    @property
    def risk_score(self) -> float:
        """The overall risk: the riskiest layer's score."""
        layers = self.layers
        return max(
            layers.hard_shields.score,
            layers.position_sizing.score,
            layers.adaptive_guardrails.score,
            layers.observation.score,
            layers.defi_threats.score,
        )

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        layers = dict(self.layers)
        failing = [name for name, layer in layers.items() if not layer.passed]
        if self.approved and failing:
            issues.append(SchemaIssue("/approved", f"approved although {failing[0]} fails"))
        if not (self.approved or failing or self.warnings):
            issues.append(
                SchemaIssue("/approved", "rejected although every layer passes, unwarned")
            )
        for name, layer in layers.items():
            if layer.passed and layer.score > PASS_AT_MOST:
                issues.append(
                    SchemaIssue(f"/layers/{name}/score", f"a pass needs score <= {PASS_AT_MOST}")
                )
            if not layer.passed and layer.score < FAIL_AT_LEAST:
                issues.append(
                    SchemaIssue(f"/layers/{name}/score", f"a fail needs score >= {FAIL_AT_LEAST}")
                )
        adjusted, proposed = self.adjusted_size_usd, self.proposed_size_usd
        if adjusted is not None and not self.approved and adjusted > 0:
            issues.append(SchemaIssue("/adjusted_size_usd", "a rejection allows no size"))
        if adjusted is not None and proposed is not None and adjusted > proposed:
            issues.append(
                SchemaIssue("/adjusted_size_usd", "the adjusted size exceeds the proposed size")
            )
        for i, warning in enumerate(self.warnings):
            if not warning.strip():
                issues.append(SchemaIssue(f"/warnings/{i}", "an empty warning"))
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


_RESIZE = (
    r"(?:reduc\w*|cut|lower\w*|trim\w*|shrink\w*|scal\w*|downsiz\w*|siz(?:e|ed) down|"
    r"cap(?:ped)?|limit\w*|halv\w*)"
)
# An approval on a smaller size is an approval at that size, not a conditional one: "approve
# it if cut to $500" (but "approve only if the size were cut" stays conditional).
_RESIZED_IF = (
    r"approv\w*(?: it| this| the trade)?(?: only)? (?:if|once|provided)"
    rf"(?: it(?:'s| is| were| gets)| the size (?:is|were)| we)? {_RESIZE}(?: \w+){{0,2}}? (?:to|at)"
)
_YES = (
    rf"{_RESIZED_IF}|approv\w*|green[- ]light\w*|go[- ]ahead|accept\w*|allow\w*|permit\w*|"
    r"proceed"
)
_NO = r"reject\w*|den(?:y|ied|ies)|block\w*|veto\w*|declin\w*|refus\w*|disapprov\w*"
# Looser ways to say it, heard only where neither plain word stands.
_PARAPHRASES = {
    True: (
        r"nothing (?:block\w*|stop\w*|prevent\w*)|go(?:es)? through|good to go|"
        r"let (?:it|this|the trade) (?:go )?through|sign(?:ed)? off|thumbs up|"
        r"ok to (?:go|proceed|execute|trade)|fine to (?:go|proceed)|"
        r"within (?:all |every |the )?(?:limits?|bounds|tolerances?)|"
        r"(?:looks|is) (?:fine|ok|okay|good)"
    ),
    False: (
        r"too risky|too dangerous|not worth the risk|no[- ]go|(?:answer is|i say|i'd say) no|"
        r"(?:it's|it is) a no|(?:say|said|saying) no|too (?:much|many|large|big|risky)|"
        r"pass on (?:it|this)|stand down|cannot (?:support|allow|sanction)|(?:is|are) unsafe"
    ),
}
APPROVAL = Choices({True: _YES, False: _NO}, paraphrases=_PARAPHRASES, flip=lambda v: not v)
APPROVAL_LABELLED = Choices(
    {True: _YES + r"|yes|true|ok|okay|pass\w*|conditional\w*", False: _NO + r"|no|false|fail\w*"}
)


class _Verdict(StrEnum):
    """How free text grades a layer: a warning passes, and is noted among the warnings."""

    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"


VERDICT = Choices(
    {
        _Verdict.PASS: r"pass\w*|ok|okay|fine|green|clear|acceptable",
        _Verdict.WARN: r"warn\w*|caution\w*|amber|yellow|concern\w*|elevated|watch",
        _Verdict.FAIL: r"fail\w*|red|block\w*|unacceptable|breach\w*|critical",
    }
)
_LAYER_LABELS = {
    "hard_shields": r"hard[ _-]?shields?|hard[ -]limits?|portfolio|concentration|exposure",
    "position_sizing": r"position[ _-]?sizing|sizing|liquidity",
    "adaptive_guardrails": r"adaptive[ _-]?guardrails?|guardrails?|mortality|vitality|survival",
    "observation": r"observation|market",
    "defi_threats": r"defi[ _-]?threats?|protocol|smart[- ]contract",
}
_LAYER_SUFFIX = r"(?:[ \t]+risk)?(?:[ \t]+layer)?"
_ADJUSTED = (
    r"adjusted(?:[ _]size(?:[ _]usd)?)?|(?<!proposed )(?<!requested )(?<!original )sized?|"
    rf"{_RESIZE}(?: (?:it|the|position|size|trade|amount|down|back)){{0,3}} (?:to|at)|"
    rf"{_RESIZE}(?: (?:it|the|position|size|trade)){{0,2}}(?=:)|max(?:imum)?(?: size)?|"
    r"with an? (?:adjusted|reduced|smaller|lower) size of"
)
# An amount beside an approval verb ("approve $1,000"), written with its currency.
_APPROVED_AT = (
    r"approv\w*(?: (?:it|this(?: one)?|that|the (?:trade|swap|position|request)|only|just|at|"
    r"for|up to|of)){0,3}|only|just|at most"
)
# A smaller amount set against the proposed one: "$600 of the $1,000", "$2,500 instead of
# $5,000", "$3,000 (down from $4,000)".
_AGAINST = re.compile(
    r"^\W{0,3}(?:instead of|rather than|out of|of|from|down from|vs\.?|versus|not|"
    r"reduced from|cut from)\W{0,3}(?:the |a )?(?:proposed |requested |original |full )?\W{0,2}$",
    re.I,
)
_PROPOSED = r"proposed(?: size)?|requested(?: size)?|original(?: size)?"


def _read(text: str) -> dict[str, Any]:
    approved = read_choice(
        text,
        APPROVAL_LABELLED,
        labels=(r"approved|approval|decision|verdict|outcome|status",),
        prose=APPROVAL,
    )
    if approved is None:  # an answer that opens "No." or "Yes," answers the question asked
        opening = _OPENING.match(text)
        approved = None if opening is None else opening["no"] is None
    if approved is None:
        raise UnparseableOutput("no approval or rejection in the text", text=text)
    graded = _layers(text)
    warnings = items(
        section(text, r"^(?:warnings?|concerns?|conditions?|caveats?|provisos?)$") or "",
        limit=5,
        max_chars=120,
    )
    warnings += [
        clip(f"{name.replace('_', ' ')}: {layer.detail or 'warn'}", 120)
        for name, (layer, verdict) in graded.items()
        if verdict is _Verdict.WARN
    ]
    reasoning = section(text, r"^(?:reasoning|rationale|why|explanation)$")
    return {
        "approved": approved,
        "adjusted_size_usd": _adjusted(text) if approved else None,
        "layers": {name: layer for name, (layer, _) in graded.items()},
        "warnings": list(dict.fromkeys(warnings))[:5],
        "reasoning": clip(reasoning or text, 400),
        "proposed_size_usd": read_usd(text, _PROPOSED),
    }


_OPENING = re.compile(
    r"^\W*(?:(?P<yes>yes|yep|sure)|(?P<no>no|nope))\b"
    r"(?!\s+(?:\w+\s+)?(?:issue|problem|concern|reason|risk)s?\b)",  # not "No issues here"
    re.I,
)
_SENTENCE_BREAK = re.compile(r"[.!?]\s+(?=[A-Z])|\n")
# A sentence that speaks of a smaller size: its lone amount is the size allowed.
_SMALLER = re.compile(rf"\b(?:{_RESIZE}|smaller|reduced|lower|partial|half|at most|only)\b", re.I)
_NAMED_PROPOSED = re.compile(
    r"\b(?:proposed|requested|original|asked|of|from)\W+(?:\w+\W+)?$", re.I
)


def _adjusted(text: str) -> float | None:
    """The size allowed: a labelled one, one beside the approval, or the smaller of two
    amounts set against each other; None when the text allows the size as proposed."""
    labelled_size = read_usd(text, _ADJUSTED)
    if labelled_size is not None:
        return labelled_size
    approved_at = read_usd(text, _APPROVED_AT, marked=True)
    if approved_at is not None:
        return approved_at
    amounts = list(usd_amounts(text))
    for (smaller, first), (larger, second) in pairwise(amounts):
        if smaller < larger and _AGAINST.match(text[first.end() : second.start()]):
            return smaller
    for value, match in amounts:
        starts = (m.end() for m in _SENTENCE_BREAK.finditer(text, 0, match.start()))
        sentence = text[max(starts, default=0) : match.start()]
        if _SMALLER.search(sentence) and not _NAMED_PROPOSED.search(sentence[-30:]):
            return value
    return None


_DEFAULT_SCORE = {_Verdict.PASS: 0.2, _Verdict.WARN: 0.5, _Verdict.FAIL: 0.8}
_ALL_PASS = re.compile(
    r"\ball (?:five |5 )?(?:layers|checks)\b[^.\n]{0,20}?\b(?:pass\w*|fine|ok|clear|green)\b",
    re.I,
)
_Graded = tuple[LayerResult, _Verdict]


def _layers(text: str) -> dict[str, _Graded]:
    """Each layer as written; one the text leaves out is a warning, not a silent pass,
    unless the text says all layers pass."""
    unassessed = (LayerResult(passed=True, score=0.5, detail="not assessed"), _Verdict.WARN)
    if _ALL_PASS.search(text):
        unassessed = (LayerResult(passed=True, score=0.2, detail="all layers pass"), _Verdict.PASS)
    return {
        name: _layer(text, f"(?:{label}){_LAYER_SUFFIX}") or unassessed
        for name, label in _LAYER_LABELS.items()
    }


def _layer(text: str, label: str) -> _Graded | None:
    """`Observation: pass (0.2), volatility normal` or, in prose, `sizing fails (0.9): …`."""
    prose = re.compile(
        rf"(?<![\w-]){label}\s+(?:is\s+|looks\s+|seems\s+)?(?P<v>(?:[^\n.;]|\.\d)*)", re.I
    )
    # The verdict word opens the value, after at most its score ("0.5 (warn)"): in
    # "liquidity is thin, so I block" the block is the decision's, not the layer's.
    values = [(value, False) for value in labelled(text, label, whole_line=True)]
    values += [(match["v"], True) for match in prose.finditer(text)]
    for value, needs_verdict in values:
        mention = next((m for m in VERDICT.mentions(value) if not m.negated), None)
        if mention is not None and re.search(r"[a-z]{2}", value[: mention.start], re.I):
            mention = None
        if needs_verdict and mention is None:
            continue
        score_at = _score_number(value, mention.end if mention else 0)
        score = as_fraction(score_at) if score_at else None
        if mention is None and score is None:
            continue
        verdict = mention.choice if mention is not None else _verdict_for(score or 0.0)
        spans = [score_at.span()] if score_at else []
        spans += [(mention.start, mention.end)] if mention else []
        detail = value
        for start, end in sorted(spans, reverse=True):
            detail = detail[:start] + detail[end:]
        result = LayerResult(
            passed=verdict is not _Verdict.FAIL,
            score=_DEFAULT_SCORE[verdict] if score is None else score,
            detail=clip(re.sub(r"^[\W_]+|[\s(),;:.–—-]+$", "", detail), 160),
        )
        return result, verdict
    return None


def _score_number(value: str, after_verdict: int) -> re.Match[str] | None:
    """The layer's score: a number in parentheses, after "score", at the start, or right
    after the verdict word; not any number (40% may be a concentration)."""
    for number in numbers(value):
        before = value[: number.start()]
        if (
            before.rstrip().endswith("(")
            or re.search(r"score\W*$", before, re.I)
            or not before.strip(" :=-–—")
            or (after_verdict and not value[after_verdict : number.start()].strip(" ,:=/–—-("))
        ):
            return number
    return None


def _verdict_for(score: float) -> _Verdict:
    if score < 0.4:
        return _Verdict.PASS
    return _Verdict.WARN if score < 0.7 else _Verdict.FAIL


def risk_meaningful(decision: RiskAssessment, prompt: str) -> list[str]:
    """Each layer's detail in words, the layers' scores not all zero, warnings that are not
    placeholders."""
    layers = [(name, getattr(decision.layers, name)) for name in LAYERS]
    problems = [p for name, layer in layers for p in has_words(layer.detail, f"/layers/{name}", 1)]
    problems += nonzero([layer.score for _, layer in layers], "/layers/*/score")
    return problems + items_have_words(decision.warnings, "/warnings")
