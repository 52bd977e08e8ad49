"""Many seeded lives at once on Dask (`distributed`): each life one task that returns its
summary (the life writes its own files under its out directory, on the worker's disk),
run by a LocalCluster of worker processes on this machine (`executor()`, one thread each:
a life is CPU-bound Python) or by an existing cluster (`executor("tcp://host:8786")`).
Then the distributions over the lives (lifespan, causes of death, and how much of the risk
and death work the model did) per allocator policy (`distribution`).

A worker that dies mid-life (killed, out of memory) loses the life, and the scheduler
runs it again elsewhere (its out directory is rewritten from the start); a life that
raises is retried once (`RETRIES`) and then ends as a failure with its error. Each life
is reported once, whatever was retried.

Ctrl-C: the local workers start with SIGINT blocked (they inherit the mask), so a
terminal's Ctrl-C to the whole group reaches the parent alone, which kills the workers at
once and lets the KeyboardInterrupt go on up; lives that finished keep their summaries. A
parent killed outright takes its workers with it (each watches a pipe from its parent).
"""

from __future__ import annotations

import logging
import os
import signal
import statistics
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from golem.simulation.deaths import death_report
from golem.simulation.outcomes import outcome_distribution, spread
from golem.simulation.run import LifeSpec, run_life

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

__all__ = ["RETRIES", "LifeEnd", "OnEnd", "distribution", "executor", "run_lives", "slots"]

RETRIES = 1  # reruns of a life that raised (a worker that died is the scheduler's to rerun)
_CLOSE_S = 5.0


@dataclass(frozen=True, slots=True)
class LifeEnd:
    """How one life of a batch ended: its summary, or the error it failed with."""

    index: int  # in the specs given
    spec: LifeSpec
    summary: dict[str, Any] | None
    error: str | None
    seconds: float  # its wall time on the worker (0 for a failure)


OnEnd = Callable[[LifeEnd], None]


def _life(spec: LifeSpec) -> tuple[dict[str, Any], float]:
    """A task: live `spec` (writing its files under spec.out); its summary, wall seconds."""
    start = time.monotonic()
    summary = run_life(spec).summary
    return summary, time.monotonic() - start


@contextmanager
def executor(scheduler: str | None = None, workers: int | None = None) -> Iterator[Client]:
    """A client of the cluster at `scheduler`, or of a LocalCluster of `workers` processes
    (default: the cores) started here and stopped on the way out: at once (its workers
    killed) if an exception (Ctrl-C) is leaving."""
    # Imported here: Dask is most of a second to import, and only a batch needs it.
    from distributed import Client, LocalCluster  # noqa: PLC0415

    if scheduler is not None:
        remote = Client(scheduler, set_as_default=False)
        try:
            yield remote
        finally:
            remote.close(timeout=_CLOSE_S)
        return
    cluster: LocalCluster | None = None
    client: Client | None = None
    try:
        with _sigint_blocked():  # the cluster's threads and processes keep SIGINT blocked
            cluster = LocalCluster(
                n_workers=workers or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # its HTTP server on a free port: 8787 may be taken
                # Its workers' shutdown chatter is no news to a user: a life's failure comes
                # back with its task, and a worker's death is the scheduler's to recover from.
                silence_logs=logging.CRITICAL,
            )
            client = Client(cluster, set_as_default=False)
        yield client
    except BaseException:
        for nanny in list(cluster.workers.values()) if cluster is not None else ():
            pid = getattr(nanny, "pid", None)
            if pid is not None:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        raise
    finally:
        if client is not None:
            client.close(timeout=_CLOSE_S)
        if cluster is not None:
            cluster.close(timeout=_CLOSE_S)


def slots(client: Client) -> int:
    """Lives the cluster runs at a time: its worker threads."""
    return sum(client.nthreads().values())


def run_lives(
    client: Client, specs: Sequence[LifeSpec], on_end: OnEnd | None = None
) -> list[LifeEnd]:
    """Live every spec on `client`'s cluster; how each ended, in spec order. `on_end` hears
    of each life as it ends (once, whatever was retried). If anything interrupts it, the
    lives not yet ended are cancelled before the exception goes on."""
    from distributed import as_completed  # noqa: PLC0415

    run = uuid.uuid4().hex[:12]  # task keys unique on a cluster shared by other batches
    futures = {
        client.submit(_life, spec, key=f"golem-life-{run}-{i}", retries=RETRIES, pure=False): i
        for i, spec in enumerate(specs)
    }
    ends: dict[int, LifeEnd] = {}
    try:
        for future in as_completed(futures, loop=client.loop):
            i = futures[future]
            if future.status == "finished":
                summary, seconds = future.result()
                ends[i] = LifeEnd(i, specs[i], summary, None, seconds)
            else:
                exc = future.exception()
                error = f"{type(exc).__name__}: {exc}" if exc is not None else future.status
                ends[i] = LifeEnd(i, specs[i], None, error, 0.0)
            # Received: let the cluster forget it. A result still held would be computed
            # again if its worker died, rewriting a finished life's directory after the
            # batch had counted it.
            future.release()
            if on_end is not None:
                on_end(ends[i])
    except BaseException:
        with suppress(Exception):
            client.cancel(list(futures), force=True)
        raise
    return [ends[i] for i in range(len(specs))]


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def distribution(summaries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Lifespan min / median / max (days: a lineage's, founder's birth to the last
    golem's end), how the lineages ended (the last golem's cause of death), and coverage:
    the share of risk assessments made by the model where a model may be asked (Terminal
    allows no inference but the death reflection, so its assessments are the rules',
    counted apart), and of all the golems' deaths whose testament the model wrote; the
    generations per lineage; the decision cache's hit rate over all lookups and the risk
    verdicts reused; the deaths per lineage and the testaments' share of the money, in
    all and by cause (`death_report`); then each outcome's min / median / max
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
        "death_report": death_report(lives),
        **outcome_distribution(lives),
    }
