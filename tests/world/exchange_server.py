"""A local HTTP server on 127.0.0.1 replaying recorded exchange responses
(../shared/fixtures/markets_api/wire/): each path answers the replies scripted for it in
order, the last one again and again (a feed that stops). Replies may be errors, or slow.
The edge of the network for the live-market tests: ccxt and everything behind it is real."""

from __future__ import annotations

import copy
import http.server
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest

WIRE = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "markets_api" / "wire"
STATIC = WIRE.parent / "ccxt_static"
TICKER = "binance/api_v3_ticker_24hr__symbol=BTCUSDT.json"
KLINES = "binance/api_v3_klines__symbol=BTCUSDT&interval=1h&startTime=1706628191000&limit=3.json"
TICKER_PATH, KLINES_PATH = "/api/v3/ticker/24hr", "/api/v3/klines"


def recorded(name: str) -> Any:
    """A recorded body, parsed; skips the test when the shared fixtures are absent."""
    path = WIRE / name
    if not path.is_file():
        pytest.skip(f"{path} absent (the shared recorded exchange responses)")
    return json.loads(path.read_bytes())


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b"{}"
    delay_s: float = 0.0

    @classmethod
    def of(cls, value: Any, status: int = 200, delay_s: float = 0.0) -> Reply:
        return cls(status, json.dumps(value).encode(), delay_s)


def tickers(count: int, *, step_ms: int = 60_000) -> list[Reply]:
    """`count` replies of the recorded Binance ticker, each a minute later than the last
    (closeTime advanced) at the recorded klines' closes in turn: a live feed."""
    body = recorded(TICKER)
    closes = [row[4] for row in recorded(KLINES)]
    replies = []
    for k in range(count):
        tick = copy.deepcopy(body)
        tick["closeTime"] = body["closeTime"] + k * step_ms
        tick["lastPrice"] = closes[k % len(closes)]
        replies.append(Reply.of(tick))
    return replies


RATE_LIMITED = Reply.of({"code": -1003, "msg": "Too many requests"}, status=429)
DOWN = Reply(status=503, body=b"<html>Service Unavailable</html>")
MALFORMED = Reply(body=b'{"symbol": "BTCUSDT", "lastPrice": ')


# What a path answers: replies in order (the last one again and again), or a function of
# the request's query.
Route = Sequence[Reply] | Callable[[Mapping[str, str]], Reply]


def klines(rows: Sequence[Sequence[Any]]) -> Callable[[Mapping[str, str]], Reply]:
    """Binance's klines endpoint over `rows`: those opening at or after startTime, at most
    `limit` of them, as Binance pages them."""

    def answer(query: Mapping[str, str]) -> Reply:
        start = int(query.get("startTime", "0"))
        limit = int(query.get("limit", "500"))
        return Reply.of([row for row in rows if int(row[0]) >= start][:limit])

    return answer


class ReplayServer:
    def __init__(self, script: Mapping[str, Route]) -> None:
        self.script: dict[str, Any] = {
            path: route if callable(route) else list(route) for path, route in script.items()
        }
        self.asked: list[str] = []
        self._lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                reply = server.next_reply(self.path)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout)

            def log_message(self, *args: object) -> None:
                pass

        self._http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def next_reply(self, full_path: str) -> Reply:
        path, _, query = full_path.partition("?")
        with self._lock:
            self.asked.append(full_path)
            replies = self.script.get(path)
            if callable(replies):
                return replies(dict(parse_qsl(query)))
            if not replies:
                return Reply(404, b'{"code": -1121, "msg": "Invalid symbol."}')
            return replies.pop(0) if len(replies) > 1 else replies[0]

    def count(self, path: str) -> int:
        with self._lock:
            return sum(asked.split("?")[0] == path for asked in self.asked)


@contextmanager
def serving(script: Mapping[str, Route]) -> Iterator[ReplayServer]:
    server = ReplayServer(script)
    thread = threading.Thread(target=server._http.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server._http.shutdown()
        server._http.server_close()
        thread.join(timeout=5)


def binance(ticker_replies: Sequence[Reply]) -> dict[str, Route]:
    """A Binance script: these ticker replies, the recorded klines every time."""
    return {TICKER_PATH: ticker_replies, KLINES_PATH: [Reply.of(recorded(KLINES))]}
