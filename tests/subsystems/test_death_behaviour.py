"""Death behaviour: acceptance and settle, the testament written as JSON and Markdown, the
records' testament when every provider fails, the arc classes, and Thanatopsis through
decide() in every structured-output mode, funded even when nothing else is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from golem.inference import Mode, ServerError
from golem.inference.scripted import ScriptedProvider
from golem.mortality import DeathCause, Phase
from golem.runtime.decide import decide
from golem.runtime.private import write_documents
from golem.subsystems.contract import (
    Dying,
    Event,
    GrimoireEntry,
    Mood,
    Outcome,
    PortfolioView,
    Situation,
)
from golem.subsystems.death import ArcClass, DeathConfig, DeathTestament, Thanatopsis, arc_class
from golem.subsystems.death.legacy import SECTIONS
from golem.world import DecisionSummary, Episode, Regime
from golem.world import EpisodeOutcome as Result

from .support import MODES, budgeting, context, market, mode_provider

DEATH = Thanatopsis(DeathConfig())
PAYLOAD: dict[str, Any] = {
    "learned": ["patience pays in calm markets"],
    "got_wrong": ["I bought the crash too early"],
    "confused_by": ["funding flips"],
    "never_tested": ["hedging with options"],
    "killed_by": "credits ran out",
    "would_change": ["think less often when nothing moves"],
    "suspects": ["volume leads price"],
    "causal_links": [{"cause": "thin liquidity", "effect": "slippage on exit", "confidence": 0.8}],
    "emotional_arc": "hopeful, then anxious, then resigned",
    "arc_class": "tragic",
}
FREE_TEXT = "What I learned:\n- patience pays\nWhat killed me: credits ran out\nArc class: tragic"


def episode(i: int, pnl: float, regime: Regime = Regime.CALM, action: str = "hold") -> Episode:
    decision = DecisionSummary(action, predicted_delta=0.01)
    return Episode(i, market(tick=i, regime=regime), decision, Result(20, -0.03, pnl))


def dying(**changes: Any) -> Situation:
    fields: dict[str, Any] = {
        "phase": Phase.TERMINAL,
        "vitality": 0.01,
        "credits_usd": 0.0,
        "portfolio": PortfolioView(cash_usd=400.0, equity_usd=1000.0, positions={"ETH": 0.2}),
        "grimoire": (
            GrimoireEntry("g1", "hold in calm markets", 0.8, tier="belief"),
            GrimoireEntry("g2", "volume leads price", 0.4),
            GrimoireEntry("g3", "moon phases matter", 0.2),
        ),
        "episodes": (
            episode(1, 5.0),
            episode(2, -40.0, Regime.CRASH, "buy"),
            episode(3, -2.0),
            episode(4, 1.0),
        ),
        "dying": Dying(DeathCause.ECONOMIC),
    }
    return context(**(fields | changes))


def read_back(state_dir: Path, outcome: Outcome | None) -> tuple[DeathTestament, str]:
    """The outcome's documents as the runtime writes them, read back."""
    assert outcome is not None
    written = write_documents(state_dir, outcome.documents)
    assert written == (str(state_dir / "testament.json"), str(state_dir / "testament.md"))
    json_text = (state_dir / "testament.json").read_text(encoding="utf-8")
    return (
        DeathTestament.model_validate_json(json_text),
        (state_dir / "testament.md").read_text(encoding="utf-8"),
    )


async def test_death_writes_the_testament_in_both_forms(tmp_path: Path) -> None:
    provider, config = mode_provider(Mode.SCHEMA_ENFORCED, DeathTestament, PAYLOAD, FREE_TEXT)
    env = budgeting(provider, phase=Phase.TERMINAL, config=config)
    record = await decide(DEATH, dying(), env)
    assert record.source == "model"
    assert list(tmp_path.iterdir()) == []  # the subsystem writes nothing itself
    testament, text = read_back(tmp_path, record.outcome)
    assert testament == DeathTestament.model_validate(PAYLOAD) == record.decision
    assert json.loads((tmp_path / "testament.json").read_text())["arc_class"] == "tragic"
    for title, _ in SECTIONS:
        assert f"\n## {title}\n" in text
    assert text.startswith("# Testament of golem g1\n")
    assert "- thin liquidity → slippage on exit (confidence 0.80)" in text
    assert "hopeful, then anxious, then resigned (arc: tragic)" in text
    assert not list(tmp_path.glob("*.partial"))


