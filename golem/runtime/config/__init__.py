"""A golem's config: its TOML sections as pydantic models (`sections`, `providers`), durations
and schedules as people write them (`durations`), and loading, with the checks that need the
provider registry and the environment (`load`). Every error is a ConfigError naming the key.
"""

from golem.runtime.config.durations import (
    Schedule,
    ScheduleKind,
    format_duration,
    parse_duration,
    parse_schedule,
)
from golem.runtime.config.load import (
    TIERS,
    ConfigError,
    KeyStatus,
    Problem,
    build_registry,
    key_statuses,
    load_config,
    parse_config,
    secret_values,
)
from golem.runtime.config.providers import (
    EMBEDDED,
    SYNTHETIC,
    ChainEntry,
    ModelOverride,
    ProviderSection,
    ProvidersSection,
    Section,
)
from golem.runtime.config.sections import (
    ContextSection,
    DaimonSection,
    FeedEntry,
    GolemConfig,
    GolemSection,
    HeartbeatSection,
    InferenceSection,
    JobSection,
    LoggingSection,
    MortalitySection,
    SubsystemsSection,
    Tier,
    WorldSection,
)

__all__ = [
    "EMBEDDED",
    "SYNTHETIC",
    "TIERS",
    "ChainEntry",
    "ConfigError",
    "ContextSection",
    "DaimonSection",
    "FeedEntry",
    "GolemConfig",
    "GolemSection",
    "HeartbeatSection",
    "InferenceSection",
    "JobSection",
    "KeyStatus",
    "LoggingSection",
    "ModelOverride",
    "MortalitySection",
    "Problem",
    "ProviderSection",
    "ProvidersSection",
    "Schedule",
    "ScheduleKind",
    "Section",
    "SubsystemsSection",
    "Tier",
    "WorldSection",
    "build_registry",
    "format_duration",
    "key_statuses",
    "load_config",
    "parse_config",
    "parse_duration",
    "parse_schedule",
    "secret_values",
]
