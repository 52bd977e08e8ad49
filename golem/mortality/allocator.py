"""The allocator: before a subsystem calls a model, `allocate` says whether it may, at
which tier, with which profile and reasoning, and how many attempts (re-asks included)
today's money can pay for, or which degradation to take instead.

The guarantee: the USD charged on one UTC day by every subsystem but death never exceeds
the state's daily budget (the cap), nor the credits ever go below the apoptotic reserve
by their charges, provided each attempt costs no more than its worst case
(`CallEstimate`) and each allocation's charges are recorded before the next one is made.
Death is always funded: the reserve is its, it may spend every credit left (not bounded
by the cap), and when they cannot pay for one attempt without reasoning it is granted one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum
from types import MappingProxyType

from golem.inference.pricing import Price
from golem.inference.reasoning import ReasoningConfig, ReasoningDepth
from golem.inference.types import DEFAULT_ATTEMPTS
from golem.mortality.budgets import (
    BudgetPolicy,
    CostCapPolicy,
    CostCapTier,
    cost_cap_tier,
    pressure,
    subsystem_budget,
)
from golem.mortality.death_clocks import Clock, utc_day
from golem.mortality.ledger import Ledger
from golem.mortality.names import ModelTier, SubsystemName
from golem.mortality.profiles import (
    PROFILE_TABLE,
    PipelineProfile,
    ProfileRow,
    ReasoningPressurePolicy,
    apply_mortality_to_reasoning,
    select_profile_and_reasoning,
)
from golem.mortality.vitality import Phase

__all__ = [
    "FALLBACKS",
    "FIXED_BUDGET",
    "PHASE_CEILINGS",
    "Allocation",
    "AllocatorPolicy",
    "CallEstimate",
    "Degradation",
    "DegradationReason",
    "Fallback",
    "MortalityState",
    "PolicyName",
    "allocate",
]

_S = SubsystemName

# Sums of floats drift by a few ulps; leaving this fraction of the cap unspent keeps
# "never above the cap" exact.
_ROUNDING_SLACK = 1e-9


class Fallback(StrEnum):
    SKIP = "skip"  # not done today, not queued
    DETERMINISTIC = "deterministic"  # the subsystem's rule-based path, no model
    LOWER_TIER = "lower_tier"  # allocate again one tier down (a T2 heartbeat becomes T1)


class DegradationReason(StrEnum):
    TERMINAL = "terminal"  # in Terminal only death may call a model
    PHASE_TIER_CAP = "phase_tier_cap"  # Conservation and Declining cap at the cheap tier
    COST_CAP_NO_TOP_TIER = "cost_cap_no_top_tier"  # 70 to 90% of the daily cap spent
    COST_CAP_NO_LLM = "cost_cap_no_llm"  # 90 to 100%: no model but risk's and death's
    COST_CAP_EXHAUSTED = "cost_cap_exhausted"  # the cap cannot pay for one more attempt
    BUDGET_EXHAUSTED = "budget_exhausted"  # the subsystem's budget line cannot
    RULES_ONLY = "rules_only"  # the rules-only policy asks no model, death's included


class PolicyName(StrEnum):
    """The named policies a golem lives by (`[mortality] policy`). The allocator reads
    `AllocatorPolicy.mortal` and `.models`; the clocks read `MortalityPolicy.immortal`."""

    VITALITY = "vitality"  # budgets, tiers and reasoning follow vitality and phase
    FIXED = "fixed"  # as at full vitality in Thriving, whatever they are; the clocks run
    IMMORTAL = "immortal"  # Bardo's control: no clock kills, phase held at Thriving
    RULES = "rules"  # no model at all: every subsystem on its deterministic path


# What each subsystem does when it may not call a model. Death is never degraded.
FALLBACKS: Mapping[SubsystemName, Fallback] = MappingProxyType(
    {
        _S.HEARTBEAT: Fallback.DETERMINISTIC,  # its T0 probes
        _S.RISK: Fallback.DETERMINISTIC,  # its hard limits; only at the cap or in Terminal
        _S.DREAM: Fallback.SKIP,  # dreams are skipped, not queued
        _S.DAIMON: Fallback.DETERMINISTIC,  # the OCC appraisal rules
        _S.CONTEXT: Fallback.DETERMINISTIC,  # static heuristics
        _S.CURATOR: Fallback.SKIP,  # the next curation cycle
        _S.PLAYBOOK: Fallback.SKIP,  # the playbook stays as it is
        _S.OPERATOR: Fallback.DETERMINISTIC,  # a fixed reply saying why
    }
)

PHASE_CEILINGS: Mapping[Phase, ModelTier] = MappingProxyType(
    {
        Phase.THRIVING: ModelTier.T2,
        Phase.STABLE: ModelTier.T2,
        Phase.CONSERVATION: ModelTier.T1,
        Phase.DECLINING: ModelTier.T1,
        Phase.TERMINAL: ModelTier.T0,
    }
)

_CAP_CEILINGS = {
    CostCapTier.NORMAL: ModelTier.T2,
    CostCapTier.NO_TOP_TIER: ModelTier.T1,
    CostCapTier.RISK_AND_DEATH_ONLY: ModelTier.T0,
    CostCapTier.EXHAUSTED: ModelTier.T0,
}
_CAP_REASONS = {
    CostCapTier.NO_TOP_TIER: DegradationReason.COST_CAP_NO_TOP_TIER,
    CostCapTier.RISK_AND_DEATH_ONLY: DegradationReason.COST_CAP_NO_LLM,
    CostCapTier.EXHAUSTED: DegradationReason.COST_CAP_EXHAUSTED,
}


@dataclass(frozen=True, slots=True)
class CallEstimate:
    """What the caller knows of a call before making it. `max_output_tokens` is the answer's
    cap; the reasoning budget of the granted depth is priced on top. A re-ask re-sends the
    previous answer plus the error list (at most `reask_tokens`), so each attempt's input
    grows; re-asks carry no reasoning blocks. `diem`: routed through Venice, paid in DIEM
    first while today's allowance lasts. `cached_tokens`: the part of the input the caller
    expects served from the provider's prompt cache, set only when a hit is likely (see
    golem.inference.caching), priced at the cached rate; 0 prices every token uncached."""

    price: Price
    input_tokens: int
    max_output_tokens: int
    reask_tokens: int = 1024
    diem: bool = False
    cached_tokens: int = 0

    def attempt_cost(self, attempt: int, reasoning: ReasoningConfig) -> float:
        """The most attempt number `attempt` (1 for the first call) can cost in USD."""
        grown = (attempt - 1) * (self.max_output_tokens + self.reask_tokens)
        output = self.max_output_tokens + reasoning.depth.budget_tokens()
        return self.price.worst_case(self.input_tokens + grown, output, self.cached_tokens)


@dataclass(frozen=True, slots=True)
class MortalityState:
    """What the allocator reads of the golem. `daily_budget_usd` is also the day's hard cost
    cap; `sustainability_ratio` is income ÷ spend (None when unknown); `security` is the
    high-security mode (every model call through the Full profile). `wallet_usd`: the
    credits left (None: unknown, unbounded); `reserve_usd`: the apoptotic reserve held
    back from them for death. No call but death's is granted beyond the wallet less the
    reserve: a wallet no larger than the reserve grants nothing but death's call."""

    vitality: float
    phase: Phase
    daily_budget_usd: float
    sustainability_ratio: float | None = None
    diem_allowance: float = 0.0
    security: bool = False
    wallet_usd: float | None = None
    reserve_usd: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.vitality <= 1.0:
            raise ValueError(f"vitality must be in [0, 1], got {self.vitality}")
        for name in ("daily_budget_usd", "diem_allowance", "reserve_usd"):
            amount = getattr(self, name)
            if not (math.isfinite(amount) and amount >= 0):
                raise ValueError(f"{name} must be a finite amount >= 0, got {amount}")


