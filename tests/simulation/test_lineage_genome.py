"""Succession in the simulator passes the Oracle's genome (Bardo 17-prediction-engine.md):
each heir's state keeps its predecessor's residual statistics and calibration curves at
0.7 of their evidence, and the heir's Oracle starts from them (an `oracle_inherited` line);
the founder's starts from nothing."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.oracle import OracleGenome
from golem.runtime.heritage import GENOME_META, genome_of
from golem.runtime.store.state import StateStore
from tests.policy import COMPILED

from .test_lineage import lineage


def test_each_heir_starts_from_its_predecessors_oracle_at_0_7(tmp_path: Path) -> None:
    lives = lineage(tmp_path, still=True).summary["lineage"]
    assert len(lives) >= 3
    out = tmp_path / "out"
    states = [out / "state"] + [out / f"generation-{g['generation']}" / "state" for g in lives[1:]]
    logs = [out / "golem.log"] + [s.parent / "golem.log" for s in states[1:]]
    with StateStore.open(states[0]) as store:
        assert store.get_meta(GENOME_META) is None  # the founder inherits nothing
        founder = genome_of(store, corrector=COMPILED.corrector, calibration=COMPILED.calibration)
    assert '"event":"oracle_inherited"' not in logs[0].read_text()
    with StateStore.open(states[1]) as store:
        kept = OracleGenome.from_dict(store.get_meta(GENOME_META))
    # The calibration curves are the founder's, every count × 0.7 (its live curves are
    # what its ledger rebuilds: the calibrator keeps every regime).
    assert founder.curves and kept.curves.keys() == founder.curves.keys()
    for key, curve in founder.curves.items():
        assert kept.curves[key].keys() == curve.keys()
        for x, (n, h) in curve.items():
            assert kept.curves[key][x] == pytest.approx((0.7 * n, 0.7 * h))
    # The residual statistics: each at 0.7 of the founder's live buffers (at most 256).
    assert kept.residuals
    for key, prior in kept.residuals.items():
        assert 0 < prior.weight <= 0.7 * 256 + 1e-9
        assert prior.weight <= 0.7 * founder.residuals[key].weight + 1e-9
    for log in logs[1:]:
        [line] = [
            orjson.loads(x) for x in log.read_text().splitlines() if '"oracle_inherited"' in x
        ]
        assert line["weight"] == 0.7 and line["curves"] > 0
    # A grandchild inherits what its parent learnt pooled with what that one inherited:
    # the founder's evidence reaches it at 0.7² (and more of its own parent's).
    with StateStore.open(states[2]) as store:
        grand = OracleGenome.from_dict(store.get_meta(GENOME_META))
    for key, curve in kept.curves.items():
        for x, (n, _) in curve.items():
            assert grand.curves[key][x][0] >= 0.7 * n - 1e-9
