"""The money a golem spends, as a property over random lives on a virtual clock with the
synthetic provider: heartbeat and job schedules of any relation (jobs many times between
two heartbeats, or rarer), wallets from a fraction of a cent to ten dollars, answers that
need re-asks, and sometimes a death at the end. Whatever they are:

- the ledger's total is what the providers billed for every call made (each attempt);
- no charge but death's takes the credits below the apoptotic reserve (a wallet smaller
  than the reserve pays for no call but death's);
- death's testament spends the credits left, the reserve among them: the credits never
  go below zero but by one attempt without reasoning, granted when not even that fits.
"""

from __future__ import annotations

import contextlib
import math
import tempfile
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golem.inference import Request, Response
from golem.mortality import DeathCause, SubsystemName
from golem.runtime.asking import Routes
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.life import assemble
from golem.runtime.routes import ProviderPool, build_routes
from golem.runtime.store.state import StateStore
from golem.subsystems.contract import GrimoireEntry

START = datetime(2026, 1, 5, tzinfo=UTC)
# More than one attempt of death's route without reasoning can cost (claude-sonnet-4 at
# $3 and $15 a million tokens: some 1,500 tokens in and the 800 out allowed, $0.0165).
BARE_TESTAMENT = 0.02


class Billed:
    """A provider's bill: what every answer it gave cost (each attempt is a call)."""

    def __init__(self, provider: Any, bill: list[float]) -> None:
        self._provider = provider
        self._bill = bill

    def __getattr__(self, name: str) -> Any:
        return getattr(self._provider, name)

    async def complete(self, request: Request) -> Response:
        response: Response = await self._provider.complete(request)
        self._bill.append(response.cost_usd)
        return response


def billed(routes: Routes, bill: list[float]) -> Routes:
    def wrap(route: Any) -> Any:
        return None if route is None else replace(route, provider=Billed(route.provider, bill))

    return Routes(
        {tier: wrap(route) for tier, route in routes.tiers.items()},
        death=wrap(routes.death),
        verify=wrap(routes.verify),
    )


@dataclass(frozen=True, slots=True)
class Spec:
    """One random life: the heartbeat's and the jobs' intervals in seconds, the initial
    credits, the share of answers that need a re-ask, and whether it dies at the end."""

    heartbeat: int
    curator: int
    dream: int
    credits: float
    faults: float
    dies: bool


def config(tmp: str, spec: Spec) -> Any:
    return parse_config(
        {
            "golem": {"id": "money", "state_dir": tmp, "seed": 4},
            "inference": {
                "t1": ["synthetic:claude-haiku-4-5"],
                "t2": ["synthetic:claude-sonnet-4"],
                "death": ["synthetic:claude-sonnet-4"],
            },
            "providers": {
                "synthetic": {
                    "emulate": "anthropic",
                    "model": "claude-haiku-4-5",
                    "faults": {"schema_invalid": spec.faults, "malformed_json": spec.faults / 2},
                }
            },
            "mortality": {"initial_credits_usd": spec.credits, "daily_budget_usd": 5.0},
            # A jumpy golem in a volatile market: its heartbeat asks a model on most ticks.
            "heartbeat": {
                "interval": f"{spec.heartbeat}s",
                "theta_base": 0.05,
                "theta_min": 0.01,
            },
            "subsystems": {
                "curator": {"schedule": f"{spec.curator}s"},
                "dream": {"schedule": f"{spec.dream}s"},
            },
            "world": {
                "market": {
                    "initial_regime": "volatile",
                    "lending": {"collateral_usd": 10000.0, "debt_usd": 4000.0},
                }
            },
        }
    )


async def life(spec: Spec) -> tuple[list[float], list[Any], float]:
    """The providers' bill, the ledger's charges in the order they were made, and the
    reserve of one half-hour life."""
    bill: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        cfg = config(tmp, spec)
        with StateStore.open(Path(tmp), synchronous="OFF") as store:
            with store.transaction():  # something for the curator to curate
                store.save_grimoire_entry(GrimoireEntry("g1", "volatility clusters", 0.6))
            routes = billed(build_routes(ProviderPool(cfg, {})), bill)
            made, _ = assemble(cfg, clock=VirtualClock(START), store=store, routes=routes)
            await made.run(duration=timedelta(minutes=30))
            if spec.dies and not made.golem.dead:
                with store.transaction():
                    await made.golem.die(DeathCause.KILL_SWITCH)
            charges = list(store.ledger.charges(START.date()))
            assert math.fsum(c.usd for c in charges) == store.ledger.total_usd()
            return bill, charges, made.golem.reserve_usd


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.builds(
        Spec,
        heartbeat=st.integers(5, 60),
        curator=st.integers(1, 240),
        dream=st.integers(2, 600),
        credits=st.floats(-6.0, 1.0).map(lambda exponent: round(10**exponent, 9)),
        faults=st.sampled_from([0.0, 0.1, 0.3]),
        dies=st.booleans(),
    )
)
def test_every_call_is_charged_and_none_but_deaths_spends_the_reserve(spec: Spec) -> None:
    bill, charges, reserve = trio.run(life, spec)
    initial = spec.credits
    assert math.isclose(math.fsum(bill), math.fsum(c.usd for c in charges), abs_tol=1e-12)
    assert len({c.idempotency_key for c in charges}) == len(charges)
    left, before_death = initial, None
    for charge in charges:
        if charge.subsystem is SubsystemName.DEATH:
            before_death = left if before_death is None else before_death
        else:  # within the wallet less the reserve, as every attempt's worst case was
            assert before_death is None
            assert left - charge.usd >= reserve - 1e-12, (charge, left, reserve)
        left -= charge.usd
    if initial <= reserve:
        assert all(c.subsystem is SubsystemName.DEATH for c in charges if c.usd)
    if before_death is not None:  # death spends the credits left, reserve and all
        if before_death >= BARE_TESTAMENT:
            assert left >= -1e-12, (before_death, left)
        else:  # one attempt without reasoning is granted all the same
            assert left >= before_death - BARE_TESTAMENT, (before_death, left)
