"""Many seeded lives at once: each in its own process (one per core), each writing its own
summary.json (and log, if asked), and the distributions over them (lifespan, causes of
death, and how much of the risk and death work the model did) per allocator policy.

Ctrl-C reaches every process of the terminal's group. Workers ignore it (they start with
SIGINT blocked, then ignore it), so the parent alone decides: it stops the pool, terminates
the running lives at once, and lets the KeyboardInterrupt go on up; the lives that had
finished keep their summaries.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from multiprocessing.process import BaseProcess
from typing import Any

from golem.simulation.outcomes import outcome_distribution, spread
from golem.simulation.run import LifeSpec, run_life

__all__ = ["OnDone", "distribution", "run_lives"]


_ORPHAN_CHECK_S = 1.0
_STOP_S = 2.0  # a terminated worker that is still there after this is killed

OnDone = Callable[[dict[str, Any], float], None]  # a finished life's summary, its wall seconds


def _summary(spec: LifeSpec) -> tuple[dict[str, Any], float]:
    start = time.monotonic()
    summary = run_life(spec).summary
    return summary, time.monotonic() - start


def _start_worker(parent: int) -> None:
    """A worker's initializer: ignore Ctrl-C (its parent stops it) and watch the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _exit_with(parent)


def _exit_with(parent: int) -> None:
    """In a worker: end this process once `parent` is gone. A parent killed outright
    (SIGTERM, SIGKILL) cannot stop its pool, whose workers would live on otherwise."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_ORPHAN_CHECK_S)
        os._exit(1)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back while workers start: they inherit the mask, so a Ctrl-C before a
    worker's initializer has run cannot make it print a traceback; the parent gets the
    signal when the block ends."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _stop(workers: Iterable[BaseProcess]) -> None:
    """Terminate `workers` and wait for them (killing any that outstays `_STOP_S`)."""
    running = [w for w in workers if w.is_alive()]
    for worker in running:
        worker.terminate()
    deadline = time.monotonic() + _STOP_S
    for worker in running:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.kill()
            worker.join()


def run_lives(
    specs: Sequence[LifeSpec], *, workers: int | None = None, on_done: OnDone | None = None
) -> list[dict[str, Any]]:
    """Live every spec, `workers` at a time (default: the cores); summaries in spec order.
    If anything interrupts it (Ctrl-C, a life that failed), the running lives are
    terminated before the exception goes on."""
    workers = max(1, min(len(specs), workers or os.cpu_count() or 1))
    summaries: dict[int, dict[str, Any]] = {}
    # Spawned workers start clean: no trio run, logging or open database is inherited.
    context = multiprocessing.get_context("spawn")
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
    )
    try:
        with _sigint_blocked():  # the pool starts its workers as the lives are submitted
            futures = {pool.submit(_summary, spec): i for i, spec in enumerate(specs)}
        for future in as_completed(futures):
            summary, seconds = future.result()
            summaries[futures[future]] = summary
            if on_done is not None:
                on_done(summary, seconds)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        _stop(set(multiprocessing.active_children()) - before)
        raise
    pool.shutdown()
    return [summaries[i] for i in range(len(specs))]


def distribution(summaries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Lifespan min / median / max (days: a lineage's, founder's birth to the last
    golem's end), how the lineages ended (the last golem's cause of death), and coverage:
    the share of risk assessments made by the model where a model may be asked (Terminal
    allows no inference but the death reflection, so its assessments are the rules',
    counted apart), and of all the golems' deaths whose testament the model wrote; the
    generations per lineage; the decision cache's hit rate over all lookups and the risk
    verdicts reused; then each outcome's min / median / max
    (`outcome_distribution`: productive life, Terminal days, P&L, Sharpe, ...)."""
    lives = list(summaries)
    spans = [float(s["lifespan_days"]) for s in lives]
    deaths = [s for s in lives if s["ended"] == "died"]
    risk = sum(int(s["risk_assessments"]) for s in lives)
    risk_by_model = sum(int(s["risk_by_model"]) for s in lives)
    in_terminal = sum(int(s.get("risk_in_terminal", 0)) for s in lives)
    askable = risk - in_terminal
    # Every golem of every lineage that died wrote a testament: the share a model wrote.
    died = sum(int(s["deaths"]) for s in lives)
    testaments = sum(int(s["testaments_by_model"]) for s in lives)
    hits = sum(int(s.get("cache_hits", 0)) for s in lives)
    lookups = hits + sum(int(s.get("cache_misses", 0)) for s in lives)
    return {
        "lives": len(lives),
        "lifespan_days": {
            **spread(spans),
            "mean": round(statistics.fmean(spans), 4) if spans else None,
        },
        "causes": dict(sorted(Counter(str(s["cause_of_death"]) for s in deaths).items())),
        "survived_horizon": sum(1 for s in lives if s["ended"] == "horizon"),
        "risk_assessments": risk,
        "risk_in_terminal": in_terminal,
        "risk_coverage": round(risk_by_model / askable, 4) if askable else None,
        "deaths": died,
        "death_coverage": round(testaments / died, 4) if died else None,
        "generations": spread([float(s["generations"]) for s in lives]),
        "cache_hit_rate": round(hits / lookups, 4) if lookups else None,
        "verdicts_reused": sum(int(s.get("verdicts_reused", 0)) for s in lives),
        "spend_usd_mean": round(statistics.fmean(float(s["spend_usd"]) for s in lives), 6)
        if lives
        else None,
        **outcome_distribution(lives),
    }
