"""The `golem` console script: `golem.cli.main`, with a Ctrl-C that comes while the CLI
is still importing (a second or two) ending as one line and exit 130, as it does later
through the CLI's own boundary (golem/cli/failure.py)."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from golem.cli import main as cli  # noqa: PLC0415 (the import is what is guarded)
    except KeyboardInterrupt:
        print("golem: interrupted", file=sys.stderr)
        return 130
    return cli()
