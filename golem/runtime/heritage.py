"""An heir's Oracle (Bardo's OracleGenome, golem/oracle/genome.py): the genome a dead
golem leaves, read from its state (its prediction ledger, and what it inherited itself),
kept in its heir's state before birth and given to the heir's Oracle at every start (a
restart inherits the same again: the inherited evidence is kept apart from the own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import structlog

from golem.oracle import (
    INHERITANCE_WEIGHT,
    CalibrationParams,
    ConfidenceCalibrator,
    CorrectorParams,
    Oracle,
    OracleGenome,
    ResidualCorrector,
)
from golem.runtime.store import StateStore

if TYPE_CHECKING:
    from golem.runtime.predictions import Predictor

__all__ = ["GENOME_META", "bequeath", "genome_of", "in_step", "keep"]

log = structlog.get_logger("golem")

GENOME_META = "oracle_genome"  # the heir's state meta key


def genome_of(
    store: StateStore, *, corrector: CorrectorParams, calibration: CalibrationParams
) -> OracleGenome:
    """The genome of the golem whose state is `store`: what it inherited, pooled with
    every resolution in its ledger (its Oracle as a restart would rebuild it, with the
    lineage's `[prediction]` corrector and `[calibration]` settings: the state keeps no
    config, and a simulated heir's genome is read from an Oracle built with them)."""
    oracle = Oracle(
        corrector=ResidualCorrector(corrector), calibrator=ConfidenceCalibrator(calibration)
    )
    inherited = store.get_meta(GENOME_META)
    if inherited is not None:
        OracleGenome.from_dict(inherited).bequeath(oracle, weight=1.0)  # already scaled
    oracle.restore(*store.predictions.load())
    return OracleGenome.of(oracle)


def keep(store: StateStore, genome: OracleGenome) -> None:
    """Keep `genome`, scaled by Bardo's weight, in a newborn heir's state."""
    store.set_meta(GENOME_META, genome.scaled(INHERITANCE_WEIGHT).to_dict())


def bequeath(store: StateStore, oracle: Oracle, golem_id: str) -> None:
    """Start `oracle` from the genome kept in its golem's state, if any (already scaled)."""
    kept = store.get_meta(GENOME_META)
    if kept is None:
        return
    genome = OracleGenome.from_dict(kept)
    genome.bequeath(oracle, weight=1.0)
    log.info(
        "oracle_inherited",
        golem=golem_id,
        weight=INHERITANCE_WEIGHT,
        residual_keys=len(genome.residuals),
        residual_samples=round(sum(p.weight for p in genome.residuals.values()), 3),
        curves=len(genome.curves),
        curve_samples=round(sum(n for c in genome.curves.values() for n, _ in c.values()), 3),
    )


def in_step(store: StateStore, predictor: Predictor, golem_id: str) -> None:
    """Start `predictor`'s Oracle from its inheritance, and rebuild both from the committed
    ledger after every rollback of the state."""
    bequeath(store, predictor.oracle, golem_id)

    def rebuild() -> None:
        predictor.rebuild()
        kept = store.get_meta(GENOME_META)
        if kept is not None:
            OracleGenome.from_dict(kept).bequeath(predictor.oracle, weight=1.0)

    store.at_rollback(rebuild)
