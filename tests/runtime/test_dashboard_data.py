"""What the dashboard draws, without a browser: /history of a golem that lived twenty
minutes (every vitality reading it told, the spend of its decisions by subsystem to the
cent they were charged, its portfolio), the page and its files served with their policy,
the chronicle's bound, and `golem view`'s refusals (one line, exit 2)."""

from __future__ import annotations

import itertools
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from golem.cli import main
from golem.runtime.clock import VirtualClock
from golem.runtime.http import Chronicle, StatusEndpoint
from golem.runtime.life import assemble
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record, VitalityRecord
from tests.runtime.test_http import config


async def test_history_holds_the_readings_and_spend_the_golem_published(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    published: list[Record] = []
    with StateStore.open(cfg.golem.state_dir) as store:
        clock = VirtualClock(datetime(2026, 3, 1, tzinfo=UTC))
        life, pool = assemble(
            cfg, clock=clock, store=store, environ={}, subscribers=[published.append]
        )
        assert pool is not None
        endpoint = StatusEndpoint(life)
        try:
            await life.run(duration=timedelta(minutes=20))
            transport = httpx.ASGITransport(app=endpoint.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://golem") as client:
                history = (await client.get("/history")).json()
                page = await client.get("/")
                script = await client.get("/static/dashboard.js")
                outside = await client.get("/static/../app.py")
            charged = store.ledger.total_usd()
        finally:
            await pool.aclose()
    readings = [r for r in published if isinstance(r, VitalityRecord)]
    decisions = [r for r in published if isinstance(r, DecisionRecord)]
    assert len(readings) >= 3
    assert [p["tick"] for p in history["readings"]] == [r.tick for r in readings]
    assert [p["credits_usd"] for p in history["readings"]] == [r.credits_usd for r in readings]
    assert all(p["price"] > 0 for p in history["readings"][1:])  # marked from the first tick
    spend = history["spend_usd"]
    assert math.fsum(spend.values()) == pytest.approx(charged, abs=1e-12) and charged > 0
    for subsystem, usd in spend.items():
        mine = [r.cost_usd for r in decisions if str(r.subsystem) == subsystem]
        assert usd == pytest.approx(math.fsum(mine), abs=1e-12)
    assert sum(history["decisions"].values()) == len(decisions)
    assert history["portfolio"]["initial_cash"] == cfg.world.cash_usd
    assert page.status_code == 200 and "<main>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert script.status_code == 200 and "EventSource" in script.text
    assert outside.status_code == 404  # the package's other files are not served


async def test_a_restarted_golem_s_history_begins_with_what_its_state_kept(
    tmp_path: Path,
) -> None:
    """A page opened on a restarted golem draws its whole life at once: every tick's
    vitality from the state (POINTS at most), with the credits then and the spend by
    subsystem exactly as charged, before the new process has told a single reading."""
    cfg = config(tmp_path)
    clock = VirtualClock(datetime(2026, 3, 1, tzinfo=UTC))
    published: list[Record] = []
    with StateStore.open(cfg.golem.state_dir) as store:
        life, pool = assemble(
            cfg, clock=clock, store=store, environ={}, subscribers=[published.append]
        )
        assert pool is not None
        try:
            await life.run(duration=timedelta(minutes=20))
        finally:
            await pool.aclose()
        ticks, left = store.tick(), store.credits()
        spent = {
            name: math.fsum(
                c.usd for c in store.ledger.charges(clock.now().date()) if c.subsystem == name
            )
            for name in {str(c.subsystem) for c in store.ledger.charges(clock.now().date())}
        }
    told = {r.tick: r for r in published if isinstance(r, VitalityRecord)}
    with StateStore.open(cfg.golem.state_dir) as store:  # the golem restarted
        life, pool = assemble(cfg, clock=clock, store=store, environ={})
        assert pool is not None
        try:
            history = StatusEndpoint(life).chronicle.body(None)
        finally:
            await pool.aclose()
    readings = history["readings"]
    assert [p["tick"] for p in readings] == list(range(ticks))  # every tick's, in order
    # What the first process told of a tick, the same; the credits as they stood once the
    # tick's time had passed (the daimon, after the reading, is charged at that time too).
    after = dict(itertools.pairwise(sorted(told)))
    for point in readings:
        if point["tick"] in told:
            said = told[point["tick"]]
            assert point["vitality"] == said.vitality and point["phase"] == str(said.phase)
            assert point["credits_usd"] <= said.credits_usd + 1e-12
            later = told.get(after.get(point["tick"], -1))
            assert later is None or point["credits_usd"] >= later.credits_usd - 1e-12
    assert readings[-1]["credits_usd"] == pytest.approx(left, abs=1e-12)
    assert left < 10.0
    assert all(p["price"] > 0 for p in readings[1:])
    assert history["spend_usd"] == pytest.approx(spent, abs=1e-12) and spent
    assert history["decisions"] == {}  # how many were made is the log's, not the state's
    long = Chronicle(keep=10)
    with StateStore.open(cfg.golem.state_dir) as store:
        long.recall(store.past)
    kept = [p["tick"] for p in long.body(None)["readings"]]
    assert len(kept) <= 10 and kept[0] == 0 and kept[-1] == ticks - 1


def test_the_chronicle_keeps_a_bounded_span_of_the_whole_life() -> None:
    chronicle = Chronicle(keep=10)
    for tick in range(1000):
        chronicle.reading(f"t{tick}", tick, {"vitality": tick / 1000}, None)
    kept = [p["tick"] for p in chronicle.body(None)["readings"]]
    assert len(kept) <= 10
    assert kept[0] == 0 and kept[-1] == 999  # the first and the last
    assert kept == sorted(kept)


def test_view_refuses_what_is_not_a_finished_life(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["view", str(tmp_path / "nowhere")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["view", str(tmp_path)]) == 2
    assert "no golem.log" in capsys.readouterr().err
    (tmp_path / "golem.log").write_text('not JSON\n{"event": "decision"}\n')
    assert main(["view", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{tmp_path / 'golem.log'}:1: not valid JSON" in err
    (tmp_path / "golem.log").write_text('{"event": "decision", "time": "soon"}\n')
    assert main(["view", str(tmp_path)]) == 2
    assert "golem.log: event 1 (decision)" in capsys.readouterr().err
