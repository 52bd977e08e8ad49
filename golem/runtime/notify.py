"""The owner's notices through apprise ([notify]): a subscriber of the golem's record
stream (a trade, a trade risk blocked, risk's second opinion disagreeing, a phase change,
a budget line exhausted, a senescence stage, a death with its testament's summary), of
the scheduler's failures (a job failing repeatedly) and of the approval queue (a trade
waiting for the owner, denied, executed or blocked after approval: `watch_approvals`).
A gate that blocks trades outside risk tells it through `trade_blocked`.

The tick only puts a notice in a bounded queue (`publish` never blocks: beyond
QUEUE_MAX waiting the newest are dropped, with a warning). One worker thread sends: a
message, then a wait of MIN_INTERVAL_S, then whatever gathered meanwhile (at most
BATCH_MAX notices) as the next message, so the owner gets at most one message per
interval whatever the golem does (a simulated life's day arrives in a few messages).
A failed send is a warning line, never a failure: written by the golem's own thread at
its next record (the log's sinks are its), not by the worker.
"""

from __future__ import annotations

import queue
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime
from types import TracebackType
from typing import Self

import apprise
import structlog
from msgspec import Struct

from golem.mortality import DegradationReason, Phase, utc_day
from golem.runtime.approvals import ApprovalRow, Approvals, Status
from golem.runtime.config.owner import NotifyEvent, NotifySection
from golem.runtime.record import DecisionRecord
from golem.runtime.stream import Record, VitalityRecord
from golem.subsystems.contract import PortfolioView, ProposedTrade

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
    """What the notices already told: the last phase and senescence stages, the exhausted
    lines; and `held`, which trades risk approved wait for the owner instead (their
    notices come from the approval queue)."""

    def __init__(self) -> None:
        self.phase: Phase | None = None
        self.senescent = False
        self.confirmed = False
        self.exhausted: set[tuple[date, str]] = set()
        self.held: Callable[[ProposedTrade, PortfolioView], bool] | None = None


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
        if record.confirmed and not seen.confirmed:
            text = (
                "senescence stage 2 (confirmed): its forecasts stayed below the threshold "
                f"for the whole grace (vitality {record.vitality:.3f})"
            )
            found.append(Notice("senescence", record.golem, record.time, text))
        seen.phase, seen.senescent = record.phase, record.senescent
        seen.confirmed = record.confirmed
        return found
    return _of_decision(record, seen)


def _of_decision(record: DecisionRecord, seen: _Seen) -> list[Notice]:
    found: list[Notice] = []
    outcome = record.outcome
    subsystem = str(record.subsystem)
    if subsystem == "risk" and outcome is not None:
        found += _of_risk(record, seen)
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


def _of_risk(record: DecisionRecord, seen: _Seen) -> list[Notice]:
    """A risk decision's notices: the trade it approved (unless it waits for the owner),
    the trade it blocked, its second opinion's disagreement."""
    found: list[Notice] = []
    outcome, golem, time = record.outcome, record.golem, record.time
    assert outcome is not None
    trade, held, situation = outcome.approved, seen.held, record.situation
    if trade is not None and (
        held is None or situation is None or not held(trade, situation.portfolio)
    ):
        text = f"trade {trade.action} {_size(trade.size_usd)}: {trade.reason}"[:300]
        found.append(Notice("trade", golem, time, text))
    if outcome.blocked is not None:
        blocked = outcome.blocked
        text = f"risk blocked {blocked.action} {_size(blocked.size_usd)}: {outcome.summary}"
        found.append(Notice("trade_blocked", golem, time, text[:300]))
    check = record.verification
    if check is not None and check.agreed is False:
        stood = "the second's" if check.second_kept else "the first's"
        text = f"risk's second opinion ({check.by}) disagreed; {stood} stands: {outcome.summary}"
        found.append(Notice("risk_disagreement", golem, time, text[:300]))
    return found


def _size(usd: float | None) -> str:
    return "all" if usd is None else f"${usd:,.2f}"


def approval_notice(row: ApprovalRow, golem: str) -> Notice | None:
    """The notice a held trade's change makes (none for an approval: its execution's)."""
    what = f"#{row.id} {row.action} {_size(row.size_usd)} (stake ${row.stake_usd:,.2f})"
    if row.status is Status.WAITING:
        text = f"trade {what} waits for your approval until {row.deadline:%Y-%m-%d %H:%M}"
        return Notice("approval", golem, row.time, f"{text}: {row.reason}"[:300])
    when = row.decided_time or row.time
    if row.status is Status.DENIED:
        return Notice("trade_blocked", golem, when, f"trade {what} denied by {row.decided_by}")
    if row.status is Status.EXECUTED:
        text = f"trade {what} approved by {row.decided_by}, {row.result}"
        return Notice("trade", golem, when, text[:300])
    if row.status is Status.BLOCKED:
        text = f"trade {what} approved by {row.decided_by}, then blocked: {row.result}"
        return Notice("trade_blocked", golem, when, text[:300])
    return None


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

    def watch_approvals(self, approvals: Approvals) -> None:
        """Hear of the trades `approvals` holds (and so tell no "trade" of them at risk's
        approval: the queue tells what became of each)."""
        self._seen.held = approvals.holds
        approvals.tell = self.approval

    def approval(self, row: ApprovalRow) -> None:
        """The approval queue's: a held trade waits, was denied, executed or blocked."""
        notice = approval_notice(row, self._golem)
        if notice is not None and notice.event in self._events:
            self._put([notice])

    def trade_blocked(self, time: datetime, action: str, by: str, reason: str) -> None:
        """A trade blocked outside risk (an action gate, say): `by` names what blocked it."""
        if "trade_blocked" in self._events:
            text = f"{by} blocked {action}: {reason}"[:300]
            self._put([Notice("trade_blocked", self._golem, time, text)])

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
