"""`[mortality] terminal_grace` that is not a duration or "off": exit 2, one line naming
the key and saying what to write, no traceback, nothing created."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.user_errors.support import golem, tree

CONFIG = """\
[golem]
id = "graceful"
state_dir = "state"

[inference]
t1 = ["synthetic"]

[mortality]
terminal_grace = {value}
"""


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [
        ("a number", "0", "write a duration as a string, e.g. '1d', '12h', or 'off'"),
        ("a word", '"soon"', "not a duration: 'soon'; write e.g."),
        ("zero", '"0s"', "a duration must be positive, got '0s', or 'off'"),
    ],
)
@pytest.mark.parametrize("command", [("config", "check"), ("run",)])
def test_terminal_grace_that_is_no_duration(
    tmp_path: Path, name: str, value: str, fragment: str, command: tuple[str, ...]
) -> None:
    config = tmp_path / "golem.toml"
    config.write_text(CONFIG.format(value=value))
    before = tree(tmp_path)
    line = golem(*command, str(config), cwd=tmp_path).one_line_error(code=2)
    assert "mortality.terminal_grace" in line and fragment in line, (name, line)
    assert tree(tmp_path) == before
