"""The owner's sections of a config: `[control]` (the control API's token and the bounds
of the daily budget it may set) and `[notify]` (where and which notices go)."""

from __future__ import annotations

from typing import Literal, Self, get_args

from pydantic import Field, model_validator

from golem.runtime.config.providers import Section

__all__ = ["NOTIFY_EVENTS", "ControlSection", "NotifyEvent", "NotifySection"]


class ControlSection(Section):
    """`token_env`: the environment variable holding the control API's bearer token;
    unset (or the variable empty), the API has no control routes at all. The daily budget
    `POST /control/budget` and `golem ctl budget` may set lies within
    [budget_min_usd, budget_max_usd]; budget_max_usd unset: [mortality] daily_budget_usd
    (an owner may lower the budget but not raise it beyond the config's)."""

    token_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    budget_min_usd: float = Field(default=0.01, gt=0)
    budget_max_usd: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.budget_max_usd is not None and self.budget_max_usd < self.budget_min_usd:
            raise ValueError("budget_max_usd is below budget_min_usd")
        return self


NotifyEvent = Literal[
    "trade",
    "trade_blocked",
    "approval",
    "risk_disagreement",
    "phase",
    "budget_exhausted",
    "senescence",
    "death",
    "job_failing",
]
NOTIFY_EVENTS: tuple[NotifyEvent, ...] = get_args(NotifyEvent)  # in the order above


class NotifySection(Section):
    """Notices through apprise: `urls` (apprise URLs, or `env:NAME` for one held in the
    environment variable NAME, as a URL with a token should be; none: no notices) and
    `events` (which of NOTIFY_EVENTS). The rate limit and batching are runtime/notify.py's."""

    urls: tuple[str, ...] = ()
    events: tuple[NotifyEvent, ...] = NOTIFY_EVENTS
