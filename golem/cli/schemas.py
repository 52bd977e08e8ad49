"""`golem schemas [NAME]`: list the registered decision schemas, or print one as JSON."""

from __future__ import annotations

import argparse
import sys

import orjson
from rich.console import Console
from rich.table import Table

import golem.subsystems  # noqa: F401  (importing the subsystems registers their schemas)
from golem.inference.schema import strict_preflight
from golem.inference.structured import get_schema, registered_schemas


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "schemas",
        help="list the decision schemas, or print one as JSON",
        description="List the registered decision schemas, or print one as JSON Schema.",
    )
    parser.add_argument("name", nargs="?", help="a schema name, e.g. heartbeat_decision")
    parser.add_argument("--json", action="store_true", help="list as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.name:
        try:
            decision = get_schema(args.name)
        except KeyError as exc:
            print(f"golem schemas: {exc.args[0]}", file=sys.stderr)
            return 2
        print(orjson.dumps(decision.schema(), option=orjson.OPT_INDENT_2).decode())
        return 0
    schemas = registered_schemas()
    if args.json:
        listing = [
            {"name": name, "type": f"{cls.__module__}.{cls.__qualname__}"}
            for name, cls in schemas.items()
        ]
        print(orjson.dumps(listing, option=orjson.OPT_INDENT_2).decode())
        return 0
    table = Table(title=f"{len(schemas)} decision schemas")
    table.add_column("name")
    table.add_column("type")
    table.add_column("properties", justify="right")
    table.add_column("strict")
    for name, cls in schemas.items():
        schema = cls.response_schema().schema
        strict = "yes" if strict_preflight(schema) is None else "no"
        table.add_row(
            name,
            f"{cls.__module__}.{cls.__qualname__}",
            str(len(schema.get("properties", {}))),
            strict,
        )
    Console().print(table)
    return 0
