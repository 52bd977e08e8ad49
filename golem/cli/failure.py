"""How a command ends when something goes wrong: the one place that turns an exception
into what the user sees.

A user's mistake (a bad config, scenario, CSV, state directory, path or argument) is one
line on stderr naming what is wrong and where, exit 2, no traceback. Ctrl-C is one line,
exit 130. A golem stopped because a job kept failing the same way is one line, exit 3 (the
log holds the first failure's traceback). Anything else is a fault of golem's: one line
saying so, exit 1. The full traceback is printed only with `golem --debug ...` or
GOLEM_DEBUG=1 in the environment. What is printed is masked as the log is: every key value
the environment holds, and whatever is shaped like a key (an exception's message may quote
a request's URL or headers).
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping

from golem.inference.providers import Registry
from golem.inference.secrets import Redaction
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


# Variables named like a secret (..._KEY, ..._TOKEN, ..._SECRET, ..._PASSWORD): their values
# are masked even when no provider names them (a config's own api_key_env, a control
# token), and a variable that merely mentions one (KEY_PATH) is not read as one.
_SECRET_VARIABLE = re.compile(r"(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD)$", re.IGNORECASE)


def environment_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The key values `environ` holds: each shipped provider's key variable, and every
    variable named like a secret. (A command that read its config masks the config's own
    `secret_values` in its log; this is the boundary, which may not have read one.)"""
    registry = Registry.load()
    names = {registry.profile(p).api_key_env for p in registry.names()}
    names |= {name for name in environ if _SECRET_VARIABLE.search(name)}
    return tuple(sorted({environ[n] for n in names if n and environ.get(n)}))


def _say(line: str) -> None:
    """Print `line` on stderr, its key values and key shapes masked."""
    print(Redaction(environment_secrets(os.environ)).clean(line, shapes=True), file=sys.stderr)


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
        _say(f"{prefix}: interrupted" + (f"; {detail}" if detail else ""))
        return EXIT_INTERRUPTED
    if leaves and all(isinstance(leaf, JobFailing) for leaf in leaves):
        for leaf in leaves:
            _say(f"{prefix}: stopped: {leaf} (the log has its first traceback)")
        return EXIT_STOPPED
    if all(isinstance(leaf, _USER_ERRORS) for leaf in leaves):
        for leaf in leaves:
            for line in _line(leaf).splitlines() or [type(leaf).__name__]:
                _say(f"{prefix}: {line}")
        return EXIT_USER
    fault = next(leaf for leaf in leaves if not isinstance(leaf, _USER_ERRORS))
    _say(
        f"{prefix}: internal error: {type(fault).__name__}: {_line(fault).splitlines()[0]} "
        f"(run with --debug or {DEBUG_ENV}=1 for the traceback)"
    )
    return EXIT_FAULT
