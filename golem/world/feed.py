"""The world feed: text from outside the golem (news, governance proposals, token
listings) that arrives at a time. It is external text: the context layers delimit it as
data and, under the Full profile, screen it for instructions before a model reads it.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

__all__ = ["FeedItem", "ScheduledFeed"]


@dataclass(frozen=True, slots=True)
class FeedItem:
    time: datetime
    source: str  # "news", "governance", "token_list", …
    text: str


class ScheduledFeed:
    """Items known in advance (a scenario's script, a replayed archive), served by time."""

    def __init__(self, items: Iterable[FeedItem] = ()) -> None:
        self._items = sorted(items, key=lambda item: item.time)
        self._times = [item.time for item in self._items]

    def __len__(self) -> int:
        return len(self._items)

    def between(self, after: datetime | None, until: datetime) -> list[FeedItem]:
        """Items with `after` < time <= `until` (all up to `until` when `after` is None)."""
        start = 0 if after is None else bisect.bisect_right(self._times, after)
        return self._items[start : bisect.bisect_right(self._times, until)]
