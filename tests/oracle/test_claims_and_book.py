"""Claims resolve arithmetically, with residuals and classes; the book resolves each checkpoint
once, at the first tick at or after it falls due, appends to its ledger, and reports accuracy
per category, regime and window."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.oracle import (
    EQUITY,
    PRICE,
    Above,
    Band,
    Below,
    Boolean,
    Category,
    Direction,
    Draft,
    InRange,
    Move,
    Prediction,
    PredictionBook,
    Resolution,
    WithinBps,
    holding_is_optimal,
    price_direction,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def test_each_claim_holds_or_fails_by_arithmetic() -> None:
    assert WithinBps(100.0, 50).label(100.5) == "true"
    assert WithinBps(100.0, 50).label(100.51) == "false"
    assert WithinBps(100.0, 50).residual(101.0) == pytest.approx(1.0)
    assert InRange(1.0, 2.0).label(2.0) == "true" and InRange(1.0, 2.0).label(2.01) == "false"
    assert InRange(1.0, 3.0).residual(1.0) == -1.0
    assert Above(5.0).label(5.0) == "false" and Below(5.0).label(4.9) == "true"
    assert Boolean(False).label(0.0) == "false" == Boolean(False).predicted
    assert Boolean(True).residual(0.0) == -1.0


def test_a_move_within_the_flat_band_is_flat() -> None:
    claim = Move(Direction.UP, 100.0, flat_bps=50)
    assert claim.label(100.4) == "flat"
    assert claim.label(100.6) == "up"
    assert claim.label(99.0) == "down"
    assert claim.residual(101.0) == pytest.approx(0.01)


def test_a_band_names_the_class_of_the_value_and_measures_the_miss() -> None:
    band = Band((0.01, 0.03), ("calm", "normal", "wild"), "normal")
    assert [band.label(v) for v in (0.005, 0.01, 0.029, 0.03)] == [
        "calm",
        "normal",
        "normal",
        "wild",
    ]
    assert band.residual(0.02) == 0.0
    assert band.residual(0.04) == pytest.approx(0.01)
    assert band.residual(0.005) == pytest.approx(-0.005)
    with pytest.raises(ValueError, match="unknown band"):
        Band((0.01,), ("low", "high"), "mid")


@pytest.mark.parametrize(
    "bad",
    [
        lambda: InRange(2.0, 1.0),
        lambda: WithinBps(float("nan"), 10),
        lambda: Move(Direction.UP, 0.0),
        lambda: Band((2.0, 1.0), ("a", "b", "c"), "a"),
    ],
)
def test_malformed_claims_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        bad()  # type: ignore[operator]


class Ledger:
    def __init__(self) -> None:
        self.predictions: list[Prediction] = []
        self.resolutions: list[Resolution] = []

    def append_prediction(self, prediction: Prediction) -> None:
        self.predictions.append(prediction)

    def append_resolution(self, resolution: Resolution) -> None:
        self.resolutions.append(resolution)


def _draft(at: datetime, *checkpoints: timedelta, regime: str = "calm") -> Draft:
    return Draft(created_at=at, regime=regime, checkpoints=checkpoints or (5 * MINUTE,))


def test_each_checkpoint_resolves_once_at_the_first_tick_after_it_is_due() -> None:
    ledger = Ledger()
    book = PredictionBook(ledger=ledger)
    draft = _draft(T0, 5 * MINUTE, 20 * MINUTE)
    book.register(price_direction(1, draft, price=100.0, direction=Direction.UP, flat_bps=10))
    assert book.resolve(T0 + 4 * MINUTE, {PRICE: 200.0}) == []
    first = book.resolve(T0 + 6 * MINUTE, {PRICE: 101.0})
    assert [(r.checkpoint, r.correct, r.observed) for r in first] == [(0, True, "up")]
    assert book.resolve(T0 + 7 * MINUTE, {PRICE: 101.0}) == []
    # the second checkpoint is judged on its own reading: the price fell back
    second = book.resolve(T0 + 21 * MINUTE, {PRICE: 99.0})
    assert [(r.checkpoint, r.correct, r.observed) for r in second] == [(1, False, "down")]
    assert len(ledger.predictions) == 1 and ledger.resolutions == [*first, *second]
    assert book.pending == 0


def test_a_checkpoint_waits_for_a_reading_of_its_item() -> None:
    book = PredictionBook()
    book.register(holding_is_optimal(1, _draft(T0), equity=1000.0, tolerance_bps=10))
    assert book.resolve(T0 + 6 * MINUTE, {PRICE: 1.0}) == []
    assert book.pending == 1
    [done] = book.resolve(T0 + 7 * MINUTE, {EQUITY: 999.5})
    assert done.correct and done.category is Category.INACTION


def test_ids_are_monotonic_and_registered_once() -> None:
    book = PredictionBook()
    with pytest.raises(ValueError, match="expected 1"):
        book.register(price_direction(2, _draft(T0), price=1.0, direction=Direction.UP, flat_bps=0))


def test_reports_count_per_category_regime_and_window() -> None:
    book = PredictionBook(sample_minimum=3)
    for i in range(6):
        regime = "calm" if i < 4 else "volatile"
        at = T0 + i * 10 * MINUTE
        direction = Direction.UP if i % 2 == 0 else Direction.DOWN
        claim = price_direction(
            i + 1, _draft(at, regime=regime), price=100.0, direction=direction, flat_bps=0
        )
        book.register(claim)
        book.resolve(at + 5 * MINUTE, {PRICE: 101.0})  # up: the even ones are right
    now = T0 + 60 * MINUTE
    every = book.report(Category.PRICE_DIRECTION, now=now, window=timedelta(days=1))
    assert (every.total, every.hits, every.hit_rate, every.sample_sufficient) == (6, 3, 0.5, True)
    calm = book.report(Category.PRICE_DIRECTION, now=now, window=timedelta(days=1), regime="calm")
    assert (calm.total, calm.hits) == (4, 2)
    recent = book.report(Category.PRICE_DIRECTION, now=now, window=16 * MINUTE)
    assert (recent.total, recent.sample_sufficient) == (2, False)
    assert every.mean_residual == pytest.approx(0.01)
    assert book.report(Category.INACTION, now=now, window=timedelta(days=1)).hit_rate == 0.0


def test_old_resolutions_are_compacted() -> None:
    book = PredictionBook(compaction_window=timedelta(hours=1))
    book.register(price_direction(1, _draft(T0), price=1.0, direction=Direction.UP, flat_bps=0))
    book.resolve(T0 + 5 * MINUTE, {PRICE: 2.0})
    book.resolve(T0 + 2 * timedelta(hours=1), {PRICE: 2.0})
    report = book.report(
        Category.PRICE_DIRECTION, now=T0 + 2 * timedelta(hours=1), window=timedelta(days=30)
    )
    assert report.total == 0
