"""Counting prompt tokens: the provider's own tokenizer where one runs offline (the
embedded model's), else an estimate calibrated on it.

The estimate counts what a SentencePiece/BPE vocabulary splits apart: every digit (Gemma,
Llama 3 and GPT-4o's o200k all cut numbers into digits or short digit groups), every
punctuation mark or symbol, and each run of letters as one token plus one for every
eight letters past the first eight (long words break into pieces). Measured on golem's own
prompts against Gemma 3's tokenizer (tests/subsystems/context/test_tokens.py keeps it
honest): the estimate never fell short and overshot by 5 to 25%, where a flat four
characters a token undercounts numeric lines by half.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["TokenCounter", "estimate_tokens"]

TokenCounter = Callable[[str], int]
"""Tokens in a text, as the model that will read it counts them."""

_PIECES = re.compile(r"[A-Za-z]+|\d|[^\sA-Za-z\d]")
_LONG_WORD = 8


def estimate_tokens(text: str) -> int:
    """A calibrated upper estimate of `text`'s token count; no tokenizer needed."""
    pieces = _PIECES.findall(text)
    extra = sum((len(p) - 1) // _LONG_WORD for p in pieces if len(p) > _LONG_WORD)
    return len(pieces) + extra
