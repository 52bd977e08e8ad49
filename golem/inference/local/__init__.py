"""The embedded local model (provider `local`): llama.cpp through llama-cpp-python, Gemma 3
270M by default, with schema-constrained decoding by llguidance or llama.cpp's grammar.
The provider needs the `local` extra and is imported on first use; the config does not."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from golem.inference.local.bounds import Backend, DecoderBounds, bounded_schema, ignored_keywords
from golem.inference.local.config import LocalConfig
from golem.inference.local.outline import schema_outline

if TYPE_CHECKING:
    from golem.inference.local.provider import Generation, LocalProvider

__all__ = [
    "Backend",
    "DecoderBounds",
    "Generation",
    "LocalConfig",
    "LocalProvider",
    "bounded_schema",
    "ignored_keywords",
    "schema_outline",
]


def __getattr__(name: str) -> Any:
    # llama.cpp and llguidance load only when the provider itself is asked for.
    if name in ("Generation", "LocalProvider"):
        return getattr(importlib.import_module("golem.inference.local.provider"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
