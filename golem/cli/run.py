"""`golem run CONFIG`: the long-running golem, until it dies, Ctrl-C, or `--for` runs out."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import timedelta
from pathlib import Path

import trio

from golem.runtime.clock import RealClock
from golem.runtime.config import ConfigError, load_config, secret_values
from golem.runtime.config_sections import GolemConfig
from golem.runtime.daemon import assemble, make_market
from golem.runtime.durations import parse_duration
from golem.runtime.logs import configure_logging
from golem.runtime.state import StateStore


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "run",
        help="run a golem from a config file",
        description=(
            "Run a golem from a config file until it dies. Ctrl-C or SIGTERM finish the "
            "running job, save the state and exit 0; a restart resumes where it stopped. "
            "A life on recorded market data ends where the data ends (exit 0, "
            "data_ended). A job that fails the same way [golem] max_consecutive_failures "
            "times in a row stops the golem with exit 3."
        ),
    )
    parser.add_argument("config", type=Path, help="the golem's TOML config")
    parser.add_argument("--for", dest="duration", help="stop after this long, e.g. 90s, 10m, 2h")
    parser.add_argument("--state-dir", type=Path, help="override [golem] state_dir")
    parser.add_argument("--log-file", type=Path, help="override [logging] file")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        duration = parse_duration(args.duration) if args.duration else None
    except ValueError as exc:
        print(f"golem run: --for: {exc}", file=sys.stderr)
        return 2
    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(f"golem run: {exc}", file=sys.stderr)
        return 2
    config = _overridden(config, args.state_dir, args.log_file)
    ended = trio.run(_live, config, duration)
    print(f"golem run: {config.golem.id} {ended}", file=sys.stderr)
    return 0


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


async def _live(config: GolemConfig, duration: timedelta | None) -> str:
    clock = RealClock()
    now = clock.now()
    # Read and checked before the state directory is touched: bad data changes nothing.
    market = make_market(config, start=now, end=now + duration if duration else None)
    with (
        StateStore.open(config.golem.state_dir) as store,
        configure_logging(
            now=clock.now,
            file=config.log_file,
            level=config.logging.level,
            console=config.logging.console,
            secrets=secret_values(config, os.environ),
        ),
    ):
        life, pool = assemble(config, clock=clock, store=store, environ=os.environ, market=market)
        try:
            return await life.run(duration=duration, signals=True)
        finally:
            if pool is not None:
                await pool.aclose()
