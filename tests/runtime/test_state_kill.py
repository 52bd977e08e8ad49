"""The kill test: state_writer.py is SIGKILLed at random moments 20 times and restarted;
afterwards no charge is lost or doubled, credits match the ledger, the daily job ran once
per day, every tick's rows are there, and SQLite finds the database intact."""

from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

from golem.runtime.state import StateStore
from tests.runtime.state_writer import (
    DAILY_SUBSYSTEM,
    INITIAL_CREDITS,
    START,
    tick_cost,
    tick_time,
)

WRITER = Path(__file__).with_name("state_writer.py")
KILLS = 20


class Writers:
    """Talks to state_writer.py's fork server: each `life` is a new writer process."""

    def __init__(self, state_dir: Path) -> None:
        self.server = subprocess.Popen(
            [sys.executable, str(WRITER), "--fork-server", str(state_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def ask(self, command: str) -> str:
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.write(command + "\n")
        self.server.stdin.flush()
        return self.server.stdout.readline()

    def line(self) -> str:
        assert self.server.stdout is not None
        return self.server.stdout.readline()

    def life(self, rng: random.Random, *, wait_until_ready: bool) -> None:
        """Start a writer, SIGKILL it at a random moment, and check it died of that."""
        pid = int(self.ask("life").removeprefix("pid "))
        if wait_until_ready:
            assert self.line() == "ready\n"
        time.sleep(rng.uniform(0.0, 0.2))
        os.kill(pid, signal.SIGKILL)
        reply = self.ask("reap")
        while not reply.startswith("status "):  # anything the writer printed: a failure
            assert "ready" in reply, reply
            reply = self.line()
        status = int(reply.removeprefix("status "))
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL

    def close(self) -> str:
        _, err = self.server.communicate("")
        return err


def test_sigkill_at_random_moments_loses_and_doubles_nothing(tmp_path: Path) -> None:
    rng = random.Random(20260504)
    ticks_seen = []
    writers = Writers(tmp_path)
    try:
        for kill in range(KILLS):
            # every fifth kill may land anywhere, opening and migrating included
            writers.life(rng, wait_until_ready=kill % 5 != 0)
            with StateStore.open(tmp_path) as store:
                ticks_seen.append(store.tick())
    finally:
        assert writers.close() == ""
    assert ticks_seen == sorted(ticks_seen)
    assert ticks_seen[-1] > 5 * KILLS  # it got somewhere between kills

    with StateStore.open(tmp_path) as store:
        assert store.integrity_check() == "ok"
        ticks = store.tick()
        keys = [key for (key,) in store._conn.execute("SELECT idempotency_key FROM charges")]
        assert Counter(keys) == Counter(f"tick-{n}" for n in range(ticks))
        expected_spend = math.fsum(tick_cost(n) for n in range(ticks))
        assert store.ledger.total_usd() == expected_spend
        assert store.credits() == INITIAL_CREDITS - expected_spend

        assert [row.tick for row in store.vitality_history()] == list(range(ticks))
        assert [episode.id for episode in store.episodes()] == list(range(ticks))
        assert store.last_fire("tick") == tick_time(ticks - 1)
        portfolio_tick = store._conn.execute("SELECT tick FROM portfolio").fetchone()[0]
        assert portfolio_tick == ticks - 1

        daily = store.decisions(DAILY_SUBSYSTEM)
        days = [row.time.date() for row in daily]
        assert len(days) == len(set(days)), "a daily job ran twice on one day"
        last = tick_time(ticks - 1)
        due = [
            (START + timedelta(days=d)).date()
            for d in range((last - START).days + 1)
            if START + timedelta(days=d, hours=3) < last
        ]
        assert days[: len(due)] == due, "a daily job was forgotten"
        assert len(days) <= len(due) + 1
