"""The embedded local model (provider `local`): llama.cpp through llama-cpp-python, Gemma 3
270M by default, with schema-constrained decoding by llguidance or llama.cpp's grammar.
Needs the `local` extra; importing this package loads nothing until the first call."""

from golem.inference.local.bounds import Backend, DecoderBounds, bounded_schema, ignored_keywords
from golem.inference.local.provider import Generation, LocalConfig, LocalProvider

__all__ = [
    "Backend",
    "DecoderBounds",
    "Generation",
    "LocalConfig",
    "LocalProvider",
    "bounded_schema",
    "ignored_keywords",
]
