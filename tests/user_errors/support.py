"""Running `golem` as a user does, for the user-errors tables: a real process, its exit
code and output, and what it left on disk."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Ran", "golem", "tree"]

_ROOT = Path(__file__).resolve().parents[2]  # this checkout's golem, whatever is installed


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str

    def one_line_error(self, code: int = 2) -> str:
        """Asserts the run failed the way a user error should (exit `code`, no
        traceback, one line on stderr) and returns that line."""
        assert self.code == code, (self.code, self.err)
        assert "Traceback" not in self.err, self.err
        lines = [line for line in self.err.splitlines() if line.strip()]
        assert len(lines) == 1, self.err
        return lines[0]


def golem(
    *args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> Ran:
    """`golem ARGS` in `cwd`, as a separate process; `env` adds to a copy of os.environ
    (with no GOLEM_DEBUG, whatever the caller's)."""
    environ = {k: v for k, v in os.environ.items() if k != "GOLEM_DEBUG"}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_ROOT), environ.get("PYTHONPATH")]))
    environ.update(env or {})
    done = subprocess.run(
        [sys.executable, "-m", "golem", *map(str, args)],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def tree(root: Path) -> set[str]:
    """Every path under `root`, relative: compare before and after to see what a run made."""
    return {str(p.relative_to(root)) for p in root.rglob("*")}
