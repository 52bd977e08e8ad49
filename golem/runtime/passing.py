"""How a golem's life ends (`Passing`): Thanatopsis asked for the testament (from the
model, or from the records when no model answers), the positions settled to cash when it
says so, the testament's documents written to the state directory, and the death
recorded and logged. The Golem builds the Situation it dies in and marks itself dead."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import structlog

from golem.mortality import DeathCause
from golem.runtime.decide import Decisions
from golem.runtime.private import write_documents
from golem.runtime.store.state import StateStore
from golem.subsystems.contract import Dying, Situation
from golem.subsystems.death import DeathConfig, Thanatopsis
from golem.world import PaperPortfolio

__all__ = ["Passing"]

log = structlog.get_logger("golem")

_HISTORY = 500  # the vitality readings the records' testament reads its arc from


class Passing:
    """The death of the golem `golem_id`: decided through its `decisions` (by Thanatopsis
    with the life's `death` parameters), settled on its `portfolio`, recorded in its
    `store`, its testament kept in `state_dir`."""

    def __init__(
        self,
        *,
        decisions: Decisions,
        store: StateStore,
        portfolio: PaperPortfolio,
        state_dir: Path,
        golem_id: str,
        now: Callable[[], datetime],
        death: DeathConfig,
    ) -> None:
        self.death = Thanatopsis(death)
        self._decisions, self._store, self._portfolio = decisions, store, portfolio
        self.state_dir, self._golem_id, self._now = state_dir, golem_id, now

    def dying(self, cause: DeathCause | str) -> Dying:
        """What the death subsystem is told of the life that ends."""
        history = self._store.vitality_history()
        vitality = tuple(row.vitality for row in history)[-_HISTORY:]
        return Dying(str(cause), vitality_history=vitality)

    async def die(self, ctx: Situation) -> None:
        """Thanatopsis on `ctx` (its `dying` says the cause): testament, settle, legacy."""
        assert ctx.dying is not None, "a golem dies of a cause"
        record = await self._decisions.run(self.death, ctx)
        if record.outcome is not None and record.outcome.settle:
            self._portfolio.settle()
        documents = () if record.outcome is None else record.outcome.documents
        written = write_documents(self.state_dir, documents)
        death = {
            "cause": ctx.dying.cause,
            "tick": ctx.tick,
            "time": self._now().isoformat(),
            "vitality": ctx.vitality,
            "credits_usd": self._store.credits(),
            "equity_usd": self._portfolio.equity(),
            "testament": list(written),
        }
        self._store.record_death(death)
        log.info("death", golem=self._golem_id, **death)
