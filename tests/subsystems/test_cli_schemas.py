"""`golem schemas` lists the nine decision schemas and prints each."""

from __future__ import annotations

import orjson
import pytest

from golem.cli import main
from golem.inference import strict_preflight
from golem.subsystems import DECISIONS

NAMES = [d.schema_name for d in DECISIONS]


def test_list_as_json_has_the_nine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas", "--json"]) == 0
    listing = orjson.loads(capsys.readouterr().out)
    assert set(NAMES) <= {row["name"] for row in listing}
    types = {row["name"]: row["type"] for row in listing}
    assert types["heartbeat_decision"].startswith("golem.subsystems.heartbeat.")


def test_table_lists_the_nine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas"]) == 0
    out = capsys.readouterr().out
    for name in NAMES:
        assert name in out


@pytest.mark.parametrize("name", NAMES)
def test_prints_each_schema(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas", name]) == 0
    schema = orjson.loads(capsys.readouterr().out)
    assert schema["type"] == "object"
    assert strict_preflight(schema) is None
    assert schema == next(d for d in DECISIONS if d.schema_name == name).schema()


def test_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas", "nope"]) == 2
    assert "unknown schema" in capsys.readouterr().err
