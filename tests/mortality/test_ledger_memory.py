"""InMemoryLedger against the ledger contract."""

import pytest

from golem.mortality import Charge, InMemoryLedger, Ledger
from tests.mortality.ledger_contract import NOON, LedgerContract, charge


class TestInMemoryLedger(LedgerContract):
    @pytest.fixture
    def ledger(self) -> Ledger:
        return InMemoryLedger()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"usd": -0.1}, "usd"),
        ({"usd": float("nan")}, "usd"),
        ({"diem": float("inf")}, "diem"),
        ({"time": NOON.replace(tzinfo=None)}, "timezone-aware"),
        ({"idempotency_key": ""}, "idempotency key"),
    ],
)
def test_charge_validation(changes: dict[str, object], message: str) -> None:
    base = charge("k")
    fields = {name: getattr(base, name) for name in Charge.__dataclass_fields__}
    with pytest.raises(ValueError, match=message):
        Charge(**{**fields, **changes})


def test_charge_accepts_a_stored_subsystem_string() -> None:
    base = charge("k")
    fields = {name: getattr(base, name) for name in Charge.__dataclass_fields__}
    assert Charge(**{**fields, "subsystem": "dream"}).subsystem.value == "dream"
