"""The daimon's real brief through the embedded model: the events listed in words, the
trigger the model names is one of them (the grammar holds it to the brief's `choices`),
never a worked example's."""

from __future__ import annotations

from dataclasses import replace

import pytest

from golem.inference.local import LocalProvider
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier
from golem.runtime.asking import Route, Routes
from golem.runtime.decide import decide
from golem.subsystems.contract import Event
from golem.subsystems.daimon import Daimon, DaimonAppraisal, trigger_choices
from tests.policy import DAIMON
from tests.subsystems.support import budgeting, context

pytestmark = pytest.mark.local_model

EVENTS = (Event("regime_shift"), Event("trade_loss", 0.06))


async def test_the_model_names_a_listed_event_as_the_trigger(
    local_provider: LocalProvider,
) -> None:
    route = Route(provider=local_provider, model=local_provider.model, price=Price(0.0, 0.0))
    env = replace(
        budgeting(ScriptedProvider([])), routes=Routes({ModelTier.T1: route, ModelTier.T2: route})
    )
    listed = trigger_choices(EVENTS)
    examples = {example.answer["trigger"] for example in DaimonAppraisal.worked_examples}
    for _ in range(3):
        record = await decide(Daimon(DAIMON), context(events=EVENTS), env)
        assert record.source == "model", record.error
        decision = record.decision
        assert isinstance(decision, DaimonAppraisal)
        assert decision.trigger in listed and decision.trigger not in examples
