"""Numbers as models write them: fractions in 0..1 (72%, .72, "seventy percent", "3 in
10"), signed values, counts (spelled too), dollar amounts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

NUMBER = (
    r"(?P<num>[-+−]?(?:\d+(?:\.\d+)?|\.\d+))[ \t]*"
    r"(?P<unit>%|percent\b|per ?cent\b|pct\b|/[ \t]*(?:100|10|5|4|3)\b|"
    r"(?:out of|in) (?:100|20|10|5|4|3|2)\b(?![ \t]*(?:sec|min|hour|h\b|day|week|block)))?"
)
_SMALL = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_DIGITS = {word: i for i, word in enumerate(_SMALL)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
# A number spelled out, only where a unit makes it a proportion: "seventy percent",
# "one in five", "three out of ten" ("this one is high" stays words).
_SPELLED_NUMBER = rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_SMALL)}))?|{'|'.join(_SMALL)})"
_SPELLED = re.compile(
    rf"\b(?P<a>{_SPELLED_NUMBER})(?=[ \t]+per ?cent\b)|"
    rf"\b(?P<x>{_SPELLED_NUMBER}|\d+)(?P<mid>[ \t]+(?:in|out of)[ \t]+)"
    rf"(?P<y>{_SPELLED_NUMBER}|\d+)\b",
    re.I,
)


# A spelled number that counts the things a decision counts: "twelve entries", "nine are
# fine", "seven of ten" (not "survived two crashes", nor a bare "one"); see also
# `_spelled_counts`.
_COUNTED_THINGS = r"(?:entr(?:y|ies)|items?|notes?|insights?|episodes?|lessons?|hypothes[ie]s)\b"
_COUNT_WORD = re.compile(
    rf"\b(?!one\b){_SPELLED_NUMBER}\b(?=\s+(?:{_COUNTED_THINGS}|"
    r"(?:(?:out )?of|are|were|is|was|got|have|had)\b))",
    re.I,
)


def _value(words: str) -> str:
    if words.isdigit():
        return words
    return str(sum(_DIGITS[word] for word in re.split(r"[- ]", words.lower())))


def _digits(text: str) -> str:
    """Spelled-out proportions as digits: "seventy-five percent" is "75 percent"."""

    def number(match: re.Match[str]) -> str:
        if match["a"]:
            return _value(match["a"])
        return _value(match["x"]) + match["mid"] + _value(match["y"])

    return _SPELLED.sub(number, text)


_FILLER = (
    r"[ \t]*(?:(?:level|score|rating|estimate|value|of|is|are|at|around|about|roughly|"
    r"approximately|approx\.?|near|maybe|probably|i'?d say|was|were|seems?|seemed|looks?|"
    r"felt|feels?|~|≈|:|=|-(?=\s)|–|—|\(|\||\"|')"
    r"[ \t]*)*"
)
_SCALE = (
    (r"very low|minimal|negligible|tiny", 0.1),
    (r"very high|very strong|extreme|severe|near[- ]certain|certain", 0.9),
    (r"low|slight|small|weak", 0.25),
    (r"moderate|medium|mid|fair|some|middling", 0.5),
    (r"high|strong|large|significant|big", 0.75),
)


def _divisor(unit: str | None) -> float:
    """100 for a percentage, N for "/N" or "out of N", 1 for no unit."""
    denominator = re.search(r"\d+", unit or "")
    if denominator is not None:
        return float(denominator[0])
    return 100.0 if unit else 1.0


def _fraction(number: str, unit: str | None) -> float | None:
    value = float(number.replace("−", "-")) / _divisor(unit)
    if not unit and value > 1 and (value.is_integer() or value >= 10):
        value /= 100  # "confidence 72": a percentage without its sign
    return value if 0 <= value <= 1 else None


def _signed(number: str, unit: str | None) -> float | None:
    value = float(number.replace("−", "-")) / _divisor(unit)
    return value if -1 <= value <= 1 else None


def _numbers_near(
    text: str, labels: str, after: str, convert: Callable[[str, str | None], float | None]
) -> Iterator[float]:
    before_pattern = re.compile(rf"(?<![\w-])(?:{labels})\b{_FILLER}{NUMBER}", re.I)
    after_pattern = re.compile(rf"(?<![\w.]){NUMBER}[ \t]*(?:{after})\b", re.I)
    for pattern in (before_pattern, after_pattern):
        for match in pattern.finditer(text):
            value = convert(match["num"], match["unit"])
            if value is not None:
                yield value


def read_fraction(text: str, labels: str, *, after: str | None = None) -> float | None:
    """A number in 0..1 named by `labels`: "confidence 72%", "Confidence: 0.72", ".75",
    "70 percent", "8/10", "80% confidence"; `after` names words that may follow the number
    instead ("95% sure"). Then a labelled word on the scale ("Confidence: high"), then
    the first number on the label's line within a few words. Proportions spelled out
    ("seventy percent", "one in five") count as numbers."""
    text = _digits(text)
    near = next(_numbers_near(text, labels, after or labels, _fraction), None)
    if near is not None:
        return near
    for words, scaled in _SCALE:
        if re.search(rf"(?<![\w-])(?:{labels})\b{_FILLER}(?:{words})\b", text, re.I):
            return scaled
    loose = re.compile(rf"(?<![\w-])(?:{labels})\b[^\n\d%.]{{0,30}}?{NUMBER}", re.I)
    loose_values = (_fraction(m["num"], m["unit"]) for m in loose.finditer(text))
    return next((value for value in loose_values if value is not None), None)


def bracketed_fraction(text: str) -> float | None:
    """A bare 0..1 number in parentheses, as in `hedges pay (0.8)` or `(80%)`."""
    match = re.search(rf"\({NUMBER}\)", text, re.I)
    return _fraction(match["num"], match["unit"]) if match else None


def read_signed(text: str, labels: str) -> float | None:
    """A number in -1..1 named by `labels` ("pleasure: -0.4", "valence -40%")."""
    return next(_numbers_near(text, labels, labels, _signed), None)


def read_count(text: str, labels: str) -> int | None:
    """A whole number named by `labels`, itself or as the tail of a snake_case key:
    "Evaluated: 12", "entries_evaluated=12", "12 entries evaluated", "kept seven of ten"
    (see `_spelled_counts`)."""
    text = _spelled_counts(text, labels)
    before = re.compile(rf"(?<![^\W_]|-)(?:{labels}){_FILLER}(?P<n>\d+)\b(?![.,]\d|%)", re.I)
    after = re.compile(rf"(?<![\w.])(?P<n>\d+)\s+(?:[a-z]+\s+){{0,2}}?(?:{labels})", re.I)
    for pattern in (before, after):
        match = pattern.search(text)
        if match:
            return int(match["n"])
    return None


def _spelled_counts(text: str, labels: str) -> str:
    """Spelled numbers as digits where they count: before the things counted
    (`_COUNT_WORD`), and right after a label or "of" ("pruned three", "of ten")."""
    text = _COUNT_WORD.sub(lambda m: _value(m[0]), text)
    after_label = re.compile(
        rf"(?<![\w-])(?P<lead>(?:{labels}|(?:out )?of(?: the| all)?|all)\s+)"
        rf"(?P<n>{_SPELLED_NUMBER})\b(?=\s*(?:$|[^\w\s]|(?:out )?of\b|and\b|{_COUNTED_THINGS}))",
        re.I,
    )
    return after_label.sub(lambda m: m["lead"] + _value(m["n"]), text)


_ANY_NUMBER = re.compile(rf"(?<![\w.]){NUMBER}", re.I)


def first_number(text: str) -> re.Match[str] | None:
    """The first number in the text, with its unit (`%`, `percent`, `/10`…) if any."""
    return _ANY_NUMBER.search(text)


def numbers(text: str) -> Iterator[re.Match[str]]:
    """Every number in the text, with its unit."""
    return _ANY_NUMBER.finditer(text)


def as_fraction(match: re.Match[str]) -> float | None:
    """A number match read as a 0..1 value (72% and a bare 72 are 0.72), else None."""
    return _fraction(match["num"], match["unit"])


def as_value(match: re.Match[str]) -> float:
    """A number match as a plain value: a percentage as its fraction (-4.2% is -0.042)."""
    return float(match["num"].replace("−", "-")) / _divisor(match["unit"])


_MONEY = (
    r"(?P<cur>\$|usd[ \t]*)?[ \t]*(?P<num>\d[\d,]*(?:\.\d+)?)[ \t]*"
    r"(?P<mult>k\b|m\b|thousand\b|million\b)?[ \t]*(?P<cur2>usd\b|dollars\b|usdc\b)?"
)
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}
_MARKED_MONEY = re.compile(rf"(?<![\w.]){_MONEY}", re.I)


def _usd(match: re.Match[str]) -> float:
    value = float(match["num"].replace(",", ""))
    return value * _MULTIPLIERS.get((match["mult"] or "").lower(), 1.0)


# A size in another unit ("0.6 ETH", "20% of NAV"), and the dollar value written beside it:
# "0.6 ETH (~$1,950)", "20% of NAV, which is $5,800".
_OTHER_UNIT = re.compile(r"[ \t]*(?:%|percent\b|bps\b|[a-z]{0,2}[A-Z]{2,6}\b)")
_EQUIVALENT = re.compile(
    r"[^$\n;]{0,40}?(?:\(|\bwhich is\b|\bi\.e\.|\bthat(?:'s| is)\b|\bor\b|\babout\b|"
    rf"\broughly\b|~|≈|=)[ \t~≈]*{_MONEY}",
    re.I,
)


def read_usd(text: str, labels: str, *, marked: bool = False) -> float | None:
    """A dollar amount named by `labels`: "adjusted size: $2,500", "cap at 1.2k USD",
    "shrink it to 0.6 ETH (~$1,950)"; `marked`: only an amount written with "$", "USD" or
    "dollars" (or its dollar value beside it)."""
    pattern = re.compile(rf"(?<![\w-])(?:{labels})\b{_FILLER}(?:to|at|by)?[ \t]*{_MONEY}", re.I)
    for match in pattern.finditer(text):
        if match["cur"] or match["cur2"]:
            return _usd(match)
        if _OTHER_UNIT.match(text, match.end()):
            equivalent = _EQUIVALENT.match(text, match.end())
            if equivalent is not None and (equivalent["cur"] or equivalent["cur2"]):
                return _usd(equivalent)
        elif not marked:
            return _usd(match)
    return None


def usd_amounts(text: str) -> Iterator[tuple[float, re.Match[str]]]:
    """Every amount written with "$", "USD" or "dollars", with its match."""
    for match in _MARKED_MONEY.finditer(text):
        if match["cur"] or match["cur2"]:
            yield _usd(match), match
