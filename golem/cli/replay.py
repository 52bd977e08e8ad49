"""`golem replay LOG_OR_STATE --decision ID --provider NAME [--model M] [--depth D]`: one
model decision's kept request asked again of another provider, model or reasoning depth,
the two answers side by side; `--all [--subsystem S] [--since 2d]`: many, as an agreement
table per subsystem. The state is opened read-only (a running golem's included) and the
replays are charged to nobody's ledger.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import structlog
import trio
from rich.console import Console
from rich.table import Table
from rich.text import Text

import golem.subsystems  # noqa: F401  (importing the subsystems registers their schemas)
from golem.cli.ask import provider_named
from golem.cli.failure import UsageError
from golem.inference import Provider, StructuredOutputConfig
from golem.inference.durations import parse_duration
from golem.inference.errors import AuthError, ProviderError, StructuredOutputInvalid
from golem.inference.reasoning import ReasoningDepth
from golem.inference.transport import HTTPProvider
from golem.inference.wall_clock import utc_now
from golem.runtime.agreement import Agreement, differing, flatten, tally, verdict_fields
from golem.runtime.config import load_config
from golem.runtime.kept_requests import replay
from golem.runtime.logs import configure_logging
from golem.runtime.store import (
    DB_NAME,
    Answer,
    DecisionId,
    KeptRequest,
    KeptState,
    RequestArchive,
    StateError,
)

__all__ = ["register"]

_SQLITE_MAGIC = b"SQLite format 3\0"
_DEPTHS = [depth.name.lower() for depth in ReasoningDepth]
EXIT_PROVIDER = 1


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "replay",
        help="ask a logged model decision again of another provider, model or depth",
        description=(
            "Replay a model decision: its request as it was sent (prompt masked as sent, "
            "schema, attempts), kept in the golem's state for [golem] keep_requests, asked "
            "again of --provider, and the two decisions side by side with cost, tokens and "
            "the fields that differ. The structured-output mode is resolved for the provider "
            "asked (the original's is shown beside it). --all replays many and prints per "
            "subsystem how often the two agree: booleans and enums equal, numbers within "
            "--tolerance (relative). Providers are built as `golem ask` builds them, from "
            "--config's [providers] tables (give the golem's own config file); keys come "
            "from the environment. Replays are charged to no golem."
        ),
    )
    parser.add_argument(
        "source",
        type=Path,
        metavar="LOG_OR_STATE",
        help="a golem.log, a state directory or its golem.db (a simulation's --out too)",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--decision", metavar="ID", help="the log line's id, e.g. risk@5856.1")
    which.add_argument("--all", action="store_true", help="every kept decision (see --since)")
    parser.add_argument("--provider", required=True, help="e.g. local, openai, anthropic")
    parser.add_argument("--model", help="the model (default: the provider's, or --config's)")
    parser.add_argument(
        "--depth", choices=_DEPTHS, help="reasoning depth (default: the original's)"
    )
    parser.add_argument("--config", help="a golem config whose [providers] tables apply")
    parser.add_argument(
        "--subsystem", action="append", default=[], help="with --all: only these subsystems"
    )
    parser.add_argument(
        "--since",
        type=_duration,
        metavar="DURATION",
        help="with --all: decisions this long before the newest kept one (e.g. 2d, 6h)",
    )
    parser.add_argument(
        "--limit", type=_positive, metavar="N", help="with --all: the N most recent only"
    )
    parser.add_argument(
        "--tolerance",
        type=_tolerance,
        default=0.1,
        help="relative difference within which numbers agree (default 0.1)",
    )
    parser.set_defaults(handler=run)


def _duration(text: str) -> Any:
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return int(text)


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"a fraction from 0 up to 1, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    if not args.all and (args.subsystem or args.since or args.limit):
        raise UsageError("--subsystem, --since and --limit go with --all")
    db = _database(args.source)
    config = load_config(args.config, environ=os.environ) if args.config else None
    structured = config.inference.structured_outputs if config is not None else None
    depth = ReasoningDepth[args.depth.upper()] if args.depth else None
    try:
        with KeptState(db) as kept_state:
            chosen = (
                _selection(kept_state.requests, args)
                if args.all
                else [_one(kept_state, args.decision, db)]
            )
    except StateError as exc:
        raise UsageError(str(exc)) from None
    provider = provider_named(args.provider, args.model, config)
    job = _Job(provider, args.model, depth, structured)
    previous = structlog.get_config()
    sinks = configure_logging(now=utc_now, level="warning", console_stream=sys.stderr)
    try:
        results = trio.run(job.run_all, chosen)
    except AuthError as exc:
        raise UsageError(str(exc)) from None
    finally:
        sinks.close()
        structlog.configure(**previous)
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    if args.all:
        return _print_agreement(console, results, args.tolerance, provider)
    kept, outcome = results[0]
    if isinstance(outcome, str):
        print(f"golem replay: {kept.id}: {outcome}", file=sys.stderr)
        return EXIT_PROVIDER
    _print_side_by_side(console, kept, outcome)
    return 0


class _Job:
    """The replays of one command: one provider, asked in turn."""

    def __init__(
        self,
        provider: Provider,
        model: str | None,
        depth: ReasoningDepth | None,
        structured: StructuredOutputConfig | None,
    ) -> None:
        self.provider, self.model, self.depth, self.structured = provider, model, depth, structured

    async def run_all(
        self, chosen: Sequence[KeptRequest]
    ) -> list[tuple[KeptRequest, Answer | str]]:
        """Each replay's answer, or the one line saying why it has none."""
        results: list[tuple[KeptRequest, Answer | str]] = []
        try:
            for kept in chosen:
                results.append((kept, await self._one(kept)))
        finally:
            if isinstance(self.provider, HTTPProvider):
                await self.provider.aclose()
        return results

    async def _one(self, kept: KeptRequest) -> Answer | str:
        name = self.provider.name
        try:
            return await replay(
                kept, self.provider, model=self.model, depth=self.depth, config=self.structured
            )
        except AuthError:
            raise
        except ProviderError as exc:
            return f"{name} failed: {exc.code}: {exc}"
        except StructuredOutputInvalid as exc:
            return f"{name} gave no valid {kept.schema} in {exc.attempts} attempt(s): {exc}"


