"""Mortality's own parameters (the `[mortality]` section a golem config composes) and the
`MortalityPolicy` they compile into once per life: the numbers every tick reads and the
AllocatorPolicy every decision is governed by."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from pydantic import BaseModel, ConfigDict, Field

from golem.inference.durations import Duration, DurationOrOff
from golem.inference.seed import Seed
from golem.inference.types import DEFAULT_ATTEMPTS
from golem.mortality.allocator import AllocatorPolicy, PolicyName
from golem.mortality.budgets import BudgetPolicy, CostCapPolicy
from golem.mortality.hazard import HazardParams
from golem.mortality.names import SubsystemName
from golem.mortality.profiles import ReasoningPressurePolicy
from golem.mortality.reserve import ReserveParams
from golem.mortality.senescence import SenescenceParams
from golem.mortality.vitality import PhaseThresholds, VitalityParams

__all__ = ["MortalityParams", "MortalityPolicy"]


class MortalityParams(BaseModel):
    """The `[mortality]` section: the policy lived by, money, the clocks' parameters, the
    phases, the budget lines, the cost cap's tiers, reasoning pressure and the reserve
    held back for death."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    # vitality (the default), fixed, immortal or rules: see PolicyName.
    policy: PolicyName = PolicyName.VITALITY
    initial_credits_usd: float = Field(default=5.0, gt=0)
    # The money the golem's lineage was founded with (its founder's initial credits): the
    # economic clock measures what the golem has against it, so an heir funded with what
    # its predecessors left starts where the lineage's money stands, not at 1.0. Unset:
    # the golem's own initial credits (a founder's). The simulator sets it for every heir.
    lineage_credits_usd: float | None = Field(default=None, gt=0)
    daily_budget_usd: float = Field(default=1.0, gt=0)  # also the day's hard cost cap
    # Income declared for the sustainability ratio (income ÷ spend) until the runtime
    # credits some (the simulator's income steps): then the credited amount is the rate.
    income_usd_per_day: float = Field(default=0.0, ge=0)
    diem_allowance: float = Field(default=0.0, ge=0)  # DIEM a day for Venice-routed calls
    security: bool = False  # every model call through the Full profile
    stochastic_death: bool = True  # roll the Gompertz-Makeham clock each tick
    seed: Seed | None = None  # the stochastic clock's seed; default [golem].seed
    burn_decay: float = Field(default=0.95, ge=0, lt=1)  # the burn rate's EMA weight
    # Staged epistemic senescence (Bardo 02-epistemic-decay.md): epistemic fitness (the
    # prediction engine's chance-corrected skill) below `senescence_threshold` is Stage 1;
    # staying below for `senescence_grace` of time (Bardo's 500 ticks at ~40 s) confirms
    # it (Stage 2), and a confirmed golem dies once composite vitality falls below 0.1.
    senescence_threshold: float = Field(default=0.35, ge=0, le=1)
    senescence_grace: Duration = timedelta(seconds=500 * 40)
    # How long a golem may stay in Terminal (it calls no model but the death reflection)
    # before the death protocol runs, of the clock it lives on (simulated time in the
    # simulator); leaving Terminal restarts it. "off": Terminal ends only by another cause.
    terminal_grace: DurationOrOff = timedelta(days=1)
    # The subsystems whose call, when the money left cannot pay for its reasoning depth,
    # is granted at the deepest depth it can pay for rather than going to its fallback
    # (risk's: the seeds' T2 call with high reasoning costs more than its whole line of a
    # $1 day, so without it most trades were judged by the rules). [] turns it off.
    fit_depth: frozenset[SubsystemName] = frozenset({SubsystemName.RISK})
    vitality: VitalityParams = VitalityParams()
    hazard: HazardParams = HazardParams()
    phases: PhaseThresholds = PhaseThresholds()
    budgets: BudgetPolicy = BudgetPolicy()
    cost_cap: CostCapPolicy = CostCapPolicy()
    reasoning: ReasoningPressurePolicy = ReasoningPressurePolicy()
    # The apoptotic reserve: what is held back from spending for death's call.
    reserve: ReserveParams = ReserveParams()

    def compile(self, *, seed: int, max_attempts: int = DEFAULT_ATTEMPTS) -> MortalityPolicy:
        """Compile these parameters for one life. `seed`: the stochastic clock's (the
        section's, else the golem's); `max_attempts`: first call plus the re-asks
        structured output allows."""
        name = self.policy
        allocator = AllocatorPolicy(
            max_attempts=max_attempts,
            mortal=name in (PolicyName.VITALITY, PolicyName.RULES),
            models=name is not PolicyName.RULES,
            budgets=self.budgets,
            cost_cap=self.cost_cap,
            reasoning=self.reasoning,
            fit_depth=self.fit_depth,
        )
        return MortalityPolicy(
            allocator=allocator,
            vitality=self.vitality,
            phases=self.phases,
            hazard=self.hazard if self.stochastic_death else None,
            seed=seed,
            senescence=SenescenceParams(
                threshold=self.senescence_threshold, grace=self.senescence_grace
            ),
            burn_decay=self.burn_decay,
            terminal_grace=self.terminal_grace,
            initial_credits_usd=self.initial_credits_usd,
            lineage_credits_usd=self.lineage_credits_usd,
            daily_budget_usd=self.daily_budget_usd,
            diem_allowance=self.diem_allowance,
            security=self.security,
            reserve=self.reserve,
            immortal=name is PolicyName.IMMORTAL,
        )


@dataclass(frozen=True, slots=True)
class MortalityPolicy:
    """`MortalityParams` compiled for one life: what the tick and the allocator read.
    `hazard` is None when the stochastic clock is off, `terminal_grace` when Terminal
    has no end of its own. `immortal`: Bardo's control group; no clock kills (only the
    kill switch ends it), vitality and phase are held at 1.0 and Thriving. Every golem's
    calls but death's are bounded by its wallet less `reserve`'s amount."""

    allocator: AllocatorPolicy
    vitality: VitalityParams
    phases: PhaseThresholds
    hazard: HazardParams | None
    seed: int
    senescence: SenescenceParams
    burn_decay: float
    terminal_grace: timedelta | None
    initial_credits_usd: float
    daily_budget_usd: float
    diem_allowance: float
    security: bool
    reserve: ReserveParams
    immortal: bool = False
    lineage_credits_usd: float | None = None  # the economic clock's 1.0 (None: own funding)
