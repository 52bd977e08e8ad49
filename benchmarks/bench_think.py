"""Throughput of the `<think>` splitter beside the seed's byte-by-byte design and a str.find loop.

4 MiB of text, 20% of it reasoning in several blocks, fed in 8, 64 and 4096-byte chunks.
Goals: >= 450 MB/s at 64-byte chunks, and >= 20x the byte-by-byte state machine. Two floors
show what the harness and one event per chunk cost on this machine before any splitting.
`--quick`: 256 KiB, fewer runs, goals not judged (a smoke run that `make test` makes).
"""

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golem.inference.reasoning import (
    ContentChunk,
    ThinkChunk,
    ThinkEnd,
    ThinkStart,
    ThinkTagSplitter,
)

OPEN, CLOSE = "<think>", "</think>"
TOTAL = 4 * 1024 * 1024
QUICK_TOTAL = 256 * 1024
BLOCKS = 40
CHUNK_SIZES = (8, 64, 4096)
GOAL_MB_S_AT_64 = 450.0
GOAL_RATIO = 20.0

# (reasoning, content, number of blocks) as every splitter reports it, for a sanity check.
Result = tuple[str, str, int]


def make_text(total: int, seed: int = 7) -> str:
    """Prose-like ASCII with the odd '<' that is not a tag, 20% of it inside think blocks."""
    rng = random.Random(seed)
    words = ["the", "agent", "spends", "credits", "on", "inference", "while", "its", "vitality"]
    words += ["falls;", "a", "<", "b", "x<y", "<thinking>", "when", "cost", "is", "high,"]

    def prose(size: int) -> str:
        out: list[str] = []
        n = 0
        while n < size:
            word = rng.choice(words) if rng.random() < 0.02 else rng.choice(words[:10])
            out.append(word)
            n += len(word) + 1
        return " ".join(out)[:size]

    cycle = total // BLOCKS
    reasoning_size = cycle // 5 - len(OPEN) - len(CLOSE)
    parts = []
    for _ in range(BLOCKS):
        parts += [OPEN, prose(reasoning_size), CLOSE, prose(cycle - cycle // 5)]
    return "".join(parts)


class SeedState(Enum):
    CONTENT = 1
    MAYBE_OPEN = 2
    THINKING = 3
    MAYBE_CLOSE = 4


class ByteByByteSplitter:
    """The seed design: every character through a state enum and a tag-match buffer."""

    def __init__(self) -> None:
        self.state = SeedState.CONTENT
        self.tag_buffer = ""

    def feed(self, text: str) -> list[object]:
        events: list[object] = []
        think: list[str] = []
        content: list[str] = []
        for char in text:
            if self.state is SeedState.CONTENT:
                if char == "<":
                    self.tag_buffer = char
                    self.state = SeedState.MAYBE_OPEN
                else:
                    content.append(char)
            elif self.state is SeedState.THINKING:
                if char == "<":
                    self.tag_buffer = char
                    self.state = SeedState.MAYBE_CLOSE
                else:
                    think.append(char)
            else:
                opening = self.state is SeedState.MAYBE_OPEN
                tag = OPEN if opening else CLOSE
                self.tag_buffer += char
                if self.tag_buffer == tag:
                    self.tag_buffer = ""
                    if opening:
                        if content:
                            events.append(ContentChunk("".join(content)))
                            content = []
                        events.append(ThinkStart())
                        self.state = SeedState.THINKING
                    else:
                        if think:
                            events.append(ThinkChunk("".join(think)))
                            think = []
                        events.append(ThinkEnd())
                        self.state = SeedState.CONTENT
                elif not tag.startswith(self.tag_buffer):
                    # Not our tag: the buffer is text, except a trailing '<' that may start one.
                    kept = self.tag_buffer[-1] == "<"
                    flushed = self.tag_buffer[:-1] if kept else self.tag_buffer
                    (content if opening else think).extend(flushed)
                    self.tag_buffer = "<" if kept else ""
                    if not kept:
                        self.state = SeedState.CONTENT if opening else SeedState.THINKING
        if think:
            events.append(ThinkChunk("".join(think)))
        if content:
            events.append(ContentChunk("".join(content)))
        return events

    def finish(self) -> list[object]:
        return []


class FindLoopSplitter:
    """A plain str.find loop: no fast path, (kind, text) tuples instead of event objects."""

    def __init__(self) -> None:
        self.inside = False
        self.held = ""

    def feed(self, text: str) -> list[tuple[str, str]]:
        text = self.held + text
        events: list[tuple[str, str]] = []
        pos = 0
        while True:
            tag = CLOSE if self.inside else OPEN
            hit = text.find(tag, pos)
            if hit < 0:
                break
            events.append(("think" if self.inside else "content", text[pos:hit]))
            events.append(("end" if self.inside else "start", ""))
            self.inside = not self.inside
            pos = hit + len(tag)
        keep = text.rfind("<", max(pos, len(text) - len(tag) + 1))
        if keep < 0 or not tag.startswith(text[keep:]):
            keep = len(text)
        events.append(("think" if self.inside else "content", text[pos:keep]))
        self.held = text[keep:]
        return events

    def finish(self) -> list[tuple[str, str]]:
        return []


def summarize(events: list[object]) -> Result:
    reasoning: list[str] = []
    content: list[str] = []
    blocks = 0
    for event in events:
        if isinstance(event, ThinkChunk):
            reasoning.append(event.text)
        elif isinstance(event, ContentChunk):
            content.append(event)
        elif isinstance(event, ThinkStart):
            blocks += 1
        elif isinstance(event, tuple):
            kind, text = event
            (reasoning if kind == "think" else content).append(text)
            blocks += kind == "start"
    return "".join(reasoning), "".join(content), blocks


class Splitter(Protocol):
    def feed(self, text: str) -> Sequence[object]: ...
    def finish(self) -> Sequence[object]: ...


class EmptyFeed:
    """What a feed() call costs on this machine before doing any work."""

    def feed(self, text: str) -> list[object]:
        return []

    def finish(self) -> list[object]:
        return []


class OneEventFeed:
    """What wrapping every chunk in an event object would cost (the design before content
    chunks became plain str)."""

    def feed(self, text: str) -> list[object]:
        return [ThinkChunk(text)]

    def finish(self) -> list[object]:
        return []


def best_time(make: Callable[[], Splitter], chunks: list[str], repeats: int) -> float:
    """Best wall time of `repeats` runs; events are dropped as a streaming consumer would."""
    best = float("inf")
    for _ in range(repeats):
        splitter = make()
        feed = splitter.feed
        start = time.perf_counter()
        for chunk in chunks:
            feed(chunk)
        splitter.finish()
        best = min(best, time.perf_counter() - start)
    return best


def result(make: Callable[[], Splitter], chunks: list[str]) -> Result:
    splitter = make()
    events: list[object] = []
    for chunk in chunks:
        events += splitter.feed(chunk)
    return summarize([*events, *splitter.finish()])


def main(quick: bool) -> None:
    text = make_text(QUICK_TOTAL if quick else TOTAL)
    repeats, seed_repeats = (2, 1) if quick else (7, 2)
    megabytes = len(text.encode()) / 1e6
    expected = result(ThinkTagSplitter, [text])
    share = len(expected[0]) / len(text)
    print(
        f"text: {megabytes:.2f} MB, {share:.0%} reasoning in {expected[2]} blocks; best of runs"
        + (" (quick)" if quick else "")
    )
    print(
        f"{'chunk':>6}  {'splitter':>12}  {'byte-by-byte':>12}  {'str.find loop':>13}"
        f"  {'ratio':>6}  {'empty feed()':>12}  {'1-event feed()':>14}"
    )
    results: dict[int, tuple[float, float]] = {}
    for size in CHUNK_SIZES:
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        for make in (ThinkTagSplitter, ByteByByteSplitter, FindLoopSplitter):
            assert result(make, chunks) == expected, (make.__name__, size)
        ours = best_time(ThinkTagSplitter, chunks, repeats)
        seed = best_time(ByteByByteSplitter, chunks, seed_repeats)
        find = best_time(FindLoopSplitter, chunks, repeats)
        empty = best_time(EmptyFeed, chunks, repeats)
        one_event = best_time(OneEventFeed, chunks, repeats)
        results[size] = (megabytes / ours, seed / ours)
        print(
            f"{size:>6}  {megabytes / ours:>7.0f} MB/s  {megabytes / seed:>7.1f} MB/s"
            f"  {megabytes / find:>8.0f} MB/s  {seed / ours:>5.1f}x  {megabytes / empty:>7.0f} MB/s"
            f"  {megabytes / one_event:>9.0f} MB/s"
        )
    mb_s, ratio = results[64]
    speed = "PASS" if mb_s >= GOAL_MB_S_AT_64 else "MISS"
    speedup = "PASS" if ratio >= GOAL_RATIO else "MISS"
    if quick:
        speed = speedup = "not judged in --quick"
    print(f"{speed}: {mb_s:.0f} MB/s at 64-byte chunks (goal >= {GOAL_MB_S_AT_64:.0f})")
    print(f"{speedup}: {ratio:.1f}x the byte-by-byte design at 64-byte chunks (goal >= 20x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="256 KiB, fewer runs: a smoke run")
    main(parser.parse_args().quick)
