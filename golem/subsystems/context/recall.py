"""What L2, L4 and L5 read: a golem's memory, indexed so that a prompt over 10,000
grimoire entries and 50,000 episodes is assembled in well under a millisecond.

The runtime keeps one `Memory` up to date as things happen (O(log n) or amortised O(1)
per change); a Situation built without one (tests, one-off calls) gets a Memory made from
its own grimoire and episodes.
"""

from __future__ import annotations

import bisect
import re
from collections import deque
from collections.abc import Iterable, Sequence
from heapq import nlargest

import numpy as np
import numpy.typing as npt

from golem.subsystems.contract import GrimoireEntry, Recall
from golem.world import Episode, MarketSummary, Observation, features
from golem.world.feed import FeedItem

__all__ = ["ANY_REGIME", "Memory", "WithoutFeed", "estimate_regime", "words_of"]

ANY_REGIME = "any"
_WORD = re.compile(r"[a-z]{4,}")
_STOP = frozenset(
    (
        *("this", "that", "with", "from", "when", "then", "than", "have", "been", "were", "what"),
        *("which", "will", "would", "their", "there", "into", "over", "under", "more", "less"),
        *("most", "least", "about", "after", "before", "while", "only", "also", "very", "each"),
        *("answer", "decide", "tick", "golem"),
    )
)
_CANDIDATES = 48  # how deep into a regime's confidence order retrieval looks
_RARE_WORD = 256  # a word in more entries than this says nothing about relevance
_N_FEATURES = 6
_FEW = 16  # up to this many nearest episodes, repeated argmins; more, a sort


def words_of(text: str) -> frozenset[str]:
    """The content words of `text`, for matching knowledge to a question."""
    return frozenset(_WORD.findall(text.lower())) - _STOP


def estimate_regime(market: MarketSummary) -> str:
    """The golem's own reading of the regime (the simulation's true label is hidden from
    it): a fall of more than 5% over the window is a crash, high volatility volatile, a
    price beyond one standard deviation of its average trending, anything else calm."""
    if market.delta_period is not None and market.delta_period < -0.05:
        return "crash"
    if market.return_volatility is not None and market.return_volatility > 0.004:
        return "volatile"
    if market.zscore is not None and abs(market.zscore) > 1.0:
        return "trending"
    return "calm"


class Memory:
    """The observation window, the world feed, the active grimoire and the episodes."""

    def __init__(self, *, observations: int = 64, feed: int = 64, episodes: int = 200_000) -> None:
        self._observations: deque[Observation] = deque(maxlen=observations)
        self._feed: deque[FeedItem] = deque(maxlen=feed)
        self._entries: dict[str, GrimoireEntry] = {}
        self._words: dict[str, frozenset[str]] = {}
        self._by_regime: dict[str, list[tuple[float, str]]] = {}  # (-confidence, id), sorted
        self._postings: dict[str, set[str]] = {}
        self._episodes = _EpisodeIndex(episodes)

    @classmethod
    def of(
        cls,
        grimoire: Iterable[GrimoireEntry] = (),
        episodes: Iterable[Episode] = (),
        observations: Iterable[Observation] = (),
        feed: Iterable[FeedItem] = (),
    ) -> Memory:
        memory = cls()
        for entry in grimoire:
            memory.put_entry(entry)
        for episode in episodes:
            memory.put_episode(episode)
        for observation in observations:
            memory.observe(observation)
        for item in feed:
            memory.hear(item)
        return memory

    # --- updates --------------------------------------------------------------------

    def observe(self, observation: Observation) -> None:
        self._observations.append(observation)

    def observe_all(self, observations: Iterable[Observation]) -> None:
        """`observe` each, in order."""
        self._observations.extend(observations)

    def hear(self, item: FeedItem) -> None:
        self._feed.append(item)

    def withhold(self, refs: Iterable[str]) -> None:
        """Drop the feed items named by `refs` (FeedItem.ref): no later prompt shows them."""
        gone = frozenset(refs)
        kept = [item for item in self._feed if item.ref not in gone]
        if len(kept) < len(self._feed):
            self._feed = deque(kept, maxlen=self._feed.maxlen)

    def put_entry(self, entry: GrimoireEntry) -> None:
        """Add or replace an entry; an archived entry leaves the index."""
        self.drop_entry(entry.id)
        if entry.archived:
            return
        self._entries[entry.id] = entry
        words = words_of(entry.text)
        self._words[entry.id] = words
        bisect.insort(self._by_regime.setdefault(_regime(entry), []), (-entry.confidence, entry.id))
        for word in words:
            self._postings.setdefault(word, set()).add(entry.id)

    def drop_entry(self, entry_id: str) -> None:
        old = self._entries.pop(entry_id, None)
        if old is None:
            return
        ranked = self._by_regime[_regime(old)]
        del ranked[bisect.bisect_left(ranked, (-old.confidence, old.id))]
        for word in self._words.pop(entry_id):
            self._postings[word].discard(entry_id)

    def put_episode(self, episode: Episode) -> None:
        """Add an episode, or replace it once its outcome is known."""
        self._episodes.put(episode)

    # --- what the layers read ----------------------------------------------------------

    def observations(self, n: int) -> list[Observation]:
        """The last `n` observations, newest first."""
        obs = self._observations
        return [obs[-i] for i in range(1, min(n, len(obs)) + 1)]

    def feed(self, n: int) -> list[FeedItem]:
        """The last `n` feed items, newest first."""
        feed = self._feed
        return [feed[-i] for i in range(1, min(n, len(feed)) + 1)]

    def knowledge(self, regime: str, words: frozenset[str], k: int) -> list[GrimoireEntry]:
        """The `k` entries that best fit `regime` and the question's `words`: confidence,
        raised by each shared word and by a regime that matches exactly. Candidates are the
        most confident entries of the regime and of any regime, and every entry sharing a
        rare word with the question."""
        if k <= 0 or not self._entries:
            return []
        candidates: set[str] = set()
        for key in (regime, ANY_REGIME):
            candidates.update(i for _, i in self._by_regime.get(key, [])[:_CANDIDATES])
        for word in words:
            posting = self._postings.get(word)
            if posting and len(posting) <= _RARE_WORD:
                candidates |= posting
        entries, all_words = self._entries, self._words

        def score(entry_id: str) -> tuple[float, str]:
            entry = entries[entry_id]
            shared = len(all_words[entry_id] & words)
            fit = 1.25 if entry.regime == regime else 1.0
            return (entry.confidence * fit * (1 + 0.5 * shared), entry_id)

        return [entries[i] for _, i in nlargest(k, map(score, candidates))]

    def similar(self, market: MarketSummary, k: int) -> list[Episode]:
        """The `k` resolved episodes whose market looked most like `market`, nearest first."""
        return self._episodes.nearest(market, k)

    @property
    def grimoire_size(self) -> int:
        return len(self._entries)

    @property
    def episode_count(self) -> int:
        return len(self._episodes)


