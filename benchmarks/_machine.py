"""What the benchmarks share about this machine: its speed at the moment of a run."""

from __future__ import annotations

import math
import time


def reference_loop_ms() -> float:
    """The best of five runs of a fixed pure-Python loop: this machine's speed today."""
    best = math.inf
    for _ in range(5):
        started = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i & 7
        best = min(best, time.perf_counter() - started)
    return 1e3 * best
