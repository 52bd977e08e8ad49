"""A golem's log: structlog and the golem's records written as JSON lines to the log file and
a readable line to the console (`sinks`, `console`; the file opened by `logfile`: private,
one golem's, started on a new line after a torn one), and the log read back for
`golem inspect`: events streamed, followed and filtered (`read`), and summarized (`summary`).
"""

from golem.runtime.logs.console import ConsoleLine
from golem.runtime.logs.held import held_lines, lines_ahead
from golem.runtime.logs.logfile import LogFileTaken
from golem.runtime.logs.read import (
    DEGRADED_SOURCES,
    KNOWN_VALUES,
    SOURCES,
    Event,
    EventFilter,
    LogReader,
    Malformed,
    event_time,
    follow,
    is_degraded,
    parse_time,
    quarantined,
    read_events,
    tier_number,
)
from golem.runtime.logs.sinks import (
    LEVELS,
    LogRecord,
    LogSinks,
    Redaction,
    configure_logging,
    render_json,
)
from golem.runtime.logs.summary import (
    PhaseChange,
    SubsystemSummary,
    Summary,
    VitalityTrajectory,
    summarize,
)

__all__ = [
    "DEGRADED_SOURCES",
    "KNOWN_VALUES",
    "LEVELS",
    "SOURCES",
    "ConsoleLine",
    "Event",
    "EventFilter",
    "LogFileTaken",
    "LogReader",
    "LogRecord",
    "LogSinks",
    "Malformed",
    "PhaseChange",
    "Redaction",
    "SubsystemSummary",
    "Summary",
    "VitalityTrajectory",
    "configure_logging",
    "event_time",
    "follow",
    "held_lines",
    "is_degraded",
    "lines_ahead",
    "parse_time",
    "quarantined",
    "read_events",
    "render_json",
    "summarize",
    "tier_number",
]
