"""`golem run CONFIG`: the long-running golem, until it dies, Ctrl-C, or `--for` runs out."""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import socket
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import trio

from golem.cli import run_http
from golem.cli.config import is_scenario
from golem.cli.successor import (
    INHERITED_CONFIDENCE,
    LINEAGE_META,
    Succession,
    inherit,
    predecessor,
    with_lineage,
)
from golem.cli.thinking import watching
from golem.runtime import Life, LifeOptions, RealClock, assemble, make_market
from golem.runtime.config import (
    ConfigError,
    GolemConfig,
    format_duration,
    load_config,
    parse_duration,
    secret_values,
)
from golem.runtime.control import control_token
from golem.runtime.logs import configure_logging
from golem.runtime.notify import Notifier
from golem.runtime.private import private_dir
from golem.runtime.store import (
    DB_NAME,
    LOCK_NAME,
    StartFootprint,
    StateError,
    StateLock,
    StateStore,
    check_db,
    check_file,
)
from golem.runtime.telemetry import traces_of


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "run",
        help="run a golem from a config file",
        description=(
            "Run a golem from a config file until it dies. It says at once who it is, where "
            "its state is and when its first heartbeat fires. Ctrl-C or SIGTERM finish the "
            "running job, save the state, say what was saved and exit 0; a restart resumes "
            "where it stopped. One golem per state dir: a second `golem run` on it exits 2, "
            "naming the pid that holds it. A life on recorded market data ends where the "
            "data ends (exit 0, data_ended). A job that fails the same way "
            "[golem] max_consecutive_failures times in a row stops the golem with exit 3. "
            "On a terminal (a pretty console) a model call shows a live line while it thinks "
            '("risk thinking… 1,240 tokens", counted from the reasoning streamed so far) and '
            "only its decision afterwards; to show the count as it grows, a call that reasons "
            "is streamed. `golem inspect LOG --decision ID` shows the whole reasoning."
        ),
    )
    parser.add_argument("config", type=Path, help="the golem's TOML config")
    parser.add_argument("--for", dest="duration", help="stop after this long, e.g. 90s, 10m, 2h")
    parser.add_argument("--state-dir", type=_named_path, help="override [golem] state_dir")
    parser.add_argument("--log-file", type=_named_path, help="override [logging] file")
    parser.add_argument(
        "--successor-of",
        type=Path,
        metavar="OLD_STATE_DIR",
        help=(
            "start a successor of the dead golem in OLD_STATE_DIR, born with its testament's "
            f"lessons at {INHERITED_CONFIDENCE:g}× their confidence per generation (in a new "
            "state dir)"
        ),
    )
    run_http.add_arguments(parser)
    parser.set_defaults(handler=run)


def _named_path(text: str) -> Path:
    if not text.strip():  # Path("") is the working directory
        raise argparse.ArgumentTypeError("an empty path (it would mean the working directory)")
    return Path(text)


def run(args: argparse.Namespace) -> int:
    try:
        duration = parse_duration(args.duration) if args.duration else None
    except ValueError as exc:
        print(f"golem run: --for: {exc}", file=sys.stderr)
        return 2
    if is_scenario(args.config):  # its [simulation] table would be "unknown key"
        print(
            f"golem run: {args.config} is a simulation scenario (it has a [simulation] "
            f"table): run it with `golem simulate {args.config}`",
            file=sys.stderr,
        )
        return 2
    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(f"golem run: {exc}", file=sys.stderr)
        return 2
    config = _overridden(config, args.state_dir, args.log_file)
    succession = None
    if args.successor_of is not None:  # refused before anything is made
        succession = predecessor(
            args.successor_of,
            successor_state=config.golem.state_dir,
            corrector=config.prediction.corrector(),
            calibration=config.calibration.params(),
        )
        config = with_lineage(config, succession.lineage_credits_usd)
    listening = run_http.bind(args)  # before anything is made: a taken port changes nothing
    try:
        with _naming_the_files(config.golem.state_dir / DB_NAME, config.log_file):
            trio.run(_live, config, duration, _resume_command(args), listening, succession)
    finally:
        if listening is not None:
            listening.close()
    return 0


