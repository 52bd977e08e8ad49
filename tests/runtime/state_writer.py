"""A golem-shaped writer for the kill test (`python state_writer.py STATE_DIR`): hourly ticks
in virtual time, each one transaction (charge, vitality, episode, portfolio, fire time), and
a daily job; it resumes from the stored tick and runs until it is killed, or until its parent
is gone. With `--fork-server` it imports once and forks a fresh writer per `life` line on
stdin, so restarts are quick.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from datetime import UTC, datetime, timedelta

import trio

from golem.inference.types import Usage
from golem.mortality import Charge, SubsystemName
from golem.runtime.clock import VirtualClock
from golem.runtime.scheduler import Firing, Job, Scheduler, cron, every
from golem.runtime.store.state import StateStore, VitalityRow
from golem.world import DecisionSummary, Episode, MarketSummary, PaperPortfolio

START = datetime(2026, 5, 4, tzinfo=UTC)
STEP = timedelta(hours=1)  # one tick per virtual hour: a day every 24 ticks
INITIAL_CREDITS = 1000.0
DAILY = "0 3 * * *"
DAILY_KEY = "daily"  # a run of the daily job: a zero income row, keyed by its process


def tick_time(tick: int) -> datetime:
    return START + tick * STEP


def tick_cost(tick: int) -> float:
    return 0.001 * (1 + tick % 7)


def tick_charge(tick: int) -> Charge:
    return Charge(
        subsystem=SubsystemName.HEARTBEAT,
        provider="local",
        model="gemma3-270m",
        tokens=Usage(input_tokens=100 + tick, output_tokens=20),
        usd=tick_cost(tick),
        diem=0.0,
        time=tick_time(tick),
        idempotency_key=f"tick-{tick}",
    )


def tick_episode(tick: int) -> Episode:
    price = 3000.0 + (tick % 50)
    summary = MarketSummary(tick, tick_time(tick), price, 0.001, 0.002, 0.1, 1.0, 0.0005, 1.8, None)
    return Episode(tick, summary, DecisionSummary("observe", predicted_delta=0.001))


def price(tick: int) -> float:
    return tick_episode(tick).observation.price


async def live(state_dir: str) -> None:
    store = StateStore.open(state_dir)
    try:
        store.fund(INITIAL_CREDITS, START)
        stored = store.portfolio()
        portfolio = PaperPortfolio(500.0) if stored is None else PaperPortfolio.from_dict(stored)
        clock = VirtualClock(store.last_fire("tick") or START)
        scheduler = Scheduler(clock, store)
        parent = os.getppid()

        async def tick(firing: Firing) -> None:
            if os.getppid() != parent:  # orphaned: nobody is left to kill this writer
                os._exit(1)
            n = store.tick()
            if firing.at != tick_time(n):
                raise RuntimeError(f"tick {n} fired at {firing.at}, not {tick_time(n)}")
            store.ledger.record(tick_charge(n))
            credits = store.credits()
            store.record_vitality(
                VitalityRow(n, firing.at, credits / INITIAL_CREDITS, "thriving", 1.0, 0.5)
            )
            store.save_episode(tick_episode(n))
            portfolio.apply("buy" if n % 2 else "sell", price(n), 10.0)
            store.save_portfolio(n, portfolio.to_dict())
            store.set_tick(n + 1)

        async def daily(firing: Firing) -> None:
            # Keyed by the writer that ran it: a run repeated after a kill is a second row.
            store.add_income(f"{DAILY_KEY}:{os.getpid()}:{firing.at.isoformat()}", 0.0, firing.at)

        scheduler.add(Job("tick", every(STEP, start=START), tick))
        scheduler.add(Job("daily", cron(DAILY), daily, grace=timedelta(days=1)))
        print("ready", flush=True)
        await scheduler.run()
    finally:
        store.close()


def fork_server(state_dir: str) -> None:
    """`life` forks a writer and prints `pid N`; `reap` waits for it and prints `status S`
    (the raw wait status); end of input kills a writer not yet reaped and ends the server."""
    child = 0
    for command in sys.stdin:
        if command.strip() == "life":
            child = os.fork()
            if child == 0:
                try:
                    trio.run(live, state_dir)
                except BaseException:
                    traceback.print_exc()  # for the test to show, as it fails
                finally:
                    sys.stderr.flush()
                    os._exit(1)
            print(f"pid {child}", flush=True)
        elif command.strip() == "reap":
            print(f"status {os.waitpid(child, 0)[1]}", flush=True)
            child = 0
    if child:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)


if __name__ == "__main__":
    if sys.argv[1] == "--fork-server":
        fork_server(sys.argv[2])
    else:
        trio.run(live, sys.argv[1])
