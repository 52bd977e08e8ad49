"""The CLI's boundary: what a command raised, as the user sees it and as an exit code."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest

from golem._entry import main as entry_main
from golem.cli.failure import UsageError, guarded
from golem.runtime.config.load import ConfigError, Problem
from golem.runtime.store.state import StateError
from golem.world.errors import DataProblem, WorldDataError


def _raises(exc: BaseException) -> int:
    raise exc


@pytest.mark.parametrize(
    ("exc", "line"),
    [
        (UsageError("--out: out.txt is a file"), "golem x: --out: out.txt is a file"),
        (
            ConfigError("g.toml", [Problem("golem.seed", "too large")]),
            "golem x: g.toml: golem.seed: too large",
        ),
        (StateError("state/golem.db: not a golem state"), "golem x: state/golem.db: not a"),
        (
            WorldDataError([DataProblem(Path("m.csv"), 3, "price", "not a number: 'x'")]),
            "golem x: m.csv:3, column price: not a number",
        ),
        (
            FileNotFoundError(2, "No such file or directory", "a/b.toml"),
            "golem x: a/b.toml: No such",
        ),
        (sqlite3.DatabaseError("file is not a database"), "golem x: file is not a database"),
    ],
)
def test_a_user_error_is_one_line_and_exit_2(
    exc: BaseException, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert guarded("x", lambda: _raises(exc)) == 2
    err = capsys.readouterr().err
    assert err.startswith(line) and err.count("\n") == 1


def test_ctrl_c_is_one_line_and_exit_130_even_inside_an_exception_group(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert guarded("x", lambda: _raises(KeyboardInterrupt())) == 130
    group = BaseExceptionGroup("lives", [ValueError("late"), KeyboardInterrupt()])
    assert guarded("x", lambda: _raises(group)) == 130
    assert capsys.readouterr().err == "golem x: interrupted\ngolem x: interrupted\n"


def test_user_errors_in_a_group_are_each_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    group = ExceptionGroup("g", [UsageError("one"), ExceptionGroup("h", [UsageError("two")])])
    assert guarded("x", lambda: _raises(group)) == 2
    assert capsys.readouterr().err == "golem x: one\ngolem x: two\n"


def test_a_fault_is_one_line_pointing_at_debug(capsys: pytest.CaptureFixture[str]) -> None:
    assert guarded("x", lambda: _raises(ZeroDivisionError("division by zero"))) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "internal error: ZeroDivisionError: division by zero" in err and "--debug" in err


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ZeroDivisionError):
        guarded("x", lambda: _raises(ZeroDivisionError()), debug=True)
    monkeypatch.setenv("GOLEM_DEBUG", "1")
    with pytest.raises(UsageError):
        guarded("x", lambda: _raises(UsageError("bad")))
    monkeypatch.setenv("GOLEM_DEBUG", "0")
    assert guarded("x", lambda: _raises(UsageError("bad"))) == 2


class _InterruptedImport:
    """A finder that stands for Ctrl-C arriving while `golem.cli` is being imported."""

    def find_spec(self, name: str, *_: object) -> None:
        if name == "golem.cli":
            raise KeyboardInterrupt


def test_ctrl_c_while_the_cli_imports_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "golem.cli")
    monkeypatch.setattr(sys, "meta_path", [_InterruptedImport(), *sys.meta_path])
    assert entry_main() == 130
    assert capsys.readouterr().err == "golem: interrupted\n"


@pytest.mark.parametrize("user_error", [False, True])
def test_what_is_printed_masks_key_values_as_the_log_does(
    user_error: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exception's message may quote a request (a URL's key, a header): the provider's
    key, a variable named like a secret, and anything shaped like a key are masked."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "planted-anthropic-0123456789")
    monkeypatch.setenv("MY_SERVICE_TOKEN", "planted-token-abcdefgh")
    monkeypatch.setenv("KEY_PATH", "/srv/keys/where")  # names a key's place, not a key
    shaped = "sk-ant-api03-" + "A" * 30
    text = (
        f"401 at https://x/v1?key=planted-anthropic-0123456789 ({shaped}, "
        "planted-token-abcdefgh) reading /srv/keys/where"
    )
    exc = UsageError(text) if user_error else RuntimeError(text)
    assert guarded("x", lambda: _raises(exc)) == (2 if user_error else 1)
    err = capsys.readouterr().err
    assert "planted" not in err and shaped not in err and "sk-ant" not in err
    assert err.count("[redacted]") == 3 and "401 at https://x/v1?key=" in err
    assert "reading /srv/keys/where" in err
