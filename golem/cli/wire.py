"""`golem wire decode --provider NAME [--stream] FILE`: decode a recorded provider body or
SSE transcript into the normalised Response, printed as JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson

from golem.inference.errors import ProviderError
from golem.inference.providers import default_registry
from golem.inference.serialize import error_to_dict, response_to_dict
from golem.inference.wire import decode


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "wire",
        help="decode recorded provider bodies",
        description="Work with providers' wire formats.",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    names = ", ".join(default_registry().names())
    run_decode = actions.add_parser(
        "decode",
        help="decode a recorded response body or SSE transcript",
        description=(
            "Decode a recorded response body (or SSE transcript) the way golem would, and "
            "print the normalised Response as JSON: content, tool calls, finish reason, "
            "usage, reasoning chain and cost. A body holding an error prints the typed "
            "error and exits 1."
        ),
    )
    run_decode.add_argument("file", metavar="FILE", help="the body, or - for stdin")
    run_decode.add_argument("--provider", required=True, help=f"one of: {names}")
    run_decode.add_argument(
        "--stream", action="store_true", help="FILE is an SSE transcript (implied by .sse)"
    )
    run_decode.add_argument("--model", help="the model asked for, when the body names none")
    run_decode.add_argument(
        "--status", type=int, default=200, help="the HTTP status the body came with"
    )
    run_decode.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    registry = default_registry()
    if args.provider not in registry.names():
        print(
            f"golem wire decode: unknown provider {args.provider!r}; "
            f"known: {', '.join(registry.names())}",
            file=sys.stderr,
        )
        return 2
    try:
        body = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        print(f"golem wire decode: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    stream = args.stream or args.file.endswith(".sse")
    try:
        response = decode(args.provider, body, stream=stream, model=args.model, status=args.status)
    except ProviderError as exc:
        _print(error_to_dict(exc))
        return 1
    out = response_to_dict(response)
    out["priced"] = registry.price_of(response, args.model) is not None
    _print(out)
    return 0


def _print(value: object) -> None:
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")
