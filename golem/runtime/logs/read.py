"""Reading a golem's JSON-lines log: events streamed line by line (a malformed or torn
line is reported and skipped), a follower for a live log, and the filters of
`golem inspect`. Pure of presentation; the CLI renders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, BinaryIO

import orjson

from golem.mortality.names import ModelTier, SubsystemName
from golem.mortality.profiles import PipelineProfile
from golem.mortality.vitality import Phase
from golem.runtime.logs.quiet import QUIET_STRETCH, expanded

__all__ = [
    "DEGRADED_SOURCES",
    "KNOWN_VALUES",
    "SOURCES",
    "Event",
    "EventFilter",
    "LogReader",
    "Malformed",
    "event_time",
    "follow",
    "is_degraded",
    "parse_time",
    "quarantined",
    "read_events",
    "tier_number",
]

Event = dict[str, Any]
SOURCES = ("model", "deterministic", "fallback", "skipped", "reused")  # as decide.py logs
DEGRADED_SOURCES = frozenset({"fallback", "skipped"})
# The filters whose values form a closed set, with the set: a value outside it names
# nothing. Tiers are matched as numbers ("1" or "T1").
KNOWN_VALUES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "subsystem": tuple(SubsystemName),
        "phase": tuple(Phase),
        "profile": tuple(PipelineProfile),
        "source": SOURCES,
        "tier": tuple(str(tier.value) for tier in ModelTier),
    }
)


def tier_number(text: str) -> str:
    """A tier as the log writes it ("1") from either spelling ("1", "T1", "t1")."""
    return text.strip().lower().removeprefix("t")


@dataclass(frozen=True, slots=True)
class Malformed:
    """A line that is not a JSON object; `torn` when it is what a killed writer leaves: the
    unterminated last line, or an object's start cut short (a restarted writer begins the
    next event on a line of its own)."""

    line: int
    reason: str
    torn: bool = False


OnMalformed = Callable[[Malformed], None]


class LogReader:
    """Reads complete lines from a binary file as they are written; an unterminated last
    line waits for the rest of it (`read`) or is judged at the end (`finish`)."""

    def __init__(self, file: BinaryIO, on_malformed: OnMalformed) -> None:
        self._file = file
        self._on_malformed = on_malformed
        self._line = 0
        self._partial = b""

    def read(self) -> Iterator[Event]:
        """The events of the lines completed since the last call."""
        while raw := self._file.readline():
            if not raw.endswith(b"\n"):
                self._partial += raw
                continue
            line, self._partial = self._partial + raw, b""
            self._line += 1
            yield from self._events(self._parse(line))

    def finish(self) -> Iterator[Event]:
        """The unterminated last line, if any: whole JSON is kept, else reported torn."""
        if not self._partial:
            return
        line, self._partial = self._partial, b""
        self._line += 1
        yield from self._events(self._parse(line, last=True))

    def _events(self, event: Event | None) -> list[Event]:
        """A parsed line's events: a quiet stretch's are the decisions it stands for."""
        if event is None:
            return []
        if event.get("event") != QUIET_STRETCH:
            return [event]
        try:
            return expanded(event)
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            reason = f"a quiet_stretch that cannot be expanded ({type(exc).__name__}: {exc})"
            self._on_malformed(Malformed(self._line, reason))
            return []

    def rewind_if_truncated(self) -> None:
        """Start over when the file became shorter than what was read (it was replaced)."""
        size = Path(self._file.name).stat().st_size if isinstance(self._file.name, str) else None
        if size is not None and size < self._file.tell():
            self._file.seek(0)
            self._line, self._partial = 0, b""

    def _parse(self, line: bytes, *, last: bool = False) -> Event | None:
        if not line.strip():
            return None
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            torn = last or _cut_short(line)
            where = "last line" if last else "line"
            reason = f"torn {where} (a killed writer?)" if torn else "not valid JSON"
            self._on_malformed(Malformed(self._line, reason, torn=torn))
            return None
        if not isinstance(event, dict):
            self._on_malformed(Malformed(self._line, "not a JSON object"))
            return None
        return event


def _cut_short(line: bytes) -> bool:
    text = line.strip()
    return text.startswith(b"{") and not text.endswith(b"}")


def read_events(path: Path, on_malformed: OnMalformed) -> Iterator[Event]:
    """Every event in the log at `path`, streamed."""
    with open(path, "rb") as file:
        reader = LogReader(file, on_malformed)
        yield from reader.read()
        yield from reader.finish()


def follow(
    path: Path,
    on_malformed: OnMalformed,
    *,
    sleep: Callable[[float], None],
    poll_s: float = 0.5,
    stop: Callable[[], bool] = lambda: False,
) -> Iterator[Event]:
    """The events in the log, then those appended, polling every `poll_s` until `stop()`
    (checked after each poll) says so or the caller stops iterating (Ctrl-C)."""
    with open(path, "rb") as file:
        reader = LogReader(file, on_malformed)
        while True:
            reader.rewind_if_truncated()
            yield from reader.read()
            if stop():
                yield from reader.finish()
                return
            sleep(poll_s)


def parse_time(text: str) -> datetime:
    """An ISO 8601 time; one without a zone is UTC."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def event_time(event: Event) -> datetime | None:
    """When the event happened: its `time` (the golem's clock), else `timestamp`."""
    for key in ("time", "timestamp"):
        value = event.get(key)
        if isinstance(value, str):
            try:
                return parse_time(value)
            except ValueError:
                continue
    return None


