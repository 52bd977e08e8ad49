"""A Gemini generateContent request's contents: the system instruction and the user/model
turns, with thought signatures sent back on the parts they came with, tool results as
functionResponse objects, and the function-calling config of a tool choice. Pure: no IO."""

from __future__ import annotations

from typing import Any

import orjson

from golem.inference.reasoning import ReasoningChain
from golem.inference.types import Message, Role

__all__ = ["function_calling", "system_and_contents"]


def system_and_contents(
    messages: tuple[Message, ...], provider: str
) -> tuple[str, list[dict[str, Any]]]:
    """(the system instruction, the turns with roles user/model). A model turn whose
    reasoning came from `provider` gets its thought signatures back, each on the part it
    came with (see `_signatures`)."""
    system: list[str] = []
    turns: list[dict[str, Any]] = []
    call_names: dict[str, str] = {}  # a functionResponse names its function, not a call id
    for message in messages:
        if message.role is Role.SYSTEM:
            system.append(message.content or "")
            continue
        role = "model" if message.role is Role.ASSISTANT else "user"
        chain = message.reasoning
        thoughts, signed = _signatures(chain if chain and chain.provider == provider else None)
        parts: list[dict[str, Any]] = list(thoughts)
        if message.role is Role.TOOL:
            name = call_names.get(message.tool_call_id or "", message.tool_call_id or "")
            parts.append(
                {"functionResponse": {"name": name, "response": _tool_result(message.content)}}
            )
        elif message.content or "text" in signed:
            parts.append(_signed({"text": message.content or ""}, signed.get("text")))
        for call in message.tool_calls:
            call_names[call.id] = call.name
            part = {"functionCall": {"name": call.name, "args": dict(call.arguments)}}
            parts.append(_signed(part, signed.get(f"tool_call:{call.id}")))
        if turns and turns[-1]["role"] == role:
            turns[-1]["parts"].extend(parts)
        else:
            turns.append({"role": role, "parts": parts})
    return "\n\n".join(s for s in system if s), turns


def _signatures(chain: ReasoningChain | None) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the thought parts that carried their own signature, to send back as they came;
    the other signatures by the part they came with: "text" or "tool_call:<id>")."""
    thoughts: list[dict[str, Any]] = []
    signed: dict[str, str] = {}
    for step in chain.steps if chain is not None else ():
        if step.signature is None:
            continue
        if step.part is not None:
            signed[step.part] = step.signature
        elif step.text:
            thought = {"text": step.text, "thought": True}
            thoughts.append(_signed(thought, step.signature))
    return thoughts, signed


def _signed(part: dict[str, Any], signature: str | None) -> dict[str, Any]:
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def _tool_result(content: str | None) -> dict[str, Any]:
    """functionResponse.response must be an object: a JSON object as is, else wrapped."""
    try:
        value = orjson.loads(content or "null")
    except orjson.JSONDecodeError:
        value = content
    return value if isinstance(value, dict) else {"result": value}


def function_calling(choice: str) -> dict[str, Any]:
    """The functionCallingConfig for a tool choice: auto, none, required or one tool's name."""
    if choice in ("auto", "none"):
        return {"mode": choice.upper()}
    if choice == "required":
        return {"mode": "ANY"}
    return {"mode": "ANY", "allowedFunctionNames": [choice]}
