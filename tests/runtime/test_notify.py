"""The owner's notices through apprise's JSON webhook (`json://127.0.0.1:PORT/...`),
received by a local HTTP server: the events of a 1-day simulated life and of a `golem
run` arrive, batched; a dead webhook changes nothing of the life but a warning line."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import orjson
import pytest

from golem.cli import main
from golem.runtime.store.state import StateStore

SIMULATIONS = Path(__file__).parents[2] / "simulations"


class Webhook:
    """A local server keeping the JSON bodies POSTed to it."""

    def __init__(self) -> None:
        bodies: list[dict[str, Any]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.bodies = bodies
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"json://127.0.0.1:{self.server.server_address[1]}/hook"

    def lines(self) -> list[str]:
        return [line for body in self.bodies for line in body["message"].splitlines()]

    def events(self) -> list[str]:
        return [line.split("]")[0].lstrip("[") for line in self.lines()]


@pytest.fixture
def webhook() -> Iterator[Webhook]:
    hook = Webhook()
    thread = threading.Thread(target=hook.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hook
    finally:
        hook.server.shutdown()
        hook.server.server_close()


def eventful(text: str) -> str:
    """decline.toml made to happen within a day: $0.38 of credits, $0.30 of them the
    apoptotic reserve (it runs short, passing through the phases), its shocks in the
    first hours (trades, the action gate off), one life (no successor)."""
    for old, new in (
        ("initial_credits_usd = 8.0", "initial_credits_usd = 0.38"),
        ('at = "P3D"', 'at = "PT1H"'),
        ('at = "P9D"', 'at = "PT6H"'),
    ):
        assert old in text
        text = text.replace(old, new)
    return text + "\n[prediction.gate]\nenabled = false\n[simulation.succession]\nenabled = false\n"


def scenario(tmp_path: Path, url: str, **notify: str) -> Path:
    text = eventful((SIMULATIONS / "decline.toml").read_text())
    extra = "".join(f"{key} = {value}\n" for key, value in notify.items())
    path = tmp_path / "decline-notify.toml"
    path.write_text(f'{text}\n[notify]\nurls = ["{url}"]\n{extra}')
    return path


def log_events(log: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in log.read_bytes().splitlines()]


def test_a_simulated_day_s_notices_arrive(tmp_path: Path, webhook: Webhook) -> None:
    out = tmp_path / "out"
    assert (
        main(["simulate", str(scenario(tmp_path, webhook.url)), "--days", "1", "--out", str(out)])
        == 0
    )
    events = log_events(out / "golem.log")
    trades = sum(e["event"] == "trade" for e in events)
    phases = sum(e["event"] == "phase_change" and e["tick"] > 0 for e in events)
    received = webhook.events()
    assert webhook.bodies and all(b["title"].startswith("golem decline") for b in webhook.bodies)
    assert received.count("trade") == trades > 0  # one notice per trade the log shows
    assert received.count("phase") == phases > 0
    # A death, if the day held one, is one notice with its testament's summary (the
    # reserve keeps this one alive; test_a_golem_run_s_notices... sees a death's).
    deaths = [line for line in webhook.lines() if line.startswith("[death]")]
    testaments = [e for e in events if e["event"] == "decision" and e["subsystem"] == "death"]
    assert len(deaths) == len(testaments) == sum(e["event"] == "death" for e in events)
    assert all(t["summary"] in d for t, d in zip(testaments, deaths, strict=True))
    # Each trade risk blocked is one notice too.
    blocked = [
        e
        for e in events
        if e["event"] == "decision"
        and e["subsystem"] == "risk"
        and e["summary"].startswith("blocked")
    ]
    assert received.count("trade_blocked") == len(blocked) > 0
    assert set(received) <= {
        "trade",
        "trade_blocked",
        "phase",
        "budget_exhausted",
        "senescence",
        "death",
    }
    assert not any(e["event"] == "notice_failed" for e in events)


def approving(text: str, policy: str) -> str:
    """The eventful scenario with every trade above $1 held, `policy` answering."""
    risk = f'[subsystems.risk]\napprove_above_stake = 1.0\napproval_policy = "{policy}"\n'
    return text.replace("[subsystems.curator]", risk + "\n[subsystems.curator]")


@pytest.mark.parametrize("policy", ["approve_all", "deny_all"])
def test_a_held_trade_is_one_approval_notice_and_then_its_fate(
    tmp_path: Path, webhook: Webhook, policy: str
) -> None:
    path = scenario(tmp_path, webhook.url)
    path.write_text(approving(path.read_text(), policy))
    out = tmp_path / "out"
    assert main(["simulate", str(path), "--days", "0.3", "--out", str(out)]) == 0
    events = log_events(out / "golem.log")
    held = [e for e in events if e["event"] == "approval_waiting"]
    lines = webhook.lines()
    waiting = [line for line in lines if line.startswith("[approval]")]
    assert len(waiting) == len(held) > 0
    assert all("waits for your approval" in line for line in waiting)
    if policy == "approve_all":
        executed = [e for e in events if e["event"] == "approval_executed"]
        approved = [line for line in lines if "approved by policy, executed at" in line]
        assert len(approved) == len(executed) > 0
        # A held trade's notice is its execution's, not risk's approval's.
        assert webhook.events().count("trade") == sum(e["event"] == "trade" for e in events)
    else:
        denied = [line for line in lines if line.endswith("denied by policy")]
        assert len(denied) == len(held)
        assert all(line.startswith("[trade_blocked]") for line in denied)
        assert "trade" not in webhook.events()


def test_a_held_trade_the_action_gate_blocks_is_one_notice_naming_the_gate(
    tmp_path: Path, webhook: Webhook
) -> None:
    """Approved by the policy, then refused by the oracle's action gate when it executes
    (a newborn's gate has no record): one trade_blocked notice, the queue's, naming the
    gate and its reason; not a second one from the gate's own hook."""
    path = scenario(tmp_path, webhook.url)
    gated = path.read_text().replace("[prediction.gate]\nenabled = false\n", "")
    path.write_text(approving(gated, "approve_all"))
    out = tmp_path / "out"
    assert main(["simulate", str(path), "--days", "0.3", "--out", str(out)]) == 0
    events = log_events(out / "golem.log")
    [after] = [e for e in events if e["event"] == "approval_blocked"]
    [gate] = [e for e in events if e["event"] == "action_blocked" and e["tick"] == after["tick"]]
    by_risk = sum(
        e["event"] == "decision" and e["subsystem"] == "risk" and e["summary"].startswith("blocked")
        for e in events
    )
    blocked = [line for line in webhook.lines() if line.startswith("[trade_blocked]")]
    assert len(blocked) == by_risk + 1  # each trade risk blocked, and the held one once
    assert after["result"] == f"the action gate: {gate['reason']}"
    [held] = [line for line in blocked if f"#{after['id']} " in line]
    assert held.endswith(f"approved by policy, then blocked: the action gate: {gate['reason']}")
    assert not [line for line in blocked if "the action gate blocked" in line]


def test_only_the_events_asked_for_are_sent(tmp_path: Path, webhook: Webhook) -> None:
    out = tmp_path / "out"
    path = scenario(tmp_path, webhook.url, events='["phase"]')
    assert main(["simulate", str(path), "--days", "0.3", "--out", str(out)]) == 0
    assert set(webhook.events()) <= {"phase"}
    assert "trade" not in webhook.events()


def test_a_dead_webhook_changes_nothing_but_a_warning(tmp_path: Path, webhook: Webhook) -> None:
    dead = "json://127.0.0.1:9/nobody-listens"  # the discard port: refused
    assert (
        main(
            [
                "simulate",
                str(scenario(tmp_path, dead)),
                "--days",
                "0.1",
                "--out",
                str(tmp_path / "a"),
            ]
        )
        == 0
    )
    plain = tmp_path / "plain.toml"
    plain.write_text(eventful((SIMULATIONS / "decline.toml").read_text()))
    assert main(["simulate", str(plain), "--days", "0.1", "--out", str(tmp_path / "b")]) == 0
    summaries = [orjson.loads((tmp_path / d / "summary.json").read_bytes()) for d in "ab"]
    for summary in summaries:
        summary.pop("scenario", None)
    assert summaries[0] == summaries[1]
    warnings = [
        e for e in log_events(tmp_path / "a" / "golem.log") if e["event"] == "notice_failed"
    ]
    assert warnings and all(w["level"] == "warning" for w in warnings)


RUN = """
[golem]
id = "g-notify"
state_dir = "{state}"
seed = 11

[inference]
t1 = ["synthetic"]
t2 = ["synthetic:gpt-4o"]
death = ["synthetic:gpt-4o"]

[providers.synthetic]
emulate = "openai"
model = "gpt-4o-mini"

[mortality]
initial_credits_usd = 1.0
daily_budget_usd = 5.0

[heartbeat]
interval = "100ms"
theta_base = 0.01
theta_min = 0.0

[logging]
console = "off"

[notify]
urls = ["{url}"]
"""


def test_a_golem_run_s_notices_arrive_and_its_death_with_the_testament(
    tmp_path: Path, webhook: Webhook
) -> None:
    path, state = tmp_path / "golem.toml", tmp_path / "state"
    path.write_text(RUN.format(state=state, url=webhook.url))
    StateStore.open(state).close()
    assert main(["ctl", str(state), "kill"]) == 0  # its owner ends it at its first tick
    assert main(["run", str(path), "--for", "30s"]) == 0
    events = log_events(state / "golem.log")
    [death] = [e for e in events if e["event"] == "death"]
    assert death["cause"] == "kill_switch"
    assert webhook.events().count("death") == 1
    [line] = [line for line in webhook.lines() if line.startswith("[death]")]
    [testament] = [e for e in events if e["event"] == "decision" and e["subsystem"] == "death"]
    assert testament["summary"] in line
