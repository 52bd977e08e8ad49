"""Reading a decision out of free text: labelled fields, enum words with negation scope,
numbers in 0..1, counts, dollar amounts, bullet lists and sections. Every decision's
`from_text` is a short declarative use of these; they are pure and use only `re`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from golem.inference import UnparseableOutput, extract_json

__all__ = [
    "ENTRY_ID",
    "YES_NO",
    "Choices",
    "Degree",
    "Mention",
    "as_fraction",
    "as_value",
    "assign_sections",
    "bracketed_fraction",
    "clean",
    "clip",
    "decision_from_text",
    "first_number",
    "items",
    "labelled",
    "listed",
    "numbers",
    "outside_brackets",
    "read_choice",
    "read_count",
    "read_fraction",
    "read_signed",
    "read_usd",
    "section",
    "sections",
    "strip_meta",
    "usd_amounts",
]

T = TypeVar("T")
D = TypeVar("D", bound=BaseModel)


def decision_from_text(decision: type[D], text: str, read: Callable[[str], Mapping[str, Any]]) -> D:
    """A JSON object in the text is the decision, validated as such: its errors surface
    (and get re-asked) rather than being papered over by text defaults. Otherwise
    `read` takes the cleaned text and returns the decision's fields."""
    fields = decision.model_fields.keys()
    try:
        found = extract_json(text, keys=fields).value
    except UnparseableOutput:
        found = None
    if isinstance(found, dict) and fields & found.keys():
        try:
            return decision.model_validate(found)
        except ValidationError as exc:
            return _completed(decision, found, exc, lambda: read(clean(text)))
    return decision.model_validate(read(clean(text)))


def _completed(
    decision: type[D],
    found: dict[str, Any],
    error: ValidationError,
    read: Callable[[], Mapping[str, Any]],
) -> D:
    """A JSON answer whose only fault is leaving out required fields (a risk answer without
    `layers`) is completed by the text reader: what the JSON gives stands as given, what it
    leaves out is read from the text (so the layers it never assessed come with the warnings
    that say so). Any other error, or a text the reader cannot read, is the JSON's own."""
    if any(e["type"] != "missing" or len(e["loc"]) != 1 for e in error.errors()):
        raise error
    try:
        filled = read()
    except UnparseableOutput:
        raise error from None
    return decision.model_validate({**filled, **found})


# -- normalization -------------------------------------------------------------------

_THINK = re.compile(r"<think(?:ing)?>.*?(?:</think(?:ing)?>|$)", re.S | re.I)
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
# A short line with no punctuation right above a list heads it ("Lessons" then "1. …").
_BARE_HEADING = re.compile(
    r"^[ \t]*([A-Z][\w'-]*(?:[ \t]+[\w'-]+){0,3})[ \t]*$(?=\n[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t])",
    re.M,
)
_BOLD_LINE = re.compile(r"^[ \t]*(?:\*\*|__)([^*_\n]+?)[ \t:]*(?:\*\*|__)[ \t]*:?[ \t]*$", re.M)
_EMPHASIS = re.compile(r"\*\*|__|`|~~|(?<=\S)\*|\*(?=\S)")
_CHARS = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "\u00a0": " ", "\r": ""})


def clean(text: str) -> str:
    """The text without reasoning blocks or markdown emphasis; headings (`# X`, a line
    that is only `**X**`) become `X:` lines, the form `sections` reads; a markdown table
    becomes labelled lines (see `_untable`)."""
    text = _THINK.sub("", text.translate(_CHARS))
    text = _TABLE.sub(_untable, text)
    text = _KEY_VALUES.sub("\n", text)
    text = _SPACED_PAIRS.sub(lambda m: _SPACED_PAIR.sub("\n", m[0]), text)
    text = _INLINE_FIELD.sub(lambda m: f"\n{m['field']}\n", text)
    text = _HEADING.sub(lambda m: m[1].rstrip(":") + ":", text)
    text = _BARE_HEADING.sub(lambda m: m[1] + ":", text)
    text = _BOLD_LINE.sub(lambda m: m[1].rstrip(":") + ":", text)
    return _EMPHASIS.sub("", text)


