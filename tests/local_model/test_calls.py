"""The local provider's call discipline with the real model: a cancelled call stops its
worker and leaks nothing into the next call; a schema compiles once per process; the
provider can be asked in every mode."""

from __future__ import annotations

from typing import Literal

import pytest
import trio
from pydantic import Field

from golem.inference import Message, Mode, Request, StructuredOutput, run_structured
from golem.inference.local import Generation, LocalProvider
from golem.subsystems import HeartbeatDecision
from tests.local_model.prompts import request_for

pytestmark = pytest.mark.local_model


class Mood(StructuredOutput):
    """Not registered (no schema_name): a schema no other test compiles."""

    mood: Literal["calm", "alarmed"]
    note: str = Field(description="why, in a few words")  # unbounded: the decoder bounds it
    tags: list[str] = Field(default_factory=list)  # unbounded too


STORY = Request(
    messages=(Message.user("Tell a very long story about a lighthouse."),), max_tokens=300
)


async def test_a_cancelled_call_stops_and_leaks_nothing(local_provider: LocalProvider) -> None:
    runs: list[Generation] = []
    local_provider.on_generation = runs.append
    try:
        with trio.move_on_after(1.0) as waited:
            await local_provider.complete(STORY)
        assert waited.cancelled_caught, "the story finished within a second: nothing was cancelled"
        # Asked at once: this call's thread waits for the abandoned one to let go.
        response = await run_structured(
            local_provider, request_for("heartbeat_decision"), HeartbeatDecision
        )
    finally:
        local_provider.on_generation = None
    story, *answers = runs
    assert story.cancelled and story.schema is None
    assert story.output_tokens < 300, "the cancelled run went on to max_tokens"
    assert all(not run.cancelled and run.schema == "heartbeat_decision" for run in answers)
    assert isinstance(response.parsed, HeartbeatDecision)
    assert response.content is not None and response.content.startswith("{")


async def test_a_schema_compiles_once(local_provider: LocalProvider) -> None:
    before = local_provider.schemas.compilations
    request = Request(messages=(Message.user("The market is quiet today."),), max_tokens=120)
    first = await run_structured(local_provider, request, Mood)
    second = await run_structured(local_provider, request, Mood)
    assert local_provider.schemas.compilations == before + 1
    assert isinstance(first.parsed, Mood) and isinstance(second.parsed, Mood)
    assert len(first.parsed.note) <= 200 and len(first.parsed.tags) <= 5


@pytest.mark.parametrize("mode", [Mode.PROMPT_GUIDED, Mode.NONE])
async def test_unconstrained_modes_answer(local_provider: LocalProvider, mode: Mode) -> None:
    request = Request(
        messages=(Message.user("Say hello in three words."),), max_tokens=16, mode=mode
    )
    response = await local_provider.complete(request)
    assert response.content and response.mode is mode
    assert response.usage.output_tokens <= 16


def test_each_run_decodes_with_the_next_seed(local_provider: LocalProvider) -> None:
    """ "call n decodes with seed + n" (LocalConfig.seed): the same request asked twice is
    sampled twice, not replayed (a benchmark's 20 calls were one call 20 times before)."""
    short = STORY.evolve(max_tokens=2)
    first = local_provider.generate(short)
    second = local_provider.generate(short)
    assert second.seed == first.seed + 1
    assert first.seed >= local_provider.config.seed


def test_a_repeat_decodes_with_the_seed_it_repeats(local_provider: LocalProvider) -> None:
    """`Request.seed` (a clean re-ask repeating a call's sampling): the same seed, and the
    sequence of the other calls does not move."""
    short = STORY.evolve(max_tokens=4, temperature=1.0)
    first = local_provider.generate(short)
    repeat = local_provider.generate(short.evolve(seed=first.seed))
    after = local_provider.generate(short)
    assert repeat.seed == first.seed and repeat.text == first.text
    assert after.seed == first.seed + 1
