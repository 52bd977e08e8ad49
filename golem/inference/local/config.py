"""LocalConfig: the `[providers.local]` table, the embedded model's settings. Importing it
needs none of the `local` extra, so a config can be read where the model is not installed."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from golem.inference.local.bounds import DecoderBounds
from golem.inference.seed import Seed

__all__ = ["LocalConfig"]


class LocalConfig(BaseModel):
    """The `[providers.local]` section."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model_path: Path | None = None  # any .gguf; default: Gemma 3 270M from its package
    threads: int | None = Field(default=None, ge=1)  # default: the cores available
    context_tokens: int = Field(default=4096, ge=256)
    backend: Literal["llguidance", "llama-grammar"] = "llguidance"
    max_tokens: int = Field(default=512, ge=1)  # when the request sets none
    temperature: float = Field(default=0.7, ge=0)
    # Above 1 the model repeats itself less: with the grammar holding the JSON's shape and
    # every text's length, 1.15 ended repeated list items, self-references and causes of
    # themselves (bench_local, 10 calls a schema, same seeds: curator 60 -> 100% valid,
    # death 70 -> 100%, threat meaningful 90 -> 100%) at no cost in speed. Without the
    # per-call grammar it also penalised the JSON's own quotes and commas: strings ran on.
    repeat_penalty: float = Field(default=1.15, ge=1)
    seed: Seed = 0  # call n decodes with seed + n: reproducible, yet re-asks differ
    outline: bool = True  # tell the model the schema's fields in plain words
    max_string_chars: int = Field(default=200, ge=1)
    max_array_items: int = Field(default=5, ge=0)
    answer_chars: int = Field(default=1200, ge=100)  # the longest answer a schema may allow

    def bounds(self) -> DecoderBounds:
        return DecoderBounds(self.max_string_chars, self.max_array_items, self.answer_chars)
