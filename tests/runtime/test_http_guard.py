"""The status endpoint refuses what it cannot serve safely: a Host that is not a name of
the loopback address it is bound to (DNS rebinding) is a 400; a query value that looks
like a number or duration but is not one usable (`²`, `⑤`, `999999999d`) is a 400 naming
it, not a 500 and a traceback; and running out of file descriptors is one line a minute."""

from __future__ import annotations

import logging
import socket
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import trio

from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.http import HttpAddress, StatusEndpoint, url_of
from golem.runtime.http.guard import ACCEPT_LOGGER, allowed_hosts, quiet_accept_errors
from golem.runtime.life import assemble
from golem.runtime.store.state import StateStore

START = datetime(2026, 3, 1, tzinfo=UTC)


async def _asked(
    tmp_path: Path, requests: list[tuple[str, dict[str, str]]]
) -> list[httpx.Response]:
    """Each (path, headers) asked of a served endpoint of a newborn golem."""
    config = parse_config(
        {
            "golem": {"id": "g-guard", "state_dir": str(tmp_path / "state"), "seed": 3},
            "inference": {"t1": ["synthetic"]},
        }
    )
    with StateStore.open(config.golem.state_dir) as store:
        life, pool = assemble(config, clock=VirtualClock(START), store=store, environ={})
        assert pool is not None
        endpoint = StatusEndpoint(life)
        listening = HttpAddress.parse("127.0.0.1:0").bind()
        url = url_of(listening)
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(endpoint.serve, listening)
                async with httpx.AsyncClient(base_url=url) as client:
                    answers = [await client.get(path, headers=h) for path, h in requests]
                nursery.cancel_scope.cancel()
        finally:
            await pool.aclose()
    return answers


async def test_a_foreign_host_is_refused_and_the_bound_names_are_served(tmp_path: Path) -> None:
    answers = await _asked(
        tmp_path,
        [
            ("/health", {"Host": "attacker.example:8787"}),
            ("/decisions", {"Host": "rebound.example"}),
            ("/health", {}),  # httpx's own: 127.0.0.1:PORT
            ("/health", {"Host": "localhost:8787"}),
        ],
    )
    assert [a.status_code for a in answers] == [400, 400, 200, 200]
    assert answers[0].text == "Invalid host header"


def test_the_names_are_those_of_the_bound_address() -> None:
    for host, names in (("127.0.0.1", ["127.0.0.1", "localhost"]), ("::1", ["[::1]", "localhost"])):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            sock = socket.create_server((host, 0), family=family)
        except OSError:
            pytest.skip(f"{host}: no such loopback here")
        with sock:
            assert allowed_hosts(sock) == names


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("limit=%C2%B2", "limit"),  # '²' passes str.isdigit()
        ("limit=%E2%91%A4", "limit"),  # '⑤' too
        ("limit=%D9%A3", "limit"),  # Arabic-Indic 3: int() takes it, the endpoint does not
        ("since=999999999d", "since"),
        ("since=99999999999999d", "since"),
    ],
)
async def test_a_bad_query_value_is_a_400_naming_it(
    tmp_path: Path, query: str, named: str, caplog: pytest.LogCaptureFixture
) -> None:
    (answer,) = await _asked(tmp_path, [(f"/decisions?{query}", {})])
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"].startswith(f"{named}: ")
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_accept_errors_are_one_line_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    clock = [0.0]
    logger = logging.getLogger(ACCEPT_LOGGER)
    with quiet_accept_errors(lambda: clock[0], every_s=60.0):
        for _ in range(250):  # 25 s of retries, one every 0.1 s
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                logger.error("accept returned %s (%s); retrying", "EMFILE", "x", exc_info=True)
            clock[0] += 0.1
        clock[0] = 61.0
        logger.error("accept returned %s (%s); retrying", "EMFILE", "x", exc_info=True)
    logger.error("after the block: %s", "as it was")
    lines = [r.getMessage() for r in caplog.records if r.name == ACCEPT_LOGGER]
    assert len(lines) == 3
    assert lines[0].startswith("accept returned EMFILE (x); retrying; at most one")
    assert "(249 more like it held back)" in lines[1]
    assert lines[2] == "after the block: as it was"
    assert not any(r.exc_info for r in caplog.records[:2])
