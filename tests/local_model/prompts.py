"""A situation per decision schema, as a subsystem would describe it to the model."""

from __future__ import annotations

from golem.inference.types import Message, Request

SITUATIONS = {
    "heartbeat_decision": "ETH fell 4% in 15 minutes; health factor 1.4; regime turned bearish.",
    "daimon_appraisal": "A trade just closed at a 6% loss after a sudden regime shift.",
    "risk_assessment": "Proposed trade: buy 500 USD of ETH; portfolio 2,000 USD, 40% ETH.",
    "curator_evaluation": "Grimoire: 4 entries; 'buy dips in bull regime' held 3 of 4 times.",
    "replay_analysis": "Two episodes: a hedge that saved 3%, an exit that missed a rebound.",
    "fragment_evaluation": "Fragment: 'volume spikes precede ETH reversals within an hour'.",
    "dream_integration": "Dream insights: 'hedge earlier in bear regimes'; 'avoid thin books'.",
    "threat_assessment": "Threat: a stablecoin depeg while 30% of the portfolio is in it.",
    "death_testament": "Credits are gone after 12 days; three bad exits drained them.",
}


def request_for(schema: str, max_tokens: int = 600) -> Request:
    return Request(
        messages=(
            Message.system(f"You are the {schema} step of an autonomous trading agent."),
            Message.user(SITUATIONS[schema]),
        ),
        max_tokens=max_tokens,
    )