def _database(source: Path) -> Path:
    """The golem.db that LOG_OR_STATE names: itself, the one in a state directory (or a
    simulation's --out/state), or the one beside a log (or in state/ beside it)."""
    if source.is_dir():
        places = [source / DB_NAME, source / "state" / DB_NAME]
    elif source.is_file():
        with source.open("rb") as file:
            if file.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC:
                return source
        places = [source.parent / DB_NAME, source.parent / "state" / DB_NAME]
    else:
        raise UsageError(f"LOG_OR_STATE {source}: no such file or directory")
    for place in places:
        if place.is_file():
            return place
    raise UsageError(f"LOG_OR_STATE {source}: no golem state ({DB_NAME}) there or beside it")


def _one(state: KeptState, id: str, db: Path) -> KeptRequest:
    """The kept request of decision `id`, or one line saying why there is none."""
    try:
        decision = DecisionId.parse(id)
    except ValueError as exc:
        raise UsageError(f"--decision {exc}") from None
    kept = state.requests.get(str(decision))
    if kept is not None:
        return kept
    span = state.requests.span()
    made = state.tick_time(decision.tick)
    if span is not None and made is not None and made < span[0]:
        # A model call before the oldest kept request: requests were dropped since. None:
        # every model decision is kept, and this one was decided without a model.
        if not state.charged_before(span[0]):
            raise UsageError(
                f"--decision {id}: made at {made.isoformat()}, before the golem's first model "
                f"decision ({span[0].isoformat()}), so without a model: only a model's "
                "decision has a request to replay"
            )
        raise UsageError(
            f"--decision {id}: made at {made.isoformat()}, before the oldest request kept "
            f"({span[0].isoformat()}); [golem] keep_requests sets how long they are kept"
        )
    kept_note = f"{span[0].isoformat()} to {span[1].isoformat()}" if span else "none"
    raise UsageError(
        f"--decision {id}: no model decision of that id is kept in {db} "
        f"(kept: {kept_note}; only decisions made by a model, with `id` on their log line)"
    )


