"""A lineage: the golems that live one after another in one simulated world (the Bardo
design's succession). A golem that dies with money left is followed, at the moment of its
death, by a successor of its own identity, funded with what it left, holding its settled
portfolio, and born with its testament's lessons in its grimoire at a reduced confidence.
This module says who succeeds, with what; `run.live` lives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from golem.mortality import ReserveParams
from golem.oracle import OracleGenome
from golem.runtime.config import GolemConfig
from golem.simulation.scenario import SuccessionSection
from golem.subsystems.contract import GrimoireEntry
from golem.subsystems.death import DeathTestament, inherited_lessons

__all__ = ["Generation", "Heir", "heir_of", "successor_config"]


@dataclass(frozen=True, slots=True)
class Generation:
    """One golem of a lineage: when it lived (days since the scenario's start), how it
    ended, the money it was given and earned, what it spent and left, the lessons it was
    born with and whether a model wrote its testament (None: it did not die)."""

    number: int
    born_day: float
    ended_day: float
    ended: str  # died, horizon, or data_ended
    cause_of_death: str | None
    ticks: int
    funded_usd: float
    income_usd: float
    spend_usd: float
    credits_left_usd: float
    inherited_lessons: int
    testament_by_model: bool | None
    testament: Path | None  # the testament's JSON, if it died and wrote one
    testament_usd: float = 0.0  # what its death reflection cost (0: it did not die)
    # Its own life's return net of fees, slippage and its inference, beside the baselines
    # over the same stretch of the path (performance.net_returns), from its birth portfolio.
    returns: dict[str, float | None] = field(default_factory=dict)

    @property
    def lifespan_days(self) -> float:
        return self.ended_day - self.born_day

    def fields(self) -> dict[str, Any]:
        """The generation as summary.json lists it."""
        return {
            "generation": self.number,
            "born_day": round(self.born_day, 9),
            "lifespan_days": round(self.lifespan_days, 9),
            "ended": self.ended,
            "cause_of_death": self.cause_of_death,
            "ticks": self.ticks,
            "funded_usd": round(self.funded_usd, 9),
            "income_usd": round(self.income_usd, 9),
            "spend_usd": round(self.spend_usd, 9),
            "testament_usd": round(self.testament_usd, 9),
            "credits_left_usd": round(self.credits_left_usd, 9),
            "inherited_lessons": self.inherited_lessons,
            "testament_by_model": self.testament_by_model,
            **self.returns,
        }


@dataclass(frozen=True, slots=True)
class Heir:
    """What the next golem of a lineage is born with: its number, its money, its
    predecessor's settled portfolio (`PaperPortfolio.to_dict()`), the lessons and its
    predecessor's Oracle genome (unscaled: the heir's state keeps it at Bardo's 0.7)."""

    generation: int
    funds_usd: float
    portfolio: dict[str, Any]
    lessons: tuple[GrimoireEntry, ...]
    genome: OracleGenome | None = None


def heir_of(
    last: Generation,
    portfolio: dict[str, Any],
    succession: SuccessionSection,
    *,
    time_left: bool,
    reserve: ReserveParams | None = None,
    genome: OracleGenome | None = None,
) -> Heir | None:
    """The successor of `last`, or None: when succession is off, `last` did not die, the
    horizon has come (`time_left` False), or it left less than `min_credits_usd` or no
    more than the apoptotic `reserve` an heir funded with it would hold back (the group's
    money is spent: such an heir could pay for nothing but its own death, at birth). A
    testament that cannot be read passes no lessons."""
    if not (succession.enabled and last.ended == "died" and time_left):
        return None
    left = last.credits_left_usd
    held = 0.0 if reserve is None else reserve.amount(left, 0)  # death settled to cash
    if left < succession.min_credits_usd or left <= held or left <= 0:
        return None
    lessons: tuple[GrimoireEntry, ...] = ()
    if last.testament is not None and last.testament.is_file():
        testament = DeathTestament.model_validate_json(last.testament.read_bytes())
        lessons = inherited_lessons(
            testament, generation=last.number + 1, factor=succession.inherited_confidence
        )
    return Heir(last.number + 1, last.credits_left_usd, portfolio, lessons, genome)


def successor_config(config: GolemConfig, heir: Heir) -> GolemConfig:
    """The founder's `config` for `heir`: its own identity (`ID-gN`: its own hazard rolls
    and log lines), the money left as its initial credits, and the founder's as the
    lineage's (`lineage_credits_usd`): its economic clock measures the money the lineage
    still has, so an heir of a lineage with 30% of it left is born at 0.3, not 1.0."""
    mortality = config.mortality
    founded = mortality.lineage_credits_usd or mortality.initial_credits_usd
    return config.model_copy(
        update={
            "golem": config.golem.model_copy(
                update={"id": f"{config.golem.id}-g{heir.generation}"}
            ),
            "mortality": mortality.model_copy(
                update={"initial_credits_usd": heir.funds_usd, "lineage_credits_usd": founded}
            ),
        }
    )
