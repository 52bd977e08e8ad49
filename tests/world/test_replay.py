"""CSVReplay: the example file replays; each kind of bad input names file, line, column."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from golem.world import (
    EXAMPLE_CSV,
    CSVReplay,
    MarketSource,
    Regime,
    SimulatedMarket,
    WorldDataError,
    read_observations,
)

HEADER = "time,price,volume,health_factor\n"
GOOD = "2025-01-01T00:00:00Z,3000,100,1.8\n2025-01-01T00:00:15Z,3001.5,120,\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "market.csv"
    path.write_text(text, encoding="utf-8")
    return path


def error_for(tmp_path: Path, text: str) -> WorldDataError:
    path = write(tmp_path, text)
    with pytest.raises(WorldDataError) as info:
        CSVReplay(path)
    assert info.value.path == path
    assert str(path) in str(info.value)
    return info.value


def test_example_csv_replays() -> None:
    replay = CSVReplay(EXAMPLE_CSV)
    assert len(replay) == 60
    obs = list(replay)
    assert [o.tick for o in obs] == list(range(60))
    assert obs[0].time == datetime(2025, 3, 1, tzinfo=UTC)
    assert obs[0].price == 3000.0
    assert obs[0].health_factor == pytest.approx(1.8333)
    assert obs[0].regime is Regime.CALM
    assert any(o.regime is Regime.CRASH for o in obs)
    assert replay.observe(replay.start + timedelta(seconds=90)) == obs[1]
    assert replay.observe(replay.end + timedelta(days=1)) == obs[-1]
    with pytest.raises(ValueError, match="before the replay starts"):
        replay.observe(replay.start - timedelta(seconds=1))


@pytest.mark.parametrize(
    ("start", "end", "why"),
    [
        (datetime(2025, 2, 28, 23, tzinfo=UTC), None, "the data starts after the life"),
        (datetime(2025, 3, 1, 0, 59, tzinfo=UTC), None, "the data ends before the life starts"),
        (
            datetime(2026, 1, 5, tzinfo=UTC),
            datetime(2026, 1, 6, tzinfo=UTC),
            "the data ends before the life starts",
        ),
    ],
)
def test_data_that_cannot_serve_the_life_names_the_file_and_both_ranges(
    start: datetime, end: datetime | None, why: str
) -> None:
    replay = CSVReplay(EXAMPLE_CSV)
    with pytest.raises(WorldDataError) as info:
        replay.check_serves(start, end)
    life = f"{start.isoformat()} to {end.isoformat()}" if end else f"{start.isoformat()} on"
    assert str(info.value) == (
        f"{EXAMPLE_CSV}: the market data runs from 2025-03-01T00:00:00+00:00 to "
        f"2025-03-01T00:59:00+00:00, the life from {life}: {why}"
    )


def test_data_serves_a_life_from_its_first_row_to_before_its_last() -> None:
    replay = CSVReplay(EXAMPLE_CSV)
    replay.check_serves(replay.start)
    replay.check_serves(replay.end - timedelta(seconds=1), replay.end + timedelta(days=30))


def test_happy_path_with_empty_optional_cells(tmp_path: Path) -> None:
    obs = read_observations(write(tmp_path, HEADER + GOOD))
    assert [o.price for o in obs] == [3000.0, 3001.5]
    assert obs[0].health_factor == 1.8
    assert obs[1].health_factor is None
    assert obs[1].time - obs[0].time == timedelta(seconds=15)


def test_column_order_and_whitespace_do_not_matter(tmp_path: Path) -> None:
    text = " volume , time ,price\n100, 2025-01-01T00:00:00+00:00 ,3000\n\n"
    obs = read_observations(write(tmp_path, text))
    assert obs[0].volume == 100.0
    assert obs[0].price == 3000.0


def test_empty_file(tmp_path: Path) -> None:
    error = error_for(tmp_path, "")
    assert (error.line, error.column) == (1, None)
    assert "empty file" in str(error)


def test_header_without_rows(tmp_path: Path) -> None:
    error = error_for(tmp_path, HEADER)
    assert error.line == 2
    assert "no data rows" in str(error)


def test_missing_column(tmp_path: Path) -> None:
    error = error_for(tmp_path, "time,price\n2025-01-01T00:00:00Z,3000\n")
    assert (error.line, error.column) == (1, "volume")
    assert "missing required column 'volume'" in str(error)


def test_unknown_and_duplicate_columns(tmp_path: Path) -> None:
    error = error_for(tmp_path, "time,price,volume,colour\n")
    assert (error.line, error.column) == (1, "colour")
    assert "unknown column" in str(error)
    error = error_for(tmp_path, "time,price,volume,price\n")
    assert "appears twice" in str(error)


def test_bad_number(tmp_path: Path) -> None:
    error = error_for(tmp_path, HEADER + GOOD + "2025-01-01T00:00:30Z,3,0xx,1.5\n")
    assert (error.line, error.column) == (4, "volume")
    assert "not a number: '0xx'" in str(error)
    assert str(error).startswith(f"{tmp_path / 'market.csv'}:4, column volume:")


@pytest.mark.parametrize(
    ("cell", "message"),
    [("-3", "greater than 0"), ("0", "greater than 0"), ("nan", "finite"), ("inf", "finite")],
)
def test_price_out_of_range(tmp_path: Path, cell: str, message: str) -> None:
    error = error_for(tmp_path, HEADER + f"2025-01-01T00:00:00Z,{cell},1,\n")
    assert (error.line, error.column) == (2, "price")
    assert message in str(error)


def test_bad_time(tmp_path: Path) -> None:
    error = error_for(tmp_path, HEADER + "yesterday,3000,1,\n")
    assert (error.line, error.column) == (2, "time")
    assert "not an ISO-8601 time" in str(error)
    error = error_for(tmp_path, HEADER + "2025-01-01T00:00:00,3000,1,\n")
    assert "no timezone" in str(error)


def test_non_monotonic_time(tmp_path: Path) -> None:
    text = HEADER + GOOD + "2025-01-01T00:00:15Z,3002,1,\n"
    error = error_for(tmp_path, text)
    assert (error.line, error.column) == (4, "time")
    assert "not after the previous row's" in str(error)
    assert "(line 3)" in str(error)


def test_wrong_field_count_and_bad_regime(tmp_path: Path) -> None:
    error = error_for(tmp_path, HEADER + "2025-01-01T00:00:00Z,3000\n")
    assert (error.line, error.column) == (2, None)
    assert "expected 4 fields, found 2" in str(error)
    error = error_for(tmp_path, "time,price,volume,regime\n2025-01-01T00:00:00Z,1,1,bull\n")
    assert error.column == "regime"
    assert "unknown regime" in str(error)


def test_quoted_cell_spanning_lines_keeps_line_numbers(tmp_path: Path) -> None:
    text = 'time,price,volume\n"2025-01-01\nT00:00:00Z",3000,1\n2025-01-01T00:00:15Z,x,1\n'
    error = error_for(tmp_path, text)
    assert (error.line, error.column) == (2, "time")


def test_all_errors_reports_every_problem(tmp_path: Path) -> None:
    text = (
        HEADER
        + "2025-01-01T00:00:00Z,3000,1,\n"
        + "2025-01-01T00:00:15Z,abc,1,0\n"  # two bad cells on one line
        + "2025-01-01T00:00:30Z,3000,1,1.2\n"
        + "2024-12-31T00:00:00Z,3000,1,\n"
    )
    path = write(tmp_path, text)
    with pytest.raises(WorldDataError) as info:
        CSVReplay(path, all_errors=True)
    where = [(p.line, p.column) for p in info.value.problems]
    assert where == [(3, "price"), (3, "health_factor"), (5, "time")]
    assert str(info.value).startswith("3 problems:")


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(WorldDataError, match="cannot read"):
        CSVReplay(tmp_path / "absent.csv")
    path = tmp_path / "latin1.csv"
    path.write_bytes(HEADER.encode() + b"2025-01-01T00:00:00Z,3000,1,\xe9\n")
    with pytest.raises(WorldDataError) as info:
        CSVReplay(path)
    assert info.value.line == 2


def test_unterminated_quote(tmp_path: Path) -> None:
    error = error_for(tmp_path, HEADER + GOOD + '"2025-01-01T00:00:30Z,3000,1,\n')
    assert error.line == 4
    assert "unreadable row" in str(error)


def test_both_sources_answer_the_same_question() -> None:
    sources: list[MarketSource] = [CSVReplay(EXAMPLE_CSV), SimulatedMarket(1)]
    when = datetime(2025, 3, 1, tzinfo=UTC)
    for source in sources:
        obs = source.observe(when)
        assert obs.time == when
        assert obs.price == 3000.0
