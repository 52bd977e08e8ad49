"""What every Ledger must do. A test class for an implementation subclasses LedgerContract
and provides a `ledger` fixture returning a fresh, empty ledger:

    from tests.mortality.ledger_contract import LedgerContract

    class TestSqliteLedger(LedgerContract):
        @pytest.fixture
        def ledger(self, tmp_path): ...
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from golem.inference.types import Usage
from golem.mortality import Charge, Ledger, SubsystemName

S = SubsystemName
NOON = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)
DAY = date(2026, 5, 4)


def charge(
    key: str,
    subsystem: SubsystemName = S.RISK,
    usd: float = 0.25,
    *,
    diem: float = 0.0,
    time: datetime = NOON,
) -> Charge:
    return Charge(
        subsystem=subsystem,
        provider="anthropic",
        model="claude-test",
        tokens=Usage(input_tokens=1200, output_tokens=300, reasoning_tokens=40),
        usd=usd,
        diem=diem,
        time=time,
        idempotency_key=key,
    )


class LedgerContract:
    """Subclass with a `ledger` fixture; every test gets an empty ledger."""

    def test_empty(self, ledger: Ledger) -> None:
        assert ledger.charges(DAY) == ()
        assert ledger.spent_usd(DAY) == 0.0
        assert ledger.spent_usd(DAY, S.RISK) == 0.0
        assert ledger.spent_diem(DAY) == 0.0
        assert ledger.remaining_usd(DAY, 10.0) == 10.0
        assert ledger.get("nothing") is None

    def test_record_and_read_back(self, ledger: Ledger) -> None:
        first = charge("a")
        assert ledger.record(first) == first
        assert ledger.get("a") == first
        assert list(ledger.charges(DAY)) == [first]
        stored = ledger.charges(DAY)[0]
        assert stored.tokens == first.tokens
        assert stored.subsystem is S.RISK
        assert stored.time == NOON

    def test_spend_per_subsystem_and_total(self, ledger: Ledger) -> None:
        ledger.record(charge("a", S.RISK, 0.25))
        ledger.record(charge("b", S.RISK, 0.5))
        ledger.record(charge("c", S.DREAM, 1.0))
        assert ledger.spent_usd(DAY, S.RISK) == pytest.approx(0.75)
        assert ledger.spent_usd(DAY, S.DREAM) == pytest.approx(1.0)
        assert ledger.spent_usd(DAY, S.DAIMON) == 0.0
        assert ledger.spent_usd(DAY) == pytest.approx(1.75)

    def test_idempotency_key_charges_once(self, ledger: Ledger) -> None:
        first = ledger.record(charge("same", usd=0.25))
        again = ledger.record(charge("same", usd=9.0, subsystem=S.DREAM))
        assert again == first
        assert ledger.get("same") == first
        assert ledger.spent_usd(DAY) == pytest.approx(0.25)
        assert len(ledger.charges(DAY)) == 1

    def test_days_are_utc_dates(self, ledger: Ledger) -> None:
        east = timezone(timedelta(hours=9))
        ledger.record(charge("late", time=datetime(2026, 5, 4, 23, 59, 59, tzinfo=UTC)))
        ledger.record(charge("next", time=datetime(2026, 5, 5, 0, 0, tzinfo=UTC)))
        # 08:00 in UTC+9 on the 5th is 23:00 UTC on the 4th.
        ledger.record(charge("tokyo", time=datetime(2026, 5, 5, 8, 0, tzinfo=east)))
        assert [c.idempotency_key for c in ledger.charges(DAY)] == ["late", "tokyo"]
        assert [c.idempotency_key for c in ledger.charges(date(2026, 5, 5))] == ["next"]
        assert ledger.spent_usd(DAY) == pytest.approx(0.5)

    def test_charges_keep_recording_order(self, ledger: Ledger) -> None:
        keys = [f"k{i}" for i in range(20)]
        for i, key in enumerate(keys):
            ledger.record(charge(key, time=NOON - timedelta(minutes=i)))
        assert [c.idempotency_key for c in ledger.charges(DAY)] == keys

    def test_diem_is_its_own_currency(self, ledger: Ledger) -> None:
        ledger.record(charge("venice", S.DAIMON, 0.0, diem=0.4))
        ledger.record(charge("venice-over", S.DAIMON, 0.1, diem=0.6))
        assert ledger.spent_diem(DAY) == pytest.approx(1.0)
        assert ledger.spent_usd(DAY, S.DAIMON) == pytest.approx(0.1)

    def test_remaining(self, ledger: Ledger) -> None:
        ledger.record(charge("a", S.RISK, 1.5))
        ledger.record(charge("b", S.DREAM, 2.0))
        assert ledger.remaining_usd(DAY, 10.0) == pytest.approx(6.5)
        assert ledger.remaining_usd(DAY, 2.0, S.RISK) == pytest.approx(0.5)
        assert ledger.remaining_usd(DAY, 1.0, S.DREAM) == 0.0  # never below zero
        assert ledger.remaining_usd(DAY, math.inf, S.DEATH) == math.inf

    def test_small_amounts_add_up_exactly(self, ledger: Ledger) -> None:
        for i in range(1000):
            ledger.record(charge(f"tiny{i}", usd=0.001))
        assert ledger.spent_usd(DAY) == pytest.approx(1.0, abs=1e-12)
