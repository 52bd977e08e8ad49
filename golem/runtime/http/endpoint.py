"""A golem's status endpoint: its decision feed and metrics subscribed to the golem's
record stream, and the app served by Hypercorn under trio on a socket bound beforehand
(`HttpAddress.bind`), in the nursery the life runs in."""

from __future__ import annotations

import socket
from collections.abc import Iterable
from typing import cast

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from hypercorn.typing import ASGIFramework
from starlette.middleware.trustedhost import TrustedHostMiddleware

from golem.runtime.http.app import status_app
from golem.runtime.http.feed import DecisionFeed
from golem.runtime.http.guard import allowed_hosts, quiet_accept_errors
from golem.runtime.http.metrics import GolemMetrics
from golem.runtime.life import Life

__all__ = ["StatusEndpoint"]


class StatusEndpoint:
    """Made before the life runs, so that it sees every record from the first. `secrets`
    are masked in what it serves, as in the log; `control_token` opens the control API."""

    def __init__(
        self, life: Life, *, secrets: Iterable[str] = (), control_token: str | None = None
    ) -> None:
        self.feed = DecisionFeed(secrets)
        self.metrics = GolemMetrics(life)
        life.golem.stream.subscribe(self.feed.publish)
        life.golem.stream.subscribe(self.metrics.observe)
        self.app = status_app(life, self.feed, self.metrics, control_token)

    async def serve(
        self,
        listening: socket.socket,
        *,
        task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Serve on `listening` (a bound, listening socket, which Hypercorn takes over)
        until cancelled; `task_status.started` gets the URLs served. A request whose Host
        is not one of the names it was bound to is a 400 (`allowed_hosts`); running out
        of file descriptors is one line a minute (`quiet_accept_errors`)."""
        hosts = allowed_hosts(listening)
        config = Config()
        config.bind = [f"fd://{listening.detach()}"]
        config.accesslog = None
        config.loglevel = "WARNING"  # not its "Running on" line: `golem run` says where
        guarded = TrustedHostMiddleware(self.app, allowed_hosts=hosts, www_redirect=False)
        # Starlette types its ASGI interface loosely, Hypercorn precisely: the same protocol.
        app = cast(ASGIFramework, guarded)
        with quiet_accept_errors(trio.current_time):
            await serve(app, config, task_status=task_status)
