"""Real candles: read from CSV or Parquet and checked, walked by a heartbeat in virtual time
(open, the extreme nearer the open, the other extreme, the close, a quarter of the candle
each), the path ahead the real one, and the shared real-event files read as SOURCES.md
describes them."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from golem.world import CandleReplay, Truth, WorldDataError, read_candles, resolve_candles

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "markets"
T0 = datetime(2022, 5, 4, tzinfo=UTC)
FIVE = timedelta(minutes=5)
ROWS = [  # open, high, low, close: falling (high nearer the open), rising (low nearer)
    (100.0, 101.0, 90.0, 92.0),
    (92.0, 99.0, 91.0, 98.0),
    (98.0, 98.5, 97.0, 97.5),
]


def write_csv(
    path: Path, rows: list[tuple[float, ...]], times: list[datetime] | None = None
) -> Path:
    times = times or [T0 + k * FIVE for k in range(len(rows))]
    lines = ["timestamp,open,high,low,close,volume"]
    for time, (o, h, low, c) in zip(times, rows, strict=True):
        lines.append(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ')},{o},{h},{low},{c},10.0")
    path.write_text("\n".join(lines) + "\n")
    return path


def shared(name: str) -> Path:
    path = SHARED / name
    if not path.is_file():
        pytest.skip(f"{path} absent (the shared real market data)")
    return path


def event_data(scenario: Path) -> Path:
    """The shared candle file a real-event scenario names (`[world] candles`), or a skip:
    read before the scenario is loaded, since loading refuses a missing file."""
    with scenario.open("rb") as file:
        return shared(Path(tomllib.load(file)["world"]["candles"]).name)


def test_a_tick_sees_open_then_the_nearer_extreme_then_the_other_then_the_close(
    tmp_path: Path,
) -> None:
    replay = CandleReplay(read_candles(write_csv(tmp_path / "c.csv", ROWS)), FIVE / 4)
    seen = [replay.price(T0 + k * timedelta(seconds=75)) for k in range(8)]
    assert seen == [100.0, 101.0, 90.0, 92.0, 92.0, 91.0, 99.0, 98.0]
    # Held until the next point: the close until the next candle opens.
    assert replay.price(T0 + FIVE - timedelta(seconds=1)) == 92.0
    assert replay.price(T0 + timedelta(seconds=74)) == 100.0


def test_inside_a_missing_candle_a_tick_sees_the_last_close(tmp_path: Path) -> None:
    times = [T0, T0 + FIVE, T0 + 4 * FIVE]
    candles = read_candles(write_csv(tmp_path / "gap.csv", ROWS, times))
    assert [(gap.after, gap.missing) for gap in candles.gaps()] == [(T0 + FIVE, 2)]
    replay = CandleReplay(candles, FIVE)
    assert replay.price(T0 + 3 * FIVE) == 98.0
    assert replay.price(T0 + 4 * FIVE) == 98.0  # the next candle's open
    assert candles.end == T0 + 5 * FIVE


def test_ticks_count_the_heartbeat_and_the_path_ahead_is_the_one_walked(tmp_path: Path) -> None:
    replay = CandleReplay(read_candles(write_csv(tmp_path / "c.csv", ROWS)), timedelta(seconds=75))
    first = replay.observe(T0)
    assert replay.observe(T0) is first  # asked again at its time: the same observation
    ahead = replay.ahead(6)
    walked = [replay.observe(T0 + k * timedelta(seconds=75)) for k in range(1, 7)]
    assert ahead == walked
    assert [o.tick for o in walked] == [1, 2, 3, 4, 5, 6]
    truth = Truth.of(first, ahead)
    assert truth.trough == pytest.approx(90.0 / 100.0 - 1.0)
    assert truth.future_return == pytest.approx(99.0 / 100.0 - 1.0)
    with pytest.raises(ValueError, match="forward"):
        replay.observe(T0)


def test_a_restored_replay_walks_on_where_it_stopped(tmp_path: Path) -> None:
    candles = read_candles(write_csv(tmp_path / "c.csv", ROWS))
    one = CandleReplay(candles, timedelta(seconds=60))
    for k in range(4):
        one.observe(T0 + k * timedelta(seconds=90))
    two = CandleReplay(candles, timedelta(seconds=60))
    two.restore(one.state())
    assert two.ahead(5) == one.ahead(5)
    later = T0 + timedelta(minutes=9)
    assert two.observe(later) == one.observe(later)
    with pytest.raises(ValueError, match="not a replay state"):
        two.restore({"version": 1})


@pytest.mark.parametrize(
    ("rows", "times", "complaint"),
    [
        ([(100.0, 99.0, 90.0, 92.0), *ROWS[1:]], None, ":2: low 90 / high 99 do not bound"),
        ([*ROWS[:2], (98.0, 98.5, -1.0, 97.5)], None, ":4: a price is not positive"),
        (ROWS, [T0, T0 + FIVE, T0 + FIVE], ":4, column timestamp: not after"),
        (ROWS, [T0, T0 + FIVE, T0 + FIVE + timedelta(minutes=7)], "not a multiple of 300"),
    ],
)
def test_bad_candles_name_the_line(
    tmp_path: Path,
    rows: list[tuple[float, ...]],
    times: list[datetime] | None,
    complaint: str,
) -> None:
    with pytest.raises(WorldDataError, match=complaint):
        read_candles(write_csv(tmp_path / "bad.csv", rows, times))


def test_parquet_reads_as_the_csv_does(tmp_path: Path) -> None:
    from_csv = read_candles(write_csv(tmp_path / "c.csv", ROWS))
    table = pa.table(
        {
            "timestamp": pa.array(
                [int((T0 + k * FIVE).timestamp() * 1000) for k in range(3)],
                pa.timestamp("ms", "UTC"),
            ),
            **{
                name: pa.array([row[i] for row in ROWS], pa.float64())
                for i, name in enumerate(("open", "high", "low", "close"))
            },
            "volume": pa.array([10.0] * 3, pa.float64()),
        }
    )
    pq.write_table(table, tmp_path / "c.parquet")
    from_parquet = read_candles(tmp_path / "c.parquet")
    assert (from_parquet.times, from_parquet.close, from_parquet.interval) == (
        from_csv.times,
        from_csv.close,
        from_csv.interval,
    )
    pq.write_table(table.drop_columns(["volume"]), tmp_path / "short.parquet")
    with pytest.raises(WorldDataError, match="missing column"):
        read_candles(tmp_path / "short.parquet")


def test_a_relative_file_is_found_in_the_search_path(tmp_path: Path) -> None:
    write_csv(tmp_path / "c.csv", ROWS)
    assert resolve_candles(Path("c.csv"), [tmp_path / "none", tmp_path]) == tmp_path / "c.csv"
    assert resolve_candles(Path("d.csv"), [tmp_path]) is None


@pytest.mark.parametrize(
    ("name", "count", "missing", "low"),
    [
        ("luna_2022-05__binance_ETHUSDT_5m.csv", 3456, 0, 1800.00),
        ("crash_2021-05-19__binance_ETHUSDT_5m.csv", 4320, 0, 1728.74),
        ("celsius_3ac_2022-06__binance_ETHUSDT_5m.csv", 4032, 0, 881.56),
        ("rally_2020-12_2021-01__binance_ETHUSDT_5m.csv", 11750, 58, None),
        ("sideways_2023-07_08__binance_ETHUSDT_5m.csv", 8640, 0, None),
    ],
)
def test_the_shared_real_events_read_as_their_sources_describe(
    name: str, count: int, missing: int, low: float | None
) -> None:
    candles = read_candles(shared(name))
    assert len(candles) == count
    assert candles.interval == FIVE
    assert sum(gap.missing for gap in candles.gaps()) == missing
    if low is not None:
        assert min(candles.low) == low


def test_a_heartbeat_of_a_quarter_candle_meets_the_real_low() -> None:
    """The LUNA low (1800.00, 2022-05-12 05:15) is seen by a 60 s heartbeat."""
    replay = CandleReplay(read_candles(shared("luna_2022-05__binance_ETHUSDT_5m.csv")), FIVE)
    start = datetime(2022, 5, 12, 5, tzinfo=UTC)
    seen = [replay.observe(start + k * timedelta(seconds=60)).price for k in range(60)]
    assert min(seen) == 1800.00
