"""The request of each model decision, kept for `golem replay`: the provider-neutral
`Request` as the decision sent it (its prompt already masked by the context layers, no
headers, so never a key), its schema's name and attempts, and the answer it got, as one
zlib-compressed orjson blob per row of `requests`, keyed by the decision's log `id`.

The neutral request rather than a wire body: a body is one vendor's dialect and cannot be
sent to another, while the neutral request encodes for any provider (the mode's prompt
guidance or respond tool is re-derived from the schema by `run_structured`, as it was).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from golem.inference import Message, Request, Response, Role, StructuredOutput, Tool, ToolCall
from golem.inference.reasoning import ReasoningConfig, ReasoningDepth

__all__ = ["Answer", "KeptRequest", "RequestArchive", "decode", "encode"]

_VERSION = 1  # of the blob's layout; a blob of another version is refused, not guessed at
_LEVEL = 6  # zlib's default: a decision's prompt (a few kB of text) shrinks about 4x


@dataclass(frozen=True, slots=True)
class Answer:
    """What a model answered one decision's request: the decision as the model gave it
    (masked identifiers not restored, as the prompt it read), and what it took."""

    decision: Mapping[str, Any]
    provider: str
    model: str
    mode: str
    depth: str  # reasoning depth asked: none | low | medium | high | max
    attempts: int
    input_tokens: int
    output_tokens: int
    reasoning_tokens: int
    cost_usd: float
    latency_s: float

    @classmethod
    def of(cls, response: Response, depth: ReasoningDepth) -> Answer:
        parsed = response.parsed
        usage = response.usage
        return cls(
            decision=parsed.json_fields() if isinstance(parsed, StructuredOutput) else {},
            provider=response.provider,
            model=response.model,
            mode=str(response.mode),
            depth=depth.name.lower(),
            attempts=response.attempts,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            reasoning_tokens=usage.reasoning_tokens,
            cost_usd=response.cost_usd,
            latency_s=response.latency_s,
        )


@dataclass(frozen=True, slots=True)
class KeptRequest:
    """One model decision's request: `id` is the `id` of its log line (`risk@5856.1`)."""

    id: str
    time: datetime
    subsystem: str
    schema: str  # the decision type's schema name (golem schemas)
    max_attempts: int  # what the allocator allowed, re-asks included
    request: Request
    answer: Answer


def encode(kept: KeptRequest) -> bytes:
    """The row's blob: everything but the id, time and subsystem, which are columns."""
    body = {
        "v": _VERSION,
        "schema": kept.schema,
        "max_attempts": kept.max_attempts,
        "request": _request_dict(kept.request),
        "answer": _answer_dict(kept.answer),
    }
    return zlib.compress(orjson.dumps(body), _LEVEL)


def decode(id: str, time: datetime, subsystem: str, blob: bytes) -> KeptRequest:
    body = orjson.loads(zlib.decompress(blob))
    if body.get("v") != _VERSION:
        raise ValueError(f"request {id}: stored by another golem version ({body.get('v')})")
    return KeptRequest(
        id=id,
        time=time,
        subsystem=subsystem,
        schema=body["schema"],
        max_attempts=body["max_attempts"],
        request=_request_of(body["request"]),
        answer=Answer(**body["answer"]),
    )


Read = Callable[[str, tuple[Any, ...]], Iterable[tuple[Any, ...]]]
Write = Callable[[str, tuple[Any, ...]], None]
_COLUMNS = "id, time, subsystem, data"


