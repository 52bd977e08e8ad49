"""The runtime: a golem assembled from its config and run on a clock.

`Golem` (golem.py) is one life's tick and jobs; `Life` (life.py) is a Golem with its
scheduler, made by `assemble`; `decide` (decide.py) is one decision end to end, and each
decision and vitality reading is published on a `RecordStream` (stream.py). Providers come
from the config's chains (routes.py); time from an injected clock (clock.py); jobs run on the
scheduler (scheduler.py). The subpackages hold the config (config/), the state on disk
(store/) and the log (logs/). The simulator (golem.simulation) drives this package; nothing
here imports it.
"""

from golem.runtime.asking import Budgeting, Route, Routes
from golem.runtime.clock import InstantClock, RealClock, SleepingClock, VirtualClock
from golem.runtime.decide import decide
from golem.runtime.golem import HORIZON_TICKS, Golem, LifeOptions
from golem.runtime.life import Life, assemble
from golem.runtime.markets import make_market
from golem.runtime.record import DecisionRecord
from golem.runtime.routes import ProviderPool, build_routes
from golem.runtime.scheduler import Job, JobFailing, Scheduler, Trigger, cron, every
from golem.runtime.stream import Record, RecordStream, Subscriber, VitalityRecord

__all__ = [
    "HORIZON_TICKS",
    "Budgeting",
    "DecisionRecord",
    "Golem",
    "InstantClock",
    "Job",
    "JobFailing",
    "Life",
    "LifeOptions",
    "ProviderPool",
    "RealClock",
    "Record",
    "RecordStream",
    "Route",
    "Routes",
    "Scheduler",
    "SleepingClock",
    "Subscriber",
    "Trigger",
    "VirtualClock",
    "VitalityRecord",
    "assemble",
    "build_routes",
    "cron",
    "decide",
    "every",
    "make_market",
]
