"""The live line of `golem run`'s console while a model thinks: "risk thinking… 1,240
tokens", one line a subsystem whose call is running, gone when the call is done so that
only the decision's own log line stays. Log lines written meanwhile go through `stream`,
printed above the live line instead of through it.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.live import Live
from rich.text import Text

from golem.inference.progress import Thinking, ThinkingStarted, ThinkingTokens
from golem.mortality import SubsystemName

__all__ = ["ThinkingLine", "thinking_text", "watching"]


def thinking_text(subsystem: str, tokens: int) -> str:
    """What the line says of one subsystem: its reasoning tokens so far, once there are any."""
    return f"{subsystem} thinking… {tokens:,} tokens" if tokens else f"{subsystem} thinking…"


class ThinkingLine:
    """A watch for the golem's model calls (`LifeOptions.watch`), drawn on `console` with
    rich's Live display. No thread: it is redrawn when an event arrives."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._thinking: dict[str, int] = {}
        self._live: Live | None = None
        self.stream = _Above(console)

    def __call__(self, subsystem: SubsystemName, event: Thinking) -> None:
        name = str(subsystem)
        if isinstance(event, ThinkingStarted):
            self._thinking[name] = 0
        elif isinstance(event, ThinkingTokens):
            if name not in self._thinking:
                return
            self._thinking[name] = event.tokens
        else:  # done: the decision's line comes next
            self._thinking.pop(name, None)
        self._draw()

    def close(self) -> None:
        self._thinking.clear()
        self._draw()

    def _draw(self) -> None:
        if not self._thinking:
            if self._live is not None:
                self._live.stop()
                self._live = None
            return
        shown = Text(
            "\n".join(thinking_text(name, tokens) for name, tokens in self._thinking.items()),
            style="dim",
        )
        if self._live is None:
            self._live = Live(
                shown,
                console=self._console,
                auto_refresh=False,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._live.start(refresh=True)
        else:
            self._live.update(shown, refresh=True)


class _Above:
    """A console stream for the log's sinks: each line printed through the rich console,
    which puts it above a live display."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._partial = ""

    def write(self, text: str, /) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        for line in lines:
            self._console.out(line, highlight=False)
        return len(text)

    def flush(self) -> None:
        self._console.file.flush()

    def isatty(self) -> bool:
        return self._console.is_terminal


def watching(console: str, stream: TextIO) -> ThinkingLine | None:
    """The thinking line for a `[logging] console` setting on `stream`: only for a pretty
    console on a terminal (JSON lines and pipes get no live display, and their model calls
    are not streamed to feed one)."""
    if console not in ("pretty", "auto") or not stream.isatty():
        return None
    return ThinkingLine(Console(file=stream, highlight=False))