@contextmanager
def _naming_the_files(db: Path, log_file: Path) -> Iterator[None]:
    """SQLite's errors ("no such table: charges") and a full disk's name no file: say
    which (a full disk: the log's or the state's, whichever was being written)."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise StateError(f"state database {db}: {exc}") from exc
    except OSError as exc:
        if exc.filename is not None or exc.errno not in _DISK_ERRORS:
            raise
        raise StateError(f"{exc.strerror} (writing the log {log_file} or the state {db})") from exc


_DISK_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})


def _overridden(config: GolemConfig, state_dir: Path | None, log_file: Path | None) -> GolemConfig:
    if state_dir is not None:
        config = config.model_copy(
            update={"golem": config.golem.model_copy(update={"state_dir": state_dir})}
        )
        if log_file is None and config.logging.file is not None:
            log_file = state_dir / config.logging.file.name
    if log_file is not None:
        config = config.model_copy(
            update={"logging": config.logging.model_copy(update={"file": log_file})}
        )
    return config


def _resume_command(args: argparse.Namespace) -> str:
    """The command that started this golem, as the user can type it again."""
    program = sys.argv[0] if sys.argv[0] and not sys.argv[0].endswith(".py") else "golem"
    words = [program, "run", str(args.config)]
    if args.state_dir is not None:
        words += ["--state-dir", str(args.state_dir)]
    if args.log_file is not None:
        words += ["--log-file", str(args.log_file)]
    if args.http is not None:
        words += ["--http", args.http] + (["--http-allow-remote"] if args.http_allow_remote else [])
    return shlex.join(words)


async def _live(
    config: GolemConfig,
    duration: timedelta | None,
    resume: str,
    listening: socket.socket | None = None,
    succession: Succession | None = None,
) -> None:
    """Check the paths, take the state dir, start the golem and live. Nothing is made
    before the paths are known to be usable, and a start that fails removes what it made."""
    state_dir, log_file = config.golem.state_dir, config.log_file
    clock = RealClock()
    now = clock.now()
    # Read and checked before the state directory is touched: bad data changes nothing.
    market = make_market(
        config, start=now, end=now + duration if duration else None, environ=os.environ
    )
    check_db(state_dir)
    check_file(log_file, "log file")
    db = state_dir / DB_NAME
    made = StartFootprint(
        dirs=(state_dir, log_file.parent),
        files=(
            state_dir / LOCK_NAME,
            db,
            db.with_name(f"{DB_NAME}-wal"),
            db.with_name(f"{DB_NAME}-shm"),
            log_file,
        ),
    )
    private_dir(state_dir)
    line = watching(config.logging.console, sys.stderr)
    with StateLock(state_dir), ExitStack() as opened:
        if line is not None:
            opened.callback(line.close)
        try:
            store = opened.enter_context(StateStore.open(state_dir))
            secrets = secret_values(config, os.environ)
            sinks = opened.enter_context(
                configure_logging(
                    now=clock.now,
                    file=log_file,
                    level=config.logging.level,
                    console=config.logging.console,
                    console_stream=None if line is None else line.stream,
                    secrets=secrets,
                    owner=config.golem.id,
                )
            )
            born = store.get_meta("born") is None
            if succession is not None:
                inherit(store, succession)
            config = with_lineage(config, store.get_meta(LINEAGE_META))  # a successor's
            notifier = Notifier.of(config.notify, config.golem.id, os.environ)
            if notifier is not None:
                opened.callback(notifier.close)  # the last notices (a death's) go out
            traces = traces_of(config.telemetry, config.golem.id)
            if traces is not None:
                opened.callback(traces.close)  # the last spans go out
            life, pool = assemble(
                config,
                clock=clock,
                store=store,
                environ=os.environ,
                market=market,
                subscribers=[
                    sinks.publish,
                    *([notifier.publish] if notifier else []),
                    *([traces.publish] if traces else []),
                ],
                options=LifeOptions(watch=line),
            )
            if notifier is not None:
                life.scheduler.on_failed = notifier.job_failed
                notifier.watch_approvals(life.golem.desk.approvals)
                life.golem.desk.tell_blocked = notifier.trade_blocked
        except BaseException:
            opened.close()
            made.undo()
            raise

        url: str | None = None

        def started() -> None:
            _say(banner(config, life, born=born, now=clock.now()))
            if url is not None:
                routes = "/health /status /decisions /events /metrics"
                if token is not None:
                    routes += f"; control API with the token in ${config.control.token_env}"
                _say([f"status endpoint at {url} ({routes})"])

        token = control_token(config, os.environ)
        try:
            async with run_http.serving(listening, life, secrets, token) as url:
                ended = await life.run(
                    duration=duration,
                    signals=True,
                    on_start=started,
                    on_signal=_on_signal,
                    on_overtime=_on_overtime,
                )
        finally:
            if pool is not None:
                await pool.aclose()
        _say(farewell(config, life, ended, resume))


def _on_signal(count: int, running: str | None) -> None:
    """What a Ctrl-C (or SIGTERM) does, said as it comes: the log's "signal" line alone
    left a user waiting up to 46 s on a local model's call without a word."""
    _say([signalled(count, running)])


