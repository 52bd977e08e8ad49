"""The provider registry: every provider's profile and prices, read from providers.toml and
the profiles codecs define beside themselves, overridable from config with the same shape.
Lookups by name, the codec for a profile, and the cost of a call."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from functools import cache
from importlib.resources import files
from typing import Any, TypeVar

from golem.inference.codecs import FAMILIES, PROFILES_IN_CODE
from golem.inference.codecs.base import Codec, ProviderProfile, longest_prefix
from golem.inference.modes import Capabilities
from golem.inference.pricing import Price, priced
from golem.inference.reasoning import ReasoningCost
from golem.inference.types import Response, Usage

__all__ = [
    "Delegate",
    "DelegatingProfile",
    "Registry",
    "codec_for",
    "cost_of",
    "default_registry",
    "price_for",
    "profile",
    "with_cost",
]

T = TypeVar("T")

_PROVIDER_KEYS = frozenset(
    {"family", "base_url", "api_key_env", "capabilities", "quirks", "reasoning_billing"}
    | {"models", "delegate"}
)
_MODEL_KEYS = frozenset({"capabilities", "price"})


@dataclass(frozen=True, slots=True)
class Delegate:
    """Models named `prefix...` are another provider's: read their capabilities and
    prices there, under the name `lookup_name` gives."""

    prefix: str
    provider: str
    profile: ProviderProfile
    strip: bool = False
    replace: tuple[str, str] | None = None

    def lookup_name(self, model: str) -> str:
        name = model[len(self.prefix) :] if self.strip else model
        return name.replace(*self.replace) if self.replace else name


@dataclass(frozen=True, slots=True)
class DelegatingProfile(ProviderProfile):
    """A gateway (Bankr, OpenRouter) whose models keep their maker's capabilities."""

    delegates: tuple[Delegate, ...] = field(default=())

    def capabilities_for(self, model: str) -> Capabilities:
        if longest_prefix(self.model_capabilities, model) is None:
            delegate = self.delegate_for(model)
            if delegate is not None:
                return delegate.profile.capabilities_for(delegate.lookup_name(model))
        return ProviderProfile.capabilities_for(self, model)

    def delegate_for(self, model: str) -> Delegate | None:
        return next((d for d in self.delegates if model.startswith(d.prefix)), None)


