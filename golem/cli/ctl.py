"""`golem ctl STATE_DIR|URL pause|resume|exit|kill|budget USD|steer TEXT`: the owner's
commands to a golem (and `approvals [approve|deny ID]`: cli/approvals.py). With a URL they
are posted to its control API (`golem run --http`, bearer token from the environment
variable --token-env names); with a STATE_DIR they are queued in its state database, so
that a golem without --http can be steered too. Either way the golem applies the command
at the start of its next tick (runtime/control.py)."""

from __future__ import annotations

import argparse
import math
import os
import sqlite3
import sys
from pathlib import Path

import httpx
import orjson

from golem.cli.approvals import DEFAULT_TOKEN_ENV, TIMEOUT_S, approvals
from golem.cli.failure import UsageError
from golem.runtime.clock import RealClock
from golem.runtime.control import masked_steer, steer_refusal
from golem.runtime.store import DB_NAME
from golem.runtime.store.control import Command, queue_command

__all__ = ["DEFAULT_TOKEN_ENV", "register"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "ctl",
        help="pause, resume, unwind, kill, steer a golem or change its daily budget",
        description=(
            "Send an owner's command to a golem: pause (no model calls, no trades; its "
            "clocks go on), resume, exit (unwind its positions now, then keep watching), "
            "kill (the death protocol now: testament, settle, cause kill_switch), budget "
            "USD (the daily budget, within its config's [control] bounds), steer TEXT (the "
            "next heartbeat is a T2 review with TEXT in its prompt as the owner's message); "
            "approvals lists the trades held for the owner's approval, approvals approve ID "
            "or approvals deny ID answers one. TARGET is the golem's control API "
            "(http://127.0.0.1:8787) or its state directory. The golem applies the command "
            "at its next tick."
        ),
    )
    parser.add_argument("target", help="the golem's --http URL or its state directory")
    parser.add_argument("command", choices=[*(str(c) for c in Command), "approvals"])
    parser.add_argument(
        "value",
        nargs="?",
        help="budget: the new daily budget in USD; steer: the message; approvals: approve or deny",
    )
    parser.add_argument("id", nargs="?", help="approvals approve|deny: the held trade's id")
    parser.add_argument(
        "--token-env",
        default=DEFAULT_TOKEN_ENV,
        help=f"the environment variable holding the API's token (default {DEFAULT_TOKEN_ENV})",
    )
    parser.set_defaults(handler=ctl)


def ctl(args: argparse.Namespace) -> int:
    if args.command == "approvals":
        return approvals(args.target, args.value, args.id, token_env=args.token_env)
    if args.id is not None:
        raise UsageError(f"{args.command} takes at most one value, not {args.id!r} too")
    command = Command(args.command)
    value = _usd(command, args.value)
    text = _text(command, args.value)
    target: str = args.target
    if target.startswith(("http://", "https://")):
        token = os.environ.get(args.token_env, "")
        line = _post(target, command, value, text, token=token, env=args.token_env)
    else:
        line = _queue(Path(target), command, value, text)
    print(f"golem ctl: {line}")
    return 0


def _usd(command: Command, text: str | None) -> float | None:
    if command is not Command.BUDGET:
        if text is not None and command is not Command.STEER:
            raise UsageError(f"{command} takes no value (only budget and steer do)")
        return None
    try:
        usd = float(text) if text is not None else math.nan
    except ValueError:
        usd = math.nan
    if not math.isfinite(usd) or usd <= 0:
        raise UsageError(f"budget: give the daily budget in USD, e.g. 0.5, not {text!r}")
    return usd


def _text(command: Command, text: str | None) -> str | None:
    """A steer's message, masked of anything shaped like a key (the golem masks its own
    key values too, when it applies the command)."""
    if command is not Command.STEER:
        return None
    refusal = steer_refusal(text)
    if refusal is not None:
        raise UsageError(f'steer: {refusal} (golem ctl TARGET steer "the message")')
    assert text is not None
    return masked_steer(text)


def _post(
    url: str, command: Command, value: float | None, text: str | None, *, token: str, env: str
) -> str:
    if not token:
        raise UsageError(f"{url}: set {env} to the golem's control token")
    body: dict[str, float | str] = {}
    if value is not None:
        body["usd"] = value
    if text is not None:
        body["text"] = text
    try:
        response = httpx.post(
            f"{url.rstrip('/')}/control/{command}",
            content=orjson.dumps(body),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            timeout=TIMEOUT_S,
        )
    except httpx.HTTPError as exc:
        raise UsageError(f"{url}: {exc}") from None
    if response.status_code == 404:
        raise UsageError(f"{url}: no control API there ([control] token_env is not set?)")
    if response.status_code != 202:
        try:
            reason = str(response.json().get("error", response.text))
        except ValueError:
            reason = response.text
        raise UsageError(f"{url}: {response.status_code} {reason}")
    return f"{command} queued (#{response.json()['id']}); the golem applies it at its next tick"


def _queue(state_dir: Path, command: Command, value: float | None, text: str | None) -> str:
    db = state_dir / DB_NAME
    if not db.is_file():
        raise UsageError(f"{state_dir}: not a golem's state directory (no {DB_NAME})")
    try:
        queued = queue_command(db, command, value, "ctl", RealClock().now(), text=text)
    except sqlite3.Error as exc:
        raise UsageError(f"{db}: the command could not be queued: {exc}") from None
    print(f"golem ctl: {command} queued (#{queued}) in {db}", file=sys.stderr)
    return "the golem applies it at its next tick (a bad budget is refused there, logged)"
