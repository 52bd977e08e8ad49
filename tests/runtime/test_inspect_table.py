"""The table of `golem inspect`: columns chosen by width (80 columns and 160), every
column and whole summaries in a file, log text that cannot upset the terminal, and a
stream that stops quietly when its reader does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from rich.cells import cell_len

from golem.cli import main
from golem.cli.inspect_table import layout_for
from tests.runtime.test_inspect import EVENTS, decision, model, write_log

LONG = ", ".join(["a summary far longer than any narrow terminal leaves for it"] * 3)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "golem.log"
    write_log(path, [*EVENTS, ("info", "decision", model(130, "risk", 1, 0.25, summary=LONG))])
    return path


def table(capsys: pytest.CaptureFixture[str], log: Path, *args: str) -> list[str]:
    assert main(["inspect", str(log), *args]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


def header(lines: list[str]) -> list[str]:
    return lines[0].replace("cost $", "cost").split()


def test_at_80_columns_the_most_useful_columns_fit(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = table(capsys, log_file, "--width", "80")
    assert header(lines) == ["time", "tick", "subsystem", "tier", "source", "cost", "summary"]
    assert len(lines) == len(EVENTS) + 2
    assert all(len(line) <= 80 for line in lines)
    daimon = next(line for line in lines if " daimon " in line)
    assert daimon.startswith("03-01 12:00:20") and daimon.endswith(" 0.002000 fear")
    assert lines[-1].endswith("…") and "0.250000 a summary far" in lines[-1]
    # no event column: an event other than a decision is named in its summary
    assert any(line.endswith(" phase_change: from=…") for line in lines)
    assert any(line.endswith(" vitality=0.72 phase…") for line in lines)


def test_at_160_columns_more_of_the_record_shows(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = table(capsys, log_file, "--width", "160")
    assert header(lines) == [
        *("time", "tick", "event", "subsystem", "tier", "source", "provider:model"),
        *("cost", "vital", "phase", "summary"),
    ]
    assert all(len(line) <= 160 for line in lines)
    daimon = next(line for line in lines if " daimon " in line)
    assert "openai:gpt-4.1-nano" in daimon and "0.800 thriving" in daimon
    assert any(" phase_change " in line and "from=thriving to=stable" in line for line in lines)


def test_columns_follows_the_terminal_s_width(
    log_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert table(capsys, log_file) == table(capsys, log_file, "--width", "80")


def test_a_file_gets_every_column_and_whole_summaries(
    log_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    lines = table(capsys, log_file)
    assert lines == table(capsys, log_file, "--width", "0")
    assert {"tries", "tokens", "mode", "vital", "phase"} <= set(header(lines))
    assert lines[-1].startswith("2026-03-01 12:02:10") and lines[-1].endswith(LONG)
    assert "500/100" in lines[-1] and "schema_enforced" in lines[-1]


@pytest.mark.parametrize("form", [(), ("--json",)])
def test_no_row_no_header_and_it_is_said(
    log_file: Path, capsys: pytest.CaptureFixture[str], form: tuple[str, ...]
) -> None:
    """Nothing matching is said on stderr, exit 1 (grep's convention), no header."""
    assert (
        main(["inspect", str(log_file), "--subsystem", "death", "--event", "decision", *form]) == 1
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err == f"golem inspect: no event in {log_file} matches --subsystem death --event decision\n"
    )


def test_the_filters_of_closed_sets(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = table(capsys, log_file, "--width", "80", "--source", "fallback,skipped")
    assert [line.split()[3] for line in lines[1:]] == ["risk", "dream"]
    assert len(table(capsys, log_file, "--tier", "T1")) == 1 + 4
    assert table(capsys, log_file, "--tier", "1") == table(capsys, log_file, "--tier", "t1")


@pytest.mark.parametrize("width", [80, 160])
def test_log_text_is_shown_as_text(tmp_path: Path, width: int) -> None:
    hostile = "\x1b[2J\x1b]0;pwned\x07 line\nbreak 価格が急落した 📉 " * 3
    event = decision(0, "daimon", "model", summary=hostile) | {"event": "decision"}
    for layout in (layout_for(width), layout_for(None)):
        line = layout.line(event)
        assert line.isprintable() and "\x1b" not in line and "\n" not in line
    assert "line break 価格が急落した 📉" in layout_for(None).line(event)
    event["summary"] = "価格が急落した 📉 " * 20
    line = layout_for(width).line(event)
    assert cell_len(line) == width and line.endswith("…")


def test_a_reader_that_leaves_early_stops_the_stream_quietly(tmp_path: Path) -> None:
    path = tmp_path / "golem.log"
    line = orjson.dumps({"event": "decision"} | decision(0, "heartbeat", "deterministic"))
    path.write_bytes((line + b"\n") * 5000)  # more than a pipe holds
    environ = os.environ | {"PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, "-m", "golem", "inspect", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environ,
    ) as reader:
        assert reader.stdout is not None and reader.stderr is not None
        assert reader.stdout.readline().startswith(b"time ")
        reader.stdout.close()
        err = reader.stderr.read()
    assert reader.returncode == 0, err
    assert err == b""
