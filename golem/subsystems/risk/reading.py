"""Risk's text reader: a RiskAssessment's fields from free text (the approval or
rejection, a smaller size allowed, each layer's verdict, score and detail, warnings and
reasoning), for a model that did not answer in the schema.
"""

from __future__ import annotations

import re
from enum import StrEnum
from itertools import pairwise
from typing import Any

from golem.inference import UnparseableOutput
from golem.subsystems.risk.layers import LayerResult
from golem.subsystems.text import (
    Choices,
    as_fraction,
    clip,
    items,
    labelled,
    numbers,
    read_choice,
    read_usd,
    section,
    usd_amounts,
)

__all__ = ["read_assessment"]


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


def read_assessment(text: str) -> dict[str, Any]:
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
