"""A decision's worked example is shown (as an exchange before the call's material) only to
a provider whose capabilities ask for examples; the task goes first only for one that asks."""

from __future__ import annotations

from dataclasses import replace

import orjson

from golem.inference import Message, Request, Role, run_structured
from golem.inference.scripted import SCHEMA_AND_TOOLS, ScriptedProvider
from golem.mortality import PipelineProfile
from golem.subsystems import FragmentEvaluation
from golem.subsystems.context.assemble import assemble
from golem.subsystems.dream import Dream, DreamConfig, DreamKind
from tests.policy import CONTEXT
from tests.subsystems.test_dream_behaviour import dreaming

ANSWER = orjson.dumps({"novelty": 0.6, "relevance": 0.6, "coherence": 0.6, "verdict": "stage"})
REQUEST = Request(messages=(Message.system("You judge."), Message.user("Fragment: 'x'")))


async def _sent(examples: bool) -> Request:
    capabilities = replace(SCHEMA_AND_TOOLS, worked_examples=examples)
    provider = ScriptedProvider([ANSWER.decode()], capabilities=capabilities)
    await run_structured(provider, REQUEST, FragmentEvaluation)
    return provider.requests[0]


async def test_a_small_model_is_shown_the_examples_first() -> None:
    examples = FragmentEvaluation.worked_examples
    assert len(examples) == 2
    sent = await _sent(examples=True)
    roles = [m.role for m in sent.messages]
    assert roles == [Role.SYSTEM, *[Role.USER, Role.ASSISTANT] * 2, Role.USER]
    for n, example in enumerate(examples):
        asked, answered = sent.messages[1 + 2 * n], sent.messages[2 + 2 * n]
        assert asked.content == example.situation
        assert orjson.loads(answered.content or "") == dict(example.answer)
    assert sent.messages[-1].content == "Fragment: 'x'"


async def test_other_providers_are_not_shown_it() -> None:
    sent = await _sent(examples=False)
    assert sent.messages == REQUEST.messages


def test_the_task_goes_first_where_asked() -> None:
    ctx = dreaming(DreamKind.THREAT)
    brief = Dream(DreamConfig()).brief(ctx)
    last = (
        assemble(brief, ctx, PipelineProfile.STANDARD, settings=CONTEXT)
        .request.messages[-1]
        .content
        or ""
    )
    first = assemble(brief, ctx, PipelineProfile.STANDARD, task_first=True, settings=CONTEXT)
    text = first.request.messages[-1].content or ""
    assert last.rstrip().endswith(brief.task)
    assert text.startswith(f"## Task\n{brief.task}")
    assert sorted(text.split("\n\n")) == sorted(last.split("\n\n"))
