"""A life and its market data: a life on a CSV that ends mid-life ends where the data ends
(one warning, `data_ended`), and a job that keeps failing stops the golem
(`[golem] max_consecutive_failures`; exit 3 and one line from `golem run`)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import orjson
import pytest
from structlog.testing import capture_logs

from golem.cli import main
from golem.runtime.clock import RealClock, VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.golem import Golem
from golem.runtime.life import assemble
from golem.runtime.scheduler import JobFailing
from golem.runtime.store.state import StateStore
from golem.world import EXAMPLE_CSV, CSVReplay, Observation
from tests.runtime.test_life import START, routes

DATA = CSVReplay(EXAMPLE_CSV)  # one hour of rows, a minute apart

SCENARIO = f"""
[simulation]
start = {(DATA.start + timedelta(minutes=30)).isoformat()}
horizon_days = 1

[golem]
id = "g-replay"

[inference]
t1 = ["synthetic"]

[world]
source = "csv"
csv = "{EXAMPLE_CSV}"
"""


def test_a_simulated_life_ends_where_its_market_data_ends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "replay.toml"
    scenario.write_text(SCENARIO)
    assert main(["simulate", str(scenario), "--out", str(tmp_path / "out")]) == 0
    summary = orjson.loads((tmp_path / "out" / "summary.json").read_bytes())
    assert summary["ended"] == "data_ended"
    # 29 minutes of data left; the first heartbeat after the last row (15 s, slower in
    # Conservation) ends the life.
    assert 29 * 60 < summary["lifespan_days"] * 86_400 <= 29 * 60 + 60
    assert "data_ended" in capsys.readouterr().out
    events = [
        orjson.loads(line) for line in (tmp_path / "out" / "golem.log").read_bytes().splitlines()
    ]
    ended = [e for e in events if e["event"] == "market_data_ended"]
    assert len(ended) == 1 and ended[0]["level"] == "warning"
    assert ended[0]["last_row"] == DATA.end.isoformat()
    assert not [e for e in events if e["event"] == "job_failed"]


def test_golem_run_on_data_that_ends_mid_life_says_data_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    now = RealClock().now().replace(microsecond=0)
    rows = (now + timedelta(seconds=s) for s in range(-60, 3))
    csv = tmp_path / "market.csv"
    csv.write_text("time,price,volume\n" + "".join(f"{t.isoformat()},3000,1\n" for t in rows))
    config = tmp_path / "golem.toml"
    config.write_text(
        f'[golem]\nid = "g-live"\nstate_dir = "{tmp_path / "state"}"\n'
        '[inference]\nt1 = ["synthetic"]\n[heartbeat]\ninterval = "200ms"\n'
        f'[logging]\nconsole = "off"\n[world]\nsource = "csv"\ncsv = "{csv}"\n'
    )
    assert main(["run", str(config), "--for", "60s"]) == 0
    farewell, then = capsys.readouterr().err.splitlines()[-2:]
    assert farewell.startswith("golem run: g-live stopped: its market data ran out; saved ")
    # No resume command: the same data would be refused, its end before the restart.
    assert then == ("golem run: to go on, give it market data that covers the time from now on")
    assert main(["run", str(config), "--for", "1s"]) == 2  # as a resume would have been
    assert capsys.readouterr().err.endswith("the data ends before the life starts\n")


class _BrokenFeed:
    """A market whose every observation fails the same way."""

    def observe(self, time: datetime) -> Observation:
        raise ConnectionError("feed down")


def _config(tmp_path: Path, max_failures: int) -> GolemConfig:
    return parse_config(
        {
            "golem": {
                "id": "g-failing",
                "state_dir": str(tmp_path / "state"),
                "max_consecutive_failures": max_failures,
            },
            "heartbeat": {"interval": "15s"},
        }
    )


@pytest.mark.parametrize("max_failures", [3, 0])
async def test_max_consecutive_failures_stops_a_life_whose_job_keeps_failing(
    tmp_path: Path, max_failures: int
) -> None:
    config = _config(tmp_path, max_failures)
    clock = VirtualClock(START)
    with StateStore.open(config.golem.state_dir) as store, capture_logs() as logs:
        life, _ = assemble(
            config, clock=clock, store=store, routes=routes()[0], market=_BrokenFeed()
        )
        if max_failures:
            with pytest.raises(JobFailing, match="'heartbeat' failed 3 times in a row"):
                await life.run(duration=timedelta(hours=1))
            assert clock.now() == START + timedelta(seconds=30)
        else:
            assert await life.run(duration=timedelta(hours=1)) == "duration"
    failed = sum(e["event"] == "job_failed" for e in logs)
    assert failed == (3 if max_failures else 241)


def test_golem_run_stops_with_exit_3_and_one_line_when_a_job_keeps_failing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: Golem, *_: object) -> None:
        raise ConnectionError("feed down")

    monkeypatch.setattr(Golem, "tick", broken)
    config = tmp_path / "golem.toml"
    config.write_text(
        f'[golem]\nid = "g-failing"\nstate_dir = "{tmp_path / "state"}"\n'
        "max_consecutive_failures = 3\n"
        '[inference]\nt1 = ["synthetic"]\n[heartbeat]\ninterval = "100ms"\n'
        '[logging]\nconsole = "off"\n'
    )
    assert main(["run", str(config), "--for", "60s"]) == 3
    assert capsys.readouterr().err.splitlines()[-1] == (
        "golem run: stopped: job 'heartbeat' failed 3 times in a row: "
        "ConnectionError: feed down (the log has its first traceback)"
    )
    log = (tmp_path / "state" / "golem.log").read_bytes().splitlines()
    tracebacks = [line for line in log if b'"job_failed"' in line and b"Traceback" in line]
    assert len(tracebacks) == 1
