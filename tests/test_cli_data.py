"""`golem data fetch` against a local server replaying Binance's recorded klines: the file
equals the recorded candles (Parquet or CSV), pages follow each other, an interrupted fetch
resumes where it stopped, the candles are checked; bad arguments are one line, exit 2.
`golem data show` summarises a candle file."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from golem.world import read_candles
from tests.user_errors.support import golem
from tests.world.exchange_server import DOWN, KLINES, KLINES_PATH, Reply, klines, recorded, serving
from tests.world.test_candles import shared

SINCE, UNTIL = "2024-01-30T15:00:00Z", "2024-01-30T19:00:00Z"


def fetch(server_url: str, out: Path, *extra: str) -> Any:
    args = ("binance", "BTC/USDT", "1h", "--since", SINCE, "--until", UNTIL, "--out", out)
    return golem("data", "fetch", *args, "--api-url", server_url, *extra, cwd=out.parent)


def assert_recorded(path: Path) -> None:
    rows = recorded(KLINES)
    candles = read_candles(path)
    assert [int(t * 1000) for t in candles.times] == [row[0] for row in rows]
    for k, column in enumerate(
        (candles.open, candles.high, candles.low, candles.close, candles.volume)
    ):
        assert list(column) == [float(row[k + 1]) for row in rows]


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_fetch_writes_the_recorded_candles_page_by_page(tmp_path: Path, suffix: str) -> None:
    with serving({KLINES_PATH: klines(recorded(KLINES))}) as server:
        ran = fetch(server.url, tmp_path / f"btc{suffix}", "--limit", "2")
    assert ran.code == 0, ran.err
    assert_recorded(tmp_path / f"btc{suffix}")
    pages = [a for a in server.asked if a.startswith(KLINES_PATH)]
    assert len(pages) == 2 and all("limit=2" in a for a in pages)
    assert "startTime=1706634000000" not in pages[0] and "startTime=1706637600000" in pages[1]
    assert "3 candles from 2024-01-30T16:00:00+00:00 to 2024-01-30T18:00:00+00:00" in ran.out
    assert "(2 pages, 0 duplicates dropped)" in ran.out and "no gaps" in ran.out
    assert not (tmp_path / f"btc{suffix}.part").exists()


def test_an_interrupted_fetch_resumes_where_it_stopped(tmp_path: Path) -> None:
    rows = recorded(KLINES)
    normal = klines(rows)
    down = {"left": 3}  # the second page fails, asked and retried twice

    def flaky(query: Mapping[str, str]) -> Reply:
        if int(query["startTime"]) > rows[0][0] and down["left"]:
            down["left"] -= 1
            return DOWN
        return normal(query)

    out = tmp_path / "btc.parquet"
    with serving({KLINES_PATH: flaky}) as server:
        first = fetch(server.url, out, "--limit", "2")
        assert first.code == 1, first.err
        assert "unavailable" in first.err and "2 candles kept in" in first.err
        assert len(first.err.strip().splitlines()) == 1
        assert not out.exists() and (tmp_path / "btc.parquet.part").exists()
        asked = len(server.asked)
        second = fetch(server.url, out, "--limit", "2")
    assert second.code == 0, second.err
    assert "1 pages, 2 resumed" in second.out
    assert server.asked[asked:] == [
        f"{KLINES_PATH}?interval=1h&limit=2&symbol=BTCUSDT&startTime=1706637600000"
    ]
    assert_recorded(out)


def test_candles_are_checked(tmp_path: Path) -> None:
    rows = recorded(KLINES)
    with_gap_and_twin = [rows[0], rows[0], rows[2]]
    with serving({KLINES_PATH: klines(with_gap_and_twin)}) as server:
        ran = fetch(server.url, tmp_path / "odd.csv")
    assert ran.code == 0, ran.err
    assert "1 duplicates dropped" in ran.out
    assert "1 gaps, 1 candles missing: 1 after 2024-01-30T16:00:00+00:00" in ran.out
    broken = [[*rows[0][:2], "43000.0", *rows[0][3:]]]  # high below the open
    with serving({KLINES_PATH: klines(broken)}) as server:
        bad = fetch(server.url, tmp_path / "bad.csv")
    line = bad.one_line_error()
    assert "candle 2024-01-30T16:00:00+00:00: inconsistent" in line


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (
            ("nope", "BTC/USDT", "1h", "--since", SINCE, "--until", UNTIL, "--out", "x.csv"),
            "unknown exchange 'nope'",
        ),
        (
            ("binance", "BTC/USDT", "7q", "--since", SINCE, "--until", UNTIL, "--out", "x.csv"),
            "timeframe '7q'",
        ),
        (
            ("binance", "BTC/USDT", "1h", "--since", UNTIL, "--until", SINCE, "--out", "x.csv"),
            "is not before --until",
        ),
        (
            ("binance", "BTC/USDT", "1h", "--since", SINCE, "--until", UNTIL, "--out", "x.txt"),
            ".parquet or .csv",
        ),
        (
            (
                "binance",
                "BTC/USDT",
                "1h",
                "--since",
                "yesterday",
                "--until",
                UNTIL,
                "--out",
                "x.csv",
            ),
            "not an ISO-8601 time",
        ),
        (
            (
                "binance",
                "BTC/USDT",
                "1h",
                "--since",
                "2024-01-30T15:00",
                "--until",
                UNTIL,
                "--out",
                "x.csv",
            ),
            "add Z",
        ),
        (
            (
                "binance",
                "BTC/USDT",
                "1h",
                "--since",
                SINCE,
                "--until",
                UNTIL,
                "--out",
                "x.csv",
                "--limit",
                "0",
            ),
            "at least 1",
        ),
        (
            (
                "binance",
                "BTCUSDT",
                "1h",
                "--since",
                SINCE,
                "--until",
                UNTIL,
                "--out",
                "x.csv",
                "--api-url",
                "http://127.0.0.1:9",
            ),
            "not BASE/QUOTE",
        ),
        (("binance", "BTC/USDT", "1h", "--since", SINCE, "--out", "x.csv"), "--until"),
    ],
)
def test_bad_arguments_are_one_line_exit_2(
    tmp_path: Path, args: tuple[str, ...], complaint: str
) -> None:
    line = golem("data", "fetch", *args, cwd=tmp_path).one_line_error()
    assert complaint in line
    assert not list(tmp_path.iterdir())


def test_a_part_file_of_another_download_is_not_resumed(tmp_path: Path) -> None:
    (tmp_path / "btc.csv.part").write_text('{"exchange": "kraken"}\n')
    with serving({KLINES_PATH: klines(recorded(KLINES))}) as server:
        line = fetch(server.url, tmp_path / "btc.csv").one_line_error()
    assert "btc.csv.part:1: holds another download" in line


def test_show_summarises_a_candle_file(tmp_path: Path) -> None:
    ran = golem("data", "show", shared("luna_2022-05__binance_ETHUSDT_5m.csv"), cwd=tmp_path)
    assert ran.code == 0, ran.err
    assert "3456 candles of 300 s" in ran.out
    assert "from 2022-05-04T00:00:00+00:00 to 2022-05-16T00:00:00+00:00" in ran.out
    assert "low 1800 at 2022-05-12T05:15:00+00:00" in ran.out and "no gaps" in ran.out
    rally = golem(
        "data", "show", shared("rally_2020-12_2021-01__binance_ETHUSDT_5m.csv"), cwd=tmp_path
    )
    assert "2 gaps, 58 candles missing: 46 after 2020-12-21T14:05:00+00:00" in rally.out
    missing = golem("data", "show", tmp_path / "none.csv", cwd=tmp_path).one_line_error()
    assert "none.csv: cannot read" in missing
