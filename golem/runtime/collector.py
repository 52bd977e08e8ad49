"""The cycle collector tuned for a life: what exists when the life starts (modules,
config, the assembled golem, a loaded model) lives as long as the process, and a tick
makes thousands of objects that reference counting frees at once.

`long_lived()` freezes the objects alive at its start out of the collector's sight (they
are never garbage: walking them on every full collection is wasted work) and lets more
new objects pile up before a young collection. On a simulated month this takes the time
in the collector from ~2% of the run to ~0.2% (see benchmarks/bench_simulate.py). Cyclic
garbage waits a little longer for its collection; nothing else changes. Python's own
advice for a long-lived heap: https://docs.python.org/3/library/gc.html#gc.freeze
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["YOUNG_THRESHOLD", "long_lived"]

YOUNG_THRESHOLD = 10_000  # net new container objects between young collections (default 700)

# The thresholds each open block found; the outermost (the first) sets and restores, so
# nested lives in one process (tests) leave the collector as they found it.
_OPEN: list[tuple[int, ...]] = []


@contextmanager
def long_lived() -> Iterator[None]:
    """Within the block, the collector skips what existed at its start and collects the
    young generation less often; both are restored when the outermost block ends."""
    found = gc.get_threshold()
    if not _OPEN:
        gc.freeze()
        if found[0]:  # 0: young collections are off, and stay off
            gc.set_threshold(max(YOUNG_THRESHOLD, found[0]), *found[1:])
    _OPEN.append(found)
    try:
        yield
    finally:
        outer = _OPEN.pop()
        if not _OPEN:
            gc.set_threshold(*outer)
            gc.unfreeze()
