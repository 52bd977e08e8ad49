"""The `golem` command's entry points."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest

from golem.cli import main


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    assert "schemas" in capsys.readouterr().out


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "usage: golem" in capsys.readouterr().out


def test_schemas_lists_registered_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.inference.decisions import Pulse  # registers test_pulse

    assert main(["schemas", "--json"]) == 0
    names = [row["name"] for row in orjson.loads(capsys.readouterr().out)]
    assert Pulse.schema_name in names


def test_schemas_prints_one_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.inference.decisions import Pulse

    assert main(["schemas", "test_pulse"]) == 0
    assert orjson.loads(capsys.readouterr().out) == Pulse.schema()


def test_unknown_schema_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas", "no_such_schema"]) == 2
    assert "unknown schema 'no_such_schema'" in capsys.readouterr().err


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "golem", "schemas"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "decision schemas" in done.stdout
