"""The spend ledger: every charge a golem pays, by subsystem and UTC day. `Ledger` is the
interface the allocator reads; `InMemoryLedger` serves tests and the simulator, and the
daemon's SQLite ledger implements the same contract (tests/mortality/ledger_contract.py).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

from golem.inference.types import Usage
from golem.mortality.death_clocks import utc_day
from golem.mortality.names import SubsystemName

__all__ = ["Charge", "HeldBills", "InMemoryLedger", "Ledger"]


@dataclass(frozen=True, slots=True)
class Charge:
    """One paid call. `usd` and `diem` are what it cost in each currency (a Venice call
    within the DIEM allowance costs 0 USD); `idempotency_key` names the call so that
    recording it again (a retried write, a restarted daemon) charges nothing twice."""

    subsystem: SubsystemName
    provider: str
    model: str
    tokens: Usage
    usd: float
    diem: float
    time: datetime
    idempotency_key: str

    def __post_init__(self) -> None:
        # A stored row comes back with the subsystem as a plain string.
        object.__setattr__(self, "subsystem", SubsystemName(self.subsystem))
        for name, amount in (("usd", self.usd), ("diem", self.diem)):
            if not (math.isfinite(amount) and amount >= 0):
                raise ValueError(f"a charge's {name} is a finite amount >= 0, got {amount}")
        if self.time.tzinfo is None:
            raise ValueError("a charge's time must be timezone-aware")
        if not self.idempotency_key:
            raise ValueError("a charge needs an idempotency key")

    @property
    def day(self) -> date:
        return utc_day(self.time)


@dataclass(frozen=True, slots=True)
class HeldBills:
    """Each attempt's bill of one call, kept by `hold` as its provider answers it (an
    inference BillSink), as the Charge the call's charge will record: under its
    `idempotency_key`, at `time`, named for what answered (else `provider`, `model`: the
    route's). A tick killed mid-call keeps them."""

    subsystem: SubsystemName
    provider: str
    model: str
    time: datetime
    idempotency_key: str
    hold: Callable[[Charge], None]

    def __call__(self, usage: Usage, cost: float, provider: str, model: str) -> None:
        if cost > 0 or usage.total_tokens:
            bill = Charge(
                subsystem=self.subsystem,
                provider=provider or self.provider,
                model=model or self.model,
                tokens=usage,
                usd=max(0.0, cost),
                diem=0.0,
                time=self.time,
                idempotency_key=self.idempotency_key,
            )
            self.hold(bill)


class Ledger(Protocol):
    """What the allocator needs to know about money already spent."""

    def record(self, charge: Charge) -> Charge:
        """Store `charge` and return it; if its idempotency key is already recorded, store
        nothing and return the charge recorded first."""
        ...

    def get(self, idempotency_key: str) -> Charge | None: ...

    def charges(self, day: date) -> Sequence[Charge]:
        """The day's charges in the order they were recorded."""
        ...

    def spent_usd(self, day: date, subsystem: SubsystemName | None = None) -> float:
        """USD spent on `day` by `subsystem`, or by all of them when None."""
        ...

    def spent_diem(self, day: date) -> float: ...

    def remaining_usd(
        self, day: date, budget_usd: float, subsystem: SubsystemName | None = None
    ) -> float:
        """What is left of `budget_usd` after the day's spend (never below 0)."""
        ...


@dataclass
class InMemoryLedger:
    """A Ledger in a dict: for tests, the simulator and one-shot computations."""

    _by_key: dict[str, Charge] = field(default_factory=dict, init=False)
    _by_day: defaultdict[date, list[Charge]] = field(
        default_factory=lambda: defaultdict(list), init=False
    )

    def record(self, charge: Charge) -> Charge:
        existing = self._by_key.get(charge.idempotency_key)
        if existing is not None:
            return existing
        self._by_key[charge.idempotency_key] = charge
        self._by_day[charge.day].append(charge)
        return charge

    def get(self, idempotency_key: str) -> Charge | None:
        return self._by_key.get(idempotency_key)

    def charges(self, day: date) -> Sequence[Charge]:
        return tuple(self._by_day.get(day, ()))

    def spent_usd(self, day: date, subsystem: SubsystemName | None = None) -> float:
        return math.fsum(
            c.usd
            for c in self._by_day.get(day, ())
            if subsystem is None or c.subsystem == subsystem
        )

    def spent_diem(self, day: date) -> float:
        return math.fsum(c.diem for c in self._by_day.get(day, ()))

    def remaining_usd(
        self, day: date, budget_usd: float, subsystem: SubsystemName | None = None
    ) -> float:
        return max(0.0, budget_usd - self.spent_usd(day, subsystem))
