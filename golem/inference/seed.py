"""The range of every seed golem reads (config keys and `--seed`): 0 to 2**63 − 1, the
integers a state database stores and JSON tools read exactly. Here, at the bottom of the
imports, so that every layer's config can use it."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Strict

__all__ = ["SEED_LIMIT", "Seed", "seed_problem"]

SEED_LIMIT = 2**63  # seeds are below it


def seed_problem(seed: int) -> str | None:
    """Why `seed` cannot be used, or None when it can. (A negative seed is refused:
    random.Random(-n) walks n's path and llama.cpp reads a negative seed as "random", so
    it would not be the seed it says.)"""
    if 0 <= seed < SEED_LIMIT:
        return None
    return f"must be an integer from 0 to 2**63 - 1 ({SEED_LIMIT - 1}), not {seed}"


def _in_range(seed: int) -> int:
    problem = seed_problem(seed)
    if problem is not None:
        raise ValueError(problem)
    return seed


# Strict: `seed = true` is not the seed 1 (pydantic's lax mode reads a bool as an int).
Seed = Annotated[int, Strict(), AfterValidator(_in_range)]
