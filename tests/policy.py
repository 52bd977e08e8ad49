"""What a default config compiles to (golem.runtime.compiled), for the tests that build a
subsystem or call a mortality function outside a Golem: they pass it explicitly, as the
Golem passes the policy it compiled. Nothing falls back to it on its own.

`RISK` is the risk subsystem's own settings (RiskConfig's, every assessment at the seeds'
tier), not the default config's ("stake" deliberation): the tests that build a Risk
alone measure it without the stake bands."""

from __future__ import annotations

from golem.mortality import MortalityParams
from golem.runtime.compiled import Compiled
from golem.runtime.config import GolemConfig
from golem.subsystems.risk import RiskConfig

__all__ = [
    "ALLOCATOR",
    "APPRAISAL",
    "COMPILED",
    "CONTEXT",
    "DAIMON",
    "HAZARD",
    "HEARTBEAT",
    "LIMITS",
    "MORTALITY",
    "RISK",
    "SCHEDULE",
    "STRUCTURED",
]

COMPILED = Compiled.of(GolemConfig())
MORTALITY = COMPILED.mortality  # phases, vitality
HAZARD = MortalityParams().hazard  # the stochastic clock's (MORTALITY.hazard: None when off)
ALLOCATOR = MORTALITY.allocator  # budgets, cost_cap, reasoning
HEARTBEAT = COMPILED.heartbeat  # probes.thresholds, sizing
SCHEDULE = COMPILED.schedule
STRUCTURED = COMPILED.structured  # structured output's modes and re-asks
CONTEXT = COMPILED.context  # each profile's prompt limits
DAIMON = COMPILED.daimon
APPRAISAL = DAIMON.rules
RISK = RiskConfig()
LIMITS = RISK.limits
