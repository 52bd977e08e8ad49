"""`golem run --http HOST:PORT [--http-allow-remote]`: the status endpoint's flags. The
address is checked and bound before anything else starts (a bad value, a non-loopback
address without the flag or a taken port is one line, exit 2, and nothing is made); the
endpoint then serves beside the life, in its nursery, until the life ends."""

from __future__ import annotations

import argparse
import os
import socket
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

import trio

from golem.cli.failure import UsageError
from golem.runtime import Life
from golem.runtime.http import HttpAddress, StatusEndpoint, url_of

__all__ = ["add_arguments", "bind", "serving"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help=(
            "serve a read-only status endpoint: the dashboard at /, GET /health, /status, "
            "/history, /decisions?subsystem=&since=&id=&limit=, /events (server-sent "
            "decisions), /metrics (Prometheus); e.g. 127.0.0.1:8787 (port 0: any free port); "
            "with [control] token_env set, also POST /control/pause|resume|exit|kill|budget|steer"
        ),
    )
    parser.add_argument(
        "--http-allow-remote",
        action="store_true",
        help=(
            "let --http listen on a non-loopback address (its read-only routes have no "
            "authentication)"
        ),
    )


def bind(args: argparse.Namespace) -> socket.socket | None:
    """The listening socket `--http` asks for (None without it). Raises UsageError."""
    text: str | None = args.http
    if text is None:
        if args.http_allow_remote:
            raise UsageError("--http-allow-remote needs --http HOST:PORT")
        return None
    try:
        address = HttpAddress.parse(text)
    except ValueError as exc:
        raise UsageError(f"--http: {exc}") from None
    if not address.loopback and not args.http_allow_remote:
        raise UsageError(
            f"--http {address}: not a loopback address, and the endpoint has no "
            "authentication; add --http-allow-remote to serve it beyond this machine"
        )
    try:
        return address.bind()
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)  # not the address again
        raise UsageError(f"--http {address}: {reason}") from None


@asynccontextmanager
async def serving(
    listening: socket.socket | None,
    life: Life,
    secrets: Iterable[str],
    control_token: str | None = None,
) -> AsyncIterator[str | None]:
    """Serve the endpoint for `life` on `listening` while the block runs; yields its URL
    (None without a socket). Enter it before the life runs: it sees every record.
    `control_token`: the control API's bearer token (None: no control routes)."""
    if listening is None:
        yield None
        return
    url = url_of(listening)
    endpoint = StatusEndpoint(life, secrets=secrets, control_token=control_token)
    failure: BaseException | None = None
    async with trio.open_nursery() as nursery:
        await nursery.start(endpoint.serve, listening)
        try:
            yield url
        except BaseException as exc:  # raised again as it came, not in the nursery's group
            failure = exc
        nursery.cancel_scope.cancel()
    if failure is not None:
        raise failure
