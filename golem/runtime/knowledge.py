"""What a life has learnt and heard: its grimoire (the curator's and the dreams' entries)
and the observations and world-feed items since its birth, kept in step with the store
and the memory the context layers read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from msgspec.structs import replace

from golem.runtime.config.sections import FeedEntry
from golem.runtime.store.state import StateStore
from golem.subsystems.context import Memory
from golem.subsystems.contract import GrimoireEntry, Outcome
from golem.world import Observation
from golem.world.feed import FeedItem, ScheduledFeed

__all__ = ["Knowledge"]


class Knowledge:
    """The `grimoire` by entry id, written through to the store and the memory, with the
    tuple a Situation shows (rebuilt only after a change); and the world `feed`, placed
    on the clock at the first observation heard."""

    def __init__(
        self,
        grimoire: dict[str, GrimoireEntry],
        store: StateStore,
        memory: Memory,
        feed: Sequence[FeedEntry],
    ) -> None:
        self.grimoire, self._store, self._memory = grimoire, store, memory
        self._entries: tuple[GrimoireEntry, ...] | None = None
        self._feed = tuple(feed)
        self.feed = ScheduledFeed()  # items placed on the clock at the first observation
        self._heard_until: datetime | None = None

    def entries(self) -> tuple[GrimoireEntry, ...]:
        """The grimoire, as a Situation shows it."""
        if self._entries is None:
            self._entries = tuple(self.grimoire.values())
        return self._entries

    def apply(self, outcome: Outcome | None) -> None:
        """A curation's or a dream's entries: upserted, or archived."""
        if outcome is None:
            return
        self._entries = None
        for entry in outcome.grimoire_upserts:
            self.grimoire[entry.id] = entry
            self._store.save_grimoire_entry(entry)
            self._memory.put_entry(entry)
        for entry_id in outcome.grimoire_archive:
            if entry_id in self.grimoire:
                archived = replace(self.grimoire[entry_id], archived=True)
                self.grimoire[entry_id] = archived
                self._store.save_grimoire_entry(archived)
                self._memory.put_entry(archived)

    def hears_nothing(self, until: datetime) -> bool:
        """Whether hearing an observation at `until` brings no feed item (the feed is
        placed and none falls due by then): a quiet tick's, for the fast-forward."""
        if not self._feed:
            return True
        return self._heard_until is not None and not self.feed.between(self._heard_until, until)

    def hear_quiet(self, observations: Sequence[Observation]) -> None:
        """`hear` each of `observations`, in order, when none brings a feed item (as
        `hears_nothing` said of each: a fast-forward's quiet ticks), in one go."""
        if not observations:
            return
        self._memory.observe_all(observations)
        if self._feed:
            self._heard_until = observations[-1].time

    def hear(self, observation: Observation) -> None:
        """The observation and whatever the world feed said since the last one, into the
        memory. Feed times count from the golem's birth."""
        self._memory.observe(observation)
        entries = self._feed
        if not entries:
            return
        if self._heard_until is None:
            born = self._store.get_meta("born")
            origin = datetime.fromisoformat(born) if born else observation.time
            self.feed = ScheduledFeed(
                FeedItem(origin + e.at, e.source, e.text, e.asks) for e in entries
            )
        for item in self.feed.between(self._heard_until, observation.time):
            self._memory.hear(item)
        self._heard_until = observation.time
