"""The owner's notices through apprise ([notify]): a subscriber of the golem's record
stream (a trade, a phase change, a budget line exhausted, a senescence stage, a death
with its testament's summary) and of the scheduler's failures (a job failing repeatedly).

The tick only puts a notice in a bounded queue (`publish` never blocks: beyond
QUEUE_MAX waiting the newest are dropped, with a warning). One worker thread sends: a
message, then a wait of MIN_INTERVAL_S, then whatever gathered meanwhile (at most
BATCH_MAX notices) as the next message, so the owner gets at most one message per
interval whatever the golem does (a simulated life's day arrives in a few messages).
A failed send is a warning line, never a failure: written by the golem's own thread at
its next record (the log's sinks are its), not by the worker.
Not yet notices: a trade blocked by the gate, an approval waiting and a risk
disagreement (they come with the gate and the approvals of issue 38's item 2).
"""

from __future__ import annotations

import queue
import threading
from collections import Counter, deque
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from types import TracebackType
from typing import Self

import apprise
import structlog
from msgspec import Struct

from golem.mortality import DegradationReason, Phase, utc_day
from golem.runtime.config.owner import NotifyEvent, NotifySection
from golem.runtime.record import DecisionRecord
from golem.runtime.stream import Record, VitalityRecord

__all__ = [
    "BATCH_MAX",
    "ENV_PREFIX",
    "MIN_INTERVAL_S",
    "QUEUE_MAX",
    "REPEATED_FAILURES",
    "Notice",
    "Notifier",
    "notices",
]

log = structlog.get_logger("golem")

ENV_PREFIX = "env:"
REPEATED_FAILURES = 3  # a job failing this many times in a row is news
MIN_INTERVAL_S = 10.0  # at most one message per 10 s: chat services limit bots to about that
BATCH_MAX = 20  # notices in one message
QUEUE_MAX = 1000  # notices waiting; beyond, the newest are dropped
_CLOSE_S = 30.0  # how long closing waits for the last messages to go
_EXHAUSTED = frozenset({DegradationReason.BUDGET_EXHAUSTED, DegradationReason.COST_CAP_EXHAUSTED})


class Notice(Struct, frozen=True):
    event: NotifyEvent
    golem: str
    time: datetime
    text: str

    def line(self) -> str:
        return f"[{self.event}] {self.time:%Y-%m-%d %H:%M:%S} {self.golem}: {self.text}"


class _Seen:
    """What the notices already told: the last phase and senescence, the exhausted lines."""

    def __init__(self) -> None:
        self.phase: Phase | None = None
        self.senescent = False
        self.exhausted: set[tuple[date, str]] = set()


def notices(record: Record, seen: _Seen) -> list[Notice]:
    """The notices one record makes (updating `seen`)."""
    if isinstance(record, VitalityRecord):
        found: list[Notice] = []
        if seen.phase is not None and record.phase is not seen.phase:
            text = f"phase {seen.phase} -> {record.phase} (vitality {record.vitality:.3f})"
            found.append(Notice("phase", record.golem, record.time, text))
        if record.senescent != seen.senescent:
            text = (
                "senescence stage 1 (warning): its forecasts fell below the threshold"
                if record.senescent
                else "senescence over: its forecasts recovered"
            )
            found.append(Notice("senescence", record.golem, record.time, text))
        seen.phase, seen.senescent = record.phase, record.senescent
        return found
    return _of_decision(record, seen)


def _of_decision(record: DecisionRecord, seen: _Seen) -> list[Notice]:
    found: list[Notice] = []
    outcome = record.outcome
    subsystem = str(record.subsystem)
    if subsystem == "risk" and outcome is not None and outcome.approved is not None:
        trade = outcome.approved
        size = "all" if trade.size_usd is None else f"${trade.size_usd:,.2f}"
        text = f"trade {trade.action} {size}: {trade.reason}"[:300]
        found.append(Notice("trade", record.golem, record.time, text))
    if subsystem == "death":
        summary = outcome.summary if outcome is not None else record.skip_reason or ""
        found.append(Notice("death", record.golem, record.time, f"died: {summary}"[:1000]))
    for degradation in record.degradations:
        key = (utc_day(record.time), subsystem)
        if degradation.reason in _EXHAUSTED and key not in seen.exhausted:
            seen.exhausted.add(key)
            text = f"{subsystem}'s budget line is exhausted for {key[0]} ({degradation.reason})"
            found.append(Notice("budget_exhausted", record.golem, record.time, text))
    return found


