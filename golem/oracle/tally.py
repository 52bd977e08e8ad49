"""The resolutions' counts the reports read without scanning the book: per category over a
life (total, hits), and per (category, regime) over a sliding window, kept as resolutions
come and leave it. O(1) per resolution.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from datetime import datetime

from golem.oracle.book import Category, Resolution

__all__ = ["Tally"]


class Tally:
    def __init__(self) -> None:
        # Per category: [total, hits] (the lifetime counts).
        self.resolved: dict[str, list[int]] = {str(c): [0, 0] for c in Category}
        # Per (category, regime): [total, hits] of the resolutions in the window.
        self.windowed: dict[tuple[str, str], list[int]] = {}
        self._recent: deque[Resolution] = deque()

    def count(self, resolved: Iterable[Resolution]) -> None:
        """Count resolutions (in the order they were made) in both tallies."""
        windowed, recent = self.windowed, self._recent
        for r in resolved:
            counts = self.resolved[r.category]
            counts[0] += 1
            counts[1] += r.correct
            counts = windowed.setdefault((r.category, r.regime), [0, 0])
            counts[0] += 1
            counts[1] += r.correct
            recent.append(r)

    def forget(self, oldest: datetime) -> None:
        """Take the resolutions made before `oldest` out of the windowed tally."""
        recent, windowed = self._recent, self.windowed
        while recent and recent[0].resolved_at < oldest:
            old = recent.popleft()
            counts = windowed[(old.category, old.regime)]
            counts[0] -= 1
            counts[1] -= old.correct
