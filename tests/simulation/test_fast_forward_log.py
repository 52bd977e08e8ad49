"""A fast-forwarded life's raw log follows time, as `--step`'s does: each line's timestamp
is at or after the one before it (a person tailing golem.log never sees time go back), and
the events the log's readers expand (a quiet stretch into its decisions' lines) are
`--step`'s, value for value, in the same order. A vitality reading inside a stretch comes
after its tick's decision and before the next tick's, stamped with its own tick's time;
a line a quiet tick writes itself comes after the decisions of the ticks before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from golem.runtime.logs.read import Malformed, read_events
from golem.simulation.run import LifeSpec, run_life

SIMULATIONS = Path(__file__).parents[2] / "simulations"
STEP = ("simulation.fast_forward", False)

# Lines a quiet tick writes itself: venice_diem's senescence begins inside a stretch,
# injection's phase changes at a stretch's last tick, and terminal_rescue's slows the
# heartbeat there too (`heartbeat_interval`, in the same second), a day in.
WRITTEN_INSIDE = {
    "venice_diem": "senescence",
    "injection": "phase_change",
    "terminal_rescue": "phase_change",
}


def _lived(tmp_path: Path, name: str, how: str, days: float) -> Path:
    """golem.log of `name`'s life (seed 1), fast-forwarded or stepped (`how`)."""
    out = tmp_path / how
    extra = (STEP,) if how == "step" else ()
    run_life(LifeSpec(SIMULATIONS / f"{name}.toml", 1, out, days, overrides=extra))
    return out / "golem.log"


def _expanded(log: Path) -> list[dict[str, Any]]:
    """The events the log's readers read, in order (the life's directory named OUT)."""

    def malformed(line: Malformed) -> None:
        raise AssertionError(f"line {line.line}: {line.reason}")

    out = str(log.parent).encode()
    return [
        orjson.loads(orjson.dumps(event).replace(out, b"OUT"))
        for event in read_events(log, malformed)
    ]


LIVES = [("decline", 1.0), ("whipsaw", 1.0), ("venice_diem", 1.0), ("injection", 1.0)]


@pytest.mark.parametrize(("name", "days"), [*LIVES, ("terminal_rescue", 1.1)])
def test_a_fast_forwarded_log_follows_time_as_step_s_does(
    tmp_path: Path, name: str, days: float
) -> None:
    forward, step = (_lived(tmp_path, name, how, days) for how in ("forward", "step"))
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
    assert [(e["event"], e["timestamp"]) for e in expanded] == [
        (e["event"], e["timestamp"]) for e in _expanded(step)
    ]
    assert expanded == _expanded(step)  # and value for value
    if name == "terminal_rescue":
        slower = [line for line in lines if line["event"] == "heartbeat_interval"]
        changes = {line["timestamp"] for line in written if line["tick"] in quiet_ticks}
        assert any(line["timestamp"] in changes for line in slower)
