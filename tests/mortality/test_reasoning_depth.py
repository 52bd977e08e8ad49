"""Depth on one scale, mapped to each provider's knob (read by the codecs)."""

import pytest

from golem.mortality import ReasoningConfig, ReasoningDepth

D = ReasoningDepth


def _qwen(budget: int) -> dict[str, object]:
    return {"enable_thinking": True, "thinking_budget": budget}


@pytest.mark.parametrize(
    ("depth", "anthropic", "openai", "gemini", "qwen"),
    [
        (D.NONE, 0, "none", (0, "minimal"), {"enable_thinking": False}),
        (D.LOW, 1024, "low", (1024, "low"), _qwen(1024)),
        (D.MEDIUM, 4096, "medium", (4096, "medium"), _qwen(4096)),
        (D.HIGH, 16384, "high", (16384, "high"), _qwen(16384)),
        (D.MAX, 65536, "xhigh", (24576, "high"), _qwen(65536)),
    ],
)
def test_provider_parameters(
    depth: ReasoningDepth,
    anthropic: int,
    openai: str,
    gemini: tuple[int, str],
    qwen: dict[str, object],
) -> None:
    assert depth.anthropic_budget_tokens() == anthropic == depth.budget_tokens()
    assert depth.openai_effort() == openai
    assert (depth.gemini_thinking_budget(), depth.gemini_thinking_level()) == gemini
    assert depth.qwen_params() == qwen


def test_depth_order_and_downgrade() -> None:
    assert D.NONE < D.LOW < D.MEDIUM < D.HIGH < D.MAX
    assert [d.downgrade() for d in D] == [D.NONE, D.NONE, D.LOW, D.MEDIUM, D.HIGH]


def test_seed_constructors() -> None:
    assert ReasoningConfig.none() == ReasoningConfig(D.NONE, visible=False, interleaved=False)
    assert ReasoningConfig.low().depth is D.LOW
    assert ReasoningConfig.medium().depth is D.MEDIUM
    assert ReasoningConfig.high().depth is D.HIGH
    assert ReasoningConfig.visible_max() == ReasoningConfig(D.MAX, visible=True)
    assert ReasoningConfig.interleaved_max() == ReasoningConfig(D.MAX, True, True)
    assert ReasoningConfig.interleaved_high() == ReasoningConfig(D.HIGH, True, True)
