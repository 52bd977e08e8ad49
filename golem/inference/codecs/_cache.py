"""The stable prefix of a request, as a short key: what OpenAI's `prompt_cache_key` names
so that calls sharing a prefix are routed to the same cache."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from golem.inference.types import Request, Role

__all__ = ["prefix_key"]


def prefix_key(model: str, request: Request) -> str:
    """`golem-` and a hash of what every call of one kind resends unchanged: the model, the
    system text, the tools (a respond tool carries the schema) and the schema's name. The
    turns after them are left out: they change every call."""
    system = tuple(m.content or "" for m in request.messages if m.role is Role.SYSTEM)
    schema = request.response_schema
    tools = tuple(t.name for t in request.tools)
    return _key(model, system, tools, None if schema is None else schema.name)


@lru_cache(maxsize=256)
def _key(model: str, system: tuple[str, ...], tools: tuple[str, ...], schema: str | None) -> str:
    """Cached: a golem resends the same few prefixes all its life (a str keeps its hash)."""
    digest = hashlib.blake2b(model.encode(), digest_size=8)
    for text in system:
        digest.update(b"\0system\0" + text.encode())
    for name in tools:
        digest.update(b"\0tool\0" + name.encode())
    if schema is not None:
        digest.update(b"\0schema\0" + schema.encode())
    return f"golem-{digest.hexdigest()}"
