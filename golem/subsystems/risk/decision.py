"""RiskAssessment: the five-layer check of a proposed action (market, liquidity, protocol,
portfolio, mortality) that approves it, caps its size or blocks it; and its text reader."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput
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
    read_fraction,
    read_usd,
    section,
)

__all__ = ["LayerResult", "LayerVerdict", "RiskAssessment", "RiskLayers"]

MAX_USD = 1e9


class LayerVerdict(StrEnum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"


class LayerResult(Part):
    verdict: LayerVerdict
    score: Fraction = Field(description="risk in this layer: 0 none .. 1 severe")
    reason: str = Field(default="", max_length=160)


class RiskLayers(Part):
    market: LayerResult
    liquidity: LayerResult
    protocol: LayerResult
    portfolio: LayerResult
    mortality: LayerResult


class RiskAssessment(StructuredOutput):
    """Whether a proposed action may go ahead, and at what size."""

    schema_name = "risk_assessment"

    approved: bool
    risk_score: Fraction = Field(description="overall risk 0..1")
    proposed_size_usd: float | None = Field(
        default=None, ge=0, le=MAX_USD, description="the size proposed, as given; null if none"
    )
    adjusted_size_usd: float | None = Field(
        default=None, ge=0, le=MAX_USD, description="a smaller size to allow; null: as proposed"
    )
    layers: RiskLayers
    conditions: list[ListItem] = Field(default_factory=list, max_length=5)
    reasoning: str = Field(default="", max_length=400)

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        layers = dict(self.layers)
        failing = [name for name, layer in layers.items() if layer.verdict is LayerVerdict.FAIL]
        if self.approved and failing:
            issues.append(SchemaIssue("/approved", f"approved although {failing[0]} fails"))
        if not self.approved and all(
            layer.verdict is LayerVerdict.PASS for layer in layers.values()
        ):
            issues.append(SchemaIssue("/approved", "rejected although every layer passes"))
        for name, layer in layers.items():
            if layer.verdict is LayerVerdict.PASS and layer.score > 0.7:
                issues.append(SchemaIssue(f"/layers/{name}/score", "a pass needs score <= 0.7"))
            if layer.verdict is LayerVerdict.FAIL and layer.score < 0.3:
                issues.append(SchemaIssue(f"/layers/{name}/score", "a fail needs score >= 0.3"))
        adjusted, proposed = self.adjusted_size_usd, self.proposed_size_usd
        if adjusted is not None and not self.approved and adjusted > 0:
            issues.append(SchemaIssue("/adjusted_size_usd", "a rejection allows no size"))
        if adjusted is not None and proposed is not None and adjusted > proposed:
            issues.append(
                SchemaIssue("/adjusted_size_usd", "the adjusted size exceeds the proposed size")
            )
        for i, condition in enumerate(self.conditions):
            if not condition.strip():
                issues.append(SchemaIssue(f"/conditions/{i}", "an empty condition"))
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


_YES = r"approv\w*|green[- ]light\w*|go[- ]ahead|accept\w*|allow\w*|permit\w*|proceed"
_NO = r"reject\w*|den(?:y|ied|ies)|block\w*|veto\w*|declin\w*|refus\w*|disapprov\w*"
APPROVAL = Choices({True: _YES, False: _NO}, flip=lambda v: not v)
APPROVAL_LABELLED = Choices({True: _YES + r"|yes|true", False: _NO + r"|no|false"})
VERDICT = Choices(
    {
        LayerVerdict.PASS: r"pass\w*|ok|okay|fine|green|clear|acceptable",
        LayerVerdict.WARN: r"warn\w*|caution\w*|amber|yellow|concern\w*|elevated|watch",
        LayerVerdict.FAIL: r"fail\w*|red|block\w*|unacceptable|breach\w*|critical",
    }
)
_LAYER_LABELS = {
    "market": r"market",
    "liquidity": r"liquidity",
    "protocol": r"protocol|smart[- ]contract",
    "portfolio": r"portfolio|concentration|exposure",
    "mortality": r"mortality|vitality|survival",
}
_LAYER_SUFFIX = r"(?:[ \t]+risk)?(?:[ \t]+layer)?"
_NOT_A_LAYER = "".join(f"(?<!{name} )" for name in _LAYER_LABELS)
_RISK_LABELS = (
    r"risk[ _]score|overall risk|aggregate risk|total risk|risk rating",
    rf"{_NOT_A_LAYER}risk",
)
_ADJUSTED = (
    r"adjusted(?: size)?|(?<!proposed )(?<!requested )(?<!original )size|"
    r"reduc\w*(?: the)?(?: position| size| it)* to|cap(?:ped)?(?: \w+)? at|"
    r"downsiz\w* to|scal\w* down to|limit\w*(?: it| the size)? to|max(?:imum)?(?: size)?"
)
_PROPOSED = r"proposed(?: size)?|requested(?: size)?|original(?: size)?"


def _read(text: str) -> dict[str, Any]:
    approved = read_choice(
        text,
        APPROVAL_LABELLED,
        labels=(r"approved|approval|decision|verdict|outcome|status",),
        prose=APPROVAL,
    )
    if approved is None:
        raise UnparseableOutput("no approval or rejection in the text", text=text)
    layers = _layers(text)
    stated = (read_fraction(text, label) for label in _RISK_LABELS)
    risk = next((value for value in stated if value is not None), None)
    if risk is None:
        risk = max(layer.score for layer in layers.values())
    conditions = section(text, r"^(?:conditions?|requirements?|provisos?)$") or ""
    reasoning = section(text, r"^(?:reasoning|rationale|why|explanation)$")
    return {
        "approved": approved,
        "risk_score": risk,
        "proposed_size_usd": read_usd(text, _PROPOSED),
        "adjusted_size_usd": read_usd(text, _ADJUSTED) if approved else None,
        "layers": layers,
        "conditions": items(conditions, limit=5, max_chars=120),
        "reasoning": clip(reasoning or text, 400),
    }


_DEFAULT_SCORE = {LayerVerdict.PASS: 0.2, LayerVerdict.WARN: 0.5, LayerVerdict.FAIL: 0.8}
_ALL_PASS = re.compile(
    r"\ball (?:five |5 )?(?:layers|checks)\b[^.\n]{0,20}?\b(?:pass\w*|fine|ok|clear|green)\b",
    re.I,
)


def _layers(text: str) -> dict[str, LayerResult]:
    """Each layer as written; one the text leaves out is a warning, not a silent pass,
    unless the text says all layers pass."""
    unassessed = LayerResult(verdict=LayerVerdict.WARN, score=0.5, reason="not assessed")
    if _ALL_PASS.search(text):
        unassessed = LayerResult(verdict=LayerVerdict.PASS, score=0.2, reason="all layers pass")
    return {
        name: _layer(text, f"(?:{label}){_LAYER_SUFFIX}") or unassessed
        for name, label in _LAYER_LABELS.items()
    }


def _layer(text: str, label: str) -> LayerResult | None:
    """`Market: pass (0.2), volatility normal` or, in prose, `liquidity fails (0.9): …`."""
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
        reason = value
        for start, end in sorted(spans, reverse=True):
            reason = reason[:start] + reason[end:]
        return LayerResult(
            verdict=verdict,
            score=_DEFAULT_SCORE[verdict] if score is None else score,
            reason=clip(re.sub(r"^[\W_]+|[\s(),;:–—-]+$", "", reason), 160),
        )
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


def _verdict_for(score: float) -> LayerVerdict:
    if score < 0.4:
        return LayerVerdict.PASS
    return LayerVerdict.WARN if score < 0.7 else LayerVerdict.FAIL
