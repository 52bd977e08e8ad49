"""A tally's day of a decision: read from the timestamp text while the day lasts (UTC ISO
stamps sort as text as they do in time), parsed otherwise. Whatever the stamps' order,
zone or microseconds, the day is the one the parsed time gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import example, given
from hypothesis import strategies as st

from golem.runtime.simulate_tally import Tally

START = datetime(2026, 1, 5, 7, 30, tzinfo=timezone(timedelta(hours=2)))
ZONES = st.sampled_from([UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5))])
OFFSETS = st.integers(min_value=-2 * 86_400_000_000, max_value=40 * 86_400_000_000)
# Near day boundaries too, where the text comparison must switch days exactly.
BOUNDARIES = st.builds(
    lambda day, us: day * 86_400_000_000 + us,
    st.integers(min_value=-1, max_value=30),
    st.integers(min_value=-2, max_value=2),
)


# The separators fromisoformat() accepts besides isoformat()'s "T".
SEPARATORS = st.sampled_from(["T", "T", "T", " ", "x"])


@example([(-86_400_000_000, UTC, "T"), (-1, UTC, "T")])  # day -1 exactly, then day 0
@example([(0, UTC, "T"), (86_400_000_000 + 3_600_000_000, UTC, " ")])  # " " sorts before "T"
@given(
    st.lists(st.tuples(st.one_of(OFFSETS, BOUNDARIES), ZONES, SEPARATORS), min_size=1, max_size=40)
)
def test_the_day_of_each_decision_is_that_of_its_parsed_time(
    stamps: list[tuple[int, timezone, str]],
) -> None:
    tally = Tally(start=START)
    expected = []
    for us, zone, separator in stamps:
        moment = (START + timedelta(microseconds=us)).astimezone(zone)
        expected.append(int((moment - START).total_seconds() / 86_400))
        tally({"event": "decision", "subsystem": "heartbeat", "tier": "0",
               "source": "deterministic", "timestamp": moment.isoformat(separator)})  # fmt: skip
    counted = sorted(day for (day, *_), n in tally.decisions.items() for _ in range(n))
    assert counted == sorted(expected)
