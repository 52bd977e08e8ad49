"""Human approval of large stakes through the real control API (test_control's harness,
the synthetic provider on a virtual clock): a trade risk approved above
`approve_above_stake` waits while the golem ticks on, then executes on the tick after the
owner approves it (at that tick's price), or is denied by the timeout; each fate is logged
with who decided; the queue outlives a restart; a policy answers for the owner."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from structlog.testing import capture_logs

from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import ConfigError, parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.store.approvals import Status
from golem.runtime.store.state import StateStore
from golem.subsystems.risk.approval import ApprovalPolicy, parse_policy
from tests.runtime.test_control import START, TOKEN, Owner, config, owner

ABOVE_USD = 1.0  # every trade the golem makes here moves more


def approving(tmp_path: Path, **risk: Any) -> GolemConfig:
    """A golem born half in ETH whose heartbeat asks a model often (theta 0.05, as in the
    knob tests' jumpy golem), so that it hedges or exits within its first minutes."""
    data = config(tmp_path).model_dump(mode="json")
    data["world"]["portfolio"]["initial_weight"] = 0.5
    data["heartbeat"].update(theta_base=0.05, theta_min=0.05)
    data["prediction"]["gate"]["enabled"] = False  # the action gate is tested on its own
    data["subsystems"]["risk"].update(approve_above_stake=ABOVE_USD, approval_timeout="10m", **risk)
    return parse_config(data)


async def until_held(o: Owner, ticks: int = 60) -> dict[str, Any]:
    """Tick until a trade is held; the row the API lists."""
    for _ in range(ticks):
        await o.tick()
        listed = await approvals(o)
        if listed:
            return listed[0]
    raise AssertionError(f"no trade was held in {ticks} ticks")


async def approvals(o: Owner, token: str | None = TOKEN) -> list[dict[str, Any]]:
    response = await o.client.get("/approvals", headers=_auth(token))
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()["approvals"]
    return rows


async def answer(o: Owner, id: int, decision: str, token: str | None = TOKEN) -> Any:
    return await o.client.post(
        f"/approvals/{id}", json={"decision": decision}, headers=_auth(token)
    )


def _auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def eth(o: Owner) -> float:
    return o.golem.portfolio.quantities().get("ETH", 0.0)


async def test_a_large_trade_waits_and_executes_the_tick_after_the_owner_approves(
    tmp_path: Path,
) -> None:
    async with owner(approving(tmp_path)) as o:
        await o.tick()  # born half in ETH at the first mark
        held_eth = eth(o)
        assert held_eth > 0
        with capture_logs() as logs:
            row = await until_held(o)
        assert row["status"] == "waiting" and row["stake_usd"] > ABOVE_USD
        assert row["action"] in ("hedge", "exit", "sell", "rebalance")
        assert not [e for e in logs if e["event"] == "trade"]  # held, not executed
        assert eth(o) == held_eth
        # The golem keeps ticking (and asking models) while the trade waits.
        tick, calls = o.golem.tick_no, o.model_calls()
        await o.tick(3)
        assert o.golem.tick_no == tick + 3 and o.model_calls() > calls
        assert [r["status"] for r in await approvals(o)][-1] == "waiting"
        assert eth(o) == held_eth
        # Approved: nothing happens until the golem's next tick.
        response = await answer(o, row["id"], "approve")
        assert response.status_code == 200 and response.json()["approval"]["status"] == "approved"
        assert eth(o) == held_eth
        with capture_logs() as logs:
            await o.tick()
        price = o.golem.window.latest.price  # type: ignore[union-attr]
        [executed] = [e for e in logs if e["event"] == "approval_executed"]
        assert executed["id"] == row["id"] and executed["decided_by"] == "owner"
        [fill] = [e for e in logs if e["event"] == "trade"]
        assert fill["price"] == pytest.approx(price, rel=0.01)  # this tick's, with slippage
        assert eth(o) < held_eth
        [stored] = [r for r in await approvals(o) if r["id"] == row["id"]]
        assert (stored["status"], stored["decided_by"]) == ("executed", "owner")
        assert stored["result"] == f"executed at {price:.2f}"
        # An answer to a trade no longer waiting changes nothing.
        late = await answer(o, row["id"], "deny")
        assert late.status_code == 409 and late.json()["approval"]["status"] == "executed"


async def test_an_unanswered_trade_is_denied_by_the_timeout(tmp_path: Path) -> None:
    async with owner(approving(tmp_path)) as o:
        row = await until_held(o)
        held_eth = eth(o)
        with capture_logs() as logs:
            await o.tick(40)  # 10 minutes of 15 s ticks
        [denied] = [e for e in logs if e["event"] == "approval_decided" and e["id"] == row["id"]]
        assert (denied["decision"], denied["decided_by"]) == ("deny", "timeout")
        [stored] = [r for r in await approvals(o) if r["id"] == row["id"]]
        assert (stored["status"], stored["decided_by"]) == ("denied", "timeout")
        # Nothing it held was executed (what the golem held later may still wait).
        assert not [e for e in logs if e["event"] == "approval_executed"]
        assert eth(o) == held_eth
        assert (await answer(o, row["id"], "approve")).status_code == 409


async def test_the_owner_denies_and_the_queue_outlives_a_restart(tmp_path: Path) -> None:
    cfg = approving(tmp_path)
    async with owner(cfg) as o:
        row = await until_held(o)
    later = VirtualClock(START + timedelta(hours=2))  # past the deadline: the owner is first
    async with owner(cfg, clock=later) as o:
        [again] = [r for r in await approvals(o) if r["id"] == row["id"]]
        assert again["status"] == "waiting"
        assert (await answer(o, row["id"], "deny")).status_code == 200
        with capture_logs() as logs:
            await o.tick()
        [denied] = [e for e in logs if e["event"] == "approval_decided" and e["id"] == row["id"]]
        assert (denied["decision"], denied["decided_by"]) == ("deny", "owner")
        assert not [e for e in logs if e["event"] == "approval_executed"]


async def test_one_waiting_trade_of_an_action_stands_for_the_next(tmp_path: Path) -> None:
    async with owner(approving(tmp_path)) as o:
        await until_held(o)
        await o.tick(20)
        waiting = [r for r in await approvals(o) if r["status"] == "waiting"]
        assert len({r["action"] for r in waiting}) == len(waiting)


@pytest.mark.parametrize(
    ("policy", "status"),
    [("approve_all", "executed"), ("deny_all", "denied"), ("approve_below:1", "denied")],
)
async def test_a_policy_answers_for_the_owner(tmp_path: Path, policy: str, status: str) -> None:
    async with owner(approving(tmp_path, approval_policy=policy)) as o:
        for _ in range(60):
            await o.tick()
            if o.store.approvals.last_id():
                break
        await o.tick()
        [first, *_] = sorted(await approvals(o), key=lambda r: r["id"])
        assert (first["status"], first["decided_by"]) == (status, "policy")


async def test_the_approval_routes_need_the_token(tmp_path: Path) -> None:
    async with owner(approving(tmp_path)) as o:
        row = await until_held(o)
        for token in (None, "wrong"):
            assert (await o.client.get("/approvals", headers=_auth(token))).status_code == 401
            assert (await answer(o, row["id"], "approve", token)).status_code == 401
        assert (await answer(o, row["id"], "maybe")).status_code == 400
        assert (await answer(o, 999, "approve")).status_code == 404
        assert (await approvals(o))[0]["status"] == "waiting"
        assert (await o.post("kill")).status_code == 202
        await o.tick()
        dead = await answer(o, row["id"], "approve")
        assert dead.status_code == 409 and "dead" in dead.json()["error"]
    async with owner(approving(tmp_path), token=None) as o:
        assert (await o.client.get("/approvals")).status_code == 404
        assert (await answer(o, row["id"], "approve", None)).status_code == 404


def test_golem_ctl_lists_and_answers_in_a_state_dir(tmp_path: Path, capsys: Any) -> None:
    from golem.cli import main
    from golem.runtime.store.approvals import ApprovalRow

    state = tmp_path / "state"
    with StateStore.open(state) as store, store.transaction():
        store.approvals.hold(
            ApprovalRow(
                id=1,
                time=START,
                tick=4,
                action="exit",
                size_usd=None,
                stake_usd=4321.0,
                price=2000.0,
                reason="critical health",
                deadline=START + timedelta(hours=1),
                status=Status.WAITING,
            )
        )
    assert main(["ctl", str(state), "approvals"]) == 0
    assert "#1 waiting until" in capsys.readouterr().out
    assert main(["ctl", str(state), "approvals", "approve"]) == 2
    assert main(["ctl", str(state), "approvals", "maybe", "1"]) == 2
    assert main(["ctl", str(state), "approvals", "approve", "1"]) == 0
    assert "#1 approved by owner" in capsys.readouterr().out
    assert main(["ctl", str(state), "approvals", "deny", "1"]) == 2  # no longer waits
    assert main(["ctl", str(state), "approvals", "deny", "7"]) == 2
    with StateStore.open(state) as store:
        [row] = store.approvals.open()
    assert (row.status, row.decided_by) == (Status.APPROVED, "owner")


def test_a_policy_is_one_of_four_shapes() -> None:
    assert parse_policy("approve_below:25") == ApprovalPolicy("approve_below", 25.0)
    assert parse_policy("approve_below:25").decides(10.0) is True
    assert parse_policy("approve_below:25").decides(30.0) is False
    assert parse_policy("owner").decides(1e9) is None
    for bad in ("approve_below", "approve_below:-1", "approve_below:inf", "yes"):
        with pytest.raises(ValueError, match="approval policy"):
            parse_policy(bad)
    with pytest.raises(ConfigError, match="approval_policy"):
        parse_config({"subsystems": {"risk": {"approval_policy": "always"}}})


async def test_a_trade_held_before_the_key_was_unset_is_still_settled(tmp_path: Path) -> None:
    async with owner(approving(tmp_path)) as o:
        row = await until_held(o)
    data = approving(tmp_path).model_dump(mode="json")
    data["subsystems"]["risk"]["approve_above_stake"] = None
    later = VirtualClock(START + timedelta(hours=2))  # past its deadline
    async with owner(parse_config(data), clock=later) as o:
        with capture_logs() as logs:
            await o.tick()
        [denied] = [e for e in logs if e["event"] == "approval_decided" and e["id"] == row["id"]]
        assert denied["decided_by"] == "timeout"
        await o.tick(20)
        assert not o.store.approvals.open()  # nothing new is held without the key


@pytest.mark.parametrize(("below", "decision"), [(3000, "approve"), (2000, "deny")])
def test_a_simulated_life_under_a_policy_is_deterministic(
    tmp_path: Path, below: int, decision: str
) -> None:
    from golem.cli import main
    from tests.runtime.test_notify import SIMULATIONS, eventful, log_events
    from tests.runtime.test_notify import approving as held

    # The eventful decline holds one trade in 0.3 days: a hedge of $2,500.
    text = held(eventful((SIMULATIONS / "decline.toml").read_text()), f"approve_below:{below}")
    path = tmp_path / "held.toml"
    path.write_text(text)
    summaries = []
    for run in ("a", "b"):
        out = tmp_path / run
        assert main(["simulate", str(path), "--days", "0.3", "--out", str(out)]) == 0
        summary = orjson.loads((out / "summary.json").read_bytes())
        summary.pop("scenario", None)
        summaries.append(summary)
        events = log_events(out / "golem.log")
        decided = [e for e in events if e["event"] == "approval_decided"]
        assert [(e["decision"], e["decided_by"]) for e in decided] == [(decision, "policy")]
        assert decided[0]["stake_usd"] == 2500.0
        executed = [e for e in events if e["event"] == "approval_executed"]
        assert len(executed) == (decision == "approve")
    assert summaries[0] == summaries[1]
