"""The control API through the real Starlette app (httpx's ASGI transport) on a golem
living on a virtual clock with the synthetic provider, its ticks driven by hand as the
scheduler runs them (each in a transaction): each route changes what the golem does, a
wrong or missing token is 401 and changes nothing, no token configured is 404."""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from structlog.testing import capture_logs

from golem.mortality import utc_day
from golem.runtime.clock import SleepingClock, VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.http import HttpAddress, StatusEndpoint, url_of
from golem.runtime.life import Life, assemble
from golem.runtime.record import DecisionRecord
from golem.runtime.store.control import Command, queue_command
from golem.runtime.store.state import DB_NAME, StateStore
from golem.runtime.stream import Record
from golem.world.portfolio import TradeAction

START = datetime(2026, 3, 1, tzinfo=UTC)
TOKEN = "s3cret-owner-token"
COMMANDS = [str(c) for c in Command]
WARM = 20


def config(tmp_path: Path, **control: Any) -> GolemConfig:
    return parse_config(
        {
            "golem": {"id": "g-ctl", "state_dir": str(tmp_path / "state"), "seed": 3},
            "inference": {
                "t1": ["synthetic"],
                "t2": ["synthetic:deepseek-reasoner"],
                "death": ["synthetic:deepseek-reasoner"],
            },
            "providers": {"synthetic": {"emulate": "deepseek", "model": "deepseek-chat"}},
            "mortality": {"initial_credits_usd": 10.0, "daily_budget_usd": 1.0},
            # A threshold near 0: once its window fills (WARM ticks), every heartbeat
            # asks a model.
            "heartbeat": {"interval": "15s", "theta_base": 0.001, "theta_min": 0.0},
            "control": {"token_env": "GOLEM_CONTROL_TOKEN", **control},
        }
    )


class SteppedClock:
    """The virtual clock without its instant jumps (test_http's): the signal's watcher
    runs between the golem's jobs, as it would between a daemon's ticks."""

    def __init__(self, start: datetime) -> None:
        self._clock = VirtualClock(start)

    def now(self) -> datetime:
        return self._clock.now()

    async def sleep_until(self, moment: datetime) -> None:
        await self._clock.sleep_until(moment)


class Owner:
    """A golem, its app and a client; `tick()` runs one heartbeat as the scheduler does."""

    def __init__(self, life: Life, client: httpx.AsyncClient, records: list[DecisionRecord]):
        self.life, self.client, self.records = life, client, records
        self.golem, self.store = life.golem, life.golem.store

    async def tick(self, n: int = 1) -> None:
        clock = self.life.clock
        assert isinstance(clock, VirtualClock)
        for _ in range(n):
            clock.advance(timedelta(seconds=15))
            with self.store.transaction():
                await self.golem.tick()

    async def post(self, command: str, token: str | None = TOKEN, **body: Any) -> httpx.Response:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return await self.client.post(f"/control/{command}", json=body, headers=headers)

    async def status(self) -> dict[str, Any]:
        response = await self.client.get("/status")
        assert response.status_code == 200
        body: dict[str, Any] = response.json()
        return body

    def model_calls(self) -> int:
        return sum(1 for r in self.records if r.source == "model")


@asynccontextmanager
async def owner(
    cfg: GolemConfig, token: str | None = TOKEN, clock: SleepingClock | None = None
) -> AsyncIterator[Owner]:
    records: list[DecisionRecord] = []

    def keep(record: Record) -> None:
        if isinstance(record, DecisionRecord):
            records.append(record)

    with StateStore.open(cfg.golem.state_dir) as store:
        clock = clock or VirtualClock(START)
        life, pool = assemble(cfg, clock=clock, store=store, environ={}, subscribers=[keep])
        assert pool is not None
        endpoint = StatusEndpoint(life, control_token=token)
        transport = httpx.ASGITransport(app=endpoint.app)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                yield Owner(life, c, records)
        finally:
            await pool.aclose()


async def test_no_token_configured_no_control_route(tmp_path: Path) -> None:
    async with owner(config(tmp_path), token=None) as o:
        await o.tick()
        for command in COMMANDS:
            assert (await o.post(command, usd=0.5)).status_code == 404
            assert (await o.post(command, token=None)).status_code == 404
        await o.tick(2)
        assert o.store.control.history() == []
        assert not o.golem.dead and not o.golem.control.paused


async def test_a_wrong_or_missing_token_is_401_and_nothing_happens(tmp_path: Path) -> None:
    async with owner(config(tmp_path)) as o:
        await o.tick(WARM)
        for command in COMMANDS:
            for token in (None, "wrong", TOKEN + "x", ""):
                response = await o.post(command, token=token, usd=0.5)
                assert response.status_code == 401, (command, token)
                assert response.headers["www-authenticate"] == "Bearer"
            basic = await o.client.post(
                f"/control/{command}", headers={"Authorization": f"Basic {TOKEN}"}
            )
            assert basic.status_code == 401
        calls = o.model_calls()
        await o.tick(3)
        assert o.store.control.history() == []
        assert o.model_calls() > calls  # not paused
        assert not o.golem.dead and not (await o.status())["paused"]


