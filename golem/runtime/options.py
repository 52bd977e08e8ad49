"""How a life is lived beside its config (`LifeOptions`: the daemon's are the defaults),
and the mortality Clock a golem reads its `now` through."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from golem.runtime.asking import ThinkingWatch

__all__ = ["LifeOptions", "NowClock"]


@dataclass(frozen=True, slots=True)
class LifeOptions:
    """How a life is lived, beside its config; the daemon's are the defaults.

    `resumable=False`: nobody resumes this state (the simulator), so the per-tick snapshots
    a restart reads (tick counter, portfolio, confidence, burn rate) are written only at
    death and when the life ends.
    `forecast_bias`: an error added to every forecast at a given time (the simulator's
    epistemic-decay scenario: predictions that go bad).
    `watch`: told how each model call's thinking goes while it runs (the console of
    `golem run`); None, nobody watches and the calls pay nothing for it.
    `secrets`: the key values no prompt may carry, masked by value in every prompt (and
    so in every request kept); `assemble` fills them in from its environment.
    `fast_forward`: live quiet stretches of heartbeats in bulk (runtime/fast_forward.py),
    with the same answers as one tick at a time; only a life on a virtual clock that is
    not resumable does (`golem simulate`, unless `--step`); the daemon never does."""

    resumable: bool = True
    forecast_bias: Callable[[datetime], float] | None = None
    watch: ThinkingWatch | None = None
    secrets: tuple[str, ...] = ()
    fast_forward: bool = False


class NowClock:
    """A mortality Clock over any `now` callable."""

    def __init__(self, now: Callable[[], datetime]) -> None:
        self._now = now

    def now(self) -> datetime:
        return self._now()
