"""`golem view OUT [--http HOST:PORT]`: a finished life's out directory (`golem simulate
--logs`) served read-only through the status endpoint's app, so that the dashboard at /
shows a simulated life as it shows a running golem. The directory is read once, when the
command starts (a bad one is one line, exit 2); Ctrl-C stops the server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import trio

from golem.cli.failure import UsageError
from golem.cli.run_http import bind
from golem.runtime.http import RecordedLife, serve_app, status_app, url_of

__all__ = ["register"]

DEFAULT_ADDRESS = "127.0.0.1:8787"


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "view",
        help="open a finished simulation's out directory in the dashboard",
        description=(
            "Serve a finished life's out directory (written by `golem simulate --logs`: "
            "golem.log, state/golem.db) read-only: the dashboard at /, and GET /status, "
            "/history, /decisions and /health as `golem run --http` serves them."
        ),
    )
    parser.add_argument("out", type=Path, metavar="OUT", help="the life's out directory")
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        default=DEFAULT_ADDRESS,
        help=f"where to serve it (default {DEFAULT_ADDRESS}; port 0: any free port)",
    )
    parser.add_argument(
        "--http-allow-remote",
        action="store_true",
        help="let --http listen on a non-loopback address (it has no authentication)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        life = RecordedLife.open(args.out)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    listening = bind(args)
    assert listening is not None, "--http has a default"
    app = status_app(life, life.feed, None)
    url = url_of(listening)

    async def serve() -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(serve_app, app, listening)
            print(f"golem view: {args.out} at {url}/ (Ctrl-C stops)", file=sys.stderr)

    trio.run(serve)
    return 0
