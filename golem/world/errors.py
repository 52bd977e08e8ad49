"""Errors of the world package: bad market data names the file, line and column.

WorldError
└── WorldDataError   (also a ValueError) carrying one or more DataProblems
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["DataProblem", "WorldDataError", "WorldError"]


class WorldError(Exception):
    """Base of the world package's errors."""


@dataclass(frozen=True, slots=True)
class DataProblem:
    """One thing wrong in a data file. `line` is the 1-based physical line; `column` the
    column's name (or its 1-based position when the header does not name it); line 0
    means the file as a whole."""

    path: Path
    line: int
    column: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        if self.column is not None:
            where += f", column {self.column}"
        return f"{where}: {self.message}"


class WorldDataError(WorldError, ValueError):
    """Market data that cannot be read as it is. Holds every problem found (one when the
    reader stops at the first); the message lists them all."""

    def __init__(self, problems: list[DataProblem] | tuple[DataProblem, ...]) -> None:
        if not problems:
            raise ValueError("a WorldDataError needs at least one problem")
        self.problems = tuple(problems)
        lines = [str(p) for p in self.problems]
        head = lines[0] if len(lines) == 1 else f"{len(lines)} problems:\n  " + "\n  ".join(lines)
        super().__init__(head)

    @property
    def path(self) -> Path:
        return self.problems[0].path

    @property
    def line(self) -> int:
        return self.problems[0].line

    @property
    def column(self) -> str | None:
        return self.problems[0].column
