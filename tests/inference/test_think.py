import json
import re
from collections.abc import Iterable, Sequence
from itertools import combinations, pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golem.inference.reasoning import (
    ContentChunk,
    ReasoningEvent,
    ThinkChunk,
    ThinkEnd,
    ThinkStart,
    ThinkTagSplitter,
    split_think,
)
from golem.inference.sse import iter_sse
from tests.fixtures import provider_fixture

# (reasoning, content, markers): what must not depend on how the stream was cut.
Outcome = tuple[str, str, str]


def reference(text: str, *, start_in_reasoning: bool = False) -> Outcome:
    """The rules read plainly over the whole text: cut it at every tag, then walk the pieces."""
    pieces = re.split("(<think>|</think>)", text)
    inside = start_in_reasoning
    if inside and pieces[:2] == ["", "<think>"]:
        pieces = pieces[2:]  # the server echoed the open tag it had put in the prompt
    reasoning: list[str] = []
    content: list[str] = []
    markers = "S" if inside else ""
    for piece in pieces:
        if piece == "<think>" and not inside:
            inside, markers = True, markers + "S"
        elif piece == "</think>" and inside:
            inside, markers = False, markers + "E"
        else:
            (reasoning if inside else content).append(piece)
    return "".join(reasoning), "".join(content), markers + ("E" if inside else "")


def outcome(events: Sequence[ReasoningEvent]) -> Outcome:
    """Summarize events, checking they are well formed along the way."""
    reasoning: list[str] = []
    content: list[str] = []
    markers = ""
    inside = False
    for event in events:
        if isinstance(event, ThinkStart):
            assert not inside
            inside, markers = True, markers + "S"
        elif isinstance(event, ThinkEnd):
            assert inside
            inside, markers = False, markers + "E"
        elif isinstance(event, ThinkChunk):
            assert inside and event.text
            reasoning.append(event.text)
        else:
            assert isinstance(event, ContentChunk)
            assert not inside and event
            content.append(event)
    assert not inside
    return "".join(reasoning), "".join(content), markers


def stream(chunks: Iterable[str], *, start_in_reasoning: bool = False) -> list[ReasoningEvent]:
    splitter = ThinkTagSplitter(start_in_reasoning=start_in_reasoning)
    events: list[ReasoningEvent] = []
    for chunk in chunks:
        events += splitter.feed(chunk)
    return events + splitter.finish()


def splits(text: str, pieces: int) -> Iterable[list[str]]:
    for cuts in combinations(range(len(text) + 1), pieces - 1):
        bounds = [0, *cuts, len(text)]
        yield [text[a:b] for a, b in pairwise(bounds)]


CASES = [
    pytest.param("plain answer", False, ("", "plain answer", ""), id="no-tags"),
    pytest.param("<think>why</think>answer", False, ("why", "answer", "SE"), id="one-block"),
    pytest.param(
        "a<think>b</think>c<think>d</think>e", False, ("bd", "ace", "SESE"), id="several-blocks"
    ),
    pytest.param("<think></think>x", False, ("", "x", "SE"), id="empty-block"),
    pytest.param("a < b, c<d <", False, ("", "a < b, c<d <", ""), id="lone-angle-brackets"),
    pytest.param("<<think>x</think>", False, ("x", "<", "SE"), id="angle-before-tag"),
    pytest.param(
        "<thinking>x</thinking>", False, ("", "<thinking>x</thinking>", ""), id="tag-like"
    ),
    pytest.param("<think >x", False, ("", "<think >x", ""), id="tag-with-space"),
    pytest.param("<THINK>x", False, ("", "<THINK>x", ""), id="case-sensitive"),
    pytest.param(
        "<think>a</think>b</think>c", False, ("a", "b</think>c", "SE"), id="close-after-block"
    ),
    pytest.param("x</think>y", False, ("", "x</think>y", ""), id="close-without-block"),
    pytest.param(
        "<think>a<think>b</think>c", False, ("a<think>b", "c", "SE"), id="open-inside-block"
    ),
    pytest.param("<think>a <b> </thinker>", False, ("a <b> </thinker>", "", "SE"), id="not-close"),
    pytest.param("<think>cut here", False, ("cut here", "", "SE"), id="cut-inside-block"),
    pytest.param("<think>cut</thi", False, ("cut</thi", "", "SE"), id="cut-inside-close-tag"),
    pytest.param("answer <thi", False, ("", "answer <thi", ""), id="cut-inside-open-tag"),
    pytest.param("<think>é😀\u2028</think>ü", False, ("é😀\u2028", "ü", "SE"), id="unicode"),
    pytest.param("why</think>answer", True, ("why", "answer", "SE"), id="prompt-opened-block"),
    pytest.param("<think>why</think>ans", True, ("why", "ans", "SE"), id="echoed-open-tag"),
    pytest.param("<thi", True, ("<thi", "", "SE"), id="cut-inside-echoed-open-tag"),
    pytest.param("<thinking", True, ("<thinking", "", "SE"), id="not-an-echoed-open-tag"),
    pytest.param(" <think>a</think>b", True, (" <think>a", "b", "SE"), id="late-open-tag"),
    pytest.param("a</think>b<think>c", True, ("ac", "b", "SESE"), id="prompt-opened-then-more"),
    pytest.param("", True, ("", "", "SE"), id="prompt-opened-empty-stream"),
    pytest.param("", False, ("", "", ""), id="empty-stream"),
]


@pytest.mark.parametrize(("text", "start_in_reasoning", "expected"), CASES)
def test_edge_cases_under_every_split(
    text: str, start_in_reasoning: bool, expected: Outcome
) -> None:
    assert reference(text, start_in_reasoning=start_in_reasoning) == expected
    assert split_think(text, start_in_reasoning=start_in_reasoning) == expected[:2]
    chunkings = [
        *splits(text, 2),
        *splits(text, 3),
        list(text),
        ["", *text, ""],
    ]
    for chunks in chunkings:
        events = stream(chunks, start_in_reasoning=start_in_reasoning)
        assert outcome(events) == expected, chunks


