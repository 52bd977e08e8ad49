"""An Anthropic Messages request's conversation: the system prompt and the turns as the API
wants them (tool results in user turns, one role's turns merged, replayed thinking blocks
first), the tool choice, and the prompt cache's breakpoint. Pure: no IO."""

from __future__ import annotations

from typing import Any

from golem.inference.reasoning import ReasoningChain
from golem.inference.types import Message, Role

__all__ = ["cache_breakpoint", "system_and_turns", "thinking_blocks", "tool_choice_block"]

_EPHEMERAL = {"type": "ephemeral"}  # the 5-minute cache, refreshed by each hit


def cache_breakpoint(body: dict[str, Any]) -> None:
    """Mark the end of the stable prefix for Anthropic's prompt cache: the prefix is read in
    the order tools, system, messages, so a breakpoint on the system text caches the tools
    (a respond tool's schema among them) and the system text together; without a system
    text, on the last tool. The turns that follow change every call and are left out. A
    prefix under the model's minimum (1024 tokens for Sonnet 4, 4096 for Haiku 4.5) is
    simply not cached, and costs nothing more."""
    if body.get("system"):
        body["system"] = [{"type": "text", "text": body["system"], "cache_control": _EPHEMERAL}]
    elif body.get("tools"):
        body["tools"][-1] = {**body["tools"][-1], "cache_control": _EPHEMERAL}


def system_and_turns(
    messages: tuple[Message, ...], replay: str | None
) -> tuple[str, list[dict[str, Any]]]:
    """(the system prompt, the turns): tool results become tool_result blocks in a user
    turn, and consecutive turns of one role are merged, as the API wants them. An
    assistant turn whose reasoning came from provider `replay` opens with its thinking
    and redacted_thinking blocks, unchanged and in their order, before its text and
    tool_use blocks (the API requires them there while thinking is on)."""
    system: list[str] = []
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role is Role.SYSTEM:
            system.append(message.content or "")
            continue
        role = "assistant" if message.role is Role.ASSISTANT else "user"
        blocks: list[dict[str, Any]] = []
        chain = message.reasoning
        if chain is not None and replay is not None and chain.provider == replay:
            blocks.extend(thinking_blocks(chain))
        if message.role is Role.TOOL:
            blocks.append(
                {
                    "type": "tool_result",
                    "tool_use_id": message.tool_call_id or "",
                    "content": message.content or "",
                }
            )
        elif message.content:
            blocks.append({"type": "text", "text": message.content})
        blocks.extend(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": dict(call.arguments)}
            for call in message.tool_calls
        )
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    return "\n\n".join(s for s in system if s), turns


def thinking_blocks(chain: ReasoningChain) -> list[dict[str, Any]]:
    """The blocks the chain was decoded from: a redacted block as its data, a thinking
    block with its text and signature. An unsigned step has no block the API would take."""
    blocks: list[dict[str, Any]] = []
    for step in chain.steps:
        if step.redacted_data is not None:
            blocks.append({"type": "redacted_thinking", "data": step.redacted_data})
        elif step.signature is not None:
            blocks.append({"type": "thinking", "thinking": step.text, "signature": step.signature})
    return blocks


def tool_choice_block(choice: str | None) -> dict[str, str] | None:
    if choice is None:
        return None
    if choice in ("auto", "none"):
        return {"type": choice}
    if choice == "required":
        return {"type": "any"}
    return {"type": "tool", "name": choice}
