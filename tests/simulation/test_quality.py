"""The quality table: accuracy rises with what a call paid for (tier, reasoning tokens,
context profile) with diminishing returns in reasoning, the rules are never informed, and a
scenario's [quality] table is read and checked, a bad key named in the user's words."""

from itertools import pairwise
from pathlib import Path

import pytest

from golem.inference.reasoning import ReasoningDepth
from golem.mortality import ModelTier, PipelineProfile
from golem.runtime.config import ConfigError
from golem.simulation.quality import QualityTable
from golem.simulation.scenario import load_scenario

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
TOKENS = (0, 256, 1024, 4096, 16384, 65536)
PROFILES = tuple(PipelineProfile)  # cheapest first
accuracy = QualityTable().accuracy()


def test_accuracy_rises_with_the_tier() -> None:
    for tokens in TOKENS:
        for profile in PROFILES:
            t0, t1, t2 = (accuracy(tier, tokens, profile) for tier in ModelTier)
            assert t0 == 0.0  # the rules never see the truth
            assert t1 <= t2
            if profile is not PipelineProfile.MINIMAL:
                assert 0 < t1 < t2 < 1


def test_reasoning_helps_with_diminishing_returns() -> None:
    """Each depth's budget (0, 1,024 … 65,536 tokens, every step a fourfold) buys less
    than the step before, and every token less than the one before."""
    budgets = [depth.budget_tokens() for depth in ReasoningDepth]
    for tier in (ModelTier.T1, ModelTier.T2):
        levels = [accuracy(tier, tokens, PipelineProfile.FULL) for tokens in budgets]
        gains = [b - a for a, b in pairwise(levels)]
        assert all(gain > 0 for gain in gains)
        assert all(later < earlier for earlier, later in pairwise(gains))
        per_token = [
            accuracy(tier, n + 1, PipelineProfile.FULL) - accuracy(tier, n, PipelineProfile.FULL)
            for n in TOKENS
        ]
        assert all(later < earlier for earlier, later in pairwise(per_token))
        assert levels[-1] - levels[0] < 0.2  # thinking never makes a small model a large one


def test_a_richer_context_profile_is_never_worse() -> None:
    for tier in (ModelTier.T1, ModelTier.T2):
        for tokens in TOKENS:
            levels = [accuracy(tier, tokens, profile) for profile in PROFILES]
            assert levels == sorted(levels)
            assert levels[0] == 0.0  # Minimal shows no market
            assert levels[1] < levels[2]  # Fast is closed-book


def test_the_defaults_are_the_cited_figures_above_chance() -> None:
    """GPQA Diamond, four options: (accuracy − 0.25) / 0.75 (see the module's comments)."""
    table = QualityTable()
    assert table.t1.informed == pytest.approx((0.402 - 0.25) / 0.75, abs=1e-3)
    assert table.t2.informed == pytest.approx((0.531 - 0.25) / 0.75, abs=1e-3)
    assert accuracy(ModelTier.T2, 1024, PipelineProfile.FULL) == pytest.approx(
        table.t2.informed + table.t2.reasoning_gain / 2
    )


def test_disabled_quality_informs_nothing() -> None:
    off = QualityTable(enabled=False).accuracy()
    assert {off(t, n, p) for t in ModelTier for n in TOKENS for p in PROFILES} == {0.0}


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ("[quality.t1]\ninformed = 0.9\nreasoning_gain = 0.2", "quality.t1"),
        ("[quality.profiles]\nfast = 1.5", "quality.profiles.fast"),
        ("[quality.reasoning]\nhalf_tokens = 0", "quality.reasoning.half_tokens"),
        ("[quality]\nbogus = 1", "quality.bogus"),
        ("quality = 3", "quality"),
    ],
)
def test_a_bad_quality_table_names_its_key(tmp_path: Path, table: str, key: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f"{table}\n{DECLINE.read_text()}")
    with pytest.raises(ConfigError) as raised:
        load_scenario(path)
    assert key in str(raised.value)


def test_a_scenario_reads_its_quality_table_over_the_defaults(tmp_path: Path) -> None:
    assert load_scenario(DECLINE).quality == QualityTable()
    path = tmp_path / "sharp.toml"
    path.write_text(f"{DECLINE.read_text()}\n[quality.t2]\ninformed = 0.5\n")
    quality = load_scenario(path).quality
    assert quality.t2.informed == 0.5
    assert quality.t2.reasoning_gain == QualityTable().t2.reasoning_gain
    assert quality.t1 == QualityTable().t1
