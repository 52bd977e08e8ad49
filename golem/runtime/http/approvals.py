"""The approval queue beside the control API, for the same bearer token: GET /approvals
(the held trades, newest first; `?waiting=1` the waiting ones alone) and POST
/approvals/{id} with `{"decision": "approve"}` or `{"decision": "deny"}`. An answer is
committed before the reply (200 with the row as it stands; 409 when the trade no longer
waits: the timeout, the policy or another answer came first) and acted on at the golem's
next tick (runtime/approvals.py). Without a token there are no approval routes (404)."""

from __future__ import annotations

import sqlite3

import structlog
import trio
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from golem.runtime.approvals import Status, decide_approval, list_approvals
from golem.runtime.http.control import authorized, body_field, json_response
from golem.runtime.life import Life

__all__ = ["approval_routes"]

log = structlog.get_logger("golem")
_DECISIONS = {"approve": True, "deny": False}


def approval_routes(life: Life, token: str | None) -> list[BaseRoute]:
    """The approval routes for `life`, or none when no token is configured."""
    if not token:
        return []
    expected = token.encode()

    def refused() -> Response:
        log.warning("control_refused", reason="missing or wrong bearer token")
        return json_response({"error": "a bearer token is required"}, 401, challenge=True)

    async def listed(request: Request) -> Response:
        if not authorized(request, expected):
            return refused()
        waiting = request.query_params.get("waiting", "") not in ("", "0", "false")
        db = life.golem.store.path
        try:
            rows = await trio.to_thread.run_sync(lambda: list_approvals(db, waiting_only=waiting))
        except sqlite3.Error as exc:
            return json_response({"error": f"the approvals could not be read: {exc}"}, 503)
        return json_response({"approvals": [row.to_dict() for row in rows]}, 200)

    async def decided(request: Request) -> Response:
        if not authorized(request, expected):
            return refused()
        try:
            id = int(request.path_params["id"])
        except ValueError:
            return json_response({"error": "an approval's id is a whole number"}, 404)
        if life.golem.dead:
            return json_response({"error": "the golem is dead: nothing will trade"}, 409)
        approve = await _decision(request)
        if approve is None:
            body = 'write the body as JSON: {"decision": "approve"} or {"decision": "deny"}'
            return json_response({"error": body}, 400)
        db, now = life.golem.store.path, life.clock.now()
        try:
            row = await trio.to_thread.run_sync(decide_approval, db, id, approve, now)
        except sqlite3.Error as exc:
            return json_response({"error": f"the answer could not be stored: {exc}"}, 503)
        if row is None:
            return json_response({"error": f"no approval {id}"}, 404)
        wanted = Status.APPROVED if approve else Status.DENIED
        if row.status is not wanted or row.decided_by != "owner":
            why = f"approval {id} is {row.status} (by {row.decided_by}): it no longer waits"
            return json_response({"error": why, "approval": row.to_dict()}, 409)
        decision = "approve" if approve else "deny"
        log.info("approval_answered", id=id, decision=decision, source="api")
        return json_response({"approval": row.to_dict(), "applies": "next tick"}, 200)

    return [
        Route("/approvals", listed, methods=["GET"]),
        Route("/approvals/{id}", decided, methods=["POST"]),
    ]


async def _decision(request: Request) -> bool | None:
    """The body's decision: True to approve, False to deny, None when it says neither."""
    decision = await body_field(request, "decision")
    return _DECISIONS.get(decision) if isinstance(decision, str) else None
