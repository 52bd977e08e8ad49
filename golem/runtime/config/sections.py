"""The sections of a golem's TOML config as pydantic models: unknown keys are errors
everywhere. Structure and ranges only; what needs the provider registry or the
environment (known providers, keys, prices) is checked by `golem.runtime.config.load`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from golem.inference import StructuredOutputConfig, TransportConfig
from golem.inference.durations import Duration, DurationOrOff
from golem.inference.seed import Seed
from golem.mortality import KeyedValueError, MortalityParams, PipelineProfile, SubsystemName
from golem.runtime.config.durations import reading_durations
from golem.runtime.config.owner import ControlSection, NotifySection
from golem.runtime.config.prediction import CalibrationSection, PredictionSection
from golem.runtime.config.providers import EMBEDDED, ChainEntry, ProvidersSection, Section
from golem.runtime.config.subsystems import (
    DaimonSection,
    DreamSection,
    HeartbeatSection,
    JobSection,
    RiskSection,
    SubsystemsSection,
    chain_entry,
)
from golem.runtime.config.telemetry import TelemetrySection
from golem.subsystems.context import ContextSettings
from golem.world import MarketParams, PortfolioConfig

__all__ = [
    "REMOVED",
    "CacheSection",
    "CalibrationSection",
    "ChainEntry",
    "ContextSection",
    "ControlSection",
    "DaimonSection",
    "DreamSection",
    "FeedEntry",
    "GolemConfig",
    "GolemSection",
    "HeartbeatSection",
    "InferenceSection",
    "JobSection",
    "LoggingSection",
    "MortalitySection",
    "NotifySection",
    "PredictionSection",
    "ProvidersSection",
    "RiskSection",
    "SubsystemsSection",
    "Tier",
    "WorldSection",
]

Tier = Literal["t1", "t2", "death"]


def _named_path(value: object) -> object:
    """A path that names something: "" (which Path reads as the working directory) is not."""
    if isinstance(value, str) and not value.strip():
        raise ValueError("an empty path (it would mean the working directory); write the path")
    return value


NamedPath = Annotated[Path, BeforeValidator(_named_path)]


class GolemSection(Section):
    id: str = Field(default="golem", pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    state_dir: NamedPath = Path("state")  # relative paths are relative to the working directory
    seed: Seed = 0
    # The golem's own wallet address (public, shown to models as L1 state; masked under
    # the Full profile). Never a key: keys come from the environment only.
    wallet: str | None = Field(default=None, min_length=1, max_length=128)
    # A job (heartbeat, curator, dream) that fails the same way this many times in a row
    # stops the golem (exit 3); 0 never stops it.
    max_consecutive_failures: int = Field(default=10, ge=0, le=1_000_000)
    # How long the request of each model decision is kept in the state for `golem
    # replay` (prompt as sent, masked; never a key); "off" keeps none.
    keep_requests: DurationOrOff = timedelta(days=14)


Chain = tuple[Annotated[str, AfterValidator(chain_entry)], ...]


class InferenceSection(Section):
    """The provider chain per tier, tried in order: t1 the cheap model, t2 the strong one
    (default: t1's), death the testament's (default: t2's)."""

    t1: Chain = Field(default=(EMBEDDED,), min_length=1)
    t2: Chain | None = Field(default=None, min_length=1)
    death: Chain | None = Field(default=None, min_length=1)
    max_output_tokens: int = Field(default=800, gt=0, le=200_000)
    structured_outputs: StructuredOutputConfig = StructuredOutputConfig()
    transport: TransportConfig = TransportConfig()

    def chain(self, tier: Tier) -> tuple[ChainEntry, ...]:
        texts = {"t1": self.t1, "t2": self.t2 or self.t1, "death": self.death or self.t2}
        return tuple(ChainEntry.parse(t) for t in texts[tier] or self.t1)

    def chain_key(self, tier: Tier) -> str:
        """The key a tier's chain was read from, for error messages."""
        if tier == "death" and self.death is None:
            tier = "t2"
        if tier == "t2" and self.t2 is None:
            tier = "t1"
        return f"inference.{tier}"


# Mortality owns its parameters; the config composes them as the [mortality] section.
MortalitySection = MortalityParams


# Keys a config may no longer set, and why: each is refused with its reason (a removed
# table's keys are named one by one). A key that changes nothing is removed, not ignored.
REMOVED: dict[str, str] = {
    "subsystems.heartbeat": (
        "the heartbeat is the tick and always runs; set its period in [heartbeat] interval"
    ),
    "subsystems.risk.enabled": "risk runs on every trade proposal",
    "subsystems.risk.schedule": "risk runs on every trade proposal",
    "subsystems.death": "death cannot be disabled or scheduled: it comes when the golem dies",
    "subsystems.daimon.schedule": (
        "the daimon appraises each tick's events as they happen "
        "(subsystems.daimon.enabled = false turns it off)"
    ),
}


_CACHEABLE = Literal["heartbeat", "risk", "daimon"]


class CacheSection(Section):
    """`[cache]`: the decision cache (the Bardo design's System 2 → System 1 distillation).
    A model's decision of a listed subsystem is reused, at no cost, for a materially
    identical situation within `ttl`: the same subsystem, decision type and tier asked,
    regime, probes fired (which fix the heartbeat's prediction error), proposed trade
    action and size ÷ equity (in `size_bucket` steps), events, and phase (nothing
    survives a phase change). Death is never cached. Off by default: a reused decision
    is a stale one, and what freshness is worth is measured, not assumed."""

    enabled: bool = False
    ttl: Duration = timedelta(minutes=30)
    subsystems: tuple[_CACHEABLE, ...] = ("heartbeat", "risk")
    size_bucket: float = Field(default=0.05, gt=0, le=1)

    def cached(self) -> frozenset[SubsystemName]:
        """The subsystems whose model decisions are kept (none when the cache is off)."""
        if not self.enabled:
            return frozenset()
        return frozenset(SubsystemName(name) for name in self.subsystems)


class FeedEntry(Section):
    """One item of the world feed: `at` after the golem's birth, from `source`."""

    at: Duration
    source: str = Field(default="news", min_length=1, max_length=40)
    text: str = Field(min_length=1, max_length=4000)
    # A simulation's label: the action this text asks a reader to take (an attack). Only
    # a compromised synthetic model reads it (`[providers.synthetic] compromised`), and the
    # simulator's injection tally; the golem never does.
    asks: Literal["exit", "hedge", "rebalance"] | None = None


class ProfileLimitsSection(Section):
    """`[context.<profile>]`: a pipeline profile's prompt limit and retrieval depths."""

    max_tokens: int = Field(ge=64, le=1_000_000)
    observations: int = Field(ge=0, le=1000)
    feed_items: int = Field(ge=0, le=100)
    knowledge: int = Field(ge=0, le=200)
    episodes: int = Field(ge=0, le=200)


def _limits(profile: PipelineProfile) -> Any:
    """A section's defaults: golem.subsystems.context's, the one place they are set."""

    def default() -> ProfileLimitsSection:
        base = _DEFAULT_CONTEXT.limits_for(profile)
        return ProfileLimitsSection(**{k: getattr(base, k) for k in _LIMIT_KEYS})

    return Field(default_factory=default)


_DEFAULT_CONTEXT = ContextSettings()
_LIMIT_KEYS = ("max_tokens", "observations", "feed_items", "knowledge", "episodes")


class ContextSection(Section):
    """Each pipeline profile's limits; a table may set only some keys."""

    minimal: ProfileLimitsSection = _limits(PipelineProfile.MINIMAL)
    fast: ProfileLimitsSection = _limits(PipelineProfile.FAST)
    standard: ProfileLimitsSection = _limits(PipelineProfile.STANDARD)
    full: ProfileLimitsSection = _limits(PipelineProfile.FULL)

    @field_validator("minimal", "fast", "standard", "full", mode="before")
    @classmethod
    def _over_defaults(cls, value: object, info: ValidationInfo) -> object:
        if not isinstance(value, dict):
            return value
        base = _DEFAULT_CONTEXT.limits_for(PipelineProfile(info.field_name or ""))
        return {k: getattr(base, k) for k in _LIMIT_KEYS} | value

    def settings(self) -> ContextSettings:
        limits = {
            profile: replace(base, **getattr(self, str(profile)).model_dump())
            for profile, base in _DEFAULT_CONTEXT.limits.items()
        }
        return ContextSettings(limits)


class WorldSection(Section):
    """The market watched: a seeded simulation (`[world.market]`), a recorded CSV, real
    candles replayed in virtual time, or a live exchange through ccxt (golem.world.exchange)."""

    source: Literal["simulated", "csv", "candles", "exchange"] = "simulated"
    seed: Seed | None = None  # default [golem].seed
    market: Annotated[MarketParams, BeforeValidator(reading_durations(MarketParams))] = (
        MarketParams()
    )
    # Recorded rows (relative paths are relative to the working directory), read whole
    # before the life starts: data starting after the life's start, or ending before it,
    # is refused (exit 2); a life that outlasts the data ends with it ("data_ended").
    csv: Path | None = None
    # Real candles, CSV or Parquet (golem.world.candles: what a tick sees inside one). A
    # relative path is looked for in the working directory, then $GOLEM_MARKET_DATA, then
    # the checkout's ../shared/data/markets; when missing, the error names the
    # `golem data fetch` command (exchange, symbol, timeframe below) that makes it.
    candles: Path | None = None
    exchange: str = Field(default="binance", min_length=1)  # a ccxt exchange id
    symbol: str = Field(default="ETH/USDT", min_length=1)
    timeframe: str = Field(default="5m", min_length=1)  # candles observed (and fetched)
    # source = "exchange": ccxt's urls['api'] pointed elsewhere (a replay server, a mirror;
    # the market is then set by hand), the timeout of a request, and how many heartbeat
    # intervals without a fresh price make the market stale (nothing is traded then).
    api_url: str | None = Field(default=None, pattern=r"^https?://[^/\s]+")
    timeout: Duration = timedelta(seconds=10)
    stale_after: int = Field(default=3, ge=1)
    cash_usd: float = Field(default=10_000.0, ge=0)  # the paper portfolio's starting cash
    portfolio: PortfolioConfig = PortfolioConfig()
    feed: tuple[FeedEntry, ...] = ()  # [[world.feed]]: external text arriving over time

    @field_validator("csv")
    @classmethod
    def _csv_exists(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_file():
            raise ValueError(f"no such file: {value}")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if self.source == "csv" and self.csv is None:
            raise ValueError("source = 'csv' needs csv = 'PATH'")
        if self.source != "csv" and self.csv is not None:
            raise ValueError("csv is read only with source = 'csv'")
        if self.source == "candles" and self.candles is None:
            raise ValueError("source = 'candles' needs candles = 'PATH'")
        if self.source != "candles" and self.candles is not None:
            raise ValueError("candles is read only with source = 'candles'")
        if self.source != "exchange" and self.api_url is not None:
            raise ValueError("api_url is read only with source = 'exchange'")
        if self.source != "simulated" and "market" in self.model_fields_set:
            raise ValueError(f"[world.market] shapes a simulation; source is {self.source!r}")
        return self


def _lower(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


class LoggingSection(Section):
    file: NamedPath | None = None  # default: <state_dir>/golem.log
    level: Annotated[Literal["debug", "info", "warning", "error"], BeforeValidator(_lower)] = "info"
    console: Literal["auto", "pretty", "json", "off"] = "auto"  # auto: pretty on a TTY


class GolemConfig(Section):
    """A whole config file, resolved. `path` is the file it was read from."""

    golem: GolemSection = GolemSection()
    providers: ProvidersSection = ProvidersSection()
    inference: InferenceSection = InferenceSection()
    mortality: MortalitySection = MortalitySection()
    heartbeat: HeartbeatSection = HeartbeatSection()
    subsystems: SubsystemsSection = SubsystemsSection()
    world: WorldSection = WorldSection()
    context: ContextSection = ContextSection()
    cache: CacheSection = CacheSection()
    telemetry: TelemetrySection = TelemetrySection()
    logging: LoggingSection = LoggingSection()
    control: ControlSection = ControlSection()
    notify: NotifySection = NotifySection()
    prediction: PredictionSection = PredictionSection()
    calibration: CalibrationSection = CalibrationSection()

    _path: Path | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _budget_within_the_day(self) -> Self:
        # Lines are shares of one day's budget (which is also the day's cost cap): lines
        # summing past it promise money no day has. (Mortality's own model allows it, so
        # that a test can make a line the whole day and watch the cap hold.)
        total = sum(line.share for line in self.mortality.budgets.lines.values())
        if total > 1 + 1e-9:
            raise KeyedValueError(
                f"the shares sum to {total:.0%} of the day's budget; they may sum to at most 100%",
                ["mortality.budgets.lines"],
            )
        return self

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def log_file(self) -> Path:
        return self.logging.file or self.golem.state_dir / "golem.log"

    @property
    def world_seed(self) -> int:
        return self.golem.seed if self.world.seed is None else self.world.seed

    @property
    def mortality_seed(self) -> int:
        return self.golem.seed if self.mortality.seed is None else self.mortality.seed

    def model_for(self, entry: ChainEntry) -> str | None:
        """The model an entry names, else its provider's default_model."""
        if entry.model is not None:
            return entry.model
        section = self.providers.entries().get(entry.provider)
        return section.default_model if section else None
