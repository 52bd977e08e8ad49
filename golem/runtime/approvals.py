"""Human approval of large stakes: a trade risk approved whose stake (the USD it moves) is
above `[subsystems.risk] approve_above_stake` is held, not executed, until the owner
answers (`POST /approvals/ID`, `golem ctl TARGET approvals approve ID`), the approval
policy answers for the owner (a simulation: `approve_all`, `deny_all`, `approve_below:X`),
or `approval_timeout` passes (then it is denied). The golem keeps ticking meanwhile; an
approved trade executes on the tick after the approval, at that tick's price, re-checked
by risk's hard limits. Each fate is one log line naming who decided (owner, timeout,
policy); the queue is state (store/approvals.py), so it outlives a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

import structlog

from golem.runtime.config.sections import GolemConfig
from golem.runtime.store.approvals import (
    ApprovalBook,
    ApprovalRow,
    Status,
    decide_approval,
    list_approvals,
)
from golem.runtime.store.state import StateStore
from golem.subsystems.contract import PortfolioView, ProposedTrade
from golem.subsystems.risk import Sizing, trade_notional
from golem.subsystems.risk.approval import ApprovalRules

__all__ = ["ApprovalRow", "Approvals", "Status", "decide_approval", "list_approvals"]

log = structlog.get_logger("golem")


Tell = Callable[[ApprovalRow], None]


class Approvals:
    """A golem's queue of held trades. The open ones are kept in memory and read again
    from the store only while some wait for the owner (an answer arrives there).
    `tell`, when set (the owner's notices), hears of each row's change once its tick
    commits (`at_commit`)."""

    def __init__(
        self,
        rules: ApprovalRules,
        book: ApprovalBook,
        golem_id: str,
        *,
        sizing: Sizing,
        at_commit: Callable[[Callable[[], None]], None],
    ) -> None:
        self.rules, self._book, self._golem_id = rules, book, golem_id
        self._sizing, self._at_commit = sizing, at_commit
        self.tell: Tell | None = None
        # What an earlier life left open is settled even if the key is now unset.
        self._open = {row.id: row for row in book.open()}
        self._last = book.last_id()

    @classmethod
    def of(cls, config: GolemConfig, store: StateStore, sizing: Sizing) -> Approvals:
        """The queue of `config`'s golem, kept in `store`."""
        rules, golem_id = config.subsystems.risk.approvals(), config.golem.id
        return cls(rules, store.approvals, golem_id, sizing=sizing, at_commit=store.at_commit)

    def __bool__(self) -> bool:
        """Whether any held trade is still open (waiting, or approved and not executed)."""
        return bool(self._open)

    def stake(self, trade: ProposedTrade, portfolio: PortfolioView) -> float:
        """The USD `trade` would move from `portfolio`."""
        return trade_notional(trade, portfolio, self._sizing)

    def holds(self, trade: ProposedTrade, portfolio: PortfolioView) -> bool:
        """Whether `trade`, approved by risk on `portfolio`, waits for the owner."""
        above = self.rules.above_usd
        return above is not None and self.stake(trade, portfolio) > above

    def hold(
        self, trade: ProposedTrade, stake_usd: float, tick: int, now: datetime, price: float
    ) -> ApprovalRow:
        """Hold `trade` (as risk approved it) for an answer; the policy's, at once, if it
        gives one. While a trade of the same action waits, the owner is not asked again:
        the waiting one stands for it (one line says so)."""
        for waiting in self._open.values():
            if waiting.status is Status.WAITING and waiting.action == str(trade.action):
                log.info(
                    "approval_still_waiting",
                    golem=self._golem_id,
                    tick=tick,
                    id=waiting.id,
                    action=waiting.action,
                    stake_usd=round(stake_usd, 2),
                )
                return waiting
        self._last += 1
        row = ApprovalRow(
            id=self._last,
            time=now,
            tick=tick,
            action=str(trade.action),
            size_usd=trade.size_usd,
            stake_usd=round(stake_usd, 2),
            price=price,
            reason=trade.reason,
            deadline=now + self.rules.timeout,
            status=Status.WAITING,
        )
        self._book.hold(row)
        self._open[row.id] = row
        self._told_owner(row)
        log.info(
            "approval_waiting",
            golem=self._golem_id,
            tick=tick,
            id=row.id,
            action=row.action,
            stake_usd=row.stake_usd,
            above_usd=self.rules.above_usd,
            deadline=row.deadline.isoformat(),
        )
        answer = self.rules.policy.decides(stake_usd)
        if answer is not None:
            status = Status.APPROVED if answer else Status.DENIED
            row = self._settle(row, status, "policy", now, tick)
        return row

    def due(self, tick: int, now: datetime) -> list[ApprovalRow]:
        """The approved trades to execute now; the owner's answers read, each logged, and
        the waiting trades past their deadline denied (`decided_by` timeout)."""
        if not self._open:
            return []
        waiting = [id for id, row in self._open.items() if row.status is Status.WAITING]
        if waiting:
            for row in self._book.rows(waiting):  # the owner's answers, committed since
                if row.decided_by is not None:
                    self._open[row.id] = row
                    self._told(row, tick)
        for row in list(self._open.values()):
            if row.status is Status.WAITING and now >= row.deadline:
                self._settle(row, Status.DENIED, "timeout", now, tick)
        return [row for row in self._open.values() if row.status is Status.APPROVED]

    def executed(
        self, row: ApprovalRow, now: datetime, tick: int, *, done: bool, result: str
    ) -> None:
        """What came of an approved trade at this tick: executed, or blocked by the limits."""
        status = Status.EXECUTED if done else Status.BLOCKED
        settled = replace(row, status=status, result=result)
        self._book.settle(settled, Status.APPROVED)
        del self._open[row.id]
        self._told_owner(settled)
        log.info(
            "approval_executed" if done else "approval_blocked",
            golem=self._golem_id,
            tick=tick,
            id=row.id,
            action=row.action,
            decided_by=row.decided_by,
            result=result,
        )

    def _settle(
        self, row: ApprovalRow, status: Status, by: str, now: datetime, tick: int
    ) -> ApprovalRow:
        settled = replace(row, status=status, decided_by=by, decided_time=now)
        self._book.settle(settled, Status.WAITING)
        self._open[row.id] = settled
        self._told(settled, tick)
        return settled

    def _told_owner(self, row: ApprovalRow) -> None:
        tell = self.tell
        if tell is not None:
            self._at_commit(lambda: tell(row))

    def _told(self, row: ApprovalRow, tick: int) -> None:
        """One line for a decision; a denied trade leaves the queue."""
        self._told_owner(row)
        if row.status is Status.DENIED:
            del self._open[row.id]
        log.info(
            "approval_decided",
            golem=self._golem_id,
            tick=tick,
            id=row.id,
            action=row.action,
            stake_usd=row.stake_usd,
            decision="approve" if row.status is Status.APPROVED else "deny",
            decided_by=row.decided_by,
        )
