"""The sections of a golem's TOML config that set its subsystems: `[heartbeat]` (the tick),
`[subsystems]` (the daimon, risk and the scheduled jobs). Structure and ranges only, as
the other sections (golem.runtime.config.sections)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    Field,
    PlainSerializer,
    PlainValidator,
    model_validator,
)

from golem.inference.durations import Duration, DurationOrOff, format_duration
from golem.runtime.config.durations import Schedule
from golem.runtime.config.durations import parse_schedule as _parse_schedule
from golem.runtime.config.providers import ChainEntry, Section
from golem.subsystems.contract import RECENT_EPISODES
from golem.subsystems.daimon import DaimonConfig
from golem.subsystems.dream import DreamConfig
from golem.subsystems.risk import ProvenancePolicy, RiskConfig, StakeBands
from golem.subsystems.risk.approval import ApprovalRules, parse_policy

__all__ = [
    "SHORTEST_INTERVAL",
    "DaimonSection",
    "DreamSection",
    "HeartbeatSection",
    "JobSection",
    "RiskSection",
    "ScheduleText",
    "SubsystemsSection",
    "chain_entry",
]


def _schedule(value: object) -> Schedule:
    if isinstance(value, Schedule):
        return value
    if not isinstance(value, str):
        raise ValueError("write a schedule as a string: '90s', '*/5 * * * *'")
    return _parse_schedule(value)


ScheduleText = Annotated[Schedule, PlainValidator(_schedule), PlainSerializer(lambda s: s.text)]


def chain_entry(text: str) -> str:
    """`text` if it names a provider chain's entry (`provider:model`)."""
    ChainEntry.parse(text)
    return text


# The shortest heartbeat interval: a tick's own work (a rules decision, its log line, the
# state's commit) takes milliseconds, and at 1ms a golem wrote 3.3 MB of log in 5 s.
SHORTEST_INTERVAL = timedelta(milliseconds=100)


def _not_too_short(value: timedelta) -> timedelta:
    if value < SHORTEST_INTERVAL:
        raise ValueError(
            f"must be at least {format_duration(SHORTEST_INTERVAL)} (a tick's own work takes "
            f"milliseconds), got {format_duration(value)}"
        )
    return value


class HeartbeatSection(Section):
    interval: Annotated[Duration, AfterValidator(_not_too_short)] = timedelta(seconds=15)
    theta_base: float = Field(default=0.3, gt=0, le=1)  # the gate at full confidence...
    theta_min: float = Field(default=0.05, ge=0, le=1)
    theta_max: float = Field(default=0.8, gt=0, le=1)
    conservation_factor: float = Field(default=2.0, ge=1)  # interval × this in Conservation

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if not self.theta_min <= self.theta_base <= self.theta_max:
            raise ValueError("need theta_min <= theta_base <= theta_max")
        return self


class JobSection(Section):
    """A scheduled subsystem (the curator, the dream): whether it runs, and when: an
    interval or a cron expression (UTC)."""

    enabled: bool = True
    schedule: ScheduleText


class DreamSection(JobSection):
    """The dream's schedule, and how many resolved episodes (decisions whose horizon has
    come and been scored) it needs to dream at all, of the last RECENT_EPISODES: until
    then each run is skipped, with the count. A model-made heartbeat decision records an
    episode, and so does one rules decision per horizon."""

    min_episodes: int = Field(default=DreamConfig().min_episodes, ge=0, le=RECENT_EPISODES)

    def config(self) -> DreamConfig:
        """The dream subsystem's configuration."""
        return DreamConfig(min_episodes=self.min_episodes)


class DaimonSection(Section):
    """`enabled = false`: a golem without emotional appraisal. The daimon appraises no
    event, so its mood stays neutral (which the heartbeat's gate then reads as calm)."""

    enabled: bool = True

    def config(self) -> DaimonConfig:
        """The daimon's settings: its appraisal rules, grounding distance, mood weight and
        tier are DaimonConfig's own (none of them is a key of this section)."""
        return DaimonConfig()


def _policy(text: str) -> str:
    parse_policy(text)
    return text


