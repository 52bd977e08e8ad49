"""The minds of the six subsystems by decision (schema name), for the synthetic provider:
`SyntheticProvider(minds=MINDS)` hands each call's `Request.facts` (an Ask, or None) and
its seeded Random to the mind of the decision asked for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from types import MappingProxyType
from typing import Any

from golem.subsystems.curator.mind import curator
from golem.subsystems.daimon.mind import daimon
from golem.subsystems.death.mind import testament
from golem.subsystems.dream.mind import fragment, integration, replay, threat
from golem.subsystems.facts import Ask, Mind
from golem.subsystems.heartbeat.mind import heartbeat
from golem.subsystems.risk.mind import risk

__all__ = ["MINDS"]

FactsMind = Callable[[object, Random], dict[str, Any]]


def _reading_facts(mind: Mind) -> FactsMind:
    """`mind` as the provider calls it: with a request's opaque facts, an Ask or not."""

    def answer(facts: object, rng: Random) -> dict[str, Any]:
        return mind(facts if isinstance(facts, Ask) else None, rng)

    return answer


MINDS: Mapping[str, FactsMind] = MappingProxyType(
    {
        "heartbeat_decision": _reading_facts(heartbeat),
        "risk_assessment": _reading_facts(risk),
        "daimon_appraisal": _reading_facts(daimon),
        "curator_evaluation": _reading_facts(curator),
        "replay_analysis": _reading_facts(replay),
        "fragment_evaluation": _reading_facts(fragment),
        "dream_integration": _reading_facts(integration),
        "threat_assessment": _reading_facts(threat),
        "death_testament": _reading_facts(testament),
    }
)
