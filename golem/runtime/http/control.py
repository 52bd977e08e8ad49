"""The control API beside the status endpoint: POST /control/pause, /resume, /exit, /kill,
/budget (body `{"usd": 0.5}`) and /steer (body `{"text": "..."}`: the next heartbeat is a
T2 review of the owner's message, runtime/control.py), for the holder of the bearer token
([control] token_env). Without a token configured there are no control routes at all
(404). A command is queued in the state (store/control.py), committed before the answer
(202), and applied by the golem at the start of its next tick; each is one audit line when
queued and one when applied."""

from __future__ import annotations

import hmac
import sqlite3
from functools import partial
from typing import Any

import orjson
import structlog
import trio
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from golem.runtime.control import (
    Command,
    budget_refusal,
    queue_command,
    steer_refusal,
)
from golem.runtime.life import Life

__all__ = ["authorized", "body_field", "control_routes", "json_response"]

log = structlog.get_logger("golem")
_SCHEME = "bearer "


def control_routes(life: Life, token: str | None) -> list[BaseRoute]:
    """The control routes for `life`, or none when no token is configured."""
    if not token:
        return []
    expected = token.encode()

    async def post(request: Request) -> Response:
        if not authorized(request, expected):
            log.warning("control_refused", reason="missing or wrong bearer token")
            return json_response({"error": "a bearer token is required"}, 401, challenge=True)
        try:
            command = Command(request.path_params["command"])
        except ValueError:
            names = ", ".join(str(c) for c in Command)
            return json_response({"error": f"no such command; one of {names}"}, 404)
        value: float | None = None
        text: str | None = None
        if command is Command.BUDGET:
            value, problem = await _usd(request)
            problem = problem or budget_refusal(life.golem.compiled.budget_bounds, value)
            if problem is not None:
                return json_response({"error": f"budget: {problem}"}, 400)
        if command is Command.STEER:
            text = await _text(request)
            problem = 'write the body as JSON: {"text": "..."}' if text is None else None
            problem = problem or steer_refusal(text)
            if problem is not None:
                return json_response({"error": f"steer: {problem}"}, 400)
            assert text is not None
            text = life.golem.control.masked(text)
        golem = life.golem
        if golem.dead:
            return json_response({"error": "the golem is dead"}, 409)
        try:
            queued = await trio.to_thread.run_sync(
                partial(queue_command, text=text),
                golem.store.path,
                command,
                value,
                "api",
                life.clock.now(),
            )
        except sqlite3.Error as exc:
            return json_response({"error": f"the command could not be queued: {exc}"}, 503)
        log.info(
            "control_queued", id=queued, command=str(command), value=value, text=text, source="api"
        )
        body = {"id": queued, "command": str(command), "value": value, "applies": "next tick"}
        return json_response(body, 202)

    return [Route("/control/{command}", post, methods=["POST"])]


def authorized(request: Request, expected: bytes) -> bool:
    header = request.headers.get("authorization", "")
    if header[: len(_SCHEME)].lower() != _SCHEME:
        return False
    given = header[len(_SCHEME) :].strip().encode()
    return hmac.compare_digest(given, expected)  # constant time


async def _usd(request: Request) -> tuple[float | None, str | None]:
    """The body's `usd`, or why there is none."""
    usd = await body_field(request, "usd")
    if isinstance(usd, bool) or not isinstance(usd, int | float):
        return None, 'write the body as JSON: {"usd": 0.5}'
    return float(usd), None


async def _text(request: Request) -> str | None:
    """The body's `text` (None when the body holds none)."""
    text = await body_field(request, "text")
    return text if isinstance(text, str) else None


async def body_field(request: Request, key: str) -> Any:
    """The JSON body's `key`: None when the body is not a JSON object or has no `key`."""
    try:
        body = orjson.loads(await request.body())
    except orjson.JSONDecodeError:
        return None
    return body.get(key) if isinstance(body, dict) else None


def json_response(body: Any, status_code: int, *, challenge: bool = False) -> Response:
    headers = {"WWW-Authenticate": "Bearer"} if challenge else None
    return Response(orjson.dumps(body), status_code, media_type="application/json", headers=headers)
