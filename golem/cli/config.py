"""`golem config check FILE [--json]`: validate a config (or a scenario) and print it
resolved, each provider's key shown only as set, unset or keyless. A market CSV is read
whole and checked to serve the life: from now for a config, from its start for a scenario.
Exit 2 with the problems, naming the file and the key path (or the CSV's file, line and
column), when the config cannot be used; nothing is written anywhere.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson
from rich.console import Console
from rich.table import Table

from golem.inference.secrets import Redaction
from golem.runtime import RealClock, make_market
from golem.runtime.config import (
    TIERS,
    ConfigError,
    GolemConfig,
    key_statuses,
    load_config,
    secret_values,
)
from golem.simulation import load_scenario
from golem.world import CSVReplay, MarketSource

__all__ = ["is_scenario", "register", "resolved"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("config", help="check a golem's config file")
    parser.set_defaults(handler=lambda _args: _help(parser))
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="validate a config and print it resolved",
        description=(
            "Validate FILE (a config, or a scenario with a [simulation] table) and print "
            "the resolved config. Keys are never shown: each provider's key variable is "
            "reported set, unset or keyless. A [world] csv is read and must cover the "
            "life's start (now, or the scenario's start). Exit 2 on any problem, with the "
            "file and the key path, or the CSV's file, line and column."
        ),
    )
    check.add_argument("file", type=Path, metavar="FILE")
    check.add_argument("--json", action="store_true", help="print JSON instead of tables")
    check.set_defaults(handler=run)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def run(args: argparse.Namespace) -> int:
    market: MarketSource | None
    try:
        if is_scenario(args.file):
            scenario = load_scenario(args.file)  # reads the CSV, checked from its start
            config, market = scenario.config, scenario.replay
        else:
            config = load_config(args.file, os.environ)
            market = None
            if config.world.csv is not None:  # a simulated market needs no check
                market = make_market(config, start=RealClock().now())
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    # A key's value is never printed: not in a feed item's text, nor anything shaped
    # like a key (the key table says whether each is set, never what it is).
    secrets = Redaction(secret_values(config, os.environ))
    document = secrets.clean(resolved(config, os.environ), names=False, shapes=True)
    if isinstance(market, CSVReplay):
        document["resolved"]["market_data"] = {
            "csv": str(market.path),
            "rows": len(market),
            "from": market.start.isoformat(),
            "to": market.end.isoformat(),
        }
    if args.json:
        sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        _print_tables(
            document, Console(highlight=False, width=None if sys.stdout.isatty() else 120)
        )
    return 0


def is_scenario(path: Path) -> bool:
    """Whether `path` is a simulation scenario: a config with a [simulation] table."""
    try:
        return "simulation" in tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # load_config says what is wrong with it


def resolved(config: GolemConfig, environ: Mapping[str, str]) -> dict[str, Any]:
    """The config as data, with what it resolves to: tier chains with their models, the
    log file, the seeds, and each key's status (never its value)."""
    statuses = {s.provider: s for s in key_statuses(config, environ)}
    chains = {
        tier: [
            {
                "provider": entry.provider,
                "model": config.model_for(entry),
                "key_env": statuses[entry.provider].env,
                "key": statuses[entry.provider].status,
            }
            for entry in config.inference.chain(tier)
        ]
        for tier in TIERS
    }
    return {
        "file": str(config.path),
        "config": config.model_dump(mode="json"),
        "resolved": {
            "chains": chains,
            "log_file": str(config.log_file),
            "world_seed": config.world_seed,
            "mortality_seed": config.mortality_seed,
        },
        "keys": [
            {"provider": s.provider, "env": s.env, "used": s.used, "key": s.status}
            for s in statuses.values()
        ],
    }


# When the subsystems without a schedule run.
_UNSCHEDULED = {"daimon": "each tick's events", "risk": "each trade proposal"}


def _print_tables(document: dict[str, Any], console: Console) -> None:
    console.print(f"[bold green]ok[/] {document['file']}")
    chains = Table(title="inference chains", title_justify="left")
    for column in ("tier", "provider", "model", "key variable", "key"):
        chains.add_column(column)
    for tier, entries in document["resolved"]["chains"].items():
        for i, entry in enumerate(entries):
            chains.add_row(
                tier if i == 0 else "",
                entry["provider"],
                entry["model"] or "(embedded)",
                entry["key_env"] or "-",
                entry["key"],
            )
    console.print(chains)
    config = document["config"]
    schedules = Table(title="subsystems", title_justify="left")
    for column in ("subsystem", "enabled", "schedule"):
        schedules.add_column(column)
    for name, section in config["subsystems"].items():
        when = section.get("schedule", _UNSCHEDULED.get(name))
        schedules.add_row(name, "yes" if section.get("enabled", True) else "no", when)
    console.print(schedules)
    settings = Table(title="settings", title_justify="left")
    settings.add_column("key", no_wrap=True)
    settings.add_column("value", overflow="fold")
    rest = {k: v for k, v in config.items() if k not in {"subsystems"}}
    rest["subsystems.risk"] = config["subsystems"]["risk"]  # how it deliberates
    rest["subsystems.dream.min_episodes"] = config["subsystems"]["dream"]["min_episodes"]
    rest["inference"] = {k: v for k, v in rest["inference"].items() if k not in TIERS}
    for key, value in _flatten(rest):
        settings.add_row(key, value)
    settings.add_row("(resolved) log_file", document["resolved"]["log_file"])
    data = document["resolved"].get("market_data")
    if data is not None:
        settings.add_row(
            "(resolved) market data", f"{data['rows']} rows, {data['from']} to {data['to']}"
        )
    console.print(settings)


def _flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            yield from _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, orjson.dumps(value).decode() if not isinstance(value, str) else value