class WithoutFeed:
    """A memory with the world feed withheld: a prompt made from it shows no external
    text (the counterfactual a provenance check asks; golem.runtime.provenance)."""

    def __init__(self, memory: Recall) -> None:
        self._memory = memory

    def observations(self, n: int) -> Sequence[Observation]:
        return self._memory.observations(n)

    def feed(self, n: int) -> Sequence[FeedItem]:
        return ()

    def knowledge(self, regime: str, words: frozenset[str], k: int) -> Sequence[GrimoireEntry]:
        return self._memory.knowledge(regime, words, k)

    def similar(self, market: MarketSummary, k: int) -> Sequence[Episode]:
        return self._memory.similar(market, k)


def _regime(entry: GrimoireEntry) -> str:
    return entry.regime or ANY_REGIME


class _EpisodeIndex:
    """Feature vectors of resolved episodes, one feature per row of a float32 array (so a
    query is one vector-matrix product over contiguous rows), and a few argmins: about
    0.1 ms over 50,000 episodes."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._columns: npt.NDArray[np.float32] = np.empty((_N_FEATURES, 1024), np.float32)
        self._norms: npt.NDArray[np.float32] = np.empty(1024, np.float32)
        self._rows: list[Episode] = []  # column → resolved episode
        self._column_of: dict[int, int] = {}
        self._pending: dict[int, Episode] = {}

    def __len__(self) -> int:
        return len(self._rows) + len(self._pending)

    def put(self, episode: Episode) -> None:
        if episode.outcome is None:
            self._pending[episode.id] = episode
            return
        self._pending.pop(episode.id, None)
        column = self._column_of.get(episode.id)
        if column is not None:
            self._rows[column] = episode
            return
        if len(self._rows) == self._capacity:
            self._compact()
        column = len(self._rows)
        if column == self._norms.shape[0]:
            grown = np.empty((_N_FEATURES, 2 * column), np.float32)
            grown[:, :column] = self._columns
            self._columns = grown
            self._norms = np.resize(self._norms, 2 * column)
        vector = features(episode.observation)
        self._columns[:, column] = vector
        self._norms[column] = sum(x * x for x in vector)
        self._rows.append(episode)
        self._column_of[episode.id] = column

    def _compact(self) -> None:
        """Forget the oldest tenth: amortised O(1) per episode."""
        cut = max(1, self._capacity // 10)
        n = len(self._rows)
        self._columns[:, : n - cut] = self._columns[:, cut:n]
        self._norms[: n - cut] = self._norms[cut:n]
        self._rows = self._rows[cut:]
        self._column_of = {episode.id: column for column, episode in enumerate(self._rows)}

    def nearest(self, market: MarketSummary, k: int) -> list[Episode]:
        n = len(self._rows)
        if k <= 0 or n == 0:
            return []
        query = np.asarray(features(market), np.float32)
        # |x − q|² = |x|² − 2·x·q + |q|²; the last term ranks nothing, so it is left out.
        distance = query @ self._columns[:, :n]
        distance *= -2.0
        distance += self._norms[:n]
        if k >= _FEW or k >= n:
            order = np.argsort(distance, kind="stable")[:k]
            return [self._rows[int(i)] for i in order]
        nearest = []
        for _ in range(k):  # k argmins beat a partition for the few a prompt shows
            i = int(distance.argmin())
            nearest.append(self._rows[i])
            distance[i] = np.inf
        return nearest
