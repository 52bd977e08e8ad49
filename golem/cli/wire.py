"""`golem wire decode --provider NAME [--stream] FILE`: decode a recorded provider body or
SSE transcript into the normalised Response, printed as JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson

from golem.cli.failure import UsageError
from golem.inference.errors import FormatMismatch, IncompleteStream, ProviderError
from golem.inference.providers import Registry, default_registry
from golem.inference.serialize import error_to_dict, response_to_dict
from golem.inference.wire import decode

# One provider per wire format, tried in turn to say which one a mismatched body is in.
_FORMAT_SPEAKERS = ("openai", "openai-responses", "anthropic", "gemini")


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
            "error and exits 1. A transcript that stops before its final event prints "
            "the IncompleteStream error with the partial Response, warns on stderr and "
            "exits 1. A body that is not in the provider's wire format (the wrong "
            "--provider) exits 2; the OpenAI-compatible vendors share OpenAI's format."
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
        known = ", ".join(registry.names())
        raise UsageError(f"unknown provider {args.provider!r}; known: {known}")
    try:
        body = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
    stream = args.stream or args.file.endswith(".sse")
    if stream and body.lstrip().startswith(b"{"):
        raise UsageError(f"{args.file} is a JSON body, not an SSE transcript: drop --stream")
    try:
        response = decode(args.provider, body, stream=stream, model=args.model, status=args.status)
    except FormatMismatch as exc:
        hint = _speaker(registry, body, stream, args.status, args.provider)
        raise UsageError(f"{args.file}: {exc.args[0]}; {hint}") from None
    except IncompleteStream as exc:
        out = error_to_dict(exc)
        out["partial"] = None if exc.partial is None else response_to_dict(exc.partial)
        _print(out)
        print(
            f"golem wire decode: warning: {args.file} is incomplete: {exc.args[0]}",
            file=sys.stderr,
        )
        return 1
    except ProviderError as exc:
        _print(error_to_dict(exc))
        return 1
    out = response_to_dict(response)
    out["priced"] = registry.price_of(response, args.model) is not None
    _print(out)
    return 0


def _speaker(registry: Registry, body: bytes, stream: bool, status: int, asked: str) -> str:
    """Which --provider reads the body, as a hint for the user who named the wrong one."""
    for name in _FORMAT_SPEAKERS:
        if name == asked or name not in registry.names():
            continue
        try:
            decode(name, body, stream=stream, status=status, registry=registry)
        except FormatMismatch:
            continue
        except ProviderError:
            pass  # read as that format, and it holds an error or a cut stream
        return f"it reads as --provider {name}"
    return "is --provider right?"


def _print(value: object) -> None:
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")
