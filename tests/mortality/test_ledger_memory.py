"""InMemoryLedger against the ledger contract."""

import pytest

from golem.inference.types import Usage
from golem.mortality import Charge, HeldBills, InMemoryLedger, Ledger, SubsystemName
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


def test_held_bills_keep_each_billed_attempt_as_the_charge_it_will_be() -> None:
    kept: list[Charge] = []
    held = HeldBills(
        SubsystemName.RISK, "openrouter", "route-model", NOON, "g:5:1:risk:T1", kept.append
    )
    held(Usage(input_tokens=100, output_tokens=20), 0.002, "anthropic", "claude-test")
    held(Usage(input_tokens=50), -0.5, "", "")  # a negative price is held as nothing owed
    held(Usage(), 0.0, "anthropic", "claude-test")  # nothing billed: nothing held
    assert [(c.provider, c.model, c.usd) for c in kept] == [
        ("anthropic", "claude-test", 0.002),
        ("openrouter", "route-model", 0.0),  # unnamed by the answer: the route's
    ]
    assert {c.idempotency_key for c in kept} == {"g:5:1:risk:T1"}
    assert {c.time for c in kept} == {NOON} and {c.diem for c in kept} == {0.0}
