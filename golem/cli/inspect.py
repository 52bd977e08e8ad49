"""`golem inspect LOG`: a golem's log as a table, JSON lines (`--json`) or a summary
(`--summary`, `--summary --json` one JSON document), filtered by subsystem, event, phase,
provider, time and degradation; `--follow` keeps reading a live log until Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import orjson
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from golem.runtime.inspect import (
    Event,
    EventFilter,
    Malformed,
    event_time,
    follow,
    parse_time,
    quarantined,
    read_events,
)
from golem.runtime.log_summary import Summary, summarize

__all__ = ["inspect_log", "register"]

_BATCH = 200  # table rows printed together; columns have fixed widths so batches align
_COLUMNS: tuple[tuple[str, int | None], ...] = (
    ("time", 19),
    ("event", 14),
    ("subsystem", 9),
    ("tier", 4),
    ("source", 13),
    ("provider:model", 22),
    ("mode", 15),
    ("tries", 5),
    ("cost $", 9),
    ("vital", 5),
    ("phase", 12),
    ("summary", None),
)
_SHOWN = frozenset(
    {"time", "timestamp", "level", "event", "subsystem", "tier", "source", "provider", "model"}
    | {"mode", "attempts", "cost_usd", "vitality", "phase", "golem", "tick", "decision"}
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "inspect",
        help="read a golem's log: table, JSON lines or summary",
        description=(
            "Read a golem's JSON-lines log. Filters combine (all must match); a filter given "
            "several times (or comma-separated) matches any of its values. Malformed or "
            "torn lines are reported on stderr and skipped."
        ),
    )
    parser.add_argument("log", type=Path, metavar="LOG")
    for name, what in (
        ("subsystem", "heartbeat, daimon, risk, curator, dream, death"),
        ("event", "decision, vitality, phase_change, degradation, provider_error, death, ..."),
        ("phase", "thriving, stable, conservation, declining, terminal"),
        ("provider", "the provider that answered"),
        ("profile", "the pipeline profile of a model call: minimal, fast, standard, full"),
    ):
        parser.add_argument(f"--{name}", action="append", default=[], help=what)
    parser.add_argument("--since", type=_time, help="ISO time, inclusive (no zone: UTC)")
    parser.add_argument("--until", type=_time, help="ISO time, inclusive (no zone: UTC)")
    parser.add_argument(
        "--degraded", action="store_true", help="only degraded, fallback or skipped decisions"
    )
    parser.add_argument(
        "--quarantined",
        action="store_true",
        help="only decisions whose prompt quarantined world-feed text (L8)",
    )
    parser.add_argument("--json", action="store_true", help="JSON lines (with --summary: JSON)")
    parser.add_argument("--summary", action="store_true", help="per-subsystem summary")
    parser.add_argument("--follow", "-f", action="store_true", help="keep reading a live log")
    parser.add_argument("--poll", type=float, default=0.5, help=argparse.SUPPRESS)
    parser.add_argument("--max-polls", type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=run)


def _time(text: str) -> Any:
    try:
        return parse_time(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO time: {text!r}") from None


def run(args: argparse.Namespace) -> int:
    return inspect_log(args, sleep=time.sleep)


def inspect_log(args: argparse.Namespace, *, sleep: Callable[[float], None]) -> int:
    """The command, with the sleep between polls of `--follow` injected."""
    if args.summary and args.follow:
        print("golem inspect: --summary and --follow do not go together", file=sys.stderr)
        return 2
    if not args.log.is_file():
        print(f"golem inspect: {args.log}: no such file", file=sys.stderr)
        return 2
    selected = EventFilter.of(
        subsystems=_split(args.subsystem),
        events=_split(args.event),
        phases=_split(args.phase),
        providers=_split(args.provider),
        since=args.since,
        until=args.until,
        degraded=args.degraded,
        profiles=_split(args.profile),
        quarantined=args.quarantined,
    )

    def report(problem: Malformed) -> None:
        print(f"{args.log}:{problem.line}: skipped: {problem.reason}", file=sys.stderr)

    table = _TablePrinter(_console())
    if args.follow:
        polls = 0

        def pause(seconds: float) -> None:
            table.flush()
            sleep(seconds)

        def stop() -> bool:
            nonlocal polls
            polls += 1
            return args.max_polls is not None and polls >= args.max_polls

        events: Iterator[Event] = follow(args.log, report, sleep=pause, poll_s=args.poll, stop=stop)
    else:
        events = read_events(args.log, report)
    matching = selected.select(events)
    try:
        if args.summary:
            _print_summary(summarize(matching), args.json)
        elif args.json:
            for event in matching:
                sys.stdout.write(orjson.dumps(event, option=orjson.OPT_APPEND_NEWLINE).decode())
                sys.stdout.flush()
        else:
            for event in matching:
                table.add(event)
    except KeyboardInterrupt:
        pass
    finally:
        table.flush()
    return 0


def _split(values: list[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


class _TablePrinter:
    def __init__(self, console: Console) -> None:
        self._console = console
        self._rows: list[list[str]] = []
        self._header = True

    def add(self, event: Event) -> None:
        self._rows.append(_row(event))
        if len(self._rows) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        if not self._rows:
            return
        table = Table(
            box=None, show_header=self._header, header_style="bold", pad_edge=False, expand=True
        )
        for name, width in _COLUMNS:  # the last column takes what the others leave
            table.add_column(
                name, width=width, ratio=None if width else 1, no_wrap=True, overflow="ellipsis"
            )
        for row in self._rows:  # log text is data: a "[...]" in it is not rich markup
            table.add_row(*(escape(cell) for cell in row))
        self._console.print(table)
        self._rows, self._header = [], False


def _row(event: Event) -> list[str]:
    moment = event_time(event)
    provider = event.get("provider")
    model = event.get("model")
    cost = event.get("cost_usd")
    vitality = event.get("vitality")
    return [
        moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S") if moment else "",
        str(event.get("event", "")),
        str(event.get("subsystem", "")),
        str(event.get("tier", "")),
        str(event.get("source", "")),
        f"{provider}:{model}" if provider and model else str(provider or ""),
        str(event.get("mode", "")),
        str(event.get("attempts", "")),
        f"{cost:.6f}" if isinstance(cost, int | float) else "",
        f"{vitality:.3f}" if isinstance(vitality, int | float) else "",
        str(event.get("phase", "")),
        _details(event),
    ]


def _details(event: Event) -> str:
    """The event's own summary, else its other fields as key=value."""
    if isinstance(event.get("summary"), str):
        flagged = quarantined(event)
        refs = ", ".join(str(q.get("ref", "?")) for q in flagged if isinstance(q, dict))
        return (f"[quarantined {refs}] " if flagged else "") + str(event["summary"])
    rest = {k: v for k, v in event.items() if k not in _SHOWN}
    return " ".join(
        f"{k}={v if isinstance(v, str) else orjson.dumps(v).decode()}" for k, v in rest.items()
    )


