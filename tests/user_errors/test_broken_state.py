"""A damaged state is named (issue 33, item 20): a golem.db missing a table said only "no
such table: charges", a meta value that is not JSON was "internal error:
JSONDecodeError", a full disk "No space left on device" without a path. Each is one line
naming the file, exit 2."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from golem.cli.run import _naming_the_files
from golem.runtime.store import StateError
from tests.user_errors.support import golem

CONFIG = (
    '[inference]\nt1 = ["synthetic"]\n[heartbeat]\ninterval = "500ms"\n[logging]\nconsole = "off"\n'
)


@pytest.fixture
def lived(tmp_path: Path) -> Path:
    """A state a golem lived a second in; the config beside it."""
    (tmp_path / "golem.toml").write_text(CONFIG)
    assert golem("run", "golem.toml", "--for", "1s", cwd=tmp_path).code == 0
    return tmp_path


def _damage(root: Path, sql: str) -> None:
    with sqlite3.connect(root / "state" / "golem.db") as db:
        db.execute(sql)
    db.close()


def test_a_missing_table_names_the_database(lived: Path) -> None:
    _damage(lived, "DROP TABLE charges")
    line = golem("run", "golem.toml", "--for", "1s", cwd=lived).one_line_error()
    assert line == "golem run: state database state/golem.db: no such table: charges"


def test_a_meta_value_that_is_not_json_names_the_database(lived: Path) -> None:
    _damage(lived, "UPDATE meta SET value = '{not json' WHERE key = 'tick'")
    line = golem("run", "golem.toml", "--for", "1s", cwd=lived).one_line_error()
    assert line.startswith("golem run: state/golem.db: meta value 'tick' is not JSON")
    assert "the state is damaged" in line


def test_a_full_disk_names_the_files_being_written(tmp_path: Path) -> None:
    db, log = tmp_path / "state" / "golem.db", tmp_path / "state" / "golem.log"
    with pytest.raises(StateError) as raised, _naming_the_files(db, log):
        raise OSError(errno.ENOSPC, "No space left on device")
    assert str(raised.value) == (
        f"No space left on device (writing the log {log} or the state {db})"
    )
    with pytest.raises(OSError, match="elsewhere"), _naming_the_files(db, log):
        raise OSError(errno.ENOSPC, "No space left on device", "elsewhere")
