"""A golem's status endpoint: its decision feed and metrics subscribed to the golem's
record stream, and the app served by Hypercorn under trio on a socket bound beforehand
(`HttpAddress.bind`), in the nursery the life runs in."""

from __future__ import annotations

import socket
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import structlog
import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from hypercorn.typing import ASGIFramework
from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware

from golem.runtime.http.app import status_app
from golem.runtime.http.approvals import approval_routes
from golem.runtime.http.chronicle import LiveChronicle
from golem.runtime.http.control import control_routes
from golem.runtime.http.feed import RECENT, DecisionFeed
from golem.runtime.http.guard import allowed_hosts, quiet_accept_errors
from golem.runtime.http.metrics import GolemMetrics
from golem.runtime.http.status import health, status
from golem.runtime.life import Life
from golem.runtime.logs.tail import last_events

__all__ = ["LiveSource", "StatusEndpoint", "recall_decisions", "serve_app"]

log = structlog.get_logger("golem")


class LiveSource:
    """The app's `Source` for a running golem: read from it when asked."""

    def __init__(self, life: Life, feed: DecisionFeed, chronicle: LiveChronicle) -> None:
        self._life, self._feed, self._chronicle = life, feed, chronicle

    def now(self) -> datetime:
        return self._life.clock.now()

    def health(self) -> dict[str, Any]:
        return health(self._life)

    def status(self) -> dict[str, Any]:
        return status(self._life, self._feed)

    def history(self) -> dict[str, Any]:
        return self._chronicle.body(self._life.golem.portfolio.to_dict())


class StatusEndpoint:
    """Made before the life runs, so that it sees every record from the first. `secrets`
    are masked in what it serves, as in the log; `control_token` opens the control API."""

    def __init__(
        self, life: Life, *, secrets: Iterable[str] = (), control_token: str | None = None
    ) -> None:
        self.feed = DecisionFeed(secrets)
        self.metrics = GolemMetrics(life)
        golem = life.golem
        asset = golem.portfolio.config.asset
        self.chronicle = LiveChronicle(lambda: golem.portfolio.marks.get(asset))
        self.chronicle.recall(golem.store.past)  # a restarted golem's page: its whole life
        recall_decisions(self.feed, golem.compiled.log_file)  # and its last decisions
        life.golem.stream.subscribe(self.feed.publish)
        life.golem.stream.subscribe(self.metrics.observe)
        life.golem.stream.subscribe(self.chronicle.observe)
        source = LiveSource(life, self.feed, self.chronicle)
        control = control_routes(life, control_token) + approval_routes(life, control_token)
        self.app = status_app(source, self.feed, self.metrics, control)

    async def serve(
        self,
        listening: socket.socket,
        *,
        task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Serve on `listening` until cancelled (see `serve_app`)."""
        await serve_app(self.app, listening, task_status=task_status)


def recall_decisions(feed: DecisionFeed, log_file: Path) -> None:
    """The last decisions `log_file` holds (the golem's before this process: a restarted
    golem's list is not empty) into `feed`, oldest first, as many as it keeps. A line that
    is not a decision's is one warning naming the file and where, and left out; a log
    that cannot be read is one warning: the endpoint serves without it."""

    def skipped(offset: int, reason: str) -> None:
        log.warning("decision_not_recalled", file=str(log_file), byte=offset, reason=reason)

    if not log_file.is_file():
        return
    try:
        logged = last_events(log_file, "decision", RECENT, skipped)
    except OSError as exc:
        log.warning("decisions_not_recalled", file=str(log_file), reason=str(exc))
        return
    for event in logged:
        try:
            feed.recall(event)
        except (ValueError, TypeError) as exc:
            log.warning(
                "decision_not_recalled", file=str(log_file), id=event.get("id"), reason=str(exc)
            )


async def serve_app(
    app: Starlette,
    listening: socket.socket,
    *,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve `app` on `listening` (a bound, listening socket, which Hypercorn takes over)
    until cancelled; `task_status.started` gets the URLs served. A request whose Host is
    not one of the names it was bound to is a 400 (`allowed_hosts`); running out of file
    descriptors is one line a minute (`quiet_accept_errors`)."""
    hosts = allowed_hosts(listening)
    config = Config()
    config.bind = [f"fd://{listening.detach()}"]
    config.accesslog = None
    config.loglevel = "WARNING"  # not its "Running on" line: `golem run` says where
    guarded = TrustedHostMiddleware(app, allowed_hosts=hosts, www_redirect=False)
    # Starlette types its ASGI interface loosely, Hypercorn precisely: the same protocol.
    with quiet_accept_errors(trio.current_time):
        await serve(cast(ASGIFramework, guarded), config, task_status=task_status)