def _on_overtime(running: str) -> None:
    """`--for` ran out while a job runs: said once, rather than wait without a word."""
    _say([overtime(running)])


def overtime(running: str) -> str:
    return (
        f"--for ran out; stopping once the running {running} finishes (a model call may "
        "take a minute); Ctrl-C twice abandons it: what it did is not saved and it runs "
        "again on resume"
    )


def signalled(count: int, running: str | None) -> str:
    if running is None:
        return "stopping" if count == 1 else "stopping (no job is running)"
    if count == 1:
        return (
            f"stopping once the running {running} finishes (a model call may take a "
            f"minute); Ctrl-C again abandons it: what it did is not saved and it runs "
            "again on resume"
        )
    if count == 2:
        return f"abandoning the running {running}: what it did is not saved"
    return f"stopping: the {running} is being abandoned"


def _say(lines: list[str]) -> None:
    for line in lines:
        print(f"golem run: {line}", file=sys.stderr, flush=True)


def banner(config: GolemConfig, life: Life, *, born: bool, now: datetime) -> list[str]:
    """What the user sees first: who, where, from which tick, on which providers, and
    when the first heartbeat comes (a newborn's, one interval after its birth)."""
    golem, store = config.golem, life.golem.store
    tick = store.tick()
    if life.golem.dead:
        state = f"is dead (it died at tick {tick}); its state is in {golem.state_dir}"
        return [f"{golem.id} {state}"]
    start = "born now" if born else f"resumed at tick {tick}"
    chains = {tier: config.inference.chain(tier) for tier in ("t1", "t2", "death")}
    providers = ", ".join(f"{t} {' > '.join(map(str, c))}" for t, c in chains.items())
    lines = [f"{golem.id} {start}, state in {golem.state_dir}", f"providers: {providers}"]
    every = format_duration(config.heartbeat.interval)
    first = life.scheduler.next_fire_time("heartbeat")
    if first is None or first <= now + _NOW:
        when = "now"
    else:
        wait = format_duration(timedelta(seconds=round((first - now).total_seconds())))
        when = f"at {first:%H:%M:%S} UTC (in {wait})"
    lines.append(f"first heartbeat {when}, then every {every}; Ctrl-C stops it")
    return lines


def farewell(config: GolemConfig, life: Life, ended: str, resume: str) -> list[str]:
    """What was saved when the life ended, and how to go on."""
    golem, store = config.golem, life.golem.store
    ticks = store.tick()  # the ticks committed, so the number of the next one
    saved = f"{ticks} {'tick' if ticks == 1 else 'ticks'} (next: tick {ticks}), credits "
    saved += f"${store.credits():.4f}"
    if ended == "died" or life.golem.dead:
        return [f"{golem.id} died; saved {saved} in {store.path} (a dead golem does not resume)"]
    why = _ENDED.get(ended, ended)
    if life.abandoned is not None:
        why += f" (the running {life.abandoned} abandoned: it runs again on resume)"
    said = f"{golem.id} {why}; saved {saved} in {store.path}"
    if ended == "data_ended":  # resumed now, it would be refused: its data ends before now
        return [said, "to go on, give it market data that covers the time from now on"]
    return [said, f"resume with: {resume}"]


_NOW = timedelta(seconds=1)
_ENDED = {
    "signal": "stopped by a signal",
    "duration": "stopped: --for ran out",
    "data_ended": "stopped: its market data ran out",
}
