"""Choosing how to get a structured answer from a provider: one resolver, driven by the
provider's capabilities (data) and the `[inference.structured_outputs]` config."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from golem.inference.schema import ResponseSchema
from golem.inference.types import DEFAULT_ATTEMPTS, Mode

__all__ = ["Capabilities", "Resolution", "StructuredOutputConfig", "resolve_structured_output"]


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a provider and model can do, as data. Codecs and the resolver read it;
    nothing branches on a provider's name."""

    response_schema: bool = False  # can constrain output to a JSON Schema
    tool_use: bool = False  # can call tools
    forced_tool: bool = True  # can be forced to call a named tool
    forced_tool_with_thinking: bool = True  # ...even while reasoning is on
    strict_required: bool = False  # schema enforcement only with strict-compliant schemas
    reasoning: bool = False  # accepts a reasoning depth
    worked_examples: bool = False  # a small model: show it the decision's worked examples
    task_first: bool = False  # a small model: the task before the material, not after


class StructuredOutputConfig(BaseModel):
    """The `[inference.structured_outputs]` section."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = True  # false: no structure asked for; decisions come from from_text
    prefer_schema_enforcement: bool = True  # false: the tool path when the provider has one
    validation: bool = True  # run each decision's content checks
    retry_on_validation_failure: bool = True
    max_retries: int = Field(default=DEFAULT_ATTEMPTS - 1, ge=0, le=10)

    @property
    def max_attempts(self) -> int:
        """The first call plus the re-asks this section allows: the one place the
        attempt count is worked out (run_structured's bound, the allocator's policy)."""
        return 1 + (self.max_retries if self.retry_on_validation_failure else 0)


@dataclass(frozen=True, slots=True)
class Resolution:
    mode: Mode
    force_tool: bool = True
    downgrades: tuple[str, ...] = ()


def resolve_structured_output(
    schema: ResponseSchema | None,
    capabilities: Capabilities,
    config: StructuredOutputConfig,
    *,
    thinking: bool = False,
) -> Resolution:
    """Pick SchemaEnforced, ToolUseWorkaround, PromptGuided or None for one call."""
    if schema is None or not config.enabled:
        return Resolution(Mode.NONE)
    downgrades: list[str] = []
    enforceable = capabilities.response_schema
    if enforceable and capabilities.strict_required and not schema.strict_ok:
        enforceable = False
        downgrades.append("schema enforcement needs a strict schema; this one is not strict")
    tool = capabilities.tool_use and capabilities.forced_tool
    if tool and thinking and not capabilities.forced_tool_with_thinking:
        # A forced tool is rejected while thinking is on: offer the tool unforced and
        # instruct the model to call it.
        return _pick_unforced_tool(enforceable, config, downgrades)
    if enforceable and (config.prefer_schema_enforcement or not tool):
        return Resolution(Mode.SCHEMA_ENFORCED, downgrades=tuple(downgrades))
    if tool:
        return Resolution(Mode.TOOL_USE, downgrades=tuple(downgrades))
    if enforceable:
        return Resolution(Mode.SCHEMA_ENFORCED, downgrades=tuple(downgrades))
    return Resolution(Mode.PROMPT_GUIDED, downgrades=tuple(downgrades))


def _pick_unforced_tool(
    enforceable: bool, config: StructuredOutputConfig, downgrades: list[str]
) -> Resolution:
    if enforceable and config.prefer_schema_enforcement:
        return Resolution(Mode.SCHEMA_ENFORCED, downgrades=tuple(downgrades))
    downgrades.append("forced tool not allowed while thinking: tool_choice auto + instruction")
    return Resolution(Mode.TOOL_USE, force_tool=False, downgrades=tuple(downgrades))
