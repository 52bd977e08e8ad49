"""Argument types shared by more than one command group (argparse `type=` callables)."""

import argparse

__all__ = ["positive_count"]


def positive_count(text: str) -> int:
    """A whole number of at least 1 (lives, seeds, candles a page)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value
