"""Lists and sections: arrays, bullets, inline lists, `Heading:` sections, a list named by its
noun, and the ids models give entries.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from golem.subsystems.text._fields import clip, labelled
from golem.subsystems.text._numbers import NUMBER

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
    trailing = re.compile(rf"[\s,;–—-]*(?:{NUMBER}[ \t]*)?\b(?:{labels})\b[^,;()\n]*", re.I)
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
