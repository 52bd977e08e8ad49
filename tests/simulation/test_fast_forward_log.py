"""A fast-forwarded life's raw log follows time, as `--step`'s does: each line's timestamp
is at or after the one before it (a person tailing golem.log never sees time go back), and
the events the log's readers expand (a quiet stretch into its decisions' lines) are, event
and timestamp, `--step`'s in the same order. A vitality reading inside a stretch comes
after its tick's decision and before the next tick's, stamped with its own tick's time."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.runtime.logs.read import Malformed, read_events
from golem.simulation.run import LifeSpec, run_life

SIMULATIONS = Path(__file__).parents[2] / "simulations"
STEP = ("simulation.fast_forward", False)


def _lived(tmp_path: Path, name: str, how: str, days: float) -> Path:
    """golem.log of `name`'s life (seed 1), fast-forwarded or stepped (`how`)."""
    out = tmp_path / how
    extra = (STEP,) if how == "step" else ()
    run_life(LifeSpec(SIMULATIONS / f"{name}.toml", 1, out, days, overrides=extra))
    return out / "golem.log"


def _expanded(log: Path) -> list[tuple[str, str, int | None]]:
    """(event, timestamp, tick) of each event the log's readers read, in order."""

    def malformed(line: Malformed) -> None:
        raise AssertionError(f"line {line.line}: {line.reason}")

    return [(e["event"], e["timestamp"], e.get("tick")) for e in read_events(log, malformed)]


# Lines a quiet tick writes itself: venice_diem's senescence begins inside a stretch,
# injection's phase changes at a stretch's last tick.
WRITTEN_INSIDE = {"venice_diem": "senescence", "injection": "phase_change"}


@pytest.mark.parametrize("name", ["decline", "whipsaw", "venice_diem", "injection"])
def test_a_fast_forwarded_log_follows_time_as_step_s_does(tmp_path: Path, name: str) -> None:
    forward, step = (_lived(tmp_path, name, how, 1.0) for how in ("forward", "step"))
    lines = [orjson.loads(line) for line in forward.read_bytes().splitlines()]
    stretches = [line for line in lines if line["event"] == "quiet_stretch"]
    assert len(stretches) > 10  # the life was fast-forwarded
    # Some vitality reading was made inside a stretch: its tick was a quiet one.
    quiet_ticks = {tick for s in stretches for tick in range(s["first_tick"], s["last_tick"] + 1)}
    readings = [line for line in lines if line["event"] == "vitality"]
    assert any(r["tick"] in quiet_ticks for r in readings)
    if name in WRITTEN_INSIDE:
        written = [line for line in lines if line["event"] == WRITTEN_INSIDE[name]]
        assert any(line["tick"] in quiet_ticks for line in written)
    stamps = [line["timestamp"] for line in lines]
    assert stamps == sorted(stamps)  # (ISO texts of one zone: sorted as times)
    assert all(s["timestamp"] == s["last_time"] for s in stretches)
    expanded = _expanded(forward)
    assert expanded == _expanded(step)
    times = [stamp for _, stamp, _ in expanded]
    assert times == sorted(times)