_TABLE = re.compile(
    r"^[ \t]*\|(?P<head>.*)\|[ \t]*\n[ \t]*\|[ \t:|-]*-[ \t:|-]*\|?[ \t]*\n"
    r"(?P<rows>(?:[ \t]*\|.*\|?[ \t]*(?:\n|$))+)",
    re.M,
)


# Pairs run together on one line ("killed_by=fees; learned=patience", "promoted=1 staged=2"):
# one pair a line.
_KEY_VALUES = re.compile(r"[ \t]*[;,][ \t]*(?=[A-Za-z_]{2,30}[ \t]*=)")
_SPACED_PAIRS = re.compile(r"^[ \t]*[A-Za-z_]{2,30}=\S.*$", re.M)
_SPACED_PAIR = re.compile(r"[ \t]+(?=[A-Za-z_]{2,30}=[^\s=])")
# A label that opens a sentence mid-line ("Nothing promoted. Staged: 3 (h-1, h-2). Discarded:
# 0.", "... as the playbook said. One lesson: gas was cheap.") puts that sentence on a line of
# its own, the form `sections` reads: its value runs to the end of its sentence.
_INLINE_FIELD = re.compile(
    r"(?<=[.!?])[ \t]+(?P<field>[A-Z][\w'-]*(?:[ \t]+[\w'-]+){0,2}[ \t]*:(?=\s|$)"
    r".*?(?:[.!?](?=[ \t]+[A-Z(\"']|[ \t]*$)|$))[ \t]*",
    re.M,
)


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _untable(match: re.Match[str]) -> str:
    """A one-row table as `Header: cell` lines; a longer one as a line per row, its first
    cell the label (`| Observation | pass | 0.2 |` is `Observation: pass, 0.2`)."""
    head = _cells(match["head"])
    rows = [_cells(row) for row in match["rows"].splitlines() if row.strip()]
    if len(rows) == 1:
        pairs = zip(head, rows[0], strict=False)
        return "\n".join(f"{h}: {cell}" for h, cell in pairs if h and cell) + "\n"
    return "".join(f"{row[0]}: {', '.join(c for c in row[1:] if c)}\n" for row in rows if row)


def clip(text: str, limit: int) -> str:
    """Whitespace collapsed, surrounding quotes dropped, cut to `limit` characters."""
    text = " ".join(text.split()).strip("\"' ")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- labelled fields -----------------------------------------------------------------

_SEPARATOR = (
    r"""["']?(?:[ \t]*\([^)\n]{0,40}\))?[ \t]*"""
    r"(?::|=|\||\s[-–—]|[–—]|->|→|\.{2,}|…|\b(?:is|was|are|were)\b)"
)
_CLAUSE_END = re.compile(r"[.!?;](?=\s|$)")


def labelled(text: str, label: str, *, whole_line: bool = False) -> Iterator[str]:
    """Values written after `label` (a regex): `Severity: HIGH`, `severity=high`,
    `severity - critical`, `"severity": "high"`, `| Severity | high |`, or the label
    alone on a line with the value on the next. Only the first clause of the value
    unless `whole_line`."""
    pattern = re.compile(
        rf"(?<![\w-])(?:{label})(?:\s+(?:level|score|rating|class|verdict))?"
        rf"{_SEPARATOR}[ \t]*(?P<value>[^\n]*)",
        re.I,
    )
    for match in pattern.finditer(text):
        value = match["value"].strip(" \t\"',|")
        if not value:
            rest = text[match.end() :].lstrip("\n ")
            value = rest.split("\n", 1)[0].strip() if rest else ""
        if not whole_line:
            end = _CLAUSE_END.search(value)
            value = value[: end.start()] if end else value
        if value:
            yield value