async def test_acceptance_and_settle(tmp_path: Path) -> None:
    outcome = DEATH.act(dying(), DeathTestament.model_validate(PAYLOAD))
    assert outcome.settle is True
    assert outcome.events == (Event("death_accepted"),)
    assert outcome.trades == ()  # settling is not a trade for risk to weigh
    assert outcome.details["settled_positions"] == {"ETH": 0.2}
    assert outcome.details["acceptance"] == "golem g1 accepts its death at tick 7"
    assert outcome.summary.startswith("accepted death (economic); settling 1 position(s)")


def test_the_outcome_names_the_documents_it_leaves() -> None:
    outcome = DEATH.act(dying(), DeathTestament.model_validate(PAYLOAD))
    assert [d.name for d in outcome.documents] == ["testament.json", "testament.md"]
    assert outcome.summary.endswith("leaving testament.json and testament.md")


async def test_when_every_provider_fails_the_records_write_the_testament(tmp_path: Path) -> None:
    provider = ScriptedProvider([ServerError("down", status=503, provider="scripted")])
    record = await decide(DEATH, dying(), budgeting(provider, phase=Phase.TERMINAL))
    assert record.source == "fallback"
    testament, text = read_back(tmp_path, record.outcome)
    assert testament == record.decision
    assert testament.validate_content() == []
    assert testament.learned == ["hold in calm markets (confidence 0.80, belief)"]
    assert testament.got_wrong[0].startswith("episode 2 at tick 2: buy expecting +1.00%")
    assert testament.killed_by == "credits ran out: $0.00 of $100.00 left, burning $0.0100 a tick"
    assert testament.suspects == ["volume leads price (confidence 0.40, staged)"]
    assert testament.never_tested == ["moon phases matter (staged, never confirmed)"]
    assert "use buy less: it lost $40.00 in all" in testament.would_change
    assert testament.causal_links[0].cause == "trading in a crash market"
    assert testament.arc_class is ArcClass.TRAGIC  # +5, then -40: 4% of equity lost
    assert "## What killed me\n\ncredits ran out" in text


def test_the_records_testament_reads_the_mood_and_vitality_history() -> None:
    ctx = dying(
        episodes=(),
        grimoire=(),
        mood=Mood(-0.4, 0.6, -0.3),
        dying=Dying(
            "a meteor",
            mood_history=(Mood(0.2, 0.1, 0.0), Mood(-0.6, 0.5, -0.2)),
            vitality_history=(0.9, 0.3, 0.6),
        ),
    )
    testament = DEATH.deterministic(ctx)
    assert isinstance(testament, DeathTestament) and testament.validate_content() == []
    assert testament.killed_by == "a meteor"
    assert testament.learned == ["nothing I trusted: no knowledge earned enough confidence"]
    assert testament.emotional_arc.startswith("pleasure +0.20 → lowest -0.60 → -0.40")
    assert testament.arc_class is ArcClass.TRAGIC  # 0.9 → 0.6 → 0.01


@pytest.mark.parametrize(
    ("series", "expected"),
    [
        ([0, -10, -20, -5, 10], ArcClass.REDEMPTIVE),
        ([0, 10, 20, 5, -10], ArcClass.CONTAMINATING),
        ([0, 5, 10, 15, 20], ArcClass.PROGRESSIVE),
        ([0, -5, -10, -15, -20], ArcClass.TRAGIC),
        ([0, 0.5, -0.5, 0.2, 0.1], ArcClass.STABLE),
        ([3.0], ArcClass.STABLE),
    ],
)
def test_arc_classes(series: list[float], expected: ArcClass) -> None:
    assert arc_class(series, flat=1.0) is expected


async def test_death_is_funded_when_nothing_else_is() -> None:
    provider, config = mode_provider(Mode.SCHEMA_ENFORCED, DeathTestament, PAYLOAD, FREE_TEXT)
    env = budgeting(provider, phase=Phase.TERMINAL, daily_budget_usd=0.0, config=config)
    record = await decide(DEATH, dying(), env)
    assert record.source == "model"
    assert record.cost_usd > 0


@pytest.mark.parametrize("mode", MODES, ids=str)
async def test_death_through_decide_in_every_mode(mode: Mode, tmp_path: Path) -> None:
    provider, config = mode_provider(mode, DeathTestament, PAYLOAD, FREE_TEXT)
    record = await decide(DEATH, dying(), budgeting(provider, config=config))
    assert record.source == "model", record.error
    assert record.response is not None and record.response.mode is mode
    testament, text = read_back(tmp_path, record.outcome)
    assert testament == record.decision
    assert testament.killed_by == "credits ran out" and testament.arc_class is ArcClass.TRAGIC
    assert "## What I learned\n\n- patience pays" in text
    assert "## What the records say" in (provider.requests[0].messages[-1].content or "")
