"""The ids a dream or the curator may answer with reach the request as `choices`: the ids
its prompt lists (and only those still shown once the prompt is fitted), and the counts
its inputs fix."""

from __future__ import annotations

from golem.mortality import PipelineProfile
from golem.subsystems.context.assemble import assemble
from golem.subsystems.curator import Curator
from golem.subsystems.curator.rules import CuratorConfig
from golem.subsystems.dream import Dream, DreamKind
from golem.subsystems.dream.scenes import DreamConfig
from tests.policy import CONTEXT

from .test_dream_behaviour import dreaming


def test_an_integration_may_name_the_staged_entries_or_a_new_one() -> None:
    ctx = dreaming(DreamKind.INTEGRATION)
    prompt = assemble(
        Dream(DreamConfig()).brief(ctx), ctx, PipelineProfile.STANDARD, settings=CONTEXT
    )
    staged = ("", "g1", "g2")  # g3 is a belief, not staged
    assert prompt.request.choices == {
        "/promoted/*/hypothesis_id": staged,
        "/staged/*/hypothesis_id": staged,
        "/discarded/*/hypothesis_id": staged,
    }


def test_a_replay_names_one_of_the_episodes_replayed_and_counts_them() -> None:
    ctx = dreaming(DreamKind.REPLAY)
    dream = Dream(DreamConfig(replay_episodes=3))
    prompt = assemble(dream.brief(ctx), ctx, PipelineProfile.STANDARD, settings=CONTEXT)
    assert prompt.request.choices == {"/episode_id": ("9", "10", "11"), "/episodes_reviewed": (3,)}
    assert "#11 " in (prompt.request.messages[-1].content or "")


def test_the_curator_may_name_the_entries_it_lists() -> None:
    ctx = dreaming()
    curator = Curator(CuratorConfig(prompt_entries=2))
    prompt = assemble(curator.brief(ctx), ctx, PipelineProfile.STANDARD, settings=CONTEXT)
    listed = ("g3", "g1")  # the two most trusted
    assert prompt.request.choices["/prune_ids/*"] == listed
    assert prompt.request.choices["/cross_references/*/target_id"] == listed
    assert prompt.request.choices["/entries_evaluated"] == (2,)


def test_an_id_the_fitted_prompt_cut_is_not_a_choice() -> None:
    ctx = dreaming(DreamKind.INTEGRATION)
    brief = Dream(DreamConfig()).brief(ctx)
    brief = type(brief)(
        brief.role, brief.task, (), choices={"/staged/*/hypothesis_id": ("g1", "zz9")}
    )
    prompt = assemble(brief, ctx, PipelineProfile.STANDARD, settings=CONTEXT)
    assert prompt.request.choices == {"/staged/*/hypothesis_id": ("g1",)}
