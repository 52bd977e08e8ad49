"""`golem run CONFIG --successor-of OLD_STATE_DIR`: a new golem born with its dead
predecessor's testament (Bardo's succession, prd/02-mortality/07-succession.md): its
lessons enter the successor's grimoire staged, at their confidence in the testament ×
0.85 per generation (`inherited_lessons`, as the simulator's lineage does), its Oracle's
genome (residual statistics and calibration curves, golem/oracle/genome.py) at Bardo's
0.7, and the lineage's money as its economic clock's 1.0 (`[mortality]
lineage_credits_usd`: the founder's initial credits, as the simulator's heirs). Refused, one
line and exit 2, before anything is made: a predecessor still alive (its state lock is
held, or it has no death recorded), one without a readable testament, or a state
directory that already holds a life."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pydantic
import structlog

from golem.cli.failure import UsageError
from golem.oracle import CalibrationParams, CorrectorParams, GenomeError, OracleGenome
from golem.runtime.config import GolemConfig
from golem.runtime.heritage import genome_of, keep
from golem.runtime.store import DB_NAME, StateError, StateLock, StateStore
from golem.runtime.store.predictions import LedgerError
from golem.simulation.scenario import SuccessionSection
from golem.subsystems.contract import GrimoireEntry
from golem.subsystems.death import DeathTestament, inherited_lessons

__all__ = [
    "INHERITED_CONFIDENCE",
    "LINEAGE_META",
    "Succession",
    "inherit",
    "predecessor",
    "with_lineage",
]

log = structlog.get_logger("golem")

# Per generation, as the simulator's [simulation.succession] default and Bardo's decay.
INHERITED_CONFIDENCE: float = SuccessionSection.model_fields["inherited_confidence"].default
LINEAGE_META = "lineage_credits_usd"  # a successor's state: its lineage's founding money


@dataclass(frozen=True, slots=True)
class Succession:
    """What a successor is born with, and whose it was."""

    state_dir: Path
    golem: str
    cause: str
    generation: int  # the successor's: its predecessor's + 1
    lessons: tuple[GrimoireEntry, ...]
    genome: OracleGenome
    lineage_credits_usd: float | None  # the founder's money (None: nothing recorded)

    def fields(self) -> dict[str, Any]:
        return {
            "predecessor": str(self.state_dir),
            "predecessor_golem": self.golem,
            "predecessor_cause": self.cause,
            "generation": self.generation,
            "inherited_lessons": len(self.lessons),
            "lineage_credits_usd": self.lineage_credits_usd,
        }


def with_lineage(config: GolemConfig, lineage_credits_usd: Any) -> GolemConfig:
    """`config` with the lineage's money as `[mortality] lineage_credits_usd` (as the
    simulator's `successor_config`: an heir's economic clock measures the money the lineage
    still has); one the owner set is kept, and so is `config` when there is none (a
    founder; a successor's restart reads it from its state)."""
    mortality = config.mortality
    if mortality.lineage_credits_usd is not None or lineage_credits_usd is None:
        return config
    return config.model_copy(
        update={
            "mortality": mortality.model_copy(
                update={"lineage_credits_usd": float(lineage_credits_usd)}
            )
        }
    )


def predecessor(
    state_dir: Path,
    *,
    successor_state: Path,
    corrector: CorrectorParams,
    calibration: CalibrationParams,
) -> Succession:
    """Read the dead golem in `state_dir`; raises UsageError naming why it cannot be
    succeeded."""
    where = f"--successor-of {state_dir}"
    if not (state_dir / DB_NAME).is_file():
        raise UsageError(f"{where}: not a golem's state directory (no {DB_NAME})")
    if (successor_state / DB_NAME).exists():  # it would take them a second time, or mid-life
        raise UsageError(
            f"{where}: {successor_state} already holds a life; a successor is born in a "
            "new state directory (--state-dir)"
        )
    try:
        with StateLock(state_dir), StateStore.open(state_dir) as store:
            death, golem = store.death(), store.get_meta("golem_id")
            generation = int(store.get_meta("generation") or 1)
            lineage = store.get_meta(LINEAGE_META) or store.initial_credits()
            genome = genome_of(store, corrector=corrector, calibration=calibration)
    except StateError as exc:  # held: it is still running
        raise UsageError(f"{where}: the predecessor is still alive ({exc})") from None
    except (GenomeError, LedgerError) as exc:
        raise UsageError(f"{where}: its state's {exc}") from None
    if death is None:
        raise UsageError(
            f"{where}: the predecessor is still alive (no death recorded); end it first "
            f"with `golem ctl {state_dir} kill` and one more tick"
        )
    files = [Path(f) for f in death.get("testament", []) if str(f).endswith(".json")]
    if not files or not files[0].is_file():
        raise UsageError(f"{where}: the predecessor left no testament")
    try:
        testament = DeathTestament.model_validate_json(files[0].read_bytes())
    except (pydantic.ValidationError, OSError) as exc:
        problem = str(exc).splitlines()[0]
        raise UsageError(f"{where}: its testament {files[0]} cannot be read: {problem}") from None
    lessons = inherited_lessons(testament, generation=generation + 1, factor=INHERITED_CONFIDENCE)
    return Succession(
        state_dir,
        str(golem),
        str(death["cause"]),
        generation + 1,
        lessons,
        genome,
        None if lineage is None else float(lineage),
    )


def inherit(store: StateStore, succession: Succession) -> None:
    """Write the lessons, the Oracle's genome and the lineage's money into a newborn
    successor's state (`predecessor` made sure it holds no life yet)."""
    with store.transaction():
        for entry in succession.lessons:
            store.save_grimoire_entry(entry)
        keep(store, succession.genome)
        if succession.lineage_credits_usd is not None:
            store.set_meta(LINEAGE_META, succession.lineage_credits_usd)
        store.set_meta("generation", succession.generation)
        store.set_meta("predecessor", succession.fields())
    log.info("succession", **succession.fields())
