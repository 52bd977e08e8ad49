"""The owner's hand on a running golem: the commands of the `control` table (queued by
the control API, `golem ctl` or SIGUSR1; store/control.py) applied at the start of a
tick, each once, each one audit line. Pause and the budget are state (meta `paused`,
`daily_budget_usd`) and so outlive a restart; exit and kill are acts the tick carries
out (`Orders`): unwind the positions, or run the death protocol with cause kill_switch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import structlog

from golem.runtime.config.sections import GolemConfig
from golem.runtime.store.control import Command, ControlRow, queue_command
from golem.runtime.store.state import StateStore

__all__ = [
    "Command",
    "Control",
    "Orders",
    "budget_bounds",
    "budget_refusal",
    "control_token",
    "queue_command",
]

log = structlog.get_logger("golem")


def control_token(config: GolemConfig, environ: Mapping[str, str]) -> str | None:
    """The control API's bearer token: [control] token_env's value in `environ` (None
    when no variable is named or it is unset or empty: then there is no control API)."""
    name = config.control.token_env
    return (environ.get(name) or None) if name else None


def budget_bounds(config: GolemConfig) -> tuple[float, float]:
    """The daily budgets an owner may set: [control] budget_min_usd to budget_max_usd
    (default: the config's daily budget)."""
    control = config.control
    high = control.budget_max_usd
    return control.budget_min_usd, config.mortality.daily_budget_usd if high is None else high


def budget_refusal(bounds: tuple[float, float], usd: float | None) -> str | None:
    """Why `usd` cannot be the daily budget within `bounds` (`budget_bounds`; None: it
    can)."""
    low, high = bounds
    if usd is None or not low <= usd <= high:
        return f"a daily budget is a number of USD from {low:g} to {high:g}, not {usd}"
    return None


@dataclass(frozen=True, slots=True)
class Orders:
    """What the applied commands ask of the tick itself."""

    unwind: bool = False
    kill: bool = False


class Control:
    """A golem's control state, read from the store at birth and kept in step with it."""

    def __init__(
        self, golem_id: str, budget_bounds: tuple[float, float], store: StateStore
    ) -> None:
        self._golem_id, self._bounds, self._store = golem_id, budget_bounds, store
        self.paused = bool(store.get_meta("paused"))
        budget = store.get_meta("daily_budget_usd")
        self.daily_budget_usd: float | None = None if budget is None else float(budget)

    def apply(self, tick: int, now: datetime) -> Orders:
        """Apply the pending commands, oldest first, up to a kill (those after it stay
        queued: a dead golem applies nothing more). Runs in the tick's transaction."""
        unwind = False
        for row in self._store.control.pending():
            result = self._apply(row)
            self._store.control.applied(row, tick, now, result)
            log.info(
                "control",
                golem=self._golem_id,
                tick=tick,
                command=str(row.command),
                value=row.value,
                source=row.source,
                queued=row.time.isoformat(),
                result=result,
            )
            if row.command is Command.EXIT:
                unwind = True
            if row.command is Command.KILL:
                return Orders(unwind=unwind, kill=True)
        return Orders(unwind=unwind)

    def _apply(self, row: ControlRow) -> str:
        match row.command:
            case Command.PAUSE | Command.RESUME:
                paused = row.command is Command.PAUSE
                result = "done" if paused != self.paused else "no change"
                self.paused = paused
                self._store.set_meta("paused", paused)
                return result
            case Command.BUDGET:
                refusal = budget_refusal(self._bounds, row.value)
                if refusal is not None:  # the bounds of the config it was queued under
                    return f"refused: {refusal}"
                self.daily_budget_usd = row.value
                self._store.set_meta("daily_budget_usd", row.value)
                return "done"
            case Command.EXIT:
                return "positions unwound"
            case Command.KILL:
                return "death protocol"
