"""The four pipeline profiles assemble different prompts from one state, each within its
token limit, cutting the least valuable content first."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.mortality import PipelineProfile
from golem.subsystems.context import (
    PROFILE_LAYERS,
    CallBudget,
    ContextSettings,
    Layer,
    ProfileLimits,
    assemble,
    estimate_tokens,
)
from golem.subsystems.contract import Brief, Input
from tests.policy import CONTEXT
from tests.subsystems.context.support import rich_context

BRIEF = Brief(
    "You are the heartbeat: read the market and say what to do.",
    "Decide on this tick and answer with a heartbeat_decision.",
)
BUDGET = CallBudget(
    max_output_tokens=400, worst_case_usd=0.0021, attempts=2, budget_left_usd=0.31, reasoning="low"
)
P = PipelineProfile


def _user(profile: PipelineProfile, **options: object) -> str:
    prompt = assemble(BRIEF, rich_context(), profile, budget=BUDGET, settings=CONTEXT, **options)  # type: ignore[arg-type]
    return prompt.request.messages[1].content or ""


def test_each_profile_builds_a_different_prompt_within_its_limit() -> None:
    ctx = rich_context()
    prompts = {p: assemble(BRIEF, ctx, p, budget=BUDGET, settings=CONTEXT) for p in P}
    texts = {
        p: "\n".join(m.content or "" for m in prompt.request.messages)
        for p, prompt in prompts.items()
    }
    assert len(set(texts.values())) == 4
    for profile, prompt in prompts.items():
        report = prompt.report
        assert report.profile is profile
        assert report.tokens <= report.limit == ContextSettings().limits_for(profile).max_tokens
        estimated = sum(estimate_tokens(m.content or "") for m in prompt.request.messages)
        assert estimated <= report.tokens
    # Each profile runs its layers and no others.
    assert prompts[P.MINIMAL].report.layers == (Layer.STATE,)
    assert prompts[P.FAST].report.layers == (Layer.STATE, Layer.PROBES, Layer.BUDGET)
    assert set(prompts[P.STANDARD].report.layers) == set(Layer) - {Layer.MASKING, Layer.SCREENING}
    assert set(prompts[P.FULL].report.layers) == set(Layer)
    # What each layer adds shows in the text.
    assert "## Market and probes" not in texts[P.MINIMAL]
    assert "## Budget" in texts[P.FAST] and "## Knowledge" not in texts[P.FAST]
    for heading in ("## Recent observations", "## World feed", "## Knowledge", "## Similar past"):
        assert heading in texts[P.STANDARD] and heading not in texts[P.FAST]
    assert "quarantined" in texts[P.FULL] and "quarantined" not in texts[P.STANDARD]


def test_profiles_grow_from_minimal_to_full() -> None:
    sizes = [
        assemble(BRIEF, rich_context(), p, budget=BUDGET, settings=CONTEXT).report.tokens for p in P
    ]
    assert sizes == sorted(sizes) and len(set(sizes)) == 4


def test_budget_layer_tells_the_model_the_price_and_length() -> None:
    text = _user(P.FAST)
    assert "up to $0.0021 an attempt (2 attempts allowed)" in text
    assert "$0.3100 left of today's budget" in text
    assert "at most 400 tokens" in text and "reasoning: low" in text
    assert text.rstrip().endswith("answer with a heartbeat_decision.")


def test_minimal_keeps_the_task_and_the_subsystems_inputs() -> None:
    brief = replace(BRIEF, inputs=(Input("Proposed trade", ("buy of $200.00: a dip",)),))
    prompt = assemble(brief, rich_context(), P.MINIMAL, settings=CONTEXT)
    text = prompt.request.messages[1].content or ""
    assert "## Proposed trade\nbuy of $200.00: a dip" in text
    assert "## Task" in text


def _tight(profile: PipelineProfile, max_tokens: int) -> ContextSettings:
    limits = dict(ContextSettings().limits)
    limits[profile] = ProfileLimits(max_tokens=max_tokens)
    return ContextSettings(limits)


def test_a_tight_limit_cuts_old_observations_before_knowledge() -> None:
    roomy = assemble(BRIEF, rich_context(), P.STANDARD, budget=BUDGET, settings=CONTEXT)
    tight = assemble(
        BRIEF, rich_context(), P.STANDARD, budget=BUDGET, settings=_tight(P.STANDARD, 1100)
    )
    assert roomy.report.dropped == {}
    assert tight.report.tokens <= 1100
    dropped = tight.report.dropped
    assert dropped.get("L2", 0) > dropped.get("L4", 0)
    text = tight.request.messages[1].content or ""
    # The newest observation and the best knowledge stay; the task and budget always do.
    assert "- tick 39:" in text and "- tick 28:" not in text
    assert "## Knowledge" in text and "## Budget" in text and "## Task" in text


def test_layer_shares_hold_each_retrieved_layer_to_its_part() -> None:
    shares = ProfileLimits(max_tokens=2400, observations=64, knowledge=64, episodes=64)
    settings = ContextSettings({**ContextSettings().limits, P.STANDARD: shares})
    prompt = assemble(BRIEF, rich_context(), P.STANDARD, budget=BUDGET, settings=settings)
    text = prompt.request.messages[1].content or ""
    knowledge = text.split("## Knowledge\n", 1)[1].split("\n\n", 1)[0]
    assert estimate_tokens(knowledge) <= 0.2 * 2400
    assert prompt.report.dropped["L4"] > 0 and prompt.report.tokens <= 2400


@settings(max_examples=60, deadline=None)
@given(profile=st.sampled_from(list(P)), limit=st.integers(min_value=200, max_value=3000))
def test_no_limit_is_ever_exceeded(profile: PipelineProfile, limit: int) -> None:
    prompt = assemble(
        BRIEF, rich_context(), profile, budget=BUDGET, settings=_tight(profile, limit)
    )
    counted = sum(estimate_tokens(m.content or "") for m in prompt.request.messages)
    assert counted <= prompt.report.tokens <= limit
    assert (prompt.request.messages[1].content or "").rstrip().endswith("heartbeat_decision.")


def test_a_tokenizer_counts_the_whole_prompt_and_has_the_last_word() -> None:
    def strict(text: str) -> int:  # a tokenizer that counts twice what the estimate does
        return 2 * estimate_tokens(text)

    prompt = assemble(
        BRIEF, rich_context(), P.STANDARD, budget=BUDGET, tokenizer=strict, settings=CONTEXT
    )
    assert prompt.report.counted_by == "tokenizer"
    assert prompt.report.tokens == sum(strict(m.content or "") for m in prompt.request.messages)
    assert prompt.report.tokens <= 2400
    assert prompt.report.dropped


def test_profile_layers_table_matches_the_issue() -> None:
    assert PROFILE_LAYERS[P.FAST] == {Layer.STATE, Layer.PROBES, Layer.BUDGET}
    assert PROFILE_LAYERS[P.FULL] == frozenset(Layer)


def test_a_context_without_memory_uses_its_own_grimoire_and_episodes() -> None:
    ctx = rich_context(memory=None)
    text = assemble(BRIEF, ctx, P.STANDARD, settings=CONTEXT).request.messages[1].content or ""
    assert "## Recent observations\n- tick 7:" in text
    assert "## World feed" not in text


@pytest.mark.parametrize("profile", list(P))
def test_the_report_is_a_log_ready_mapping(profile: PipelineProfile) -> None:
    fields = assemble(
        BRIEF, rich_context(), profile, budget=BUDGET, settings=CONTEXT
    ).report.fields()
    assert fields["layers"][0] == "L1" and fields["limit"] >= fields["tokens"]


def test_every_layer_has_a_budget_of_its_own() -> None:
    limits = ProfileLimits(
        max_tokens=2400,
        shares={Layer.OBSERVATIONS: 0.1},
        caps={Layer.STATE: 60, Layer.PROBES: 250, Layer.BUDGET: 120},
    )
    settings = ContextSettings({**ContextSettings().limits, P.STANDARD: limits})
    prompt = assemble(BRIEF, rich_context(), P.STANDARD, budget=BUDGET, settings=settings)
    text = prompt.request.messages[1].content or ""
    state = text.split("## State\n", 1)[1].split("\n\n", 1)[0]
    assert estimate_tokens("## State\n" + state) <= 60
    assert state.startswith("vitality")  # the first line is the most valuable
    observed = [ln for ln in text.splitlines() if ln.startswith("- tick ") or "<external" in ln]
    assert sum(estimate_tokens(ln) + 1 for ln in observed) <= 240  # L2: feed and prices
    assert prompt.report.dropped["L1"] >= 1 and prompt.report.dropped["L2"] >= 1


def test_the_report_counts_only_what_was_sent() -> None:
    many = tuple(f"- proposal detail {i}: " + "x" * 60 for i in range(40))
    brief = replace(BRIEF, inputs=(Input("Proposed trade", many),))
    settings = _tight(P.FULL, 700)
    prompt = assemble(brief, rich_context(), P.FULL, budget=BUDGET, settings=settings)
    text = prompt.request.messages[1].content or ""
    assert prompt.report.dropped["inputs"] > 0 and "L1" not in prompt.report.dropped
    assert prompt.report.external == text.count("<external ")
    assert len(prompt.report.quarantined) == text.count("quarantined=")