class RequestArchive:
    """The `requests` table. Times are stored as UTC ISO text (`iso`), which sorts as time
    does; the table is indexed by time, so pruning and `--since` are range scans."""

    def __init__(self, read: Read, write: Write, iso: Callable[[datetime], str]) -> None:
        self._read = read
        self._write = write
        self._iso = iso

    def keep(self, kept: KeptRequest) -> None:
        self._write(
            f"INSERT OR REPLACE INTO requests ({_COLUMNS}) VALUES (?, ?, ?, ?)",
            (kept.id, self._iso(kept.time), kept.subsystem, encode(kept)),
        )

    def prune(self, before: datetime) -> None:
        """Drop the requests of decisions made before `before`."""
        self._write("DELETE FROM requests WHERE time < ?", (self._iso(before),))

    def get(self, id: str) -> KeptRequest | None:
        rows = list(self._read(f"SELECT {_COLUMNS} FROM requests WHERE id = ?", (id,)))
        return _decoded(rows[0]) if rows else None

    def select(
        self, subsystems: Sequence[str] = (), since: datetime | None = None
    ) -> list[KeptRequest]:
        """The kept requests, oldest first, of `subsystems` (all when empty) made at or
        after `since`."""
        where, params = ["time >= ?"], [self._iso(since) if since else ""]
        if subsystems:
            where.append(f"subsystem IN ({', '.join('?' * len(subsystems))})")
            params += subsystems
        sql = f"SELECT {_COLUMNS} FROM requests WHERE {' AND '.join(where)} ORDER BY time, id"
        return [_decoded(row) for row in self._read(sql, tuple(params))]

    def span(self) -> tuple[datetime, datetime] | None:
        """The times of the oldest and newest kept request (None: none is kept)."""
        rows = list(self._read("SELECT MIN(time), MAX(time) FROM requests", ()))
        first, last = rows[0]
        if first is None:
            return None
        return datetime.fromisoformat(first), datetime.fromisoformat(last)


def _decoded(row: tuple[Any, ...]) -> KeptRequest:
    id, time, subsystem, blob = row
    return decode(id, datetime.fromisoformat(time), subsystem, blob)


def _answer_dict(answer: Answer) -> dict[str, Any]:
    return {name: getattr(answer, name) for name in Answer.__slots__}


def _request_dict(request: Request) -> dict[str, Any]:
    """The request's fields that reach a wire, the `choices` a local grammar narrows by,
    and `seed` (the sampling a re-ask repeats, kept so that a replay repeats it too);
    `facts` (a simulated model's, never sent) and a message's reasoning chain (a
    decision's prompt has none) are left out."""
    return {
        "messages": [_message_dict(m) for m in request.messages],
        "model": request.model,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "reasoning": {
            "depth": request.reasoning.depth.name.lower(),
            "visible": request.reasoning.visible,
            "interleaved": request.reasoning.interleaved,
        },
        "tools": [
            {
                "name": t.name,
                "description": t.description,
                "parameters": t.parameters,
                "strict": t.strict,
            }
            for t in request.tools
        ],
        "tool_choice": request.tool_choice,
        "stream": request.stream,
        # Never sent, but the local grammar narrows by them: a replay on it asks as it was.
        "choices": {pointer: list(values) for pointer, values in request.choices.items()},
        "seed": request.seed,
    }


def _message_dict(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": str(message.role), "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [
            {"id": c.id, "name": c.name, "arguments": dict(c.arguments)} for c in message.tool_calls
        ]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    return out


def _request_of(data: Mapping[str, Any]) -> Request:
    reasoning = data["reasoning"]
    return Request(
        messages=tuple(
            Message(
                Role(m["role"]),
                m["content"],
                tuple(ToolCall(**c) for c in m.get("tool_calls", ())),
                m.get("tool_call_id"),
            )
            for m in data["messages"]
        ),
        model=data["model"],
        max_tokens=data["max_tokens"],
        temperature=data["temperature"],
        reasoning=ReasoningConfig(
            ReasoningDepth[reasoning["depth"].upper()],
            reasoning["visible"],
            reasoning["interleaved"],
        ),
        tools=tuple(Tool(**t) for t in data["tools"]),
        tool_choice=data["tool_choice"],
        stream=data["stream"],
        choices={pointer: tuple(values) for pointer, values in data.get("choices", {}).items()},
        seed=data.get("seed"),  # absent from blobs kept before the seed was
    )
