"""What a golem's decisions are paid from (`Purse`): its means, fixed at birth (routes,
ledger, the compiled allocator policy, prompt limits, a simulation's foresight), and its
standing when a decision is made (vitality, the owner's daily budget, the wallet, the
sustainability ratio, the apoptotic reserve). The Golem builds one; the decision stages
receive the `Budgeting` it makes, as a value.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial

import structlog

from golem.inference.caching import PromptCache
from golem.inference.secrets import Redaction
from golem.mortality import Clock, MortalityPolicy, MortalityState, utc_day
from golem.runtime.asking import Budgeting, Routes
from golem.runtime.compiled import Compiled
from golem.runtime.control import Control
from golem.runtime.options import LifeOptions
from golem.runtime.store.state import StateStore
from golem.runtime.vitals import VitalsChart

__all__ = ["Purse", "means"]

log = structlog.get_logger("golem")


class Purse:
    """`means`: the golem's Budgeting as built at birth, made with the standing each time
    a decision is (functools.partial of Budgeting, every field but `state` given);
    `income_usd_per_day`: the declared rate until the runtime credits some;
    `reserve_usd`: the apoptotic reserve, locked at birth on the `positions` then open."""

    def __init__(
        self,
        means: Callable[..., Budgeting],
        *,
        store: StateStore,
        chart: VitalsChart,
        control: Control,
        policy: MortalityPolicy,
        now: Callable[[], datetime],
        income_usd_per_day: float,
        positions: int,
    ) -> None:
        self.means, self._store, self._chart = means, store, chart
        self._control, self._policy, self._now = control, policy, now
        self.income_usd_per_day = income_usd_per_day
        self.reserve_usd, _ = self.reserve(positions)
        self._reserve_logged = False

    def budgeting(self) -> Budgeting:
        """What a decision made now is paid from and governed by."""
        return self.means(state=self.state())

    def state(self) -> MortalityState:
        policy, vitals = self._policy, self._chart.vitals
        return MortalityState(
            vitality=vitals.vitality,
            phase=vitals.phase,
            daily_budget_usd=self._control.daily_budget_usd or policy.daily_budget_usd,
            sustainability_ratio=self._sustainability(),
            diem_allowance=policy.diem_allowance,
            security=policy.security,
            wallet_usd=self._store.credits(),
            reserve_usd=self.reserve_usd,
        )

    def reserve(self, positions: int = 0) -> tuple[float, int]:
        """The apoptotic reserve on the initial funding and `positions` open, and those."""
        initial = self._store.initial_credits() or self._policy.initial_credits_usd
        return self._policy.reserve.amount(initial, positions), positions

    def lock_reserve(self, golem_id: str, tick: int, positions: int) -> None:
        """Compute the reserve again; log it the first time and whenever it changes."""
        reserve, _ = self.reserve(positions)
        if reserve != self.reserve_usd or not self._reserve_logged:
            self.reserve_usd, self._reserve_logged = reserve, True
            log.info(
                "apoptotic_reserve",
                golem=golem_id,
                tick=tick,
                usd=reserve,
                initial_credits_usd=self._store.initial_credits(),
                open_positions=positions,
            )

    @property
    def reserve_logged(self) -> bool:
        return self._reserve_logged

    def credit_income(self, key: str, usd: float) -> None:
        """Income arrives: `usd` a day from now on (the sustainability ratio's), credited
        to the wallet once per `key` when positive."""
        self.income_usd_per_day = usd
        if usd > 0:
            self._store.add_income(key, usd, self._now())

    def _sustainability(self) -> float | None:
        spent = self._store.ledger.spent_usd(utc_day(self._now()))
        if spent <= 0:
            return None
        return self.income_usd_per_day / spent


def means(
    routes: Routes,
    store: StateStore,
    *,
    clock: Clock,
    compiled: Compiled,
    options: LifeOptions,
) -> Callable[..., Budgeting]:
    """A life's Budgeting but its standing: its routes, ledger and clock, the compiled
    allocator policy and prompt limits, who watches its calls think, the prompts providers
    likely still cache, and the keys no prompt may carry (masked by value); each attempt's
    bill held where a rollback cannot lose it."""
    return partial(
        Budgeting,
        routes=routes,
        ledger=store.ledger,
        clock=clock,
        config=compiled.structured,
        policy=compiled.mortality.allocator,
        context=compiled.context,
        watch=options.watch,
        prompt_cache=PromptCache(),
        secrets=Redaction(options.secrets) if options.secrets else None,
        hold_bill=store.hold_bill,
    )