class Registry:
    """Profiles and prices by provider name. Immutable: `with_overrides` returns a new one."""

    def __init__(self, tables: Mapping[str, Mapping[str, Any]]) -> None:
        self.tables = tables
        base = {name: _profile(name, spec) for name, spec in tables.items()}
        self._profiles = {
            name: _with_delegates(p, tables[name].get("delegate", ()), base)
            for name, p in base.items()
        }
        self._prices = {name: _prices(name, spec) for name, spec in tables.items()}
        self._codecs: dict[str, Codec] = {}
        self._price_cache: dict[tuple[str, str], Price | None] = {}

    @classmethod
    def load(cls, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Registry:
        """The shipped table, with `overrides` (config's [inference.providers]) merged in."""
        tables = _merge(_shipped_tables(), overrides or {})
        return cls(tables)

    def with_overrides(self, overrides: Mapping[str, Mapping[str, Any]]) -> Registry:
        return Registry(_merge(self.tables, overrides))

    def names(self) -> list[str]:
        return sorted(self._profiles)

    def profile(self, name: str) -> ProviderProfile:
        try:
            return self._profiles[name]
        except KeyError:
            raise KeyError(f"unknown provider {name!r}; known: {', '.join(self.names())}") from None

    def codec(self, name: str) -> Codec:
        """The codec for provider `name`, made once."""
        codec = self._codecs.get(name)
        if codec is None:
            codec = self._codecs[name] = codec_for(self.profile(name))
        return codec

    def price_for(self, provider: str, model: str) -> Price | None:
        """The model's price (longest matching name prefix), through a gateway's delegate
        when the gateway lists none; None when unpriced."""
        key = (provider, model)
        if key not in self._price_cache:
            self._price_cache[key] = self._find_price(provider, model)
        return self._price_cache[key]

    def _find_price(self, provider: str, model: str) -> Price | None:
        prices = self._prices.get(provider, {})
        match = longest_prefix(prices, model)
        if match is not None:
            return prices[match]
        owner = self._profiles.get(provider)
        if isinstance(owner, DelegatingProfile):
            delegate = owner.delegate_for(model)
            if delegate is not None:
                return self.price_for(delegate.provider, delegate.lookup_name(model))
        return None

    def cost_of(self, provider: str, model: str, usage: Usage) -> float:
        """USD for one call's usage; 0.0 for an unpriced model."""
        price = self.price_for(provider, model)
        return 0.0 if price is None else price.cost(usage)

    def price_of(self, response: Response, model: str | None = None) -> Price | None:
        """The price of the model that answered, else of `model` (the one asked for)."""
        price = self.price_for(response.provider, response.model)
        if price is None and model:
            price = self.price_for(response.provider, model)
        return price

    def with_cost(self, response: Response, model: str | None = None) -> Response:
        """`response` with cost_usd, and the reasoning chain's share of it, filled in."""
        return priced(response, self.price_of(response, model))


def codec_for(profile: ProviderProfile) -> Codec:
    """A codec of the profile's family speaking for that profile."""
    try:
        family = FAMILIES[profile.family]
    except KeyError:
        raise KeyError(
            f"provider {profile.name!r} names unknown codec family {profile.family!r}; "
            f"known: {', '.join(sorted(FAMILIES))}"
        ) from None
    return family(profile)


@cache
def default_registry() -> Registry:
    """The shipped table with no overrides."""
    return Registry.load()


def profile(name: str) -> ProviderProfile:
    return default_registry().profile(name)


def price_for(provider: str, model: str) -> Price | None:
    return default_registry().price_for(provider, model)


def cost_of(provider: str, model: str, usage: Usage) -> float:
    return default_registry().cost_of(provider, model, usage)


def with_cost(response: Response, model: str | None = None) -> Response:
    return default_registry().with_cost(response, model)


# -- building profiles from tables ------------------------------------------------------


def _shipped_tables() -> dict[str, Any]:
    tables = {p.name: _table_of(p, prices) for p, prices in PROFILES_IN_CODE}
    text = files("golem.inference").joinpath("providers.toml").read_text("utf-8")
    return _merge(tables, tomllib.loads(text))


def _table_of(profile: ProviderProfile, prices: Mapping[str, Price]) -> dict[str, Any]:
    """A profile written in code, in the shape of a providers.toml entry."""
    models: dict[str, dict[str, Any]] = {
        m: {"capabilities": asdict(c)} for m, c in profile.model_capabilities.items()
    }
    for model, price in prices.items():
        models.setdefault(model, {})["price"] = {
            k: v for k, v in asdict(price).items() if v is not None
        }
    table: dict[str, Any] = {
        "family": profile.family,
        "base_url": profile.base_url,
        "capabilities": asdict(profile.capabilities),
        "reasoning_billing": asdict(profile.reasoning_billing),
        "quirks": dict(profile.quirks),
        "models": models,
    }
    if profile.api_key_env:
        table["api_key_env"] = profile.api_key_env
    return table


def _profile(name: str, spec: Mapping[str, Any]) -> ProviderProfile:
    _check_keys(f"provider {name!r}", spec, _PROVIDER_KEYS)
    if "family" not in spec:
        raise ValueError(f"provider {name!r} names no codec family")
    defaults = _build(Capabilities, f"{name}.capabilities", spec.get("capabilities", {}))
    model_capabilities = {}
    for model, entry in spec.get("models", {}).items():
        _check_keys(f"model {name}.{model}", entry, _MODEL_KEYS)
        if "capabilities" in entry:
            model_capabilities[model] = _build(
                Capabilities, f"{name}.{model}", entry["capabilities"], defaults
            )
    return ProviderProfile(
        name=name,
        family=spec["family"],
        base_url=spec.get("base_url", ""),
        api_key_env=spec.get("api_key_env"),
        capabilities=defaults,
        model_capabilities=model_capabilities,
        reasoning_billing=_build(
            ReasoningCost, f"{name}.reasoning_billing", spec.get("reasoning_billing", {})
        ),
        quirks=dict(spec.get("quirks", {})),
    )


def _with_delegates(
    profile: ProviderProfile,
    specs: Iterable[Mapping[str, Any]],
    base: Mapping[str, ProviderProfile],
) -> ProviderProfile:
    delegates = []
    for spec in specs:
        target = spec.get("provider", "")
        if target not in base:
            raise ValueError(f"provider {profile.name!r} delegates to unknown {target!r}")
        swap = spec.get("replace")
        delegates.append(
            Delegate(
                prefix=spec["prefix"],
                provider=target,
                profile=base[target],
                strip=bool(spec.get("strip", False)),
                replace=(str(swap[0]), str(swap[1])) if swap else None,
            )
        )
    if not delegates:
        return profile
    values = {f.name: getattr(profile, f.name) for f in fields(ProviderProfile)}
    return DelegatingProfile(**values, delegates=tuple(delegates))


def _prices(name: str, spec: Mapping[str, Any]) -> dict[str, Price]:
    return {
        model: _build(Price, f"{name}.{model}.price", entry["price"])
        for model, entry in spec.get("models", {}).items()
        if "price" in entry
    }


def _build(kind: type[T], where: str, values: Mapping[str, Any], base: T | None = None) -> T:
    try:
        return kind(**values) if base is None else replace(base, **values)  # type: ignore[type-var]
    except TypeError as exc:
        raise ValueError(f"{where}: {exc}") from exc


def _check_keys(where: str, spec: Mapping[str, Any], allowed: frozenset[str]) -> None:
    unknown = set(spec) - allowed
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}; allowed {sorted(allowed)}")


def _merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """`extra` over `base`: tables merge key by key, anything else replaces."""
    merged = dict(base)
    for key, value in extra.items():
        old = merged.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            merged[key] = _merge(old, value)
        else:
            merged[key] = value
    return merged
