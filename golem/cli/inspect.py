"""`golem inspect LOG`: a golem's log as a table, JSON lines (`--json`) or a summary
(`--summary`, `--summary --json` one JSON document), filtered by subsystem, event, phase,
provider, time and degradation; `--follow` keeps reading a live log until Ctrl-C;
`--decision ID` shows one model decision with its reasoning (inspect_decision); the table's
layout is inspect_table's, the summary's panels inspect_summary's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from golem.cli.failure import UsageError
from golem.cli.inspect_decision import decision_log, decision_panels, find_decisions
from golem.cli.inspect_summary import print_summary
from golem.cli.inspect_table import Layout, console_for, layout_for, output_width
from golem.runtime.logs import (
    KNOWN_VALUES,
    Event,
    EventFilter,
    Malformed,
    follow,
    parse_time,
    read_events,
    summarize,
    tier_number,
)

__all__ = ["inspect_log", "register"]

_SQLITE_MAGIC = b"SQLite format 3\0"
_FILTERS = (
    ("subsystem", "heartbeat, daimon, risk, curator, dream, death"),
    ("event", "decision, vitality, phase_change, degradation, provider_error, death, ..."),
    ("phase", ", ".join(KNOWN_VALUES["phase"])),
    ("source", "where a decision came from: " + ", ".join(KNOWN_VALUES["source"])),
    ("tier", "the model tier that answered: 0 (no model), 1 (cheap), 2 (strong); or T0..T2"),
    ("provider", "the provider that answered (any name)"),
    ("profile", "the pipeline profile of a model call: " + ", ".join(KNOWN_VALUES["profile"])),
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "inspect",
        help="read a golem's log: table, JSON lines or summary",
        description=(
            "Read a golem's JSON-lines log. Filters combine (all must match); a filter given "
            "several times (or comma-separated) matches any of its values, and a value that "
            "names no subsystem, phase, source, tier or profile is an error. Malformed or "
            "torn lines are reported on stderr and skipped; a file none of whose first lines is a "
            "golem event is not a golem log (exit 2). When no event matches, that is said "
            "on stderr, exit 1 (as grep). The table streams one line per "
            "event with the columns that fit the terminal's width (COLUMNS or --width); "
            "written to a file or a pipe it has every column and whole summaries."
        ),
    )
    parser.add_argument(
        "log",
        type=Path,
        metavar="LOG",
        help="the golem.log of a state directory or --out (with --decision, also the state "
        "directory or its golem.db)",
    )
    parser.add_argument(
        "--decision",
        metavar="ID",
        help="show one model decision (its `id` in the log, e.g. risk@120.0): what it "
        "decided, its cost and tokens, and its reasoning chain (the text, or 'reasoning "
        "performed (not visible)' with its token count when the provider hid it); with "
        "--json its log line",
    )
    for name, what in _FILTERS:
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
    parser.add_argument(
        "--width",
        type=_width,
        metavar="N",
        help=(
            "the width in characters of the table (0: no limit) and of the --decision and "
            "--summary panels (default: the terminal's)"
        ),
    )
    parser.add_argument("--poll", type=float, default=0.5, help=argparse.SUPPRESS)
    parser.add_argument("--max-polls", type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=run)


def _time(text: str) -> Any:
    try:
        return parse_time(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO time: {text!r}") from None


def _width(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"not a width (0 or more characters): {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    return inspect_log(args, sleep=time.sleep)


def inspect_log(args: argparse.Namespace, *, sleep: Callable[[float], None]) -> int:
    """The command, with the sleep between polls of `--follow` injected."""
    if args.summary and args.follow:
        raise UsageError("--summary and --follow do not go together")
    if args.decision is not None:
        return _show_decision(args)
    _check_log(args.log)
    filters = {name: _split(getattr(args, name)) for name, _ in _FILTERS}
    _check_known(filters)
    selected = EventFilter.of(
        subsystems=filters["subsystem"],
        events=filters["event"],
        phases=filters["phase"],
        providers=filters["provider"],
        since=args.since,
        until=args.until,
        degraded=args.degraded,
        profiles=filters["profile"],
        quarantined=args.quarantined,
        sources=filters["source"],
        tiers=filters["tier"],
    )

    def report(problem: Malformed) -> None:
        print(f"{args.log}:{problem.line}: skipped: {problem.reason}", file=sys.stderr)

    if args.follow:
        polls = 0

        def pause(seconds: float) -> None:
            sys.stdout.flush()
            sleep(seconds)

        def stop() -> bool:
            nonlocal polls
            polls += 1
            return args.max_polls is not None and polls >= args.max_polls

        events: Iterator[Event] = follow(args.log, report, sleep=pause, poll_s=args.poll, stop=stop)
    else:
        events = read_events(args.log, report)
    matching = selected.select(events)
    shown = None
    try:
        if args.summary:
            print_summary(summarize(matching), args.json, args.width)
        elif args.json:
            shown = _print_json(matching)
        else:
            shown = _print_table(matching, layout_for(output_width(args.width)))
        sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:  # the reader left (`| head`): what it read is what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if shown == 0 and not args.follow:  # as grep: nothing found is said, and exit 1
        print(f"golem inspect: no event in {args.log} {_matching(args)}", file=sys.stderr)
        return 1
    return 0


def _matching(args: argparse.Namespace) -> str:
    given = [f"--{name} {','.join(getattr(args, name))}" for name, _ in _FILTERS]
    given = [g for g, (name, _) in zip(given, _FILTERS, strict=True) if getattr(args, name)]
    given += [f"--{name}" for name in ("degraded", "quarantined") if getattr(args, name)]
    given += [
        f"--{name} {getattr(args, name)}" for name in ("since", "until") if getattr(args, name)
    ]
    return f"matches {' '.join(given)}" if given else "(the log has no events)"


def _show_decision(args: argparse.Namespace) -> int:
    """The panels of the decision `--decision` names (several golems in one log: each's)."""
    if args.summary or args.follow:
        raise UsageError("--decision goes with neither --summary nor --follow")
    log = decision_log(args.log)
    _check_log(log)

    def report(problem: Malformed) -> None:
        print(f"{log}:{problem.line}: skipped: {problem.reason}", file=sys.stderr)

    found = find_decisions(read_events(log, report), args.decision)
    if not found:
        raise UsageError(f"--decision {args.decision}: no model decision with that id in {log}")
    if args.json:
        _print_json(iter(found))
        return 0
    console = console_for(args.width)
    for event in found:
        console.print(decision_panels(event))
    return 0


def _check_log(path: Path) -> None:
    """One line for a LOG that is not a log: a directory, a golem's SQLite state, nothing."""
    if path.is_dir():
        inside = path / "golem.log"
        if inside.is_file():
            raise UsageError(f"LOG {path} is a directory: did you mean {inside}?")
        raise UsageError(
            f"LOG {path} is a directory: give a golem.log (in a state directory or --out)"
        )
    if not path.exists():
        raise UsageError(f"LOG {path}: no such file")
    if not path.is_file():  # a pipe: its first bytes are the log's, not to be spent here
        return
    with path.open("rb") as file:
        is_database = file.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
        file.seek(0)
        heads = [file.readline(_LONGEST_LINE) for _ in range(_FIRST_LINES)]
    if not is_database and not _any_event(heads):
        raise UsageError(
            f"LOG {path} is not a golem log: none of its first lines is a JSON event as "
            "golem writes them (give the golem.log of a state directory or --out)"
        )
    if is_database:  # golem.db: its log is beside it (golem run) or a level up (simulate)
        logs = [p / "golem.log" for p in (path.parent, path.parent.parent)]
        near = [log for log in logs if log.is_file()]
        where = f"did you mean {near[0]}?" if near else "the log is the golem.log beside it"
        raise UsageError(f"LOG {path} is a golem's SQLite state, not its decision log: {where}")


# A file is taken for a golem log when one of its first lines is an event: a log may
# start with a torn or damaged line, which is then reported and skipped as any other.
_FIRST_LINES = 8
_LONGEST_LINE = 1 << 22


def _any_event(heads: list[bytes]) -> bool:
    """Whether one of a file's first lines is a golem event; an empty file may be a log
    not yet written."""
    lines = [line for line in heads if line.strip()]
    if not lines:
        return True
    for line in lines:
        try:
            parsed = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(parsed, dict) and isinstance(parsed.get("event"), str):
            return True
    return False


def _check_known(filters: dict[str, list[str]]) -> None:
    """A filter value outside its option's closed set names nothing: say which exist."""
    for option, known in KNOWN_VALUES.items():
        normal = tier_number if option == "tier" else str.lower
        for value in filters[option]:
            if normal(value) not in known:
                raise UsageError(
                    f"--{option} {value!r} names no {option}; known: {', '.join(known)}"
                )


def _print_table(events: Iterator[Event], layout: Layout) -> int:
    """The header with the first matching event (none: nothing), then a line per event;
    how many."""
    first = next(events, None)
    if first is None:
        return 0
    write = sys.stdout.write
    write(layout.header() + "\n")
    write(layout.line(first) + "\n")
    shown = 1
    for event in events:
        write(layout.line(event) + "\n")
        shown += 1
    return shown


def _print_json(events: Iterator[Event]) -> int:
    write = sys.stdout.write
    shown = 0
    for event in events:
        write(orjson.dumps(event, option=orjson.OPT_APPEND_NEWLINE).decode())
        shown += 1
    return shown


def _split(values: list[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]