def test_chunks_are_merged_within_a_feed_and_tags_held_back() -> None:
    splitter = ThinkTagSplitter()
    assert splitter.feed("intro <thi") == [ContentChunk("intro ")]
    assert splitter.feed("nk>step one</th") == [ThinkStart(), ThinkChunk("step one")]
    assert splitter.feed("ink>\nanswer") == [ThinkEnd(), ContentChunk("\nanswer")]
    assert splitter.feed("") == []
    assert splitter.finish() == []


def test_holds_back_only_what_may_begin_a_tag() -> None:
    splitter = ThinkTagSplitter()
    assert splitter.feed("a<b<") == [ContentChunk("a<b")]
    assert splitter.feed("x") == [ContentChunk("<x")]
    assert splitter.feed("<think>abc</think") == [ThinkStart(), ThinkChunk("abc")]
    assert splitter.finish() == [ThinkChunk("</think"), ThinkEnd()]


@pytest.mark.parametrize("size", [8, 64, 255, 256, 257, 4096])
def test_lone_angle_brackets_in_chunks_of_any_length(size: int) -> None:
    prose = ("a < b, x<y <thinking> " * (size // 22 + 1))[: size - 1] + "."
    splitter = ThinkTagSplitter()
    assert outcome(splitter.feed(prose) + splitter.finish()) == ("", prose, "")
    assert splitter.feed(prose + "<thi") == [ContentChunk(prose)]
    assert splitter.feed("nk>" + prose + "</") == [ThinkStart(), ThinkChunk(prose)]
    assert splitter.feed("think>" + prose) == [ThinkEnd(), ContentChunk(prose)]
    assert splitter.finish() == []


def test_prompt_opened_block_is_announced_by_the_first_output() -> None:
    splitter = ThinkTagSplitter(start_in_reasoning=True)
    assert splitter.feed("") == [ThinkStart()]
    assert splitter.feed("hmm") == [ThinkChunk("hmm")]
    assert splitter.feed("</think>ok") == [ThinkEnd(), ContentChunk("ok")]
    assert splitter.finish() == []


def test_finish_resets_for_the_next_stream() -> None:
    splitter = ThinkTagSplitter()
    assert outcome(splitter.feed("<think>a") + splitter.finish()) == ("a", "", "SE")
    assert outcome(splitter.feed("b</think>") + splitter.finish()) == ("", "b</think>", "")


def test_custom_tags() -> None:
    splitter = ThinkTagSplitter("<reasoning>", "</reasoning>")
    chunks = ["x<reas", "oning>y</reasoning", "><think>z"]
    assert outcome([e for c in chunks for e in splitter.feed(c)] + splitter.finish()) == (
        "y",
        "x<think>z",
        "SE",
    )


def test_empty_tags_are_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        ThinkTagSplitter("", "</think>")


FRAGMENTS = ["<think>", "</think>", "<", "<th", "</thi", "<thinking>", ">", "/", "think"]
FRAGMENTS += ["the answer", " ", "\n", "é", "😀", "\u2028", "a<b"]


@st.composite
def chunked_texts(draw: st.DrawFn) -> tuple[str, list[str]]:
    parts = draw(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=30))
    text = "".join(parts)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=12)))
    bounds = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in pairwise(bounds)]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunked_texts(), st.booleans())
def test_any_chunking_matches_one_shot_and_reference(
    case: tuple[str, list[str]], start_in_reasoning: bool
) -> None:
    text, chunks = case
    streamed = outcome(stream(chunks, start_in_reasoning=start_in_reasoning))
    assert streamed == reference(text, start_in_reasoning=start_in_reasoning)
    assert split_think(text, start_in_reasoning=start_in_reasoning) == streamed[:2]
    assert outcome(stream(text, start_in_reasoning=start_in_reasoning)) == streamed


def message_content(relative: str) -> str:
    content = json.loads(provider_fixture(relative))["choices"][0]["message"]["content"]
    assert isinstance(content, str)
    return content


def stream_deltas(relative: str) -> list[str]:
    deltas = []
    for event in iter_sse(provider_fixture(relative)):
        if event.data != "[DONE]":
            for choice in json.loads(event.data)["choices"]:
                deltas.append(choice["delta"].get("content") or "")
    return deltas


INLINE_THINK = [
    "together/deepseek-r1-inline-think.json",
    "groq/qwen3-32b-inline-think.json",
    "groq/r1-distill-raw-inline-think.json",
]


@pytest.mark.parametrize("relative", INLINE_THINK)
def test_fixture_content_splits_the_same_at_every_offset(relative: str) -> None:
    text = message_content(relative)
    expected = reference(text)
    reasoning, content, markers = expected
    assert markers == "SE"
    assert reasoning.startswith("\nOkay")
    assert "think>" not in content
    assert len(content.strip()) > 0
    assert split_think(text) == (reasoning, content)
    for k in range(len(text) + 1):
        assert outcome(stream([text[:k], text[k:]])) == expected, k


def test_fixture_stream_deltas_split_like_the_whole_text() -> None:
    deltas = stream_deltas("together/deepseek-r1-inline-think-stream.sse")
    assert "<think>" in deltas  # the tag arrives as a delta of its own
    text = "".join(deltas)
    expected = reference(text)
    assert expected[2] == "SE"
    assert outcome(stream(deltas)) == expected
    for k in range(len(text) + 1):
        assert outcome(stream([text[:k], text[k:]])) == expected, k
