"""How a command ends when something goes wrong: the one place that turns an exception
into what the user sees.

A user's mistake (a bad config, scenario, CSV, state directory, path or argument) is one
line on stderr naming what is wrong and where, exit 2, no traceback. Ctrl-C is one line,
exit 130. A golem stopped because a job kept failing the same way is one line, exit 3 (the
log holds the first failure's traceback). Anything else is a fault of golem's: one line
saying so, exit 1. The full traceback is printed only with `golem --debug ...` or
GOLEM_DEBUG=1 in the environment.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable, Iterator

from golem.runtime import JobFailing
from golem.runtime.config import ConfigError
from golem.runtime.logs import LogFileTaken
from golem.runtime.store import StateError
from golem.world.errors import WorldError

__all__ = ["DEBUG_ENV", "UsageError", "debug_requested", "guarded"]

DEBUG_ENV = "GOLEM_DEBUG"
EXIT_USER, EXIT_FAULT, EXIT_STOPPED, EXIT_INTERRUPTED = 2, 1, 3, 130


class UsageError(Exception):
    """A command's input that cannot be used as given; `str()` is the one line to show,
    naming the path or option in the user's words."""


# What a user can fix. OSError covers paths: a file where a directory is expected, a
# read-only place, a missing file (its message names the path).
_USER_ERRORS: tuple[type[BaseException], ...] = (
    UsageError,
    ConfigError,
    StateError,
    LogFileTaken,
    WorldError,
    OSError,
    sqlite3.DatabaseError,
)


def debug_requested(flag: bool = False) -> bool:
    return flag or os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    """The exceptions inside (nested) exception groups, or `exc` itself."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def _line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__


def guarded(command: str, handler: Callable[[], int], *, debug: bool = False) -> int:
    """Run `handler` (a command) and return its exit code, or the code of what it raised,
    having printed it as `golem COMMAND: ...`."""
    try:
        return handler()
    except SystemExit:
        raise
    except BaseException as exc:  # every exception is shown, then mapped to an exit code
        if debug_requested(debug):
            raise
        return _report(command, exc)


def _report(command: str, exc: BaseException) -> int:
    leaves = list(_leaves(exc))
    prefix = f"golem {command}" if command else "golem"
    interrupts = [leaf for leaf in leaves if isinstance(leaf, KeyboardInterrupt)]
    if interrupts:  # a command may say what the interruption left, as the interrupt's text
        detail = next((str(leaf) for leaf in interrupts if str(leaf)), "")
        print(f"{prefix}: interrupted" + (f"; {detail}" if detail else ""), file=sys.stderr)
        return EXIT_INTERRUPTED
    if leaves and all(isinstance(leaf, JobFailing) for leaf in leaves):
        for leaf in leaves:
            print(f"{prefix}: stopped: {leaf} (the log has its first traceback)", file=sys.stderr)
        return EXIT_STOPPED
    if all(isinstance(leaf, _USER_ERRORS) for leaf in leaves):
        for leaf in leaves:
            for line in _line(leaf).splitlines() or [type(leaf).__name__]:
                print(f"{prefix}: {line}", file=sys.stderr)
        return EXIT_USER
    fault = next(leaf for leaf in leaves if not isinstance(leaf, _USER_ERRORS))
    print(
        f"{prefix}: internal error: {type(fault).__name__}: {_line(fault).splitlines()[0]} "
        f"(run with --debug or {DEBUG_ENV}=1 for the traceback)",
        file=sys.stderr,
    )
    return EXIT_FAULT
