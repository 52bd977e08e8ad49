"""Which run of a scheduled job this is (`JobRuns`): a job whose schedule is shorter than
the heartbeat's runs several times between ticks, each run its own decision (its own id
and charge key). Saved with the run, so a restart that runs an uncommitted run again
gives it the same number (and its charge the same key).
The scheduled jobs themselves: `curate` (the curator) and `dream`, each one decision of a
`Golem` between its heartbeats, with senescence's stage in its situation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from golem.mortality import Stage
from golem.runtime.store.state import StateStore
from golem.subsystems.contract import Dreaming

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = ["JobRuns", "curate", "dream", "senescence"]


class JobRuns:
    """The (tick, run) of each scheduled job's last run, kept in `store`."""

    def __init__(self, store: StateStore) -> None:
        self._store = store
        saved = store.get_meta("job_runs") or {}
        self._runs = {job: (int(at[0]), int(at[1])) for job, at in saved.items()}

    def next(self, job: str, tick: int) -> int:
        """The number of `job`'s run at `tick`, saved."""
        last = self._runs.get(job)
        run = last[1] + 1 if last is not None and last[0] == tick else 0
        self._runs[job] = (tick, run)
        self._store.set_meta("job_runs", self._runs)
        return run


async def curate(golem: Golem, *_: object) -> None:
    """The curator's job: one decision on the grimoire, applied."""
    if golem.dead or golem.control.paused or golem.window.latest is None:
        return
    run = golem.job_runs.next("curator", golem.tick_no)
    ctx = golem.context(golem.window.summary(), senescence=senescence(golem), run=run)
    record = await golem.decisions.run(golem.curator, ctx)
    golem.knowledge.apply(record.outcome)


async def dream(golem: Golem, *_: object) -> None:
    """The dream's job: one cycle (the largest residuals replayed in senescence), applied."""
    if golem.dead or golem.control.paused or golem.window.latest is None:
        return
    stage = senescence(golem)
    residuals = golem.predictor.largest_residuals(5) if stage else ()
    dreaming = Dreaming(cycle=golem.dreams, residuals=residuals)
    run = golem.job_runs.next("dream", golem.tick_no)
    ctx = golem.context(golem.window.summary(), dreaming=dreaming, senescence=stage, run=run)
    record = await golem.decisions.run(golem.dreamer, ctx)
    if record.source != "skipped":
        golem.dreams += 1
        golem.store.set_meta("dreams", golem.dreams)
    golem.knowledge.apply(record.outcome)


def senescence(golem: Golem) -> str | None:
    """Senescence's stage when not normal (Bardo 02-epistemic-decay.md, Stage 1: the
    curator audits and the dream replays the largest residuals; their situations say so)."""
    stage = golem.chart.senescence.stage
    return None if stage is Stage.NORMAL else str(stage)