class RiskSection(Section):
    """How much a risk assessment deliberates, and whether a judged proposal is asked
    again. `deliberation = "stake"`: the tier and reasoning depth follow the stake (the
    notional a trade moves ÷ equity): at `large_stake` or above the seeds' (T2 for a trade
    that adds exposure, high reasoning), below it T1 with medium reasoning, below
    `small_stake ÷ (credits left ÷ initial credits)` T1 with none. "fixed": every
    assessment at the seeds' tier and depth. `verdict_window`: a proposal risk's model
    judged is not asked again within it (the same action, size ÷ equity in
    `verdict_size_bucket` steps, regime, prediction error in `verdict_error_bucket`
    steps, and phase): the verdict applies again (off by default). "stake" is the default
    since it was measured under the simulator's decision quality (issue 21, README): with
    `[mortality] fit_depth`, a model judges nearly every trade for the same money.

    `verify_with = "provider:model"`: a model's assessment of a stake at or above
    `verify_above_stake` is asked of that model too, with the same prompt, granted by the
    allocator from risk's budget line and charged to risk; the stricter stands (a rejection
    beats an approval, of two approvals the smaller size), its assessment kept whole. A
    disagreement on approval is a `risk_disagreement` log event. When the allocator cannot
    fund the second opinion, or it fails, the first stands and the decision says why
    (`verify_skipped`). Rules, fallbacks and reused verdicts are never verified. Off
    unless set.

    `external_allow`: addresses and token symbols an action may take from external text
    (the world feed); any other parameter an action takes from it is blocked by risk's
    provenance check, which also blocks an action whose proposing decision showed external
    text unless the golem's own rules call for it or the same decision, asked again
    without the text, proposes it too (golem.subsystems.risk.provenance).
    `provenance = false` turns that check off: a measurement control (what the defence
    costs a life), not a setting for a golem with money.

    `approve_above_stake` (USD; unset: none): a trade risk approved that would move more is
    held for the owner's approval (runtime/approvals.py), denied when `approval_timeout`
    passes unanswered; `approval_policy` answers for the owner: `owner` (nobody does),
    `approve_all`, `deny_all` or `approve_below:USD` (a simulation's stand-in)."""

    deliberation: Literal["fixed", "stake"] = "stake"
    small_stake: float = Field(default=0.05, gt=0, le=1)
    large_stake: float = Field(default=0.2, gt=0, le=1)
    verdict_window: DurationOrOff = None
    verdict_size_bucket: float = Field(default=0.05, gt=0, le=1)
    verdict_error_bucket: float = Field(default=0.1, gt=0, le=1)
    verify_with: Annotated[str, AfterValidator(chain_entry)] | None = None
    verify_above_stake: float = Field(default=0.2, ge=0, le=1)
    external_allow: tuple[Annotated[str, Field(min_length=1, max_length=100)], ...] = ()
    provenance: bool = True
    approve_above_stake: float | None = Field(default=None, gt=0)
    approval_timeout: Duration = timedelta(hours=1)
    approval_policy: Annotated[str, AfterValidator(_policy)] = "owner"

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.small_stake >= self.large_stake:
            raise ValueError("small_stake must be below large_stake")
        return self

    def approvals(self) -> ApprovalRules:
        """The approval keys compiled for a life."""
        return ApprovalRules(
            above_usd=self.approve_above_stake,
            timeout=self.approval_timeout,
            policy=parse_policy(self.approval_policy),
        )

    def verifier(self) -> ChainEntry | None:
        """The second opinion's provider and model, when one is asked."""
        return None if self.verify_with is None else ChainEntry.parse(self.verify_with)

    def config(self) -> RiskConfig:
        """The risk subsystem's configuration, compiled once for a life."""
        verify = None if self.verify_with is None else self.verify_above_stake
        provenance = ProvenancePolicy(allow=frozenset(self.external_allow), enabled=self.provenance)
        stakes = None
        if self.deliberation == "stake":
            stakes = StakeBands(small=self.small_stake, large=self.large_stake)
        return RiskConfig(stakes=stakes, verify_above_stake=verify, provenance=provenance)


_DEFAULT_SCHEDULES = {"curator": "10m", "dream": "1h"}


def _runs(name: str, section: type[JobSection] = JobSection) -> Any:
    return Field(
        default_factory=lambda: section(schedule=_parse_schedule(_DEFAULT_SCHEDULES[name]))
    )


class SubsystemsSection(Section):
    """What of the six subsystems a config chooses. The curator and the dream run on a
    schedule: an interval or a cron expression (UTC); a table without a schedule keeps the
    default. The daimon appraises each tick's events and can be turned off. The heartbeat
    is the tick (its period is `[heartbeat] interval`) and death comes when a clock runs
    out: neither is configured here. Risk assesses every trade proposal; how much it
    deliberates is `[subsystems.risk]`'s."""

    daimon: DaimonSection = DaimonSection()
    risk: RiskSection = RiskSection()
    curator: JobSection = _runs("curator")
    dream: DreamSection = _runs("dream", DreamSection)

    @model_validator(mode="before")
    @classmethod
    def _default_schedules(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        return {
            name: {"schedule": _DEFAULT_SCHEDULES[name], **table}
            if name in _DEFAULT_SCHEDULES and isinstance(table, dict)
            else table
            for name, table in data.items()
        }

    def jobs(self) -> list[tuple[str, JobSection]]:
        """The scheduled subsystems, by name."""
        return [("curator", self.curator), ("dream", self.dream)]
