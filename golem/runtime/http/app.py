"""The status endpoint's ASGI app (Starlette), read-only: GET /health, /status,
/decisions, /events (server-sent events), /history, /metrics (Prometheus text) and the
dashboard page at / (dashboard.py). Every answer is read from the golem's `Source` (a
running golem, or a finished life's out directory) or its feed when asked; no such
request changes anything. A running golem's control routes (POST /control/...,
control.py) are added by its endpoint, and only with a token.

/decisions carries `X-Golem-Reasoning-Tokens`: the reasoning tokens of the decisions it
returns, summed; with `id=`, which names one decision, that decision's count."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import orjson
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from golem.inference.durations import parse_duration
from golem.mortality import SubsystemName
from golem.runtime.http.dashboard import dashboard_routes
from golem.runtime.http.events import DecisionEvents
from golem.runtime.http.feed import RECENT, DecisionFeed
from golem.runtime.http.metrics import GolemMetrics
from golem.runtime.logs import parse_time

__all__ = ["DEFAULT_LIMIT", "REASONING_HEADER", "Source", "status_app"]

REASONING_HEADER = "X-Golem-Reasoning-Tokens"
DEFAULT_LIMIT = 100  # /decisions without `limit`: the newest 100 that match
_SUBSYSTEMS = frozenset(str(name) for name in SubsystemName)


class _BadQuery(ValueError):
    """A query parameter that cannot be used: a 400 naming it."""


class Source(Protocol):
    """What the app reads a golem from: its clock, /health, /status and /history bodies."""

    def now(self) -> datetime: ...
    def health(self) -> dict[str, Any]: ...
    def status(self) -> dict[str, Any]: ...
    def history(self) -> dict[str, Any]: ...


def status_app(
    source: Source,
    feed: DecisionFeed,
    metrics: GolemMetrics | None,
    control: Sequence[BaseRoute] = (),
) -> Starlette:
    """The app for one golem's life (no /metrics without `metrics`: a finished life's),
    with the `control` routes of a running golem's owner."""

    async def get_health(_: Request) -> Response:
        body = source.health()
        return _json(body, 200 if body["alive"] else 503)

    async def get_status(_: Request) -> Response:
        # `control`: whether the owner's routes are served (the page shows its controls).
        return _json({**source.status(), "control": bool(control)})

    async def get_history(_: Request) -> Response:
        return _json(source.history())

    async def get_decisions(request: Request) -> Response:
        query = request.query_params
        try:
            entries = feed.recent(
                subsystem=_subsystem(query.get("subsystem")),
                since=_since(query.get("since"), source.now()),
                decision_id=query.get("id") or None,
                limit=_limit(query.get("limit")),
            )
        except _BadQuery as exc:
            return _json({"error": str(exc)}, 400)
        if query.get("id") and not entries:
            return _json({"error": f"no kept decision with id {query['id']!r}"}, 404)
        body = b"[" + b",".join(entry.line for entry in entries) + b"]"
        tokens = sum(entry.reasoning_tokens for entry in entries)
        return Response(
            body, media_type="application/json", headers={REASONING_HEADER: str(tokens)}
        )

    async def get_events(request: Request) -> Response:
        try:
            subsystem = _subsystem(request.query_params.get("subsystem"))
        except _BadQuery as exc:
            return _json({"error": str(exc)}, 400)
        return DecisionEvents(feed, subsystem)

    routes = [
        Route("/health", get_health, methods=["GET"]),
        Route("/status", get_status, methods=["GET"]),
        Route("/decisions", get_decisions, methods=["GET"]),
        Route("/events", get_events, methods=["GET"]),
        Route("/history", get_history, methods=["GET"]),
        *dashboard_routes(),
        *control,
    ]
    if metrics is not None:
        render = metrics.render

        async def get_metrics(_: Request) -> Response:
            return Response(render(), headers={"Content-Type": CONTENT_TYPE_LATEST})

        routes.append(Route("/metrics", get_metrics, methods=["GET"]))
    return Starlette(routes=routes)


def _json(body: Any, status_code: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code, media_type="application/json")


def _subsystem(text: str | None) -> str | None:
    if not text:
        return None
    if text not in _SUBSYSTEMS:
        raise _BadQuery(f"subsystem: unknown {text!r}; one of {', '.join(sorted(_SUBSYSTEMS))}")
    return text


def _since(text: str | None, now: datetime) -> datetime | None:
    """An ISO time (no zone: UTC) or a duration back from the golem's clock (`2h`)."""
    if not text:
        return None
    try:
        return now - parse_duration(text)
    except ValueError:
        pass
    except OverflowError:
        raise _BadQuery(f"since: {text!r} goes back before the year 1") from None
    try:
        return parse_time(text)
    except ValueError:
        raise _BadQuery(f"since: write an ISO time or a duration like 2h, not {text!r}") from None


def _limit(text: str | None) -> int:
    if not text:
        return DEFAULT_LIMIT
    # ASCII digits only: isdigit() also takes '²' and '⑤', which int() refuses.
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= RECENT:
        raise _BadQuery(f"limit: a whole number from 1 to {RECENT}, not {text!r}")
    return int(text)
