"""Which run of a scheduled job this is (`JobRuns`): a job whose schedule is shorter than
the heartbeat's runs several times between ticks, each run its own decision (its own id
and charge key). Saved with the run, so a restart that runs an uncommitted run again
gives it the same number (and its charge the same key)."""

from __future__ import annotations

from golem.runtime.store.state import StateStore

__all__ = ["JobRuns"]


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