async def test_pause_stops_model_calls_and_trades_but_not_the_clocks(tmp_path: Path) -> None:
    async with owner(config(tmp_path)) as o:
        await o.tick(WARM)
        assert o.model_calls() >= 2
        assert (await o.post("pause")).status_code == 202
        with capture_logs() as logs:
            await o.tick()
        assert [e["command"] for e in logs if e["event"] == "control"] == ["pause"]
        calls, decisions = o.model_calls(), len(o.records)
        spent = o.store.ledger.spent_usd(utc_day(START))
        fills = o.golem.portfolio.to_dict()
        vitality_rows = len(o.store.vitality_history())
        tick = o.golem.tick_no
        await o.tick(20)
        assert len(o.records) == decisions and o.model_calls() == calls  # no subsystem ran
        assert o.store.ledger.spent_usd(utc_day(START)) == spent  # nothing paid
        assert o.golem.portfolio.to_dict()["positions"] == fills["positions"]  # no trade
        assert o.golem.tick_no == tick + 20  # the ticks go on...
        assert len(o.store.vitality_history()) == vitality_rows + 20  # ...and the clocks
        status = await o.status()
        assert status["paused"] is True and status["alive"] is True
        assert (await o.post("resume")).status_code == 202
        await o.tick(2)
        assert o.model_calls() > calls
        assert (await o.status())["paused"] is False


async def test_exit_unwinds_the_positions_and_the_golem_keeps_watching(tmp_path: Path) -> None:
    async with owner(config(tmp_path)) as o:
        await o.tick()
        price = o.golem.window.latest.price  # type: ignore[union-attr]
        o.golem.portfolio.apply(TradeAction.BUY, price, 500.0)
        assert o.golem.portfolio.quantities()
        assert (await o.post("pause")).status_code == 202  # no trade of its own after
        assert (await o.post("exit")).status_code == 202
        with capture_logs() as logs:
            await o.tick()
        assert not any(o.golem.portfolio.quantities().values())
        assert [e["fills"] for e in logs if e["event"] == "unwound"] == [1]
        await o.tick(3)
        assert not o.golem.dead
        results = [row["result"] for row in o.store.control.history()]
        assert results == ["done", "positions unwound"]


async def test_kill_ends_the_life_with_a_testament_and_cause_kill_switch(tmp_path: Path) -> None:
    async with owner(config(tmp_path)) as o:
        await o.tick(2)
        assert (await o.post("kill")).status_code == 202
        assert not o.golem.dead  # applied at the next tick
        await o.tick()
        assert o.golem.dead
        death = o.store.death()
        assert death is not None and death["cause"] == "kill_switch"
        assert death["testament"] and all(Path(f).is_file() for f in death["testament"])
        assert any(r.subsystem == "death" for r in o.records)
        assert (await o.post("pause")).status_code == 409  # nothing more to steer
        assert not (await o.client.get("/health")).json()["alive"]


async def test_budget_changes_the_daily_budget_within_the_configs_bounds(tmp_path: Path) -> None:
    async with owner(config(tmp_path)) as o:
        await o.tick()
        assert o.golem.budgeting().state.daily_budget_usd == 1.0
        too_high = await o.post("budget", usd=1.5)  # above [mortality]'s 1.0: the default max
        assert too_high.status_code == 400 and "0.01 to 1" in too_high.json()["error"]
        assert (await o.post("budget", usd=0.001)).status_code == 400  # below the 0.01 min
        assert (await o.post("budget")).status_code == 400
        assert (await o.post("budget", usd=0.25)).status_code == 202
        await o.tick()
        assert o.golem.budgeting().state.daily_budget_usd == 0.25
        assert (await o.status())["budgets"]["daily_budget_usd"] == 0.25
        assert [row["value"] for row in o.store.control.history()] == [0.25]


async def test_the_bounds_keys_move_the_bounds(tmp_path: Path) -> None:
    async with owner(config(tmp_path, budget_max_usd=2.0, budget_min_usd=0.5)) as o:
        assert (await o.post("budget", usd=1.5)).status_code == 202  # max raised: allowed
        assert (await o.post("budget", usd=0.25)).status_code == 400  # min raised: refused
        await o.tick()
        assert o.golem.budgeting().state.daily_budget_usd == 1.5