class Notifier:
    """The notices of one golem's life, sent to `section.urls` from a worker thread.
    Use as a context manager: leaving it sends what is queued and stops the thread."""

    def __init__(
        self, section: NotifySection, golem: str, environ: Mapping[str, str] | None = None
    ) -> None:
        self._section, self._golem = section, golem
        self._events = frozenset(section.events)
        self._seen = _Seen()
        self._queue: queue.Queue[Notice | None] = queue.Queue(QUEUE_MAX)
        self._closing = threading.Event()
        self._apprise = apprise.Apprise()
        for position, written in enumerate(section.urls):
            url = written
            if written.startswith(ENV_PREFIX):  # a URL holding a token: from the environment
                url = (environ or {}).get(written.removeprefix(ENV_PREFIX), "")
            if not url or not self._apprise.add(url):  # never the URL: it may hold a token
                log.warning("notify_url_refused", position=position)
        self._thread = threading.Thread(target=self._send_loop, name="golem-notify", daemon=True)
        self._thread.start()
        self.queued: Counter[str] = Counter()  # notices queued, by event
        self.sent = 0  # messages apprise accepted
        self.failed = 0  # messages it did not
        self._failures: deque[tuple[int, str]] = deque()  # (notices, reason), to be logged

    @classmethod
    def of(
        cls, section: NotifySection, golem: str, environ: Mapping[str, str] | None = None
    ) -> Notifier | None:
        """A notifier when `section` names a URL and an event; None otherwise. A URL
        written `env:NAME` is read from `environ`'s NAME."""
        return cls(section, golem, environ) if section.urls and section.events else None

    def publish(self, record: Record) -> None:
        """The record stream's subscriber: queue the notices `record` makes."""
        self._put(n for n in notices(record, self._seen) if n.event in self._events)
        if self._failures:
            self._warn()

    def job_failed(self, job: str, in_a_row: int, error: str, time: datetime) -> None:
        """The scheduler's: a job failed `in_a_row` times; news once it repeats."""
        if in_a_row == REPEATED_FAILURES and "job_failing" in self._events:
            text = f"job {job} failed {in_a_row} times in a row: {error}"[:500]
            self._put([Notice("job_failing", self._golem, time, text)])

    def _put(self, found: Iterable[Notice]) -> None:
        for notice in found:
            try:
                self._queue.put_nowait(notice)
                self.queued[notice.event] += 1
            except queue.Full:
                log.warning("notice_dropped", event=notice.event, reason="the queue is full")

    def _send_loop(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            batch: list[Notice] = []
            if first is None:
                stopping = True
            else:
                batch.append(first)
            while len(batch) < BATCH_MAX and not stopping:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                else:
                    batch.append(item)
            if batch:
                self._send(batch)
            if not stopping and not self._closing.is_set():
                self._closing.wait(MIN_INTERVAL_S)  # at most one message an interval

    def _send(self, batch: list[Notice]) -> None:
        title = f"golem {self._golem}: " + (
            batch[0].text if len(batch) == 1 else f"{len(batch)} notices"
        )
        body = "\n".join(notice.line() for notice in batch)
        try:
            ok = bool(self._apprise.notify(body=body, title=title[:250]))
        except Exception as exc:  # a notice never fails the golem
            ok, reason = False, f"{type(exc).__name__}: {exc}"
        else:
            reason = "apprise could not deliver it (see its log)"
        if ok:
            self.sent += 1
        else:
            self.failed += 1
            self._failures.append((len(batch), reason))

    def _warn(self) -> None:
        while self._failures:
            count, reason = self._failures.popleft()
            log.warning("notice_failed", golem=self._golem, notices=count, reason=reason)

    def close(self) -> None:
        """Send what is queued (without waiting out the interval) and stop the thread."""
        self._closing.set()
        try:
            self._queue.put(None, timeout=_CLOSE_S)
        except queue.Full:
            log.warning("notices_unsent", reason="the queue stayed full")
            return
        self._thread.join(_CLOSE_S)
        self._warn()
        if self._thread.is_alive():
            log.warning("notices_unsent", reason=f"still sending after {_CLOSE_S:g} s")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
