"""A config or scenario that still sets a removed key (one that changed nothing a golem
does): one line naming the key and why it went, exit 2, nothing created."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.user_errors.support import golem, tree

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"

# (case, the command, the TOML added to the file, the fragments the one line must hold)
CASES: list[tuple[str, tuple[str, ...], str, tuple[str, ...]]] = [
    (
        "risk-schedule",
        ("config", "check"),
        '[subsystems.risk]\nschedule = "demand"\n',
        ("subsystems.risk.schedule: removed: risk runs on every trade proposal",),
    ),
    (
        "heartbeat-schedule",
        ("config", "check"),
        '[subsystems.heartbeat]\nschedule = "tick"\n',
        ("subsystems.heartbeat.schedule: removed:", "set its period in [heartbeat] interval"),
    ),
    (
        "daimon-schedule",
        ("config", "check"),
        '[subsystems.daimon]\nschedule = "events"\n',
        ("subsystems.daimon.schedule: removed:", "subsystems.daimon.enabled = false"),
    ),
    (
        "death-in-a-scenario",
        ("simulate",),
        "[subsystems.death]\nenabled = true\n",
        ("subsystems.death.enabled: removed: death cannot be disabled or scheduled",),
    ),
]


@pytest.mark.parametrize(
    ("case", "command", "added", "fragments"), CASES, ids=[c[0] for c in CASES]
)
def test_a_removed_key_is_one_line(
    tmp_path: Path, case: str, command: tuple[str, ...], added: str, fragments: tuple[str, ...]
) -> None:
    base = DECLINE.read_text() if command == ("simulate",) else ""
    path = tmp_path / "old.toml"
    path.write_text(base + "\n" + added)
    before = tree(tmp_path)
    ran = golem(*command, path, cwd=tmp_path)
    line = ran.one_line_error(code=2)
    assert f"{path}: subsystems." in line, line
    for fragment in fragments:
        assert fragment in line, (case, line)
    assert tree(tmp_path) == before