@dataclass(frozen=True, slots=True)
class AllocatorPolicy:
    """How the allocator governs calls. `mortal=False` is the fixed-budget policy that a
    mortal golem is compared with: budget lines, tier ceilings and reasoning depth stay
    as at full vitality in the Thriving phase, whatever the golem's vitality and phase
    (no scaling, no degradation by decline); the daily cap and the budget lines still hold.
    `models=False` is the rules-only policy: no call is granted, death's included.
    `fit_depth`: the subsystems whose call, when the money left cannot pay for the granted
    reasoning depth's worst case, is granted at the deepest depth it can pay for (down to
    none) instead of going to the subsystem's fallback; an answer thought through less is
    still a model's, where the fallback is the rules'. The depth is the deepest that pays
    for one attempt: a shallower one that would also pay for the re-asks is not preferred."""

    max_attempts: int = DEFAULT_ATTEMPTS  # first call plus re-asks
    mortal: bool = True
    models: bool = True
    budgets: BudgetPolicy = field(default_factory=BudgetPolicy)
    cost_cap: CostCapPolicy = field(default_factory=CostCapPolicy)
    reasoning: ReasoningPressurePolicy = field(default_factory=ReasoningPressurePolicy)
    profiles: Mapping[SubsystemName, ProfileRow] = field(default_factory=lambda: PROFILE_TABLE)
    phase_ceilings: Mapping[Phase, ModelTier] = field(default_factory=lambda: PHASE_CEILINGS)
    fallbacks: Mapping[SubsystemName, Fallback] = field(default_factory=lambda: FALLBACKS)
    fit_depth: frozenset[SubsystemName] = frozenset({_S.RISK})


