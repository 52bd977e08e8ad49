"""Enum words read with their negation, condition and cue in view (`Choices`), a choice read
from a label or from prose (`read_choice`), and how much of a quality words state (`Degree`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from golem.subsystems.text._fields import labelled
from golem.subsystems.text._numbers import as_fraction, first_number

T = TypeVar("T")


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
