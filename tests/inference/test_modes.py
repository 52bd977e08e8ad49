"""resolve_structured_output: capabilities and config decide the mode."""

from __future__ import annotations

import pytest

from golem.inference import (
    Capabilities,
    Mode,
    ResponseSchema,
    StructuredOutputConfig,
    resolve_structured_output,
)

from .decisions import Pulse

STRICT = Pulse.response_schema()
LOOSE = ResponseSchema("loose", {"type": "object", "properties": {"a": {"type": "string"}}})
DEFAULT = StructuredOutputConfig()
ALL = Capabilities(response_schema=True, tool_use=True)
TOOLS = Capabilities(tool_use=True)
SCHEMA = Capabilities(response_schema=True)
NOTHING = Capabilities()
ANTHROPIC = Capabilities(tool_use=True, forced_tool_with_thinking=False)
VENICE = Capabilities(response_schema=True, strict_required=True)


@pytest.mark.parametrize(
    ("caps", "config", "mode"),
    [
        (ALL, DEFAULT, Mode.SCHEMA_ENFORCED),
        (ALL, StructuredOutputConfig(prefer_schema_enforcement=False), Mode.TOOL_USE),
        (SCHEMA, StructuredOutputConfig(prefer_schema_enforcement=False), Mode.SCHEMA_ENFORCED),
        (TOOLS, DEFAULT, Mode.TOOL_USE),
        (NOTHING, DEFAULT, Mode.PROMPT_GUIDED),
        (ALL, StructuredOutputConfig(enabled=False), Mode.NONE),
    ],
)
def test_mode_table(caps: Capabilities, config: StructuredOutputConfig, mode: Mode) -> None:
    assert resolve_structured_output(STRICT, caps, config).mode is mode


def test_no_schema_is_none() -> None:
    assert resolve_structured_output(None, ALL, DEFAULT).mode is Mode.NONE


def test_forced_tool_is_not_used_while_thinking_when_the_provider_forbids_it() -> None:
    resolution = resolve_structured_output(STRICT, ANTHROPIC, DEFAULT, thinking=True)
    assert resolution.mode is Mode.TOOL_USE
    assert not resolution.force_tool
    assert resolution.downgrades


def test_forced_tool_is_used_when_thinking_is_off() -> None:
    resolution = resolve_structured_output(STRICT, ANTHROPIC, DEFAULT, thinking=False)
    assert (resolution.mode, resolution.force_tool, resolution.downgrades) == (
        Mode.TOOL_USE,
        True,
        (),
    )


def test_strict_required_provider_falls_back_for_a_loose_schema() -> None:
    resolution = resolve_structured_output(LOOSE, VENICE, DEFAULT)
    assert resolution.mode is Mode.PROMPT_GUIDED
    assert "strict" in resolution.downgrades[0]
    assert resolve_structured_output(STRICT, VENICE, DEFAULT).mode is Mode.SCHEMA_ENFORCED
