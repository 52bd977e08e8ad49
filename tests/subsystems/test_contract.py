"""The values that cross the subsystem contract are frozen msgspec Structs: they cannot be
changed in place, a copy with changes leaves the original alone, each gets its own empty
mappings, and they survive a pickle (lives run in worker processes)."""

from __future__ import annotations

import pickle

import pytest
from msgspec.structs import replace

from golem.mortality import ModelTier
from golem.subsystems.contract import Event, GrimoireEntry, Mood, Outcome, Probes
from tests.subsystems.support import context, market


def test_a_context_cannot_be_changed_in_place() -> None:
    ctx = context()
    with pytest.raises(AttributeError):
        ctx.vitality = 0.1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        ctx.market.price = 1.0  # type: ignore[misc]


def test_replace_copies_with_changes_and_keeps_the_original() -> None:
    ctx = context(probes=Probes(0.0, 0.5, ModelTier.T0))
    changed = replace(ctx, vitality=0.2, run=1)
    assert (changed.vitality, changed.run) == (0.2, 1)
    assert (ctx.vitality, ctx.run) == (0.8, 0)
    assert changed.market is ctx.market and changed.probes == ctx.probes


def test_each_value_gets_its_own_empty_mappings() -> None:
    a, b = Outcome("one"), Outcome("two")
    assert a.details == {} and a.details is not b.details
    assert context().portfolio.positions is not context().portfolio.positions
    assert context().mood == Mood()


def test_equal_values_compare_and_hash_equal() -> None:
    entry = GrimoireEntry("e1", "calm markets revert", 0.7)
    assert entry == GrimoireEntry("e1", "calm markets revert", 0.7)
    assert hash(entry) == hash(GrimoireEntry("e1", "calm markets revert", 0.7))
    assert entry != replace(entry, archived=True)
    assert market() == market() and market() != market(price=1.0)


def test_values_survive_a_pickle() -> None:
    ctx = context(events=(Event("regime_shift"),))
    assert pickle.loads(pickle.dumps(ctx)) == ctx
