"""The action gate: no record, no action; the bar rises with cost against expected value;
inaction's better record blocks an action beyond the margin."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.oracle import (
    EQUITY,
    PRICE,
    Category,
    Direction,
    Draft,
    GateParams,
    PredictionBook,
    holding_is_optimal,
    permits,
    price_direction,
    required_accuracy,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
STEP = timedelta(minutes=1)


def _book(
    direction_hits: int, direction_total: int, inaction_hits: int, inaction_total: int
) -> PredictionBook:
    book = PredictionBook()
    for i in range(direction_total):
        draft = Draft(T0 + i * STEP, "calm", (STEP,))
        book.register(
            price_direction(book.next_id(), draft, price=100.0, direction=Direction.UP, flat_bps=0)
        )
        book.resolve(T0 + (i + 1) * STEP, {PRICE: 101.0 if i < direction_hits else 99.0})
    for i in range(inaction_total):
        draft = Draft(T0 + i * STEP, "calm", (STEP,))
        book.register(holding_is_optimal(book.next_id(), draft, equity=100.0, tolerance_bps=0))
        book.resolve(T0 + (i + 1) * STEP, {EQUITY: 101.0 if i < inaction_hits else 99.0})
    return book


NOW = T0 + timedelta(hours=2)


def _verdict(book: PredictionBook, cost: float = 1.0, value: float = 10.0) -> object:
    return permits(
        [Category.PRICE_DIRECTION], book, now=NOW, regime="calm", cost=cost, expected_value=value
    )


def test_a_newborn_may_not_trade() -> None:
    verdict = permits(
        [Category.PRICE_DIRECTION],
        PredictionBook(),
        now=T0,
        regime="calm",
        cost=1,
        expected_value=10,
    )
    assert not verdict.permitted and verdict.reason == "insufficient data: price_direction n=0"


def test_a_good_record_is_permitted_and_a_poor_one_blocked() -> None:
    good = permits(
        [Category.PRICE_DIRECTION],
        _book(25, 30, 0, 0),
        now=NOW,
        regime="calm",
        cost=1,
        expected_value=10,
    )
    assert good.permitted and good.required == pytest.approx(0.60)
    poor = permits(
        [Category.PRICE_DIRECTION],
        _book(17, 30, 0, 0),
        now=NOW,
        regime="calm",
        cost=1,
        expected_value=10,
    )
    assert not poor.permitted and "accuracy 57% < required 60%" in poor.reason


def test_the_record_of_another_regime_does_not_count() -> None:
    verdict = permits(
        [Category.PRICE_DIRECTION],
        _book(30, 30, 0, 0),
        now=NOW,
        regime="volatile",
        cost=1,
        expected_value=10,
    )
    assert not verdict.permitted and "insufficient" in verdict.reason


def test_the_bar_rises_with_cost_against_value() -> None:
    assert required_accuracy(0.60, 1.0, 10.0) == pytest.approx(0.60)
    assert required_accuracy(0.60, 3.0, 10.0) == pytest.approx(0.80)
    assert required_accuracy(0.60, 30.0, 10.0) == pytest.approx(0.95)
    assert required_accuracy(0.60, 0.0, 0.0) == pytest.approx(0.95)
    book = _book(25, 30, 0, 0)  # 83%
    assert permits(
        [Category.PRICE_DIRECTION], book, now=NOW, regime="calm", cost=3, expected_value=10
    ).permitted
    assert not permits(
        [Category.PRICE_DIRECTION], book, now=NOW, regime="calm", cost=4, expected_value=10
    ).permitted


def test_inaction_beyond_the_margin_blocks() -> None:
    book = _book(21, 30, 27, 30)  # action 70%, inaction 90%
    verdict = permits(
        [Category.PRICE_DIRECTION], book, now=NOW, regime="calm", cost=1, expected_value=10
    )
    assert not verdict.permitted and verdict.reason == "inaction 90% > action 70% + margin 5%"
    within = _book(21, 30, 22, 30)  # inaction 73%: within the margin
    assert permits(
        [Category.PRICE_DIRECTION], within, now=NOW, regime="calm", cost=1, expected_value=10
    ).permitted
    off = GateParams(inaction_comparison=False)
    assert permits(
        [Category.PRICE_DIRECTION],
        book,
        now=NOW,
        regime="calm",
        cost=1,
        expected_value=10,
        params=off,
    ).permitted
