"""A config's [providers.NAME] tables (the registry's shape, merged over the shipped
table) and the entries of the tier chains in [inference] ("provider" or "provider:model").
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Annotated, Any, get_type_hints

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)

from golem.inference import Capabilities
from golem.inference.local import LocalConfig
from golem.inference.pricing import Price
from golem.inference.reasoning.chain import ReasoningCost
from golem.inference.synthetic.config import SyntheticConfig

__all__ = [
    "EMBEDDED",
    "SYNTHETIC",
    "ChainEntry",
    "ModelOverride",
    "ProviderSection",
    "ProvidersSection",
    "Section",
]

EMBEDDED = "local"  # the in-process model: needs no key, no model name, no price
SYNTHETIC = "synthetic"  # the keyless synthetic provider; priced as the one it emulates


class Section(BaseModel):
    """A config table: unknown keys are errors, values are final, numbers finite."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _partial_of(kind: type[Any]) -> AfterValidator:
    """Checks a table that overrides some fields of the dataclass `kind`: known keys only,
    each value of the field's type."""
    hints = get_type_hints(kind)
    adapters = {f.name: TypeAdapter(hints[f.name]) for f in fields(kind)}

    def check(values: dict[str, Any]) -> dict[str, Any]:
        for key, value in values.items():
            adapter = adapters.get(key)
            if adapter is None:
                raise ValueError(f"unknown key {key!r}; expected one of: {', '.join(adapters)}")
            try:
                adapter.validate_python(value, strict=True)
            except ValidationError as exc:
                raise ValueError(f"{key}: {exc.errors()[0]['msg']}") from None
        return values

    return AfterValidator(check)


class ModelOverride(Section):
    capabilities: Annotated[dict[str, Any], _partial_of(Capabilities)] = {}
    price: Annotated[dict[str, Any], _partial_of(Price)] = {}


class ProviderSection(Section):
    """A provider's entry in the registry's shape (see golem/inference/providers.toml),
    merged over the shipped one, plus `default_model`."""

    family: str | None = Field(default=None, validation_alias=AliasChoices("family", "kind"))
    base_url: str | None = None
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    default_model: str | None = Field(default=None, min_length=1)
    capabilities: Annotated[dict[str, Any], _partial_of(Capabilities)] = {}
    reasoning_billing: Annotated[dict[str, Any], _partial_of(ReasoningCost)] = {}
    quirks: dict[str, Any] = {}
    models: dict[str, ModelOverride] = {}
    delegate: list[dict[str, Any]] = []

    def registry_overrides(self) -> dict[str, Any]:
        """What the registry reads: the keys set in the config, in its shape."""
        return self.model_dump(exclude_unset=True, exclude={"default_model"}, mode="json")


@dataclass(frozen=True, slots=True)
class ChainEntry:
    """One entry of a tier's provider chain: "provider" or "provider:model"."""

    provider: str
    model: str | None = None

    @classmethod
    def parse(cls, text: str) -> ChainEntry:
        provider, _, model = text.partition(":")
        if not provider.strip() or (":" in text and not model.strip()):
            raise ValueError(f"write 'provider' or 'provider:model', got {text!r}")
        return cls(provider.strip(), model.strip() or None)

    def __str__(self) -> str:
        return self.provider if self.model is None else f"{self.provider}:{self.model}"


class ProvidersSection(Section):
    """The [providers.NAME] tables: `local` holds the embedded model's settings,
    `synthetic` the synthetic provider's (emulate, model, seed, tokens, faults); any other
    name is an entry of the provider registry."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, ProviderSection] = Field(init=False)

    local: LocalConfig = LocalConfig()
    synthetic: SyntheticConfig = SyntheticConfig()

    def entries(self) -> dict[str, ProviderSection]:
        """The registry entries, by provider name."""
        return dict(self.__pydantic_extra__ or {})

    def names(self) -> list[str]:
        """Every provider the config declares, `local` and `synthetic` when their tables
        are there."""
        own = [name for name in (EMBEDDED, SYNTHETIC) if name in self.model_fields_set]
        return [*own, *self.entries()]
