"""L7 masking: identifiers replaced by stable placeholders before a prompt leaves the
process, and put back in the decision where the golem needs them.

What counts as an identifier: EVM addresses, 32-byte hex strings (private keys, seeds,
transaction hashes), provider API keys and bearer tokens, e-mail addresses, Bitcoin and
Solana addresses. A placeholder names the kind and a keyed hash of the value, so the same
value always reads the same (`<address-3f9a12c0>`), across calls and runs of one golem,
and the model can still tell two addresses apart.

The key values the golem was given are masked by value in every prompt, whatever its
profile (`secrets`: the log's own `Redaction`); the patterns find the rest under L7.
Secrets are masked and never restored: a decision that quotes `<key-…>` keeps the
placeholder, so no key reaches the decision log either. Identifiers the golem acts on
(addresses, e-mails) are restored in the decision.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from golem.inference.secrets import KEY_SHAPES, Redaction

__all__ = ["Masker"]

# Order matters: a private key is 64 hex digits, an address 40; keys before e-mails.
_KINDS: tuple[tuple[str, str], ...] = (
    *(("key", shape) for shape in KEY_SHAPES),
    ("address", r"\b0x[0-9a-fA-F]{40}\b"),
    ("email", r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"),
    ("address", r"\b(?:bc1[ac-hj-np-z02-9]{11,71}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})\b"),
    ("address", r"\b[1-9A-HJ-NP-Za-km-z]{32,44}\b"),
)
_PATTERN = re.compile("|".join(f"(?P<k{i}>{p})" for i, (_, p) in enumerate(_KINDS)))
_KIND_OF = {f"k{i}": kind for i, (kind, _) in enumerate(_KINDS)}
_PLACEHOLDER = re.compile(r"<(?:address|email|key)-[0-9a-f]{8}>")
_SECRET_KINDS = frozenset({"key"})


@dataclass(slots=True)
class Masker:
    """Masks text for one call and restores the call's decision. `salt` keys the
    placeholders' hash (the golem's id), so placeholders differ between golems. `secrets`
    are masked by value as keys; `patterns` (L7) masks what the patterns find."""

    salt: str
    secrets: Redaction | None = None
    patterns: bool = True
    _originals: dict[str, str] = field(default_factory=dict)  # placeholder → value
    _kinds: Counter[str] = field(default_factory=Counter)

    def mask(self, text: str) -> str:
        """`text` with every secret and (with `patterns`) identifier replaced by its
        placeholder."""
        if self.secrets is not None:
            text = self.secrets.text(text, self._key)
        if not self.patterns or not _could_hold_identifier(text):
            return text
        return _PATTERN.sub(self._replace, text)

    def _key(self, value: str) -> str:
        return self._placeholder("key", value)

    def _replace(self, match: re.Match[str]) -> str:
        return self._placeholder(_KIND_OF[match.lastgroup or ""], match.group())

    def _placeholder(self, kind: str, value: str) -> str:
        digest = hashlib.blake2b(value.encode(), key=self.salt.encode()[:64], digest_size=4)
        placeholder = f"<{kind}-{digest.hexdigest()}>"
        if placeholder not in self._originals:
            self._kinds[kind] += 1
        self._originals[placeholder] = value
        return placeholder

    @property
    def masked(self) -> Mapping[str, int]:
        """How many distinct values of each kind were masked (never the values)."""
        return dict(self._kinds)

    def restore_text(self, text: str) -> str:
        """`text` with this call's placeholders put back, secrets excepted."""
        if "<" not in text or not self._originals:
            return text
        return _PLACEHOLDER.sub(self._restore_one, text)

    def _restore_one(self, match: re.Match[str]) -> str:
        placeholder = match.group()
        value = self._originals.get(placeholder)
        if value is None or placeholder[1:].split("-", 1)[0] in _SECRET_KINDS:
            return placeholder
        return value

    def restore(self, decision: BaseModel) -> BaseModel:
        """The decision with placeholders restored in every string it holds, nested models
        and lists included; the same object when there was nothing to restore."""
        if not self._originals:
            return decision
        restored = _restore_value(decision, self.restore_text)
        assert isinstance(restored, BaseModel)
        return restored


def _could_hold_identifier(text: str) -> bool:
    # Every pattern needs a run of 16+ word characters, an '@' or a 'Bearer'; most prompt
    # lines have none. A cheap scan first keeps unmasked lines at C speed.
    return "@" in text or any(len(word) >= 16 for word in text.split())


def _restore_value(value: Any, restore: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return restore(value)
    if isinstance(value, BaseModel):
        changes = {}
        for name in type(value).model_fields:
            old = getattr(value, name)
            new = _restore_value(old, restore)
            if new is not old and new != old:
                changes[name] = new
        # model_copy skips validation on purpose: a restored address is longer than its
        # placeholder and may pass a maxLength the model's answer kept to.
        return value.model_copy(update=changes) if changes else value
    if isinstance(value, list | tuple):
        items = [_restore_value(item, restore) for item in value]
        changed = any(a is not b for a, b in zip(items, value, strict=True))
        return type(value)(items) if changed else value
    if isinstance(value, dict):
        return {key: _restore_value(item, restore) for key, item in value.items()}
    return value
