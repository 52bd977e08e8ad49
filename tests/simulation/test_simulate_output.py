"""What a batch of simulated lives shows and leaves when nobody watches a terminal: a line
on stderr per finished life (policy, seed, lifespan, how it ended, wall time, the batch's
pace so far), the disk used and the batch's pace on stdout, and no
per-life golem.log or state database unless `--logs` asks for them (summaries are always
written)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.user_errors.support import golem

DECLINE = Path(__file__).resolve().parents[2] / "simulations" / "decline.toml"
_LIFE_LINE = re.compile(
    r"^\[(\d)/2\] vitality seed (\d): lived to the horizon at 0\.05 days \(\d+\.\d s\); "
    r"\d+(\.\d)? lives/min, ETA \d+:\d\d:\d\d$"
)


@pytest.mark.parametrize("logs", [False, True], ids=["summaries only", "--logs"])
def test_a_batch_off_a_terminal_reports_each_life_and_the_disk_it_used(
    tmp_path: Path, logs: bool
) -> None:
    flags = ["--logs"] if logs else []
    ran = golem(
        "simulate", DECLINE, "--seeds", "2", "--days", "0.05", "--out", "o", *flags, cwd=tmp_path
    )
    assert ran.code == 0, ran.err
    found = [m for m in map(_LIFE_LINE.match, ran.err.splitlines()) if m]
    assert sorted(m.group(1) for m in found) == ["1", "2"], ran.err
    assert sorted(m.group(2) for m in found) == ["1", "2"], ran.err
    assert not _LIFE_LINE.search(ran.out), ran.out  # the report alone on stdout
    assert re.search(r"^\d+\.\d [kMG]B on disk under o$", ran.out, re.M), ran.out
    paced = r"^2 lives in \d+\.\d s: \d+\.\d lives/min, \d+ workers \d+% busy$"
    assert re.search(paced, ran.out, re.M), ran.out
    for seed in (1, 2):
        life = tmp_path / "o" / "vitality" / f"seed-{seed}"
        assert (life / "summary.json").is_file()
        assert (life / "golem.log").is_file() == logs
        assert (life / "state" / "golem.db").is_file() == logs
        if logs:
            assert b'"event":"decision"' in (life / "golem.log").read_bytes()