def is_degraded(event: Event) -> bool:
    """A degradation event, or a decision that fell back, was skipped or was degraded."""
    return (
        event.get("event") == "degradation"
        or event.get("source") in DEGRADED_SOURCES
        or bool(event.get("degradation"))
    )


def quarantined(event: Event) -> list[Any]:
    """The world-feed items the decision's prompt quarantined (L8), if any."""
    context = event.get("context")
    found = context.get("quarantined") if isinstance(context, dict) else None
    return found if isinstance(found, list) else []


def _lowered(values: Iterable[str]) -> frozenset[str]:
    return frozenset(v.lower() for v in values)


@dataclass(frozen=True, slots=True)
class EventFilter:
    """Which events to keep: each set given must contain the event's value (any case);
    times are inclusive."""

    subsystems: frozenset[str] = frozenset()
    events: frozenset[str] = frozenset()
    phases: frozenset[str] = frozenset()
    providers: frozenset[str] = frozenset()
    since: datetime | None = None
    until: datetime | None = None
    degraded: bool = False
    profiles: frozenset[str] = frozenset()
    quarantined: bool = False
    sources: frozenset[str] = frozenset()
    tiers: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        *,
        subsystems: Iterable[str] = (),
        events: Iterable[str] = (),
        phases: Iterable[str] = (),
        providers: Iterable[str] = (),
        since: datetime | None = None,
        until: datetime | None = None,
        degraded: bool = False,
        profiles: Iterable[str] = (),
        quarantined: bool = False,
        sources: Iterable[str] = (),
        tiers: Iterable[str] = (),
    ) -> EventFilter:
        """A filter from any iterables of names, matched in any case."""
        return cls(
            _lowered(subsystems),
            _lowered(events),
            _lowered(phases),
            _lowered(providers),
            since,
            until,
            degraded,
            _lowered(profiles),
            quarantined,
            _lowered(sources),
            frozenset(tier_number(t) for t in tiers),
        )

    def matches(self, event: Event) -> bool:
        for wanted, key in (
            (self.subsystems, "subsystem"),
            (self.events, "event"),
            (self.phases, "phase"),
            (self.providers, "provider"),
            (self.profiles, "profile"),
            (self.sources, "source"),
        ):
            if wanted and str(event.get(key, "")).lower() not in wanted:
                return False
        if self.tiers and tier_number(str(event.get("tier", ""))) not in self.tiers:
            return False
        if self.degraded and not is_degraded(event):
            return False
        if self.quarantined and not quarantined(event):
            return False
        if self.since is None and self.until is None:
            return True
        moment = event_time(event)
        if moment is None:
            return False
        return (self.since is None or moment >= self.since) and (
            self.until is None or moment <= self.until
        )

    def select(self, events: Iterable[Event]) -> Iterator[Event]:
        return (e for e in events if self.matches(e))
