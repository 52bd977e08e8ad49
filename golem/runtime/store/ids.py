"""`DecisionId`: what names one subsystem run in the log (`id`, `reused_from`), in the
kept requests and on the command line (`golem replay --decision risk@5856.1`): the
subsystem, the tick and the run within the tick. Formatted and parsed here only."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DecisionId"]

_FORM = re.compile(r"^([a-z]+)@(\d+)\.(\d+)$")


@dataclass(frozen=True, slots=True)
class DecisionId:
    subsystem: str
    tick: int
    run: int = 0

    def __str__(self) -> str:
        return f"{self.subsystem}@{self.tick}.{self.run}"

    @classmethod
    def parse(cls, text: str) -> DecisionId:
        """The id `text` spells (`risk@5856.1`); ValueError naming it when it spells none."""
        found = _FORM.match(text)
        if found is None:
            raise ValueError(f"{text!r} is not a decision id: the log's `id`, e.g. risk@5856.1")
        subsystem, tick, run = found.groups()
        return cls(subsystem, int(tick), int(run))
