"""A tally's day of a decision: two comparisons while the day lasts, worked out from the
decision's time otherwise. Whatever the times' order, zone or microseconds, the day is the
one the time gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import example, given
from hypothesis import strategies as st

from golem.simulation.tally import Tally
from tests.runtime.records import decision

START = datetime(2026, 1, 5, 7, 30, tzinfo=timezone(timedelta(hours=2)))
ZONES = st.sampled_from([UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5))])
OFFSETS = st.integers(min_value=-2 * 86_400_000_000, max_value=40 * 86_400_000_000)
# Near day boundaries too, where the comparisons must switch days exactly.
BOUNDARIES = st.builds(
    lambda day, us: day * 86_400_000_000 + us,
    st.integers(min_value=-1, max_value=30),
    st.integers(min_value=-2, max_value=2),
)


@example([(-86_400_000_000, UTC), (-1, UTC)])  # day -1 exactly, then day 0
@example([(0, UTC), (86_400_000_000 - 1, UTC), (86_400_000_000, UTC)])  # a day's last µs
@given(st.lists(st.tuples(st.one_of(OFFSETS, BOUNDARIES), ZONES), min_size=1, max_size=40))
def test_the_day_of_each_decision_is_that_of_its_time(stamps: list[tuple[int, timezone]]) -> None:
    tally = Tally(start=START)
    expected = []
    for us, zone in stamps:
        moment = (START + timedelta(microseconds=us)).astimezone(zone)
        expected.append(int((moment - START).total_seconds() / 86_400))
        tally(decision(moment))
    counted = sorted(day for (day, *_), n in tally.decisions.items() for _ in range(n))
    assert counted == sorted(expected)
