"""Many seeded lives at once on Dask (`distributed`): the lives go in chunks, each chunk
one task that lives them in turn and returns their summaries (each life writes its own
files under its out directory, on the worker's disk), run by a LocalCluster of worker
processes on this machine (`executor()`, one per core and one thread each: a life is
CPU-bound Python, and threads would share one GIL) or by an existing cluster
(`executor("tcp://host:8786")`). A chunk is one life until a life's time is known, then
as many as take about two seconds (`chunk_size`), so that a short life does not pay a
task's scheduling; two tasks per worker are in flight, so none waits for its next. Then
the distributions over the lives (lifespan, causes of death, and how much of the risk
and death work the model did) per allocator policy (`distribution`), and the pace of a
batch (`pace`: lives per minute and the time to go).

A worker that dies mid-chunk (killed, out of memory) loses the chunk, and the scheduler
runs it again elsewhere (its lives' out directories are rewritten from the start); a
chunk lost whole is run again a life a task; a life that raises is run again once
(`RETRIES`) and then ends as a failure with its error, the chunk going on. Each life is
reported once, whatever was retried.

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
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from golem.simulation.deaths import death_report
from golem.simulation.outcomes import outcome_distribution, spread
from golem.simulation.run import LifeSpec, run_life

if TYPE_CHECKING:
    from distributed import Client, Future, LocalCluster

__all__ = [
    "RETRIES",
    "LifeEnd",
    "OnEnd",
    "chunk_size",
    "cores",
    "distribution",
    "executor",
    "pace",
    "pace_text",
    "run_lives",
    "slots",
]

RETRIES = 1  # reruns of a life that raised (a worker that died is the scheduler's to rerun)
CHUNK_S = 2.0  # the wall time a task's chunk of lives aims at, once a life's time is known
SPREAD = 2  # a chunk is at most this fraction of a worker's share of the lives left
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
# What a task sends back of each life: its index, summary or error, and wall seconds.
_Ended = tuple[int, dict[str, Any] | None, str | None, float]


def _lives(chunk: list[tuple[int, LifeSpec]]) -> list[_Ended]:
    """A task: live each spec of `chunk` in turn (each writing its files under its out);
    a life that raises is run again (`RETRIES`), then reported with its error, and the
    chunk goes on to the next."""
    ended: list[_Ended] = []
    for index, spec in chunk:
        error = ""
        for _ in range(1 + RETRIES):
            start = time.monotonic()
            try:
                summary = run_life(spec).summary
            except Exception as exc:  # a life's failure is its row, not the chunk's end
                error = f"{type(exc).__name__}: {exc}"
                continue
            ended.append((index, summary, None, time.monotonic() - start))
            break
        else:
            ended.append((index, None, error, 0.0))
    return ended


def chunk_size(left: int, workers: int, life_s: float | None) -> int:
    """How many lives the next task runs: one until a life's time is known; then as many
    as take `CHUNK_S` (a task's ~10 ms of scheduling is then under 1% of it), but no more
    than a `SPREAD`th of a worker's share of the lives left, so that the last tasks end
    together and the progress keeps moving."""
    if left <= 0:
        return 0
    if life_s is None:
        return 1
    by_time = int(CHUNK_S / life_s) if life_s > 0 else left
    by_share = -(-left // (SPREAD * max(1, workers)))  # rounded up
    return max(1, min(by_time, by_share, left))


def pace(done: int, total: int, seconds: float) -> tuple[float | None, float | None]:
    """(lives per minute, seconds to go) after `done` of `total` lives in `seconds`; None
    before the first life has ended (there is no pace yet)."""
    if done <= 0 or seconds <= 0:
        return None, None
    rate = done / seconds
    return 60.0 * rate, (total - done) / rate


def pace_text(done: int, total: int, seconds: float) -> str:
    """The pace in words: `329 lives/min, ETA 0:00:12`, `1.4 lives/min, ETA 0:21:07` (a
    tenth below ten a minute; `-` for what is not known yet)."""
    per_minute, left = pace(done, total, seconds)
    if per_minute is None or left is None:
        return "- lives/min, ETA -"
    rate = f"{per_minute:.1f}" if per_minute < 10 else f"{per_minute:.0f}"
    return f"{rate} lives/min, ETA {timedelta(seconds=round(left))}"


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
                n_workers=workers or cores(),
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


def cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or `taskset`
    may narrow below the machine's): a local cluster's workers by default, one a core."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def slots(client: Client) -> int:
    """Lives the cluster runs at a time: its worker threads."""
    return sum(client.nthreads().values())


def run_lives(
    client: Client,
    specs: Sequence[LifeSpec],
    on_end: OnEnd | None = None,
    *,
    chunk: int | None = None,
) -> list[LifeEnd]:
    """Live every spec on `client`'s cluster; how each ended, in spec order. The lives go
    in chunks, a task each (`chunk` lives, or sized as they go by `chunk_size` from the
    lives left, the workers and the mean life's seconds so far), two tasks per worker in
    flight so that none waits for its next. `on_end` hears of each life as its chunk ends
    (once, whatever was retried). A chunk lost whole (its worker died more often than
    the scheduler allows) is run again a life a task, so that only a life that kills its
    worker is lost. If anything interrupts it, the lives not yet ended are cancelled
    before the exception goes on."""
    from distributed import as_completed  # noqa: PLC0415

    run = uuid.uuid4().hex[:12]  # task keys unique on a cluster shared by other batches
    todo: deque[tuple[int, LifeSpec]] = deque(enumerate(specs))
    alone: deque[tuple[int, LifeSpec]] = deque()  # lives of a chunk lost whole
    workers = max(1, slots(client))
    flying: dict[Future[list[_Ended]], list[tuple[int, LifeSpec]]] = {}
    ends: dict[int, LifeEnd] = {}
    lived_s: list[float] = []

    def submit(pending: deque[tuple[int, LifeSpec]], size: int) -> None:
        lives = [pending.popleft() for _ in range(min(size, len(pending)))]
        first = lives[0][0]
        key = f"golem-life-{run}-{first}" + (f"-{len(lives)}" if len(lives) > 1 else "")
        future = client.submit(_lives, lives, key=key, pure=False)
        flying[future] = lives
        queue.add(future)

    def refill() -> None:
        while len(flying) < 2 * workers and (alone or todo):
            if alone:
                submit(alone, 1)
                continue
            mean = statistics.fmean(lived_s) if lived_s else None
            submit(todo, chunk or chunk_size(len(todo), workers, mean))

    def end(index: int, summary: dict[str, Any] | None, error: str | None, s: float) -> None:
        ends[index] = LifeEnd(index, specs[index], summary, error, s)
        if on_end is not None:
            on_end(ends[index])

    queue = as_completed(loop=client.loop)
    try:
        refill()
        for future in queue:
            lives = flying.pop(future)
            got: list[_Ended] = []
            if future.status == "finished":
                got = future.result()
            elif len(lives) > 1:
                alone.extend(lives)
            else:
                exc = future.exception()
                error = f"{type(exc).__name__}: {exc}" if exc is not None else future.status
                got = [(lives[0][0], None, error, 0.0)]
            # Received: let the cluster forget it (a result still held would be computed
            # again if its worker died, rewriting a finished life's directory after the
            # batch had counted it), and give the worker its next before anyone hears.
            future.release()
            lived_s.extend(seconds for _, summary, _, seconds in got if summary is not None)
            refill()
            for ended in got:
                end(*ended)
    except BaseException:
        with suppress(Exception):
            client.cancel(list(flying), force=True)
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
