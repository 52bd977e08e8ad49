"""Provider keys kept out of what leaves the process or is stored. One place knows how:
`Redaction` masks the key values the golem was given (the log, the status endpoint, the
prompts and the requests kept, `config check`), and `KEY_SHAPES` are what a key looks like
when its value is not known here (a key quoted in a feed item, say).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson

__all__ = ["KEY_SHAPES", "REDACTED", "Redaction"]

REDACTED = "[redacted]"
_SECRET_NAME = re.compile(r"api[_-]?key|authorization|password|secret", re.IGNORECASE)
_MIN_SUBSTRING_SECRET = 8  # shorter secrets are masked only where a value equals them

# Provider keys by shape, each matched whole: a key's body runs on through '-' and '_'
# (Anthropic's sk-ant-api03-..., OpenAI's sk-proj-..., xAI's xai-..., Groq's gsk_...).
KEY_SHAPES: tuple[str, ...] = (
    r"\b(?:0x)?[0-9a-fA-F]{64}\b",
    r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{16,}",
    r"\bxai-[A-Za-z0-9_\-]{16,}",
    r"\bgsk_[A-Za-z0-9_\-]{16,}",
    r"\bAIza[0-9A-Za-z_\-]{35}\b",
    r"\b(?:ghp|gho|ghs|github_pat|xox[abps])_[A-Za-z0-9_\-]{16,}",
    r"\b[Bb]earer\s+[A-Za-z0-9._\-~+/]{16,}=*",
)
_KEY_SHAPE = re.compile("|".join(KEY_SHAPES))


def _redacted(_: str) -> str:
    return REDACTED


class Redaction:
    """Masks every value equal to a secret, every occurrence of a secret inside a string,
    and the value of every key named like an API key or authorization, however nested.
    `suspect(line)` says whether a rendered line might need it: most lines hold nothing to
    mask, and one look at the line proves it (a false alarm costs time, never a leak)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._values = frozenset(s for s in secrets if s)
        self._long = tuple(
            sorted((s for s in self._values if len(s) >= _MIN_SUBSTRING_SECRET), key=len)
        )[::-1]
        # A secret inside a rendered line: JSON-escaped, and a short one (masked only
        # where a value equals it) quoted as a whole string.
        escaped = {s: orjson.dumps(s) for s in self._values}
        self._marks = tuple(
            sorted(
                {escaped[s][1:-1] if s in self._long else escaped[s] for s in self._values}
                | {s.encode() for s in self._long}
            )
        )

    def __bool__(self) -> bool:
        return bool(self._values)

    def suspect(self, line: bytes) -> bool:
        """Whether the rendered line `line` (UTF-8) might hold something to mask."""
        # find(), not `in`: bytes' `in` first tries its operand as an integer, and raising
        # and clearing that TypeError costs more than the search (every line, four times).
        find = line.find
        for mark in self._marks:
            if find(mark) >= 0:
                return True
        low = line.lower()  # plain substring tests first: the regex is slow on long lines
        find = low.find
        if (
            find(b"key") < 0
            and find(b"authorization") < 0
            and find(b"password") < 0
            and find(b"secret") < 0
        ):
            return False
        return _SECRET_NAME.search(low.decode("utf-8", "replace")) is not None

    def text(self, text: str, mark: Callable[[str], str] = _redacted) -> str:
        """`text` with each secret in it replaced by `mark(secret)` ([redacted])."""
        if text in self._values:
            return mark(text)
        for secret in self._long:
            if secret in text:
                text = text.replace(secret, mark(secret))
        return text

    def clean(self, value: Any, *, names: bool = True, shapes: bool = False) -> Any:
        """`value` with its secrets masked, however nested: by value, and with `names` the
        values of keys named like a secret, with `shapes` strings shaped like a key."""
        if isinstance(value, str):
            value = self.text(value)
            return _KEY_SHAPE.sub(REDACTED, value) if shapes else value
        if isinstance(value, Mapping):
            return {
                k: REDACTED
                if names and _secret_name(k)
                else self.clean(v, names=names, shapes=shapes)
                for k, v in value.items()
            }
        if isinstance(value, list | tuple | set | frozenset):
            return [self.clean(v, names=names, shapes=shapes) for v in value]
        return value


def _secret_name(key: object) -> bool:
    return isinstance(key, str) and _SECRET_NAME.search(key) is not None
