"""`golem inspect LOG_OR_STATE --decision ID`: one model decision as panels: what was
decided, by which model, at what cost and tokens, and its reasoning chain (its text, or
"reasoning performed (not visible)" with its token count when the provider hid it).

Everything shown is read from the decision's log line (see golem.runtime.logs.reasoning
for what the line keeps of the chain): a state directory or its golem.db is read through
the golem.log beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from golem.cli.failure import UsageError
from golem.runtime.logs import Event

__all__ = ["decision_log", "decision_panels", "find_decisions"]

_LOG_NAME = "golem.log"
# Model text is data: a control character in it (an escape sequence) must not reach the
# terminal. Newlines and tabs are kept: reasoning is paragraphs.
_CONTROLS = dict.fromkeys((*range(32), *range(127, 160)), "�") | {9: "    ", 10: "\n"}


def decision_log(path: Path) -> Path:
    """The log holding the decisions of LOG_OR_STATE: the file itself, or the golem.log of
    a state directory (or beside its golem.db; `golem simulate` puts it a level up)."""
    if path.is_dir():
        candidates = [path / _LOG_NAME, path.parent / _LOG_NAME]
    elif path.suffix == ".db":
        candidates = [path.parent / _LOG_NAME, path.parent.parent / _LOG_NAME]
    else:
        return path
    found = next((log for log in candidates if log.is_file()), None)
    if found is None:
        raise UsageError(f"{path}: no {_LOG_NAME} beside it to read decisions from")
    return found


def find_decisions(events: Iterable[Event], decision_id: str) -> list[Event]:
    """The model decisions logged with `id` == `decision_id` (one per golem in the log)."""
    return [e for e in events if e.get("event") == "decision" and e.get("id") == decision_id]


def decision_panels(event: Event) -> Group:
    """The decision's panel and its reasoning's."""
    return Group(_decision_panel(event), _reasoning_panel(event))


def _decision_panel(event: Event) -> Panel:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    tokens = event.get("tokens")
    rows = (
        ("golem", event.get("golem")),
        ("time", event.get("time") or event.get("timestamp")),
        ("tick", event.get("tick")),
        ("subsystem", f"{event.get('subsystem', '?')} (tier {event.get('tier', '?')})"),
        ("model", _answered_by(event)),
        ("mode", _joined(event.get("mode"), _attempts(event.get("attempts")))),
        ("reasoning depth", event.get("reasoning_depth")),
        ("decided", event.get("summary")),
        ("cost", _usd(event.get("cost_usd"))),
        ("tokens", _token_counts(tokens)),
        ("vitality", _vitality(event)),
    )
    for name, value in rows:
        if value not in (None, ""):
            facts.add_row(name, _clean(str(value)))
    decision = event.get("decision")
    body: list[RenderableType] = [facts]
    if isinstance(decision, dict):
        shown = orjson.dumps(decision, option=orjson.OPT_INDENT_2).decode()
        body.append(Text(_clean(shown)))
    return Panel(
        Group(*body), title=f"decision {event.get('id', '?')}", title_align="left", expand=True
    )


def _reasoning_panel(event: Event) -> Panel:
    chain = event.get("reasoning")
    if not isinstance(chain, dict):
        return _without_chain(event)
    tokens = chain.get("tokens") or _reasoning_tokens(event)
    title = " · ".join(
        part
        for part in (
            "reasoning",
            _joined(chain.get("provider"), chain.get("model"), sep=":"),
            str(chain.get("visibility", "")),
            _count(tokens),
            "signed" if chain.get("signed") else "",
            "redacted blocks" if chain.get("redacted") else "",
        )
        if part
    )
    text = chain.get("text")
    if isinstance(text, str) and text:
        cut = chain.get("text_chars")
        subtitle = f"cut to its first and last parts of {cut:,} characters" if cut else None
        return Panel(Text(_clean(text)), title=title, title_align="left", subtitle=subtitle)
    hidden = f"reasoning performed (not visible): {_count(tokens) or 'tokens not reported'}"
    return Panel(Text(hidden, style="italic"), title=title, title_align="left")


def _without_chain(event: Event) -> Panel:
    """A line without a chain: an older log's 240-character summary, or none at all."""
    tokens = _reasoning_tokens(event)
    summary = event.get("reasoning_summary")
    if isinstance(summary, str) and summary:
        title = f"reasoning · its first 240 characters · {_count(tokens)}".rstrip(" ·")
        return Panel(Text(_clean(summary)), title=title, title_align="left")
    if tokens:
        body = f"reasoning performed (not visible): {_count(tokens)}"
    else:
        body = "no reasoning: the model answered without thinking first"
    return Panel(Text(body, style="italic"), title="reasoning", title_align="left")


def _reasoning_tokens(event: Event) -> int:
    tokens = event.get("tokens")
    value = tokens.get("reasoning") if isinstance(tokens, dict) else None
    return value if isinstance(value, int) else 0


def _count(tokens: Any) -> str:
    return f"{tokens:,} tokens" if isinstance(tokens, int) and tokens else ""


def _answered_by(event: Event) -> str:
    return _joined(event.get("provider"), event.get("model"), sep=":") or str(
        event.get("source", "")
    )


def _attempts(attempts: Any) -> str:
    return f"{attempts} attempts" if isinstance(attempts, int) and attempts > 1 else ""


def _token_counts(tokens: Any) -> str:
    if not isinstance(tokens, dict):
        return ""
    names = ("input", "output", "reasoning")
    return ", ".join(f"{name} {tokens[name]:,}" for name in names if tokens.get(name))


def _usd(value: Any) -> str:
    return f"${value:.8f}".rstrip("0").rstrip(".") if isinstance(value, int | float) else ""


def _vitality(event: Event) -> str:
    vitality = event.get("vitality")
    if not isinstance(vitality, int | float):
        return ""
    return f"{vitality:.3f} {event.get('phase', '')}".rstrip()


def _joined(*parts: Any, sep: str = ", ") -> str:
    return sep.join(str(p) for p in parts if p)


def _clean(text: str) -> str:
    return text if text.isprintable() else text.translate(_CONTROLS)
