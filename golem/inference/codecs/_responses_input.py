"""An OpenAI Responses request's input: the instructions and the input items (messages,
function calls and their outputs, each item on its own), a turn's reasoning items sent back
before it, and the tool choice. Pure: no IO."""

from __future__ import annotations

import itertools
from typing import Any

import orjson

from golem.inference.reasoning import ReasoningChain, Visibility
from golem.inference.types import Message, Role

__all__ = ["instructions_and_input", "reasoning_items", "tool_choice_value"]


def instructions_and_input(
    messages: tuple[Message, ...], replay: str | None
) -> tuple[str, list[dict[str, Any]]]:
    """(the instructions, the input items): calls and their results are items of their own.
    A turn whose reasoning came from provider `replay` opens with its reasoning items, in
    their order, before its message and function_call items."""
    instructions: list[str] = []
    items: list[dict[str, Any]] = []
    for message in messages:
        if message.role is Role.SYSTEM:
            instructions.append(message.content or "")
        elif message.role is Role.TOOL:
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": message.tool_call_id or "",
                    "output": message.content or "",
                }
            )
        else:
            turn: list[dict[str, Any]] = []
            if message.content:
                turn.append({"role": message.role.value, "content": message.content})
            turn.extend(
                {
                    "type": "function_call",
                    "call_id": call.id,
                    "name": call.name,
                    "arguments": orjson.dumps(dict(call.arguments)).decode(),
                }
                for call in message.tool_calls
            )
            chain = message.reasoning
            # A reasoning item must be followed by what it led to: none goes back alone.
            if turn and chain is not None and replay is not None and chain.provider == replay:
                items.extend(reasoning_items(chain))
            items.extend(turn)
    return "\n\n".join(s for s in instructions if s), items


def reasoning_items(chain: ReasoningChain) -> list[dict[str, Any]]:
    """The reasoning items the chain was decoded from, in their order, each with its summary
    texts and its encrypted_content.

    No item carries its id. With an id the API takes the item for the stored one (`store`
    defaults to true) and requires the items that followed it, by their own ids ("Item
    'rs_...' of type 'reasoning' was provided without its required following item"); a
    re-ask sends the turn back as a plain assistant message and only the call it corrects,
    so that pairing cannot hold. Without an id an item stands on its encrypted_content,
    as in stateless use (OpenAI's reasoning-items cookbook; xAI's Responses guide shows
    the same item, `{"type": "reasoning", "summary": [], "encrypted_content": ...}`); an
    item whose encrypted_content never came has nothing to go back with and is left out."""
    items: list[dict[str, Any]] = []
    for item_id, group in itertools.groupby(chain.steps, key=lambda step: step.item_id):
        steps = list(group)
        data = next((s.redacted_data for s in steps if s.redacted_data is not None), None)
        if item_id is None or data is None:
            continue
        summary = [
            {"type": "summary_text", "text": s.text}
            for s in steps
            if s.visibility is Visibility.SUMMARIZED
        ]
        items.append({"type": "reasoning", "summary": summary, "encrypted_content": data})
    return items


def tool_choice_value(choice: str) -> str | dict[str, str]:
    """The tool_choice for a choice: auto, none, required, or one function by its name."""
    if choice in ("auto", "none", "required"):
        return choice
    return {"type": "function", "name": choice}
