"""The simulator: a golem's lineage on a virtual clock through the daemon's own pieces,
with the synthetic provider and a simulated market (`run`, and its summary.json `summary`;
who succeeds a golem that dies, `lineage`), many seeded lineages at once on Dask (`batch`),
a parameter sweep (`sweep`) and its table of results (`results`), policies side by side
(`compare`, with its rank test `ranktest`), the scenario file (`scenario`), the counts kept
of a life's records (`tally`) and its plots (`plots`). It drives golem.runtime; nothing in
golem.runtime imports it.
"""

from golem.simulation.batch import LifeEnd, OnEnd, distribution, executor, run_lives, slots
from golem.simulation.plots import Death, write_plots
from golem.simulation.run import LifeSpec, live, run_life
from golem.simulation.scenario import (
    IncomeStep,
    PredictionBias,
    Scenario,
    SimulationSection,
    SuccessionSection,
    load_scenario,
)
from golem.simulation.summary import LifeResult
from golem.simulation.tally import PHASES, Tally

__all__ = [
    "PHASES",
    "Death",
    "IncomeStep",
    "LifeEnd",
    "LifeResult",
    "LifeSpec",
    "OnEnd",
    "PredictionBias",
    "Scenario",
    "SimulationSection",
    "SuccessionSection",
    "Tally",
    "distribution",
    "executor",
    "live",
    "load_scenario",
    "run_life",
    "run_lives",
    "slots",
    "write_plots",
]
