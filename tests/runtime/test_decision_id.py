"""DecisionId: the one place a decision's id is spelled and read back."""

import pytest

from golem.runtime.store import DecisionId


def test_an_id_reads_back_as_it_was_written() -> None:
    made = DecisionId("risk", 5856, 1)
    assert str(made) == "risk@5856.1"
    assert DecisionId.parse(str(made)) == made


@pytest.mark.parametrize("text", ["risk", "risk@5856", "Risk@1.0", "risk@1.x", "@1.0"])
def test_what_is_no_id_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match=f"{text!r} is not a decision id"):
        DecisionId.parse(text)
