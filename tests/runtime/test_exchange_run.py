"""`golem run configs/exchange.toml` against a local server replaying recorded Binance
responses (the shipped config, its models swapped for the synthetic provider, its
heartbeat quickened and its exchange pointed at the server): decisions on the replayed
live prices, an exchange error typed and retried, a stale feed handled (no decision on a
stale price, the heartbeat goes on), and a kill -9 and restart resume with the live
market. Nothing reaches the network."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from golem.runtime.store.state import StateStore
from tests.runtime.test_daemon import wait_for_ticks
from tests.world.exchange_server import DOWN, KLINES, binance, recorded, serving, tickers

SHIPPED = Path(__file__).parents[2] / "configs" / "exchange.toml"
SYNTHETIC = """
[providers.synthetic]
emulate = "openai"
model = "gpt-4o-mini"
seed = 5
"""


def config_for(tmp_path: Path, url: str) -> tuple[Path, Path]:
    """configs/exchange.toml asking `url`, on the synthetic provider, a 200 ms heartbeat."""
    state = tmp_path / "state"
    text = SHIPPED.read_text()
    for old, new in (
        ('["local"]', '["synthetic"]'),
        ('"state/golem-exchange/golem.log"', f'"{state}/golem.log"'),
        ('"state/golem-exchange"', f'"{state}"'),
        ('interval = "15s"', 'interval = "200ms"'),
        ('symbol = "ETH/USDT"', 'symbol = "BTC/USDT"'),
        ('# api_url = "http://127.0.0.1:8765"', f'api_url = "{url}"'),
        ('console = "auto"', 'console = "off"'),
        ("theta_base = 0.3", "theta_base = 0.01\ntheta_min = 0.0"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "exchange.toml"
    path.write_text(text + SYNTHETIC)
    return path, state


def golem(*args: str | Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "golem", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={k: v for k, v in os.environ.items() if k != "GOLEM_DEBUG"},
    )


def events(state: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in (state / "golem.log").read_bytes().splitlines()]


def test_decisions_on_live_prices_an_error_typed_and_a_stale_feed(tmp_path: Path) -> None:
    fresh = tickers(8)
    # Four fresh prices, the exchange down for a whole poll (asked three times), four
    # more, then the last one again and again: the feed has stopped.
    with serving(binance([*fresh[:4], DOWN, DOWN, DOWN, *fresh[4:]])) as server:
        config, state = config_for(tmp_path, server.url)
        process = golem("run", config, "--for", "4s")
        _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err.decode()
    seen = events(state)
    errors = [e for e in seen if e["event"] == "exchange_error"]
    assert [e["kind"] for e in errors] == ["ExchangeUnavailable"] * 3
    assert all(e["retried"] for e in errors)
    stale = [e for e in seen if e["event"] == "market_stale"]
    assert len(stale) >= 5, "the heartbeat goes on"
    first_stale = min(datetime.fromisoformat(e["timestamp"]) for e in stale)
    beats = [e for e in seen if e["event"] == "decision" and e["subsystem"] == "heartbeat"]
    assert len(beats) >= 6
    assert all(datetime.fromisoformat(e["time"]) < first_stale for e in beats), (
        "no decision on a stale price"
    )
    closes = {float(row[4]) for row in recorded(KLINES)}
    with StateStore.open(state) as store:
        portfolio = store.portfolio()
        assert portfolio is not None
        assert set(portfolio["marks"].values()) <= closes  # marked at the replayed prices
        assert store.tick() == len(beats)


def test_a_kill_9_and_a_restart_resume_with_the_live_market(tmp_path: Path) -> None:
    with serving(binance(tickers(10_000, step_ms=1_000))) as server:
        config, state = config_for(tmp_path, server.url)
        process = golem("run", config)
        try:
            killed_at = wait_for_ticks(state, 5)
        finally:
            os.kill(process.pid, signal.SIGKILL)
            process.communicate(timeout=30)
        asked = server.count("/api/v3/ticker/24hr")
        again = golem("run", config, "--for", "1.5s")
        _, err = again.communicate(timeout=60)
        assert server.count("/api/v3/ticker/24hr") > asked, "the restart asks the exchange"
    assert again.returncode == 0, err.decode()
    said = err.decode()
    assert "resumed at tick" in said
    with StateStore.open(state) as store:
        assert store.tick() > killed_at
        assert store.integrity_check() == "ok"
    seen = events(state)
    assert not [e for e in seen if e["event"] in ("market_not_resumed", "job_failed")]
    ticks = [e["tick"] for e in seen if e["event"] == "decision" and e["subsystem"] == "heartbeat"]
    assert max(ticks) > killed_at
