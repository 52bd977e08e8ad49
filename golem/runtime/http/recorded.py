"""A finished life's out directory as the status app's `Source` (`golem view OUT`): its
golem.log read once, when the view opens (decisions into a feed, vitality readings into a
chronicle), the asset's prices and the last portfolio from its state database opened
immutable (nothing is written, not even a lock), summary.json for how it ended.

What /status says is the life's last reading: the budget lines carry what each subsystem
spent on the last day logged (the budgets themselves are the running golem's, not
kept). /decisions holds the last `RECENT` decisions; /events stays quiet."""

from __future__ import annotations

import bisect
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from golem.runtime.http.chronicle import Chronicle
from golem.runtime.http.feed import DecisionFeed
from golem.runtime.logs import Malformed, parse_time, read_events

__all__ = ["LOG_NAME", "RecordedLife"]

LOG_NAME = "golem.log"
_DB = Path("state") / "golem.db"


class RecordedLife:
    """Read with `open(out)`; raises ValueError naming what is wrong and where."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.feed = DecisionFeed()
        self.chronicle = Chronicle()
        self._last: dict[str, Any] | None = None
        self._spent: dict[str, float] = {}
        self._day: str | None = None
        self._death = False
        self._portfolio: dict[str, Any] | None = None

    @classmethod
    def open(cls, out: Path) -> RecordedLife:
        log = out / LOG_NAME
        if not out.is_dir():
            raise ValueError(f"{out}: not a directory (give a `golem simulate` out directory)")
        if not log.is_file():
            raise ValueError(f"{out}: no {LOG_NAME} (`golem simulate --logs` keeps it)")
        life = cls(out)
        prices, life._portfolio = _state(out / _DB)
        times = [time for time, _ in prices]
        for number, event in enumerate(read_events(log, _refuse(log)), 1):
            try:
                life._take(event, prices, times)
            except (ValueError, TypeError) as exc:
                raise ValueError(f"{log}: event {number} ({event.get('event')}): {exc}") from None
        if life._last is None:
            raise ValueError(f"{log}: no vitality reading logged")
        return life

    def _take(
        self, event: dict[str, Any], prices: list[tuple[datetime, float]], times: list[datetime]
    ) -> None:
        kind = event.get("event")
        if kind == "vitality":
            stamp = str(event.get("timestamp", ""))
            at = bisect.bisect_right(times, parse_time(stamp)) - 1 if times else -1
            price = prices[at][1] if at >= 0 else None
            self.chronicle.reading(stamp, int(event.get("tick", 0)), event, price)
            self._last = event
        elif kind == "decision":
            subsystem, cost = str(event.get("subsystem")), float(event.get("cost_usd") or 0.0)
            self.chronicle.decision(subsystem, cost)
            time = parse_time(str(event.get("time") or event.get("timestamp")))
            day = time.date().isoformat()
            if day != self._day:
                self._day, self._spent = day, {}
            self._spent[subsystem] = self._spent.get(subsystem, 0.0) + cost
            self.feed.recall(event)
        elif kind == "death":
            self._death = True

    # --- the app's Source ----------------------------------------------------------------

    def now(self) -> datetime:
        return parse_time(str(self._reading()["timestamp"]))

    def health(self) -> dict[str, Any]:
        last = self._reading()
        return {
            "golem": last.get("golem"),
            "alive": not self._death,
            "phase": last.get("phase"),
            "tick": last.get("tick"),
            "time": last.get("timestamp"),
            "last_tick": last.get("timestamp"),
            "last_tick_age_s": 0.0,
            "recorded": True,
        }

    def status(self) -> dict[str, Any]:
        last = self._reading()
        spent = sum(self._spent.values())
        lines = {
            name: {"budget_usd": None, "spent_usd": usd, "left_usd": None}
            for name, usd in sorted(self._spent.items())
        }
        return {
            **self.health(),
            "vitality": last.get("vitality"),
            "clocks": {"economic": last.get("economic"), "epistemic": last.get("epistemic")},
            "death_probability": None,
            "credits_usd": last.get("credits_usd"),
            "burn_rate_usd": last.get("burn_rate_usd"),
            "equity_usd": last.get("equity_usd"),
            "budgets": {
                "day": self._day,
                "daily_budget_usd": None,
                "spent_usd": spent,
                "left_usd": None,
                "subsystems": lines,
            },
            "last_decisions": {
                entry.subsystem: orjson.loads(entry.line) for entry in self.feed.last().values()
            },
        }

    def history(self) -> dict[str, Any]:
        return self.chronicle.body(self._portfolio)

    def _reading(self) -> dict[str, Any]:
        assert self._last is not None, "open() refuses a log without a reading"
        return self._last


def _refuse(log: Path) -> Any:
    def on_malformed(malformed: Malformed) -> None:
        if not malformed.torn:  # a torn last line is a killed writer's: left out
            raise ValueError(f"{log}:{malformed.line}: {malformed.reason}")

    return on_malformed


def _state(db: Path) -> tuple[list[tuple[datetime, float]], dict[str, Any] | None]:
    """The price of each episode (time order) and the last portfolio, from the state
    database opened immutable; none of either without one."""
    if not db.is_file():
        return [], None
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?immutable=1", uri=True)
        try:
            episodes = conn.execute("SELECT data FROM episodes ORDER BY id").fetchall()
            row = conn.execute("SELECT data FROM portfolio WHERE id = 1").fetchone()
        finally:
            conn.close()
        prices = []
        for (data,) in episodes:
            observation = orjson.loads(data)["observation"]
            prices.append((parse_time(observation["time"]), float(observation["price"])))
    except (sqlite3.Error, orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{db}: cannot read its episodes and portfolio: {exc}") from None
    prices.sort(key=lambda item: item[0])
    return prices, None if row is None else dict(orjson.loads(row[0]))