def _print_summary(summary: Summary, as_json: bool) -> None:
    document = summary.to_json()
    if as_json:
        sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    console = _console()
    console.print(
        f"[bold]{sum(summary.events.values())} events[/] from {summary.first_time or '?'} "
        f"to {summary.last_time or '?'}; spend ${summary.spend_usd:.6f}"
    )
    table = Table(title="decisions per subsystem", title_justify="left")
    for column in ("subsystem", "decisions", "sources", "modes", "re-asks", "fallbacks"):
        table.add_column(column)
    for column in ("skipped", "degraded", "spend $"):
        table.add_column(column, justify="right")
    table.add_column("profiles")
    for column in ("masked", "quarantined", "max prompt"):
        table.add_column(column, justify="right")
    for name, row in document["subsystems"].items():
        table.add_row(
            name,
            str(row["decisions"]),
            _counts(row["sources"]),
            _counts(row["modes"]),
            str(row["reasks"]),
            str(row["fallbacks"]),
            str(row["skipped"]),
            str(row["degradations"]),
            f"{row['spend_usd']:.6f}",
            _counts(row["profiles"]),
            str(row["masked"]),
            str(row["quarantined"]),
            str(row["prompt_tokens_max"] or ""),
        )
    console.print(table)
    vitality = document["vitality"]
    if vitality["samples"]:
        console.print(
            f"vitality: first {vitality['first']:.3f}, last {vitality['last']:.3f}, "
            f"min {vitality['min']:.3f} over {vitality['samples']} readings; "
            f"phase now {vitality['phase'] or '?'}"
        )
    for change in vitality["phase_changes"]:
        console.print(f"  {change['time'] or '?'}  {change['from']} → {change['to']}")
    if summary.death is not None:
        console.print(
            f"[bold red]died[/] at {summary.death.get('time', '?')}: {_details(summary.death)}"
        )


def _console() -> Console:
    """A terminal's own width; wide enough for every column when writing to a file."""
    return Console(highlight=False, width=None if sys.stdout.isatty() else 180)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