# -- enum words ----------------------------------------------------------------------

_SENTENCE_END = re.compile(r"[!?\n]|\.(?!\d)")
_CLAUSE_BREAK = re.compile(
    r"[.;:!?\n,()]|\b(?:but|however|although|though|whereas|while|so|therefore|thus|hence)\b",
    re.I,
)
_NEGATOR = re.compile(
    r"(?:\b(?:not|no|none|never|nor|neither|without|avoid\w*|against|instead of|rather than|"
    r"refrain\w* from|hold(?:ing)? off(?: on)?|cannot)\b|n't\b)",
    re.I,
)
_NEGATED_AFTER = re.compile(
    r"\b(?:(?:is|are|was|would be|seems)?\s*(?:not|n't) (?:needed|necessary|warranted|"
    r"advised|recommended|required|justified|yet|an option|on the table)|unnecessary|"
    r"unwarranted|premature|overkill|off the table|uncalled for|too early)\b",
    re.I,
)
_CONDITION = re.compile(
    r"\b(?:if|unless|in case|otherwise|in the event|only when|once|should (?:the|it|prices?|"
    r"we see|things)|consider(?:ed|ing)|thought about|was tempted|normally|ordinarily)\b",
    re.I,
)
# Later in the sentence, a pronoun that takes the word back: "exiting would lock in the
# loss, so I advise against it".
_REJECTED_LATER = re.compile(
    r"\b(?:against|rul(?:e|ing) out|reject\w*|skip|forget)\s+(?:it|that|this)\b|"
    r"\brul(?:e|ing) (?:it|that|this) out\b|"
    r"\b(?:it|that|this)(?:'s|\s+is|\s+would be|\s+seems|\s+looks)\s+(?:\w+\s+)?"
    r"(?:premature|overkill|too (?:early|drastic|much|soon)|unnecessary|unwarranted|"
    r"a mistake|off the table|not (?:needed|necessary|warranted|justified))\b",
    re.I,
)
# A negation of the word's form, not of the word: "I would not approve it as is", "I can't
# approve the full amount".
_ONLY_AS_IS = re.compile(
    r"^\s*(?:it |this |that |the \w+ )?(?:as is|as it stands|as (?:proposed|written|submitted|"
    r"requested|asked)|at (?:this|that|the proposed|the requested|full) (?:size|amount)|in full|"
    r"at full size|(?:the )?(?:full|whole|entire)(?: (?:amount|size|position|request|thing))?|"
    r"all of it)\b",
    re.I,
)
# A question the text answers at once: "Approve? Yes." / "Exit? No, not yet."
_ANSWER = re.compile(
    r"\s*(?:(?P<yes>yes|yep|yeah|definitely|absolutely|certainly)|"
    r"(?P<no>no|nope|not (?:yet|now|really)|never|definitely not))\b",
    re.I,
)
# A condition right after the word: "exit if it breaks 1800" is not the call made now.
_CONDITION_AFTER = re.compile(
    r"^\s*(?:(?:it|this|that|them|the \w+)\s+)?(?:only\s+)?(?:if|unless|once|in case|should|"
    r"provided|as long as)\b",
    re.I,
)
_CUE_BEFORE = re.compile(
    r"\b(?:recommend\w*|suggest\w*|propos\w*|advis\w*|should|must|will|going to|decide\w*|"
    r"decision|choose|go with|best to|plan to|time to|let's|need to|i'd|we'd|verdict|"
    r"conclusion|final\w*|overall)\b",
    re.I,
)
_CUE_AFTER = re.compile(
    r"^\W*(?:\w+\W+){0,3}?(?:is |seems |looks |would be )?(?:best|preferred|prudent|wise|"
    r"warranted|justified|makes sense|the right (?:call|move)|recommended|advisable)\b",
    re.I,
)
_WORDS = re.compile(r"[\w']+")
_NEGATION_REACH = 4  # words between a negator and the word it negates
# A negated need reaches to the end of its clause, over a whole list: "there is no need for
# drastic action like exiting", "this doesn't warrant an exit or a hedge".
_WIDE_NEGATOR = re.compile(
    r"\b(?:no (?:need|reason|call|point)|not (?:necessary|needed|worth)|"
    r"nothing (?:warrants|calls for)|"
    r"(?:does|do|did|would)(?:n't| not) (?:warrant|need|require|call for|justify|merit))\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Mention(Generic[T]):
    """One occurrence of a choice's word, judged in its clause and sentence. `moot`: it
    settles nothing (a question left open). `standing`: PLAIN, or FORM_ONLY for a negation
    only of the word's form ("not approve it as is"), or CONDITIONAL ("exit if it breaks
    1800"). `score`: 2 where a cue ("I recommend") points at it. `paraphrase`: the word is
    one of the choice's looser phrasings."""

    choice: T
    start: int
    end: int
    negated: bool
    moot: bool
    score: int
    paraphrase: bool = False
    standing: int = 2


# How firmly a mention states its choice (Mention.standing): a negation of the form stands
# below a plain statement and above a conditional one ("approve only if it were cut; not
# approved as submitted" is a rejection).
PLAIN, FORM_ONLY, CONDITIONAL = 2, 1, 0


class Choices(Generic[T]):
    """The words that name each choice (regex alternatives, matched on word boundaries:
    "highly" is not "high"), and optionally looser `paraphrases` ("reduce exposure" for a
    rebalance) that count only where no plain word stands. A negated mention ("no need to
    exit") does not count, or counts as `flip(choice)` for a yes/no choice; a question does
    not count. The table is compiled once, into one pattern."""

    def __init__(
        self,
        words: Mapping[T, str],
        *,
        paraphrases: Mapping[T, str] | None = None,
        flip: Callable[[T], T] | None = None,
    ) -> None:
        tiers = [(choice, alt, False) for choice, alt in words.items()]
        tiers += [(choice, alt, True) for choice, alt in (paraphrases or {}).items()]
        self._groups = [(choice, loose) for choice, _, loose in tiers]
        self._pattern = re.compile(
            "|".join(rf"(?P<c{i}>\b(?:{alt})\b)" for i, (_, alt, _) in enumerate(tiers)),
            re.I,
        )
        self._flip = flip

    def mentions(self, text: str) -> list[Mention[T]]:
        matches = list(self._pattern.finditer(text))
        found = []
        for i, match in enumerate(matches):
            choice, loose = self._groups[int((match.lastgroup or "c0")[1:])]
            reach = matches[i + 1].start() if i + 1 < len(matches) else len(text)
            found.append(_judge(text, choice, *match.span(), paraphrase=loose, reach=reach))
        return found

    def pick(self, text: str) -> T | None:
        """The choice the text settles on: among mentions that are not moot, a plain word
        before a paraphrase, then the firmest (see `Mention.standing`), then the best-scored
        (a cue like "I recommend"), then the first."""
        best: tuple[tuple[bool, int, int], T] | None = None
        for mention in self.mentions(text):
            if mention.moot:
                continue
            choice = mention.choice
            if mention.negated:
                if self._flip is None:
                    continue
                choice = self._flip(choice)
            rank = (not mention.paraphrase, mention.standing, mention.score)
            if best is None or rank > best[0]:
                best = (rank, choice)
        return None if best is None else best[1]


def _judge(
    text: str, choice: T, start: int, end: int, *, paraphrase: bool, reach: int
) -> Mention[T]:
    """`reach`: where the next mention starts; a pronoun after it refers to that one."""
    sentence_start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    after_sentence = _SENTENCE_END.search(text, end)
    question = after_sentence is not None and after_sentence[0] == "?"
    answer = _ANSWER.match(text, after_sentence.end()) if after_sentence and question else None
    if answer is not None:  # "Exit? No." answers its own question
        question = False
    clause_start = max((m.end() for m in _CLAUSE_BREAK.finditer(text, 0, start)), default=0)
    clause_start = max(clause_start, sentence_start)
    before = text[clause_start:start]
    after_break = _CLAUSE_BREAK.search(text, end)
    after = text[end : after_break.start() if after_break else len(text)][:60]
    sentence_rest = text[end : min(after_sentence.start() if after_sentence else reach, reach)]
    negated = (
        any(
            len(_WORDS.findall(before[m.end() :])) <= _NEGATION_REACH
            for m in _NEGATOR.finditer(before)
        )
        or bool(_WIDE_NEGATOR.search(before))
        or bool(_NEGATED_AFTER.search(after[:50]))
        or bool(_REJECTED_LATER.search(sentence_rest))
    ) != bool(answer and answer["no"])
    recent = " ".join(_WORDS.findall(text[sentence_start:start])[-6:])
    score = 2 if _CUE_BEFORE.search(recent) or _CUE_AFTER.match(after) else 0
    # A condition holds to the end of its sentence or to a semicolon ("if it breaks, exit";
    # but in "exit if it breaks; for now hold" the hold is unconditional).
    condition_start = max(sentence_start, text.rfind(";", sentence_start, start) + 1)
    standing = PLAIN
    if negated and _ONLY_AS_IS.match(after):
        standing = FORM_ONLY
    if _CONDITION.search(text[condition_start:start]) or _CONDITION_AFTER.match(after):
        standing = CONDITIONAL
    return Mention(choice, start, end, negated, question, score, paraphrase, standing)


YES_NO: Choices[bool] = Choices(
    {
        True: r"yes|true|y|needed|required|recommended|warranted|approved?",
        False: r"no|false|n|none|unnecessary|not needed|rejected|denied",
    },
    flip=lambda value: not value,
)


def read_choice(
    text: str,
    choices: Choices[T],
    *,
    labels: Sequence[str] = (),
    prose: Choices[T] | None = None,
    use_prose: bool = True,
    scale: Callable[[float], T] | None = None,
) -> T | None:
    """A labelled value wins ("Action: observe"), each label (a regex) in turn, and with
    `scale` a labelled number read as a 0..1 fraction ("Severity: 4/5"); then a word
    written right beside a label ("a high-severity move", "severity none"); then the
    prose, read with `prose` (default `choices`)."""
    for label in labels:
        for value in labelled(text, label):
            found = choices.pick(value)
            if found is None and scale is not None:
                found = _scaled(value, scale)
            if found is not None:
                return found
    for label in labels:
        attributive = re.compile(rf"[\s-]+(?:{label})\b", re.I)
        juxtaposed = re.compile(rf"(?<![\w-])(?:{label})(?:\s+{_JUXTAPOSED})*\s*$", re.I)
        for mention in choices.mentions(text):
            if mention.negated or mention.moot:
                continue
            line_start = text.rfind("\n", 0, mention.start) + 1
            if attributive.match(text, mention.end) or juxtaposed.search(
                text, line_start, mention.start
            ):
                return mention.choice
    if not use_prose:
        return None
    return (prose or choices).pick(text)


_JUXTAPOSED = r"(?:level|rating|score|is|as|of|at|seems|looks|would|be|here|overall|now)"


def _scaled(value: str, scale: Callable[[float], T]) -> T | None:
    """A number with a unit ("4/5", "60%") or written in 0..1 ("0.6"), on `scale`."""
    number = first_number(value)
    if number is None or not (number["unit"] or "." in number["num"]):
        return None
    fraction = as_fraction(number)
    return None if fraction is None else scale(fraction)


# -- numbers -------------------------------------------------------------------------

_NUMBER = (
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
    before_pattern = re.compile(rf"(?<![\w-])(?:{labels})\b{_FILLER}{_NUMBER}", re.I)
    after_pattern = re.compile(rf"(?<![\w.]){_NUMBER}[ \t]*(?:{after})\b", re.I)
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
    loose = re.compile(rf"(?<![\w-])(?:{labels})\b[^\n\d%.]{{0,30}}?{_NUMBER}", re.I)
    loose_values = (_fraction(m["num"], m["unit"]) for m in loose.finditer(text))
    return next((value for value in loose_values if value is not None), None)


# The word before a quality and the 0..1 level it gives it: "mildly surprising", "a complete
# shock", "not surprising at all". Checked in this order; a negation first.
_DEGREES = tuple(
    (re.compile(rf"(?:\b(?:{words})|n't)[ \t]+(?:[\w-]+[ \t]+)?$", re.I), level)
    for words, level in (
        (r"not|no|nothing|never|hardly|barely|scarcely|little", 0.1),
        (
            r"mild(?:ly)?|slight(?:ly)?|a (?:little|bit|tad|touch)|somewhat|marginally|minor|small",
            0.3,
        ),
        (r"moderate(?:ly)?|fairly|reasonably|rather|kind of|sort of|partly|medium", 0.5),
        (
            r"extreme(?:ly)?|huge(?:ly)?|complete(?:ly)?|total(?:ly)?|utter(?:ly)?|deeply|wildly|"
            r"enormous(?:ly)?|massive(?:ly)?|incredibl[ey]|absolute(?:ly)?",
            0.95,
        ),
        (
            r"very|quite|really|highly|genuinely|truly|big|major|real|pretty|strong(?:ly)?|"
            r"considerabl[ey]|significant(?:ly)?",
            0.8,
        ),
    )
)


class Degree:
    """Words that state how much of a quality there is, each with its plain level
    ("surprising" 0.6, "a shock" 0.85, "as expected" 0.1), compiled once into one pattern.
    `read` takes the first such word, its level moved by the word before it ("mildly
    surprising" 0.3, "very surprising" 0.8, "not surprising at all" 0.1); a word whose plain
    level is already low ("unsurprising") keeps it."""

    def __init__(self, words: Mapping[str, float]) -> None:
        self._levels = list(words.values())
        self._pattern = re.compile(
            "|".join(rf"(?P<w{i}>\b(?:{alt})\b)" for i, alt in enumerate(words)), re.I
        )

    def read(self, text: str) -> float | None:
        match = self._pattern.search(text)
        if match is None:
            return None
        level = self._levels[int((match.lastgroup or "w0")[1:])]
        clause_start = max(
            (m.end() for m in _CLAUSE_BREAK.finditer(text, 0, match.start())), default=0
        )
        before = text[clause_start : match.start()]
        if level < 0.5:
            return level
        return next((moved for pattern, moved in _DEGREES if pattern.search(before)), level)


def bracketed_fraction(text: str) -> float | None:
    """A bare 0..1 number in parentheses, as in `hedges pay (0.8)` or `(80%)`."""
    match = re.search(rf"\({_NUMBER}\)", text, re.I)
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


_ANY_NUMBER = re.compile(rf"(?<![\w.]){_NUMBER}", re.I)


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


# -- lists and sections --------------------------------------------------------------

# An id as models write one for a grimoire entry or a hypothesis: e12, entry-7, g-0042, h-3,
# ins_3, #12.
ENTRY_ID = r"(?:\b[a-z][a-z0-9]{0,11}[-_:#]?\d+[a-z0-9-]*\b|#\d+\b)"

_BULLET = re.compile(r"^[ \t]*(?:[-*•+▪◦]|\d{1,2}[.)]|\(?[a-hA-H]\))[ \t]+(?P<item>.+)$")
_EMPTY_ITEM = re.compile(r"^\(?(?:none|nothing|n/?a|nil|-|—)\)?\W*$", re.I)
_SECTION_HEAD = re.compile(
    r"^[ \t]*(?P<head>[A-Za-z][^\n:=]{0,60}?)[ \t]*(?::|=(?!=))[ \t]*(?P<rest>.*)$"
)


def items(body: str, *, limit: int, max_chars: int) -> list[str]:
    """A list written as an array (`["a", "b"]`), as bullets (continuation lines join
    their bullet), else as lines, else one line: after its count if it opens with one ("3
    (h-1, h-2, h-3)"; "0" and a bare count list nothing), split at inline numbers ("(1) a;
    (2) b"), else on semicolons (or on commas when every part is short)."""
    found: list[str] = []
    lines = [line for line in body.split("\n") if line.strip()]
    counted = _COUNTED.match(lines[0]) if len(lines) == 1 else None
    if counted is not None:
        lines = [rest] if (rest := counted["inner"] or counted["rest"] or "").strip() else []
    array = _ARRAY.match(body)
    if array is not None:
        found = [m["q"] or m["s"] or m["b"] or "" for m in _ARRAY_ITEM.finditer(array["inner"])]
    elif len(lines) == 1 and (numbered := _enumerated(lines[0])):
        found = numbered
    elif any(_BULLET.match(line) for line in lines):
        for line in lines:
            bullet = _BULLET.match(line)
            if bullet:
                found.append(bullet["item"])
            elif found and line[:1] in " \t":
                found[-1] += " " + line.strip()
    elif len(lines) > 1:
        found = lines
    elif lines:
        found = _split_inline(lines[0])
    kept = [clip(item.rstrip(" .;,"), max_chars) for item in found]
    return [item for item in kept if item and not _EMPTY_ITEM.match(item)][:limit]


_ARRAY = re.compile(r"^\s*\[(?P<inner>[^\[\]]*)\]\s*[.;,]?\s*$", re.S)
_ARRAY_ITEM = re.compile(r"\"(?P<q>[^\"]*)\"|'(?P<s>[^']*)'|(?P<b>[^,\"'\s][^,]*)")


# A one-line list that opens with its count: "3 (h-1, h-2, h-3)", "2: a, b", "0", "none (0)".
_COUNTED = re.compile(
    r"^\W*\(?\d{1,2}\)?(?:[ \t]+(?:items?|entries|hypothes[ie]s|candidates|lessons?))?[ \t]*"
    r"(?:\((?P<inner>[^()]*)\)|[:–—-][ \t]*(?P<rest>.+))?[ \t.;]*$",
    re.I,
)
_ENUMERATOR = re.compile(r"(?:^|(?<=\s))\(?(?P<n>\d{1,2})[.)](?=\s)")


def _enumerated(line: str) -> list[str]:
    """A line numbered inline from 1 ("(1) a; (2) b", "1. a 2. b") split at its numbers."""
    marks = list(_ENUMERATOR.finditer(line))
    numbered = [int(mark["n"]) for mark in marks] == list(range(1, len(marks) + 1))
    if len(marks) < 2 or not numbered or line[: marks[0].start()].strip():
        return []
    ends = [mark.start() for mark in marks[1:]] + [len(line)]
    return [line[mark.end() : end].strip() for mark, end in zip(marks, ends, strict=True)]


def _split_inline(line: str) -> list[str]:
    if ";" in line and len(parts := outside_brackets(line, ";")) > 1:
        return parts
    parts = [re.sub(r"^\s*(?:and|or)\s+", "", part) for part in outside_brackets(line, ",")]
    if len(parts) > 1 and all(len(part.split()) <= 6 for part in parts):
        return parts
    return [line]


def outside_brackets(text: str, separators: str) -> list[str]:
    """`text` split at the `separators` that stand outside parentheses and brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char in "([") - (char in ")]")
        if depth == 0 and char in separators:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def strip_meta(item: str, labels: str) -> str:
    """An item without its annotations: bracketed groups holding a number or a label
    ("(confidence 0.7)", "[source: replay]") and trailing "label: value" fragments."""
    bracketed = re.compile(rf"[(\[](?=[^)\]]*(?:\d|\b(?:{labels})\b))[^)\]]*[)\]]", re.I)
    trailing = re.compile(rf"[\s,;–—-]*(?:{_NUMBER}[ \t]*)?\b(?:{labels})\b[^,;()\n]*", re.I)
    item = trailing.sub("", bracketed.sub("", item))
    return re.sub(r"\s+([.,;:!?])", r"\1", item).strip(" \t,;:–—-")


def sections(text: str) -> list[tuple[str, str]]:
    """The text's `Heading:` sections (after `clean`, markdown headings and bold lines
    are in this form too) as (heading, body). A heading has at most six words; a bullet
    line is never one. `Label: value` is a one-line field that only bullets or indented
    lines continue; a bare `Label:` opens a block that runs to the next heading."""
    found: list[tuple[str, list[str]]] = []
    open_block = False
    for line in text.split("\n"):
        bullet = _BULLET.match(line)
        head = None if bullet else _SECTION_HEAD.match(line)
        if head and len(head["head"].split()) <= 6:
            rest = head["rest"].strip()
            found.append((head["head"].strip(), [rest] if rest else []))
            open_block = not rest
        elif found and (open_block or bullet or line[:1] in (" ", "\t")):
            found[-1][1].append(line)
        elif line.strip():
            open_block = False
    return [(head, "\n".join(body).strip("\n")) for head, body in found]


def section(text: str, heading: str) -> str | None:
    """The body of the first section whose heading matches the regex `heading`."""
    pattern = re.compile(heading, re.I)
    return next((body for head, body in sections(text) if pattern.search(head)), None)


def listed(text: str, noun: str, *, limit: int, max_chars: int) -> list[str]:
    """The items of a list named by `noun` (a regex for the singular and the plural): one
    per numbered label ("Lesson 1: …", "Lesson 2: …"); else the section whose heading is
    the noun after at most three words that do not negate it ("Lessons:", "Two lessons:",
    "Key takeaways:", "Lessons learned:"); else one item said in a sentence ("the lesson
    is that …", "my takeaway: …")."""
    found = sections(text)
    numbered = re.compile(rf"^(?:{noun})[ \t]*#?\d{{1,2}}$", re.I)
    bodies = [body for head, body in found if numbered.match(head) and body.strip()]
    if bodies:
        return [clip(body.rstrip(" .;,"), max_chars) for body in bodies][:limit]
    heading = re.compile(
        rf"^(?:(?!(?:no|not|none|nothing|zero)\b)[\w'-]+\s+){{0,3}}(?:{noun})"
        r"(?:\s+(?:learned|learnt|drawn|here|so far))?$",
        re.I,
    )
    body = next((body for head, body in found if heading.match(head)), None)
    if body is not None:
        return items(body, limit=limit, max_chars=max_chars)
    said = rf"(?:the|one|a|my|our|main|key|big)\s+(?:{noun})(?:\s+here)?"
    sentence = next(labelled(text, said), None)
    return [] if sentence is None else items(_THAT.sub("", sentence), limit=1, max_chars=max_chars)


_THAT = re.compile(r"^that\s+", re.I)


def assign_sections(text: str, headings: Mapping[str, str]) -> dict[str, str]:
    """Each section's body under the first key whose heading regex matches (in the
    mapping's order, so a specific pattern listed first wins over a general one)."""
    compiled = {key: re.compile(pattern, re.I) for key, pattern in headings.items()}
    out: dict[str, str] = {}
    for head, body in sections(text):
        key = next((k for k, p in compiled.items() if p.search(head)), None)
        if key is not None and key not in out:
            out[key] = body
    return out
