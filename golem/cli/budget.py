"""`golem budget --vitality V --daily-budget D [--ratio R] [--json]`: what each subsystem
may spend today at that vitality, with which profile and reasoning depth, and the
degradation the allocator would apply (at the start of a day, nothing spent yet).

In the JSON, death's unlimited budget is `null`.
"""

from __future__ import annotations

import argparse
import math
from datetime import UTC, datetime
from typing import Any

import orjson
from rich.console import Console
from rich.table import Table

from golem.inference.pricing import FREE
from golem.mortality import (
    PROFILE_TABLE,
    Allocation,
    CallEstimate,
    Degradation,
    Fallback,
    FixedClock,
    InMemoryLedger,
    ModelTier,
    MortalityParams,
    MortalityState,
    SubsystemName,
    allocate,
    compute_reasoning_budgets,
    phase_of,
    pressure,
)

# A free call on an empty ledger: what remains is the allocator's rules (phase, tiers, an
# empty cap), not the price of some model. The instant is arbitrary, as nothing is spent.
_NOMINAL_CALL = CallEstimate(FREE, input_tokens=0, max_output_tokens=0)
_CLOCK = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))
# The command reads no config: it reports the phases and allocator a default [mortality] section
# compiles to (the seed is the stochastic clock's, which the allocator does not read).
_COMPILED = MortalityParams().compile(seed=0)
_POLICY = _COMPILED.allocator


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "budget",
        help="each subsystem's budget, profile and reasoning at a vitality",
        description=(
            "Each subsystem's daily budget in USD, pipeline profile, reasoning depth and "
            "degradation at a vitality and daily budget. In --json, death's unlimited budget "
            "is null."
        ),
    )
    parser.add_argument("--vitality", type=_unit, required=True, help="in [0, 1]")
    parser.add_argument(
        "--daily-budget", type=_amount, required=True, help="USD per day, also the cost cap"
    )
    parser.add_argument("--ratio", type=_amount, help="sustainability ratio: income / spend")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def _unit(text: str) -> float:
    value = _number(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def _amount(text: str) -> float:
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def report(vitality: float, daily_budget: float, ratio: float | None) -> dict[str, Any]:
    """The whole answer as plain data (what --json prints)."""
    phase = phase_of(vitality, None, _COMPILED.phases)
    state = MortalityState(vitality, phase, daily_budget, ratio)
    budgets = compute_reasoning_budgets(
        vitality, daily_budget, sustainability_ratio=ratio, policy=_POLICY.budgets
    )
    return {
        "vitality": vitality,
        "pressure": pressure(vitality),
        "phase": phase.value,
        "daily_budget_usd": daily_budget,
        "sustainability_ratio": ratio,
        "subsystems": {
            subsystem.value: {
                "budget_usd": None if math.isinf(budget) else budget,
                **_plan(subsystem, state),
            }
            for subsystem, budget in budgets.items()
        },
    }


def _plan(subsystem: SubsystemName, state: MortalityState) -> dict[str, Any]:
    """The subsystem's usual tier, then lower tiers while the allocator says so."""
    tier = PROFILE_TABLE[subsystem].tier
    ledger = InMemoryLedger()
    first: Degradation | None = None
    result = allocate(subsystem, tier, state, ledger, _CLOCK, call=_NOMINAL_CALL, policy=_POLICY)
    while isinstance(result, Degradation) and result.fallback is Fallback.LOWER_TIER:
        first = first or result
        lower = ModelTier(result.tier - 1)
        result = allocate(
            subsystem, lower, state, ledger, _CLOCK, call=_NOMINAL_CALL, policy=_POLICY
        )
    first = first or (result if isinstance(result, Degradation) else None)
    granted = result if isinstance(result, Allocation) else None
    return {
        "tier": tier.name,
        "granted_tier": granted.tier.name if granted else None,
        "profile": granted.profile.value if granted else None,
        "reasoning": granted.reasoning.depth.name.lower() if granted else None,
        "degradation": (
            {"reason": first.reason.value, "fallback": first.fallback.value} if first else None
        ),
    }


def run(args: argparse.Namespace) -> int:
    data = report(args.vitality, args.daily_budget, args.ratio)
    if args.json:
        print(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
        return 0
    ratio = "" if args.ratio is None else f" · ratio {args.ratio:g}"
    table = Table(
        title=(
            f"vitality {data['vitality']:g} · pressure {data['pressure']:.2f} · "
            f"{data['phase']} · ${data['daily_budget_usd']:,.2f}/day{ratio}"
        )
    )
    for column in ("subsystem", "budget USD", "tier", "profile", "reasoning", "degradation"):
        table.add_column(column, justify="right" if column == "budget USD" else "left")
    for name, row in data["subsystems"].items():
        budget = "unlimited" if row["budget_usd"] is None else f"{row['budget_usd']:.4f}"
        tier = (
            row["tier"]
            if row["granted_tier"] in (None, row["tier"])
            else (f"{row['tier']} → {row['granted_tier']}")
        )
        degradation = row["degradation"]
        table.add_row(
            name,
            budget,
            tier,
            row["profile"] or "—",
            row["reasoning"] or "—",
            f"{degradation['fallback']} ({degradation['reason']})" if degradation else "",
        )
    Console().print(table)
    return 0
