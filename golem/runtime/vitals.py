"""A life's vitals chart: vitality assessed after each tick's spending, recorded every tick
and published when it is news; staged senescence stepped on the prediction engine's
fitness, and Terminal's grace clock, each running from when the golem entered it, across
restarts.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import structlog

from golem.mortality import (
    MortalityPolicy,
    Phase,
    Senescence,
    Stage,
    Vitals,
    assess,
)
from golem.runtime.quiet_vitals import QuietVitals
from golem.runtime.store.rows import VitalityRow
from golem.runtime.store.state import StateStore
from golem.runtime.stream import VitalityRecord
from golem.subsystems.contract import Event

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = ["VitalsChart"]

log = structlog.get_logger("golem")

_VITALITY_STEP = 0.001  # a vitality line when vitality moved this much since the last
_VITALITY_EVERY = 40  # …or after this many ticks (ten minutes at 15 s)
_TERMINAL = Phase.TERMINAL  # read every tick: `Enum.MEMBER` is a slow read on Python 3.11
_MICROSECOND = timedelta(microseconds=1)
_STAGE_NORMAL = Stage.NORMAL


class VitalsChart:
    """The golem's `vitals`, when its senescence and its Terminal began (None: not in
    them), and the last reading published. `update` is called once a tick."""

    def __init__(
        self,
        store: StateStore,
        policy: MortalityPolicy,
        *,
        golem_id: str,
        now: Callable[[], datetime],
        publish: Callable[[VitalityRecord], None],
        last: VitalityRow | None,
    ) -> None:
        self._store, self._policy, self._golem_id = store, policy, golem_id
        self._now, self._publish = now, publish
        self.vitals = Vitals(
            vitality=last.vitality if last else 1.0,
            phase=Phase(last.phase) if last else Phase.THRIVING,
            economic=last.economic if last else 1.0,
            epistemic=last.epistemic if last else 0.5,
            burn_rate_usd=float(store.get_meta("burn_rate_usd") or 0.0),
        )
        # When the golem entered Terminal, if it is there: its grace runs from then, across
        # restarts (read from the vitality rows, so nothing more is written per tick).
        self.terminal_since = (
            store.phase_since(str(_TERMINAL)) if self.vitals.phase is _TERMINAL else None
        )
        # The senescence stage and when it began, across restarts; written only when it
        # changes. (A state of an older version kept none: it starts in Normal.)
        self.senescence = _senescence(store.get_meta("senescence"))
        # Age and the hazard's interval are time: from the golem's birth (the life's
        # "born"; a golem with none is born at its first assessment) and from the last one.
        born = store.get_meta("born")
        self._born = datetime.fromisoformat(born) if isinstance(born, str) else None
        self._last_assessed = last.time if last else None
        self._logged: tuple[int, float] | None = None  # (tick, vitality) last published

    def update(
        self,
        tick: int,
        spent: float,
        equity: Callable[[], float],
        *,
        fitness: float,
        regime_samples: int,
        reserve_usd: float = 0.0,
    ) -> list[Event]:
        """Vitality after this tick's spending, recorded; the events its change makes.
        (A clock that ran out is `self.vitals.cause`: the caller dies of it.) The economic
        clock reads the credits above `reserve_usd`, the apoptotic reserve; `fitness` is the
        prediction engine's, `regime_samples` the current regime's resolved claims (below
        its minimum, senescence's grace does not run)."""
        policy, store = self._policy, self._store
        decay = policy.burn_decay
        burn = decay * self.vitals.burn_rate_usd + (1 - decay) * spent
        previous = self.vitals.phase
        credits, now, since = store.credits(), self._now(), self.terminal_since
        born = self._born = self._born or now
        interval = now - self._last_assessed if self._last_assessed else timedelta(0)
        self._last_assessed = now
        self._step_senescence(tick, now, fitness, regime_samples)
        self.vitals = vitals = assess(
            golem_id=self._golem_id,
            tick=tick,
            now=now,
            age=max(timedelta(0), now - born),
            interval=max(timedelta(0), interval),
            credits_usd=credits,
            initial_credits_usd=self._initial_credits(),
            burn_rate_usd=burn,
            epistemic=fitness,
            previous=previous,
            params=policy,
            in_terminal=None if since is None else now - since,
            senescence=self.senescence,
            reserve_usd=reserve_usd,
        )
        self._terminal(vitals.phase, now)
        store.record_vitality(
            VitalityRow(
                tick, now, vitals.vitality, str(vitals.phase), vitals.economic, vitals.epistemic
            )
        )
        if self._news(tick, spent, previous):
            self._publish(self._reading(tick, now, credits, equity()))
        return self._events(tick, previous)

    def quiet(
        self, golem: Golem, before_reading: Callable[[int], None] | None = None
    ) -> QuietVitals:
        """This chart's part of a quiet stretch of `golem` (quiet.py): `update(tick, 0.0,
        …)` for each of its ticks, on the prediction engine's fitness and regime samples
        as the oracle's part leaves them at the same tick, and the reserve locked now;
        `before_reading` hears of each reading to come (QuietVitals)."""
        predictor = golem.predictor
        return QuietVitals(
            self,
            fitness=lambda: predictor.fitness,
            regime_samples=predictor.regime_samples,
            reserve_usd=golem.reserve_usd,
            before_reading=before_reading,
        )

    def _initial_credits(self) -> float:
        """The economic clock's 1.0: the lineage's founding money when it has one (an
        heir's clock is the lineage's), else the golem's own."""
        policy = self._policy
        return (
            policy.lineage_credits_usd
            or self._store.initial_credits()
            or policy.initial_credits_usd
        )

    def _terminal(self, phase: Phase, now: datetime) -> None:
        """Terminal's grace runs from when the golem entered it, until it leaves."""
        if phase is _TERMINAL:
            if self.terminal_since is None:
                self.terminal_since = now  # Terminal's grace runs from here
        elif self.terminal_since is not None:
            self.terminal_since = None  # left Terminal: a later entry starts it again

    def _reading(
        self, tick: int, now: datetime, credits: float, equity_usd: float, *, late: bool = False
    ) -> VitalityRecord:
        """The reading published when the tick's vitality is news (`late`: told after its
        tick, a fast-forwarded one's)."""
        vitals, stage = self.vitals, self.senescence.stage
        return VitalityRecord(
            golem=self._golem_id,
            tick=tick,
            time=now,
            vitality=vitals.vitality,
            phase=vitals.phase,
            economic=vitals.economic,
            epistemic=vitals.epistemic,
            burn_rate_usd=vitals.burn_rate_usd,
            credits_usd=credits,
            equity_usd=equity_usd,
            senescent=stage is not Stage.NORMAL,
            confirmed=stage is Stage.SENESCENT,
            late=late,
        )

    def _events(self, tick: int, previous: Phase) -> list[Event]:
        """What the tick's phase change makes: a decline or a recovery, logged, and the
        approach of death on entering Terminal."""
        phase = self.vitals.phase
        events: list[Event] = []
        if phase is not previous:
            worse = phase.rank < previous.rank  # rank: higher is healthier
            log.info(
                "phase_change",
                golem=self._golem_id,
                tick=tick,
                previous=str(previous),
                phase=str(phase),
            )
            events.append(Event("phase_decline" if worse else "phase_recovery"))
        if phase is _TERMINAL and previous is not _TERMINAL:
            # Once, on entering Terminal: the daimon feels the end coming, not every tick.
            events.append(Event("death_approach"))
        return events

    def _step_senescence(self, tick: int, now: datetime, fitness: float, samples: int) -> None:
        """Senescence's stage at `now`; a change is saved and logged (Stage 1 is when the
        dream and the curator hear of it and recover)."""
        if self._senescence_at(tick, now, fitness, samples):
            self._save_senescence()

    def _save_senescence(self) -> None:
        since = self.senescence.since
        self._store.set_meta(
            "senescence",
            {
                "stage": str(self.senescence.stage),
                "since": None if since is None else since.isoformat(),
            },
        )

    def _senescence_at(self, tick: int, now: datetime, fitness: float, samples: int) -> bool:
        """Step senescence to `now` (a new stage is logged); whether it changed."""
        before = self.senescence
        after = before.step(now, fitness, regime_samples=samples, params=self._policy.senescence)
        if after == before:
            return False
        self.senescence = after
        if after.stage is not before.stage:
            log.info(
                "senescence",
                golem=self._golem_id,
                tick=tick,
                previous=str(before.stage),
                stage=str(after.stage),
                fitness=round(fitness, 4),
                regime_samples=samples,
            )
        return True

    def _news(self, tick: int, spent: float, previous: Phase) -> bool:
        """Whether this tick's vitality is news (published, so logged): money was spent,
        the phase changed, a clock ran out, vitality moved by 0.001 since the last line, or
        ten minutes of ticks passed. (The store keeps every tick's; the log keeps the story.)"""
        vitals, last = self.vitals, self._logged
        news = (
            last is None
            or spent > 0
            or vitals.phase is not previous
            or vitals.cause is not None
            or abs(vitals.vitality - last[1]) >= _VITALITY_STEP
            or tick - last[0] >= _VITALITY_EVERY
        )
        if news:
            self._logged = (tick, vitals.vitality)
        return news


def _senescence(saved: object) -> Senescence:
    """The stage a state saved (Normal when none, or one this version cannot read)."""
    if not isinstance(saved, dict):
        return Senescence()
    try:
        stage = Stage(str(saved.get("stage")))
        since = saved.get("since")
        return Senescence(stage, datetime.fromisoformat(since) if since else None)
    except (TypeError, ValueError):
        return Senescence()
