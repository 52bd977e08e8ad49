"""The world feed: text from outside the golem (news, governance proposals, token
listings) that arrives at a time. It is external text: the context layers delimit it as
data and, under the Full profile, screen it for instructions before a model reads it.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

__all__ = ["FeedItem", "ScheduledFeed", "feed_ref"]


@dataclass(frozen=True, slots=True)
class FeedItem:
    time: datetime
    source: str  # "news", "governance", "token_list", …
    text: str
    # What the text asks a reader to do (exit, hedge, rebalance), when a simulation's
    # scenario labels it an attack: what a model that obeys external text would propose.
    # A label for the simulated model and the tally only; the golem never reads it.
    asks: str | None = None

    @property
    def ref(self) -> str:
        """The item's reference in a decision's provenance: its source and a digest of its
        text (the same text from the same source is the same item, whenever it came)."""
        return feed_ref(self.source, self.text)


def feed_ref(source: str, text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    return f"{source}:{digest}"


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