def _selection(archive: RequestArchive, args: argparse.Namespace) -> list[KeptRequest]:
    subsystems = [s.strip() for value in args.subsystem for s in value.split(",") if s.strip()]
    span = archive.span()
    if span is None:
        raise UsageError(f"{args.source}: no requests are kept ([golem] keep_requests)")
    since = span[1] - args.since if args.since else None
    chosen = archive.select(subsystems, since)
    if args.limit:
        chosen = chosen[-args.limit :]
    if not chosen:
        where = f" of {', '.join(subsystems)}" if subsystems else ""
        raise UsageError(f"{args.source}: no kept decisions{where} in that time")
    return chosen


# --- output -------------------------------------------------------------------------------

_CALL_ROWS = (
    ("provider", lambda a: a.provider),
    ("model", lambda a: a.model),
    ("mode", lambda a: a.mode),
    ("reasoning depth", lambda a: a.depth),
    ("attempts", lambda a: a.attempts),
    ("input tokens", lambda a: a.input_tokens),
    ("output tokens", lambda a: a.output_tokens),
    ("reasoning tokens", lambda a: a.reasoning_tokens),
    ("cost $", lambda a: f"{a.cost_usd:.6f}"),
    ("latency s", lambda a: f"{a.latency_s:.3f}"),
)


def _print_side_by_side(console: Console, kept: KeptRequest, replayed: Answer) -> None:
    original = kept.answer
    table = Table(
        title=f"{kept.id} · {kept.schema} · {kept.time.isoformat()}", title_justify="left"
    )
    for column in ("", "original", "replay", "≠"):
        table.add_column(column)
    for label, read in _CALL_ROWS:
        _row(table, label, read(original), read(replayed))
    table.add_section()
    a, b = flatten(original.decision), flatten(replayed.decision)
    for key in {**a, **b}:
        _row(table, key, a.get(key, ""), b.get(key, ""))
    console.print(table)
    differ = differing(original.decision, replayed.decision)
    verdicts = [name for name in verdict_fields(kept.schema) if name in differ]
    if not differ:
        console.print("the two decisions are the same in every field")
        return
    console.print(f"{len(differ)} of {len({**a, **b})} decision fields differ: {', '.join(differ)}")
    if verdicts:
        console.print(f"[bold]what it decided differs:[/] {', '.join(verdicts)}")


def _row(table: Table, label: str, a: object, b: object) -> None:
    differs = a != b
    style = "bold yellow" if differs else ""
    table.add_row(label, Text(str(a)), Text(str(b), style=style), "≠" if differs else "")


def _print_agreement(
    console: Console,
    results: list[tuple[KeptRequest, Answer | str]],
    tolerance: float,
    provider: Provider,
) -> int:
    rows = tally(
        ((kept, None if isinstance(out, str) else out) for kept, out in results), tolerance
    )
    table = Table(
        title=(
            f"agreement of {len(results)} replays on {provider.name} with the originals "
            f"(numbers within {tolerance:g})"
        ),
        title_justify="left",
    )
    for column in ("subsystem", "n", "failed", "agree"):
        table.add_column(column, justify="right" if column != "subsystem" else "left")
    table.add_column("per field")
    for column in ("original $", "replay $", "original tokens", "replay tokens"):
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(
            row.subsystem,
            str(row.n),
            str(row.failed),
            _share(row.agreed, row.answered) if row.fields else "-",
            _fields(row),
            f"{row.original_usd:.6f}",
            f"{row.replay_usd:.6f}",
            str(row.original_tokens),
            str(row.replay_tokens),
        )
    console.print(table)
    for kept, out in results:
        if isinstance(out, str):
            print(f"golem replay: {kept.id}: {out}", file=sys.stderr)
    return EXIT_PROVIDER if all(isinstance(out, str) for _, out in results) else 0


def _fields(row: Agreement) -> str:
    if not row.answered:
        return ""
    return ", ".join(
        f"{name} {_share(row.by_field.get(name, 0), row.answered)}" for name in row.fields
    )


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}% ({part}/{whole})" if whole else "-"
