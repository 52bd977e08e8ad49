"""The owner's hand on a running golem: the commands of the `control` table (queued by
the control API, `golem ctl` or SIGUSR1; store/control.py) applied at the start of a
tick, each once, each one audit line. Pause, the budget and the owner's messages waiting
for a review are state (meta `paused`, `daily_budget_usd`, `owner_steer`) and so outlive
a restart; exit and kill are acts the tick carries out (`Orders`): unwind the positions,
or run the death protocol with cause kill_switch. A steer (Bardo's owner steering,
prd/01-golem/02-heartbeat.md: "owner interrupts always get full attention") makes the
next heartbeat a T2 review with the message in its prompt as the owner's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

import structlog

from golem.inference.secrets import Redaction
from golem.mortality import DeathCause
from golem.runtime.config.sections import GolemConfig
from golem.runtime.store.control import Command, ControlRow, queue_command
from golem.runtime.store.state import StateStore
from golem.subsystems.contract import OwnerSteer
from golem.world import MarketSummary

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = [
    "STEER_MAX_CHARS",
    "Command",
    "Control",
    "Orders",
    "budget_bounds",
    "budget_refusal",
    "control_token",
    "masked_steer",
    "obey",
    "queue_command",
    "steer_refusal",
]

log = structlog.get_logger("golem")
STEER_MAX_CHARS = 1000  # an owner's message: a few sentences, never a document
_STEERS_KEPT = 3  # messages waiting for one review; older ones give way to newer


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


def steer_refusal(text: str | None) -> str | None:
    """Why `text` cannot be an owner's message (None: it can)."""
    if not isinstance(text, str) or not text.strip():
        return "the message is empty"
    if len(text) > STEER_MAX_CHARS:
        return f"a message is at most {STEER_MAX_CHARS} characters, not {len(text)}"
    return None


def masked_steer(text: str, secrets: Redaction | None = None) -> str:
    """An owner's message as it may be stored and shown to a model: the golem's key values
    (`secrets`) and anything shaped like a key masked, stripped."""
    return str((secrets or Redaction(())).clean(text.strip(), shapes=True))


@dataclass(frozen=True, slots=True)
class Orders:
    """What the applied commands ask of the tick itself."""

    unwind: bool = False
    kill: bool = False


class Control:
    """A golem's control state, read from the store at birth and kept in step with it."""

    def __init__(
        self,
        golem_id: str,
        budget_bounds: tuple[float, float],
        store: StateStore,
        secrets: Redaction | None = None,
    ) -> None:
        self._golem_id, self._bounds, self._store = golem_id, budget_bounds, store
        self._secrets = secrets
        self.paused = bool(store.get_meta("paused"))
        budget = store.get_meta("daily_budget_usd")
        self.daily_budget_usd: float | None = None if budget is None else float(budget)
        self._steers: tuple[str, ...] = tuple(store.get_meta("owner_steer") or ())

    def masked(self, text: str) -> str:
        """An owner's message as it may be stored: masked of this golem's key values."""
        return masked_steer(text, self._secrets)

    @property
    def steer(self) -> OwnerSteer | None:
        """The owner's messages waiting for the next heartbeat's review, if any."""
        return OwnerSteer(self._steers) if self._steers else None

    def reviewed(self, tick: int, tier: str, source: str) -> None:
        """The heartbeat ran on the waiting messages: they are answered (one audit line)."""
        if not self._steers:
            return
        log.info(
            "steer_reviewed",
            golem=self._golem_id,
            tick=tick,
            messages=len(self._steers),
            tier=tier,
            source=source,
        )
        self._steers = ()
        self._store.set_meta("owner_steer", None)

    def apply(self, tick: int, now: datetime) -> Orders:
        """Apply the pending commands, oldest first, up to a kill (those after it stay
        queued: a dead golem applies nothing more). Runs in the tick's transaction."""
        unwind = False
        for queued in self._store.control.pending():
            # A key queued from outside (golem ctl STATE_DIR) is masked before it stays.
            row = queued if queued.text is None else replace(queued, text=self.masked(queued.text))
            result = self._apply(row)
            self._store.control.applied(row, tick, now, result, row.text)
            log.info(
                "control",
                golem=self._golem_id,
                tick=tick,
                command=str(row.command),
                value=row.value,
                text=row.text,
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
            case Command.STEER:
                refusal = steer_refusal(row.text)
                if refusal is not None:  # queued into the state by hand, say
                    return f"refused: {refusal}"
                assert row.text is not None
                self._steers = (*self._steers, row.text)[-_STEERS_KEPT:]
                self._store.set_meta("owner_steer", list(self._steers))
                return "review at the next heartbeat"
            case Command.EXIT:
                return "positions unwound"
            case Command.KILL:
                return "death protocol"


async def obey(golem: Golem, now: datetime, market: MarketSummary) -> bool:
    """The owner's commands (`Control`) at `golem`'s tick; True when they leave nothing more
    for this tick to do: the golem was killed, or is paused (its clocks go on: vitality,
    age and hazard are read on no spending, and may still end it)."""
    if not golem.options.resumable:  # a simulation: nobody steers it (and a read
        return False  # here would send a batch's held writes every tick)
    control, portfolio = golem.control, golem.portfolio
    orders = control.apply(golem.tick_no, now)
    if orders.unwind and portfolio.quantities():
        fills = portfolio.settle()
        log.info("unwound", golem=golem.compiled.golem_id, tick=golem.tick_no, fills=len(fills))
    if orders.kill:
        await golem.die(DeathCause.KILL_SWITCH, market)
    elif control.paused:
        golem._update_vitals(0.0)
        if golem.vitals.cause is not None:
            await golem.die(golem.vitals.cause, market)
    else:
        return False
    golem.tick_no += 1
    if golem.options.resumable:
        golem.snapshot()
    return True
