"""The stable prefix of a request, as a short key: what OpenAI's `prompt_cache_key` names
so that calls sharing a prefix are routed to the same cache."""

from __future__ import annotations

import hashlib

from golem.inference.types import Request, Role

__all__ = ["prefix_key"]


def prefix_key(model: str, request: Request) -> str:
    """`golem-` and a hash of what every call of one kind resends unchanged: the model, the
    system text, the tools (a respond tool carries the schema) and the schema's name. The
    turns after them are left out: they change every call."""
    digest = hashlib.blake2b(model.encode(), digest_size=8)
    for message in request.messages:
        if message.role is Role.SYSTEM:
            digest.update(b"\0system\0" + (message.content or "").encode())
    for tool in request.tools:
        digest.update(b"\0tool\0" + tool.name.encode())
    if request.response_schema is not None:
        digest.update(b"\0schema\0" + request.response_schema.name.encode())
    return f"golem-{digest.hexdigest()}"
