"""The dashboard's approvals panel in a real browser (test_dashboard_browser's Chromium and
threaded server): hidden without the control token; once the token is entered in the
Control section, it lists the trade held for approval, and its approve button answers
through POST /approvals/ID. Skipped, with the reason, as that module is."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import trio

from golem.runtime.approvals import ApprovalRow, Status, list_approvals
from golem.runtime.clock import VirtualClock
from golem.runtime.http import HttpAddress, StatusEndpoint, url_of
from golem.runtime.life import assemble
from golem.runtime.store.state import DB_NAME, StateStore
from tests.runtime.test_control import START, TOKEN, config
from tests.runtime.test_dashboard_browser import Server, _threaded, browser

__all__ = ["browser"]  # the fixture, shared


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    """A golem with the control API open and one trade waiting for approval; its state
    database."""
    cfg = config(tmp_path_factory.mktemp("held"))

    async def main(ready: queue.Queue[Server | BaseException]) -> None:
        with StateStore.open(cfg.golem.state_dir) as store:
            life, pool = assemble(cfg, clock=VirtualClock(START), store=store, environ={})
            assert pool is not None
            with store.transaction():
                await life.golem.tick()
                store.approvals.hold(
                    ApprovalRow(
                        id=1,
                        time=START,
                        tick=0,
                        action="exit",
                        size_usd=None,
                        stake_usd=4321.5,
                        price=2000.0,
                        reason="<b>critical</b> health",
                        deadline=START + timedelta(hours=1),
                        status=Status.WAITING,
                    )
                )
            endpoint = StatusEndpoint(life, control_token=TOKEN)
            listening = HttpAddress.parse("127.0.0.1:0").bind()
            url = url_of(listening)
            try:
                async with trio.open_nursery() as nursery:
                    await nursery.start(endpoint.serve, listening)
                    token = trio.lowlevel.current_trio_token()
                    ready.put(Server(url, token, nursery.cancel_scope))
            finally:
                await pool.aclose()

    for server in _threaded(main):
        yield server, cfg.golem.state_dir / DB_NAME


def test_the_panel_is_hidden_without_the_token(held: tuple[Server, Path], browser: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(held[0].url + "/")
    page.wait_for_function("() => document.getElementById('state').textContent !== 'Loading…'")
    page.wait_for_timeout(500)  # the panel's first refresh has answered
    assert page.is_hidden("#approvals")


def test_the_owner_approves_a_held_trade_from_the_page(
    held: tuple[Server, Path], browser: Any, tmp_path: Path
) -> None:
    server, db = held
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/")
    page.wait_for_selector("#control-token")  # the Control section, shown with the API
    page.fill("#control-token", TOKEN)
    page.press("#control-token", "Enter")
    page.wait_for_function("() => document.querySelectorAll('#approval-list li').length === 1")
    text = page.text_content("#approval-list li") or ""
    assert "exit all (stake $4,321.5)" in text and "<b>critical</b> health" in text  # as text
    page.screenshot(path=str(tmp_path / "approvals.png"), full_page=True)
    page.click("button[data-decision=approve]")
    page.wait_for_function(
        "() => document.getElementById('approval-state').textContent.includes('approved')"
    )
    page.wait_for_function("() => document.querySelectorAll('#approval-list li').length === 0")
    [row] = list_approvals(db)
    assert (row.status, row.decided_by) == (Status.APPROVED, "owner")
    assert not errors
