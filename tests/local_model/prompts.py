"""A situation per decision schema, as a subsystem would describe it to the model: the
curator's and the dreams' list their entries and episodes as the briefs do, and name the
ids (and the counts they fix) as the briefs' `choices`; the daimon's lists its events in
words and holds the trigger to them, by the daimon's own functions."""

from __future__ import annotations

from typing import Any

from golem.inference.types import Message, Request
from golem.subsystems.contract import Event
from golem.subsystems.daimon import event_line, trigger_choices

# A sudden regime shift, then a trade closed at a 6% loss: as the golem raises them in a
# tick (the heartbeat's events first, then the trade's, `trade_loss:{fraction:.4f}`).
DAIMON_EVENTS = (Event("regime_shift"), Event("trade_loss", 0.06))
# More ticks' events, for the daimon over situations its worked examples were not written
# for (bench_local --spread): gains, a block, a warning with a miss, declines, a death.
DAIMON_SPREAD = (
    DAIMON_EVENTS,
    (Event("trade_profit", 0.03),),
    (Event("trade_blocked"),),
    (Event("health_warning"), Event("prediction_miss")),
    (Event("phase_decline"),),
    (Event("trade_loss_large", 0.12), Event("death_approach")),
    (Event("prediction_hit"), Event("trade_profit", 0.015)),
)


def daimon_situation(events: tuple[Event, ...]) -> str:
    return "Events to appraise:\n" + "\n".join(map(event_line, events))


SITUATIONS = {
    "heartbeat_decision": "ETH fell 4% in 15 minutes; health factor 1.4; regime turned bearish.",
    "daimon_appraisal": daimon_situation(DAIMON_EVENTS),
    "risk_assessment": "Proposed trade: buy 500 USD of ETH; portfolio 2,000 USD, 40% ETH.",
    "curator_evaluation": (
        "Grimoire:\n"
        "- [g1] confidence 0.62, tier staged, regime bull, episodes 3 for / 1 against: "
        "buy dips in bull regime\n"
        "- [g2] confidence 0.40, tier staged, regime any, episodes 0 for / 3 against: "
        "the moon phase moves ETH\n"
        "- [g3] confidence 0.71, tier belief, regime bear, episodes 4 for / 0 against: "
        "hedge earlier in bear regimes\n"
        "- [g4] confidence 0.55, tier staged, regime volatile, episodes 2 for / 2 against: "
        "thin order books widen spreads"
    ),
    "replay_analysis": (
        "Episodes to replay:\n"
        "- #41 tick 120: hedge (confidence 0.70) → pnl +3.10, price -2.00% against -1.50% "
        "predicted\n"
        "- #42 tick 140: exit (confidence 0.60) → pnl -1.20, price +2.40% against -0.80% "
        "predicted"
    ),
    "fragment_evaluation": "Fragment: 'volume spikes precede ETH reversals within an hour'.",
    "dream_integration": (
        "Staged knowledge:\n"
        "- [g7] (0.55, from dream:replay at tick 40) hedge earlier in bear regimes\n"
        "- [g9] (0.40, from dream:hypnagogic at tick 52) avoid thin order books"
    ),
    "threat_assessment": "Threat: a stablecoin depeg while 30% of the portfolio is in it.",
    "death_testament": "Credits are gone after 12 days; three bad exits drained them.",
}
_ENTRIES = ("g1", "g2", "g3", "g4")
_STAGED = ("", "g7", "g9")
CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    "curator_evaluation": {
        "/prune_ids/*": _ENTRIES,
        "/promotions/*/entry_id": _ENTRIES,
        "/cross_references/*/source_id": _ENTRIES,
        "/cross_references/*/target_id": _ENTRIES,
        "/entries_evaluated": (len(_ENTRIES),),
    },
    "daimon_appraisal": {"/trigger": trigger_choices(DAIMON_EVENTS)},
    "replay_analysis": {"/episode_id": ("41", "42"), "/episodes_reviewed": (2,)},
    "dream_integration": {
        f"/{fate}/*/hypothesis_id": _STAGED for fate in ("promoted", "staged", "discarded")
    },
}


def request_for(
    schema: str, max_tokens: int = 600, *, events: tuple[Event, ...] | None = None
) -> Request:
    """The call for `schema`'s situation; `events`: the daimon's, on these events instead."""
    situation, choices = SITUATIONS[schema], CHOICES.get(schema, {})
    if events is not None:
        situation, choices = daimon_situation(events), {"/trigger": trigger_choices(events)}
    return Request(
        messages=(
            Message.system(f"You are the {schema} step of an autonomous trading agent."),
            Message.user(situation),
        ),
        max_tokens=max_tokens,
        choices=choices,
    )


def prompt_text(request: Request) -> str:
    """Everything the request's messages say: what meaningful() checks ids against."""
    return "\n".join(message.content or "" for message in request.messages)