async def test_a_command_queued_before_a_crash_is_applied_once_after_it(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with owner(cfg) as o:
        await o.tick()
        assert (await o.post("pause")).status_code == 202
    # The golem is gone before its next tick; it starts again.
    async with owner(cfg, clock=VirtualClock(START + timedelta(hours=1))) as o:
        with capture_logs() as logs:
            await o.tick(3)
        assert o.golem.control.paused
        assert [e["command"] for e in logs if e["event"] == "control"] == ["pause"]
        assert [row["applied_tick"] for row in o.store.control.history()] == [1]
    # Paused is state: it outlives a restart.
    async with owner(cfg, clock=VirtualClock(START + timedelta(hours=2))) as o:
        calls = o.model_calls()
        await o.tick(2)
        assert o.golem.control.paused and o.model_calls() == calls


async def test_sigusr1_is_the_kill_switch(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with owner(cfg, clock=SteppedClock(START)) as o:
        # No --for: the golem lives on its virtual clock until the kill, queued from a
        # worker thread in real time, reaches a tick (a real minute is the test's bound).
        with trio.fail_after(60):
            ended = await o.life.run(
                signals=True, on_start=lambda: os.kill(os.getpid(), signal.SIGUSR1)
            )
        assert ended == "died"
        death = o.store.death()
        assert death is not None and death["cause"] == "kill_switch"
        assert [row["source"] for row in o.store.control.history()] == ["signal"]


def test_a_state_dir_queue_takes_a_command_from_another_process(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    StateStore.open(cfg.golem.state_dir).close()
    db = cfg.golem.state_dir / DB_NAME
    queued = queue_command(db, Command.BUDGET, 0.5, "ctl", START)
    with StateStore.open(cfg.golem.state_dir) as store:
        [row] = store.control.pending()
    assert (row.id, row.command, row.value, row.source) == (queued, Command.BUDGET, 0.5, "ctl")


@pytest.mark.parametrize("usd", ["-1", "nan", "lots", None])
def test_golem_ctl_refuses_a_bad_budget(tmp_path: Path, usd: str | None, capsys: Any) -> None:
    from golem.cli import main

    StateStore.open(tmp_path / "state").close()
    argv = ["ctl", str(tmp_path / "state"), "budget"] + ([usd] if usd else [])
    assert main(argv) == 2
    assert "budget" in capsys.readouterr().err


def test_golem_ctl_queues_into_a_state_dir(tmp_path: Path) -> None:
    from golem.cli import main

    state = tmp_path / "state"
    StateStore.open(state).close()
    assert main(["ctl", str(state), "pause"]) == 0
    assert main(["ctl", str(state), "budget", "0.5"]) == 0
    assert main(["ctl", str(tmp_path / "nowhere"), "kill"]) == 2
    with StateStore.open(state) as store:
        rows = store.control.pending()
    assert [(r.command, r.value, r.source) for r in rows] == [
        (Command.PAUSE, None, "ctl"),
        (Command.BUDGET, 0.5, "ctl"),
    ]


async def test_golem_ctl_posts_to_the_control_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from golem.cli import main

    async with owner(config(tmp_path)) as o:
        endpoint = StatusEndpoint(o.life, control_token=TOKEN)
        listening = HttpAddress.parse("127.0.0.1:0").bind()
        url = url_of(listening)
        async with trio.open_nursery() as nursery:
            await nursery.start(endpoint.serve, listening)
            monkeypatch.setenv("GOLEM_CONTROL_TOKEN", TOKEN)
            assert await trio.to_thread.run_sync(main, ["ctl", url, "budget", "0.5"]) == 0
            assert await trio.to_thread.run_sync(main, ["ctl", url, "pause"]) == 0
            monkeypatch.setenv("GOLEM_CONTROL_TOKEN", "wrong")
            assert await trio.to_thread.run_sync(main, ["ctl", url, "kill"]) == 2
            assert "401" in capsys.readouterr().err
            nursery.cancel_scope.cancel()
        await o.tick()
        assert o.golem.control.paused and not o.golem.dead
        assert o.golem.budgeting().state.daily_budget_usd == 0.5
        assert [row["source"] for row in o.store.control.history()] == ["api", "api"]


def test_the_token_is_masked_like_a_key(tmp_path: Path) -> None:
    from golem.runtime.config.load import secret_values

    assert TOKEN in secret_values(config(tmp_path), {"GOLEM_CONTROL_TOKEN": TOKEN})
    assert TOKEN not in secret_values(config(tmp_path), {"OTHER": TOKEN})


async def test_the_kill_switch_is_funded_by_the_reserve(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    poor = cfg.model_copy(
        update={"mortality": cfg.mortality.model_copy(update={"initial_credits_usd": 0.31})}
    )
    async with owner(poor) as o:
        await o.tick(WARM)
        assert o.store.credits() > o.golem.reserve_usd > 0.29  # all but a cent is reserve
        assert (await o.post("kill")).status_code == 202
        await o.tick()
        [death] = [r for r in o.records if r.subsystem == "death"]
        assert death.source == "model" and death.cost_usd > 0  # asked and paid for
        assert o.store.ledger.spent_usd(utc_day(START), "death") == death.cost_usd
        assert o.store.death()["cause"] == "kill_switch"  # type: ignore[index]
