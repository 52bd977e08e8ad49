"""Many seeded lives at once: each in its own process (one per core), each writing its own
log and summary.json, and the distributions over them (lifespan, causes of death, and how
much of the risk and death work the model did) per allocator policy.
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from golem.runtime.simulate import LifeSpec, run_life

__all__ = ["distribution", "run_lives"]


_ORPHAN_CHECK_S = 1.0


def _summary(spec: LifeSpec) -> dict[str, Any]:
    return run_life(spec).summary


def _exit_with(parent: int) -> None:
    """In a worker: end this process once `parent` is gone. A parent killed outright
    (SIGTERM, SIGKILL) cannot stop its pool, whose workers would live on otherwise."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_ORPHAN_CHECK_S)
        os._exit(1)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def run_lives(
    specs: Sequence[LifeSpec],
    *,
    workers: int | None = None,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Live every spec, `workers` at a time (default: the cores); summaries in spec order."""
    workers = max(1, min(len(specs), workers or os.cpu_count() or 1))
    summaries: dict[int, dict[str, Any]] = {}
    # Spawned workers start clean: no trio run, logging or open database is inherited.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_exit_with, initargs=(os.getpid(),)
    ) as pool:
        futures = {pool.submit(_summary, spec): i for i, spec in enumerate(specs)}
        for future in as_completed(futures):
            summary = future.result()
            summaries[futures[future]] = summary
            if on_done is not None:
                on_done(summary)
    return [summaries[i] for i in range(len(specs))]


def distribution(summaries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Lifespan min / median / max (days), causes of death, and coverage: the share of
    risk assessments made by the model where a model may be asked (Terminal allows no
    inference but the death reflection, so its assessments are the rules', counted apart),
    and of deaths whose testament the model wrote."""
    lives = list(summaries)
    spans = [float(s["lifespan_days"]) for s in lives]
    deaths = [s for s in lives if s["ended"] == "died"]
    risk = sum(int(s["risk_assessments"]) for s in lives)
    risk_by_model = sum(int(s["risk_by_model"]) for s in lives)
    in_terminal = sum(int(s.get("risk_in_terminal", 0)) for s in lives)
    askable = risk - in_terminal
    testaments = sum(bool(s["death_testament_by_model"]) for s in deaths)
    return {
        "lives": len(lives),
        "lifespan_days": {
            "min": round(min(spans), 4) if spans else None,
            "median": round(statistics.median(spans), 4) if spans else None,
            "max": round(max(spans), 4) if spans else None,
            "mean": round(statistics.fmean(spans), 4) if spans else None,
        },
        "causes": dict(sorted(Counter(str(s["cause_of_death"]) for s in deaths).items())),
        "survived_horizon": sum(1 for s in lives if s["ended"] == "horizon"),
        "risk_assessments": risk,
        "risk_in_terminal": in_terminal,
        "risk_coverage": round(risk_by_model / askable, 4) if askable else None,
        "deaths": len(deaths),
        "death_coverage": round(testaments / len(deaths), 4) if deaths else None,
        "spend_usd_mean": round(statistics.fmean(float(s["spend_usd"]) for s in lives), 6)
        if lives
        else None,
    }
