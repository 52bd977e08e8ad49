"""Mortality: the pure policy that turns money and time into vitality, phases, budgets,
reasoning depth and, per call, an Allocation or a Degradation.

Imports nothing of golem but inference types (ReasoningConfig, Price, Usage).
"""

from golem.inference.reasoning import ReasoningConfig, ReasoningDepth
from golem.mortality.allocator import (
    FALLBACKS,
    FIXED_BUDGET,
    PHASE_CEILINGS,
    Allocation,
    AllocatorPolicy,
    CallEstimate,
    Degradation,
    DegradationReason,
    Fallback,
    MortalityState,
    PolicyName,
    allocate,
)
from golem.mortality.budgets import (
    BudgetLine,
    BudgetPolicy,
    CostCapPolicy,
    CostCapTier,
    KeyedValueError,
    compute_reasoning_budgets,
    cost_cap_tier,
    pressure,
    split_diem,
    subsystem_budget,
    sustainability_multiplier,
)
from golem.mortality.death_clocks import (
    Clock,
    EconomicClock,
    FixedClock,
    utc_day,
)
from golem.mortality.hazard import (
    HazardParams,
    StochasticRoll,
    death_probability,
    roll,
    uniform_draw,
)
from golem.mortality.ledger import Charge, HeldBills, InMemoryLedger, Ledger
from golem.mortality.names import ModelTier, SubsystemName
from golem.mortality.params import MortalityParams, MortalityPolicy
from golem.mortality.profiles import (
    PROFILE_TABLE,
    PipelineProfile,
    ProfileRow,
    ReasoningPressurePolicy,
    apply_mortality_to_reasoning,
    select_profile_and_reasoning,
)
from golem.mortality.reserve import ReserveParams
from golem.mortality.senescence import Senescence, SenescenceParams, Stage
from golem.mortality.vitality import (
    DeathCause,
    Phase,
    PhaseThresholds,
    VitalityParams,
    composite_vitality,
    death_cause,
    phase_of,
)
from golem.mortality.vitals import Vitals, assess

__all__ = [
    "FALLBACKS",
    "FIXED_BUDGET",
    "PHASE_CEILINGS",
    "PROFILE_TABLE",
    "Allocation",
    "AllocatorPolicy",
    "BudgetLine",
    "BudgetPolicy",
    "CallEstimate",
    "Charge",
    "Clock",
    "CostCapPolicy",
    "CostCapTier",
    "DeathCause",
    "Degradation",
    "DegradationReason",
    "EconomicClock",
    "Fallback",
    "FixedClock",
    "HazardParams",
    "HeldBills",
    "InMemoryLedger",
    "KeyedValueError",
    "Ledger",
    "ModelTier",
    "MortalityParams",
    "MortalityPolicy",
    "MortalityState",
    "Phase",
    "PhaseThresholds",
    "PipelineProfile",
    "PolicyName",
    "ProfileRow",
    "ReasoningConfig",
    "ReasoningDepth",
    "ReasoningPressurePolicy",
    "ReserveParams",
    "Senescence",
    "SenescenceParams",
    "Stage",
    "StochasticRoll",
    "SubsystemName",
    "VitalityParams",
    "Vitals",
    "allocate",
    "apply_mortality_to_reasoning",
    "assess",
    "composite_vitality",
    "compute_reasoning_budgets",
    "cost_cap_tier",
    "death_cause",
    "death_probability",
    "phase_of",
    "pressure",
    "roll",
    "select_profile_and_reasoning",
    "split_diem",
    "subsystem_budget",
    "sustainability_multiplier",
    "uniform_draw",
    "utc_day",
]
