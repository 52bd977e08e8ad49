"""A job that keeps failing the same way (`JobFailing`), and how failures in a row are
told apart: the scheduler's streak of one kind (exception type, file and line)."""

from __future__ import annotations

import traceback
from dataclasses import dataclass

__all__ = ["JobFailing", "Streak", "kind_of", "one_line"]


class JobFailing(RuntimeError):
    """A job failed the same way (same exception type, raised at the same place) `count`
    times in a row, and the scheduler stopped. `str()` is one line; the log holds the
    first failure's traceback."""

    def __init__(self, job: str, count: int, error: str) -> None:
        super().__init__(f"job {job!r} failed {count} times in a row: {error}")
        self.job, self.count, self.error = job, count, error


@dataclass
class Streak:
    """The failures of one job in a row, all of one kind."""

    kind: tuple[str, str, int | None]  # exception type, file and line it was raised at
    error: str  # the first one, on one line
    count: int = 1


def kind_of(exc: Exception) -> tuple[str, str, int | None]:
    frames = traceback.extract_tb(exc.__traceback__)
    where = frames[-1] if frames else None
    name = f"{type(exc).__module__}.{type(exc).__qualname__}"
    return (name, where.filename if where else "", where.lineno if where else None)


def one_line(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
