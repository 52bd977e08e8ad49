"""A golem's state is its owner's alone: the state directory it makes is 0700, and the
database (with its WAL and shared-memory files), the lock, the log and the testament are
0600, whatever the umask lets through (the request archive in golem.db holds whole
prompts)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from golem.runtime.private import write_documents
from golem.runtime.store import StateStore
from golem.subsystems.death.decision import DeathTestament
from golem.subsystems.death.legacy import legacy
from tests.subsystems.support import context
from tests.user_errors.support import golem


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def _open_umask() -> Iterator[None]:
    """The most open umask a user may have: only what golem asks for narrows the modes."""
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.mark.usefixtures("_open_umask")
def test_the_state_store_s_files_are_private(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with StateStore.open(state) as store:
        store.set_meta("k", "v")
        files = sorted(p.name for p in state.iterdir())
        assert {"golem.db", "golem.db-wal", "golem.db-shm"} <= set(files)
        assert {p.name: _mode(p) for p in state.iterdir()} == dict.fromkeys(files, 0o600)
    assert _mode(state) == 0o700


@pytest.mark.usefixtures("_open_umask")
def test_a_state_made_before_is_made_private_when_opened(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with StateStore.open(state):
        pass
    (state / "golem.db").chmod(0o644)
    with StateStore.open(state):
        assert _mode(state / "golem.db") == 0o600


@pytest.mark.usefixtures("_open_umask")
def test_the_testament_is_private(tmp_path: Path) -> None:
    testament = DeathTestament(killed_by="age")
    written = write_documents(
        tmp_path / "state", legacy(("t.json", "t.md"), testament, context(), "age")
    )
    assert [_mode(Path(p)) for p in written] == [0o600, 0o600]
    assert _mode(tmp_path / "state") == 0o700


def test_golem_run_leaves_a_private_state_dir(tmp_path: Path) -> None:
    (tmp_path / "golem.toml").write_text(
        '[golem]\nid = "g-private"\nstate_dir = "state"\nseed = 1\n\n'
        '[inference]\nt1 = ["synthetic"]\n\n[heartbeat]\ninterval = "1s"\n\n'
        '[logging]\nconsole = "off"\n'
    )
    ran = golem("run", "golem.toml", "--for", "2s", cwd=tmp_path)
    assert ran.code == 0, ran.err
    state = tmp_path / "state"
    modes = {p.name: _mode(p) for p in state.iterdir()}
    assert {"golem.db", "golem.log", "golem.lock"} <= set(modes)
    assert modes == dict.fromkeys(modes, 0o600)
    assert _mode(state) == 0o700
