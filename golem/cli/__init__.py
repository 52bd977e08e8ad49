"""The `golem` command. One module per command group; each adds its parser here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from golem import __version__
from golem.cli import (
    ask,
    budget,
    config,
    ctl,
    data,
    inspect,
    replay,
    run,
    schemas,
    simulate,
    view,
    wire,
)
from golem.cli.failure import DEBUG_ENV, guarded

__all__ = ["main"]

# Each command group module exposes `register(subparsers)`, which adds its parser and
# sets `handler` (args -> exit code) as a default.
_GROUPS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    schemas.register,
    wire.register,
    budget.register,
    config.register,
    inspect.register,
    ask.register,
    replay.register,
    run.register,
    ctl.register,
    simulate.register,
    view.register,
    data.register,
)


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line naming it, as every user error is (exit 2),
    with a pointer to --help instead of the usage text. Subcommands' parsers are made of
    the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = _Parser(
        prog="golem",
        description=(
            "A runtime for mortal autonomous agents: a golem watches a market, decides "
            "through six subsystems that ask language models for typed answers, pays for "
            "every call, and declines as its credits run out."
        ),
    )
    parser.add_argument("--version", action="version", version=f"golem {__version__}")
    parser.add_argument(
        "--debug",
        action="store_true",
        help=f"show the full traceback when a command fails (or set {DEBUG_ENV}=1)",
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for register in _GROUPS:
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    return guarded(args.command, lambda: handler(args), debug=args.debug)


if __name__ == "__main__":
    sys.exit(main())
