"""`golem ctl TARGET approvals [approve|deny ID]`: the trades a golem holds for its owner's
approval, listed or answered. With a URL, through its control API (`GET /approvals`,
`POST /approvals/ID`, bearer token from the environment); with a STATE_DIR, in its state
database. The golem acts on an answer at its next tick (runtime/approvals.py)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import orjson

from golem.cli.failure import UsageError
from golem.runtime.clock import RealClock
from golem.runtime.store import DB_NAME
from golem.runtime.store.approvals import Status, decide_approval, list_approvals

__all__ = ["DEFAULT_TOKEN_ENV", "TIMEOUT_S", "approvals"]

DEFAULT_TOKEN_ENV = "GOLEM_CONTROL_TOKEN"
TIMEOUT_S = 60.0  # the golem answers once the command is committed, after a running tick
_ANSWERS = {"approve": True, "deny": False}


def approvals(target: str, answer: str | None, id: str | None, *, token_env: str) -> int:
    """List the held trades (no `answer`), or answer held trade `id`."""
    if answer is None:
        if id is not None:
            raise UsageError("approvals: give approve or deny before the id")
        rows = _listed(target, token_env)
        for row in rows:
            print(_line(row))
        if not rows:
            print("golem ctl: no trade is held for approval")
        return 0
    if answer not in _ANSWERS:
        raise UsageError(f"approvals: approve ID or deny ID, not {answer!r}")
    if id is None or not id.isdigit():
        raise UsageError(f"approvals {answer}: give the held trade's id (a whole number)")
    row = _answered(target, int(id), _ANSWERS[answer], token_env)
    print(f"golem ctl: {_line(row)}; the golem acts on it at its next tick")
    return 0


def _line(row: dict[str, Any]) -> str:
    size = "all" if row["size_usd"] is None else f"${row['size_usd']:,.2f}"
    by = f" by {row['decided_by']}" if row["decided_by"] else f" until {row['deadline']}"
    return (
        f"#{row['id']} {row['status']}{by}: {row['action']} {size} "
        f"(stake ${row['stake_usd']:,.2f}, tick {row['tick']}) {row['reason']}"
    )


def _listed(target: str, token_env: str) -> list[dict[str, Any]]:
    if _is_url(target):
        body = _request(target, "GET", "/approvals", None, token_env, ok=200)
        rows: list[dict[str, Any]] = body["approvals"]
        return rows
    try:
        return [row.to_dict() for row in list_approvals(_db(target))]
    except sqlite3.Error as exc:
        raise UsageError(f"{target}: the approvals could not be read: {exc}") from None


def _answered(target: str, id: int, approve: bool, token_env: str) -> dict[str, Any]:
    if _is_url(target):
        decision = {"decision": "approve" if approve else "deny"}
        body = _request(target, "POST", f"/approvals/{id}", decision, token_env, ok=200)
        row: dict[str, Any] = body["approval"]
        return row
    try:
        stored = decide_approval(_db(target), id, approve, RealClock().now())
    except sqlite3.Error as exc:
        raise UsageError(f"{target}: the answer could not be stored: {exc}") from None
    if stored is None:
        raise UsageError(f"{target}: no approval {id}")
    wanted = Status.APPROVED if approve else Status.DENIED
    if stored.status is not wanted or stored.decided_by != "owner":
        raise UsageError(
            f"{target}: approval {id} is {stored.status} (by {stored.decided_by}): "
            "it no longer waits"
        )
    return stored.to_dict()


def _is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def _db(state_dir: str) -> Path:
    db = Path(state_dir) / DB_NAME
    if not db.is_file():
        raise UsageError(f"{state_dir}: not a golem's state directory (no {DB_NAME})")
    return db


def _request(
    url: str, method: str, path: str, body: Any, token_env: str, *, ok: int
) -> dict[str, Any]:
    token = os.environ.get(token_env, "")
    if not token:
        raise UsageError(f"{url}: set {token_env} to the golem's control token")
    try:
        response = httpx.request(
            method,
            f"{url.rstrip('/')}{path}",
            content=None if body is None else orjson.dumps(body),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            timeout=TIMEOUT_S,
        )
    except httpx.HTTPError as exc:
        raise UsageError(f"{url}: {exc}") from None
    try:
        answer = response.json()
    except ValueError:
        answer = {"error": response.text}
    if response.status_code != ok:
        reason = answer.get("error", response.text) if isinstance(answer, dict) else answer
        raise UsageError(f"{url}: {response.status_code} {reason}")
    if not isinstance(answer, dict):
        raise UsageError(f"{url}: the answer is not a JSON object")
    return answer