@dataclass(frozen=True, slots=True)
class Allocation:
    """Permission to call a model at `tier`, at most `max_attempts` times (≥ 1), within
    `budget_left_usd`. `worst_case_cost_usd` is one attempt's bound, `worst_case_total_usd`
    all attempts' (after DIEM). `fitted_from`: the depth the call would have had, when the
    money left granted it shallower (`AllocatorPolicy.fit_depth`)."""

    subsystem: SubsystemName
    tier: ModelTier
    ceiling: ModelTier
    budget_left_usd: float
    profile: PipelineProfile
    reasoning: ReasoningConfig
    worst_case_cost_usd: float
    worst_case_total_usd: float
    max_attempts: int
    fitted_from: ReasoningDepth | None = None


@dataclass(frozen=True, slots=True)
class Degradation:
    """No model call: take `fallback` instead, because of `reason`."""

    subsystem: SubsystemName
    tier: ModelTier  # the tier that was asked for
    reason: DegradationReason
    fallback: Fallback


FIXED_BUDGET = AllocatorPolicy(mortal=False)


def allocate(
    subsystem: SubsystemName,
    tier: ModelTier,
    state: MortalityState,
    ledger: Ledger,
    clock: Clock,
    *,
    call: CallEstimate,
    policy: AllocatorPolicy,
    at_most: ReasoningDepth | None = None,
) -> Allocation | Degradation:
    """May `subsystem` call a model at `tier` now, and how? In order: a T0 call is no model
    call and always allowed (it carries no money); death is always funded (within the
    credits left, or one attempt without reasoning); in Terminal
    nothing else calls a model; risk is held only by what is left of its budget line and
    the cap (no tier ceiling); everyone else by the phase's and the cost cap's tier
    ceilings, then by what is left of both its budget line and the cap. The reasoning is
    the profile table's after mortality pressure, no deeper than `at_most` (what the caller
    says the call is worth: risk's small stakes), and the worst case prices the granted
    depth's thinking budget on top of the answer. The rules-only policy grants no call
    but a T0 one (death's included); the state's wallet less its reserve, when it has
    one, bounds the cap: every attempt's worst case must fit in it."""
    if not policy.mortal:
        state = replace(state, vitality=1.0, phase=Phase.THRIVING)
    profile, reasoning = select_profile_and_reasoning(
        subsystem, state.security, tier, policy.profiles
    )
    reasoning = apply_mortality_to_reasoning(
        subsystem, reasoning, pressure(state.vitality), policy.reasoning
    )
    if at_most is not None and reasoning.depth > at_most:
        reasoning = replace(reasoning, depth=at_most) if at_most else ReasoningConfig.none()

    def grant(
        ceiling: ModelTier, available: float, diem_left: float, *, fit: bool = False
    ) -> Allocation | None:
        fitted, fit = reasoning, fit or subsystem in policy.fit_depth
        while True:
            attempts, total = _affordable(call, fitted, available, diem_left, policy.max_attempts)
            if attempts or not fit or not fitted.enabled:
                break
            shallower = fitted.depth.downgrade()
            fitted = replace(fitted, depth=shallower) if shallower else ReasoningConfig.none()
        if attempts == 0:
            return None
        first = call.attempt_cost(1, fitted)
        cut = reasoning.depth if fitted.depth < reasoning.depth else None
        return Allocation(
            subsystem, tier, ceiling, available, profile, fitted, first, total, attempts, cut
        )

    def degrade(reason: DegradationReason, *, lower: bool = False) -> Degradation:
        fallback = Fallback.LOWER_TIER if lower else policy.fallbacks[subsystem]
        return Degradation(subsystem, tier, reason, fallback)

    if tier is ModelTier.T0:
        return Allocation(subsystem, tier, tier, 0.0, profile, reasoning, 0.0, 0.0, 1)
    if not policy.models:
        return Degradation(subsystem, tier, DegradationReason.RULES_ONLY, Fallback.DETERMINISTIC)
    if subsystem is _S.DEATH:
        # The death protocol unlocks the reserve: death may spend every credit left, its
        # depth and re-asks fitted to them; when not one attempt without reasoning fits,
        # that attempt is granted all the same. Without a wallet: every attempt, at depth.
        budget = math.inf if state.wallet_usd is None else max(0.0, state.wallet_usd)
        granted = grant(tier, budget, 0.0, fit=True)
        if granted is not None:
            return granted
        bare = ReasoningConfig.none()
        first = call.attempt_cost(1, bare)
        cut = reasoning.depth if reasoning.enabled else None
        return Allocation(subsystem, tier, tier, budget, profile, bare, first, first, 1, cut)
    if state.phase is Phase.TERMINAL:
        return degrade(DegradationReason.TERMINAL)

    day = utc_day(clock.now())
    cap = state.daily_budget_usd
    spent = ledger.spent_usd(day)
    cap_left = max(0.0, cap - spent - cap * _ROUNDING_SLACK)
    if state.wallet_usd is not None:  # the reserve is death's alone
        cap_left = min(cap_left, max(0.0, state.wallet_usd - state.reserve_usd))
    cap_tier = cost_cap_tier(spent, cap, policy.cost_cap)
    diem_left = max(0.0, state.diem_allowance - ledger.spent_diem(day)) if call.diem else 0.0

    if subsystem is _S.RISK:
        # Never degraded by vitality, phase or the cap's tiers: only money it cannot have,
        # its budget line's (never reduced by pressure, by default) or the cap's.
        if cap_tier is CostCapTier.EXHAUSTED:
            return degrade(DegradationReason.COST_CAP_EXHAUSTED)
        line_left = _line_left(subsystem, state, ledger, day, policy)
        granted = grant(ModelTier.T2, min(line_left, cap_left), diem_left)
        if granted is not None:
            return granted
        return degrade(
            DegradationReason.COST_CAP_EXHAUSTED
            if cap_left < line_left
            else DegradationReason.BUDGET_EXHAUSTED
        )

    phase_ceiling = policy.phase_ceilings[state.phase]
    ceiling = min(phase_ceiling, _CAP_CEILINGS[cap_tier])
    if tier > ceiling:
        binding_phase = phase_ceiling <= ceiling
        reason = DegradationReason.PHASE_TIER_CAP if binding_phase else _CAP_REASONS[cap_tier]
        return degrade(reason, lower=ceiling >= ModelTier.T1)

    line_left = _line_left(subsystem, state, ledger, day, policy)
    granted = grant(ceiling, min(line_left, cap_left), diem_left)
    if granted is not None:
        return granted
    if cap_left < line_left:
        return degrade(DegradationReason.COST_CAP_EXHAUSTED, lower=tier is ModelTier.T2)
    return degrade(DegradationReason.BUDGET_EXHAUSTED, lower=tier is ModelTier.T2)


def _line_left(
    subsystem: SubsystemName,
    state: MortalityState,
    ledger: Ledger,
    day: date,
    policy: AllocatorPolicy,
) -> float:
    """What is left today of `subsystem`'s budget line."""
    budget = subsystem_budget(
        subsystem,
        state.vitality,
        state.daily_budget_usd,
        sustainability_ratio=state.sustainability_ratio,
        policy=policy.budgets,
    )
    return ledger.remaining_usd(day, budget, subsystem)


def _affordable(
    call: CallEstimate,
    reasoning: ReasoningConfig,
    available_usd: float,
    diem_left: float,
    max_attempts: int,
) -> tuple[int, float]:
    """How many attempts `available_usd` (after `diem_left` DIEM) pays for, and their USD."""
    attempts, spent, usd = 0, 0.0, 0.0
    while attempts < max_attempts:
        spent += call.attempt_cost(attempts + 1, reasoning)
        needed = max(0.0, spent - diem_left)
        if needed > available_usd:
            break
        attempts, usd = attempts + 1, needed
    return attempts, usd
