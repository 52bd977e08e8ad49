"""From a config's tier chains to live providers: the embedded model for `local`, the
synthetic provider for `synthetic`, an HTTPProvider per remote entry, a FallbackProvider
when a chain has several."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

from golem.inference import CountsTokens, Provider
from golem.inference.fallback import FallbackProvider
from golem.inference.pricing import FREE, Price
from golem.inference.providers import Registry
from golem.inference.synthetic import SyntheticProvider
from golem.inference.synthetic.provider import Mind
from golem.inference.transport import HTTPProvider
from golem.mortality import ModelTier
from golem.runtime.asking import Route, Routes
from golem.runtime.config.load import build_registry
from golem.runtime.config.providers import EMBEDDED, SYNTHETIC, ChainEntry
from golem.runtime.config.sections import GolemConfig, Tier
from golem.subsystems.minds import MINDS

__all__ = ["ProviderPool", "build_routes"]

_TIERS: Mapping[Tier, ModelTier] = {"t1": ModelTier.T1, "t2": ModelTier.T2}


@dataclass
class ProviderPool:
    """The providers a golem holds, made once each and closed together. `minds`: what
    the synthetic provider answers by (a simulation's see its world's truth)."""

    config: GolemConfig
    environ: Mapping[str, str]
    minds: Mapping[str, Mind] = field(default_factory=lambda: MINDS)
    registry: Registry = field(init=False)
    _made: dict[str, Provider] = field(default_factory=dict, init=False)
    _stack: AsyncExitStack = field(default_factory=AsyncExitStack, init=False)

    def __post_init__(self) -> None:
        self.registry = build_registry(self.config)

    def provider(self, entry: ChainEntry) -> Provider:
        key = str(entry)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._make(entry)
        return made

    def _make(self, entry: ChainEntry) -> Provider:
        if entry.provider == EMBEDDED:
            from golem.inference.local import LocalProvider  # noqa: PLC0415 (loads llama.cpp)

            local: Provider = LocalProvider(self.config.providers.local)
            return local
        if entry.provider == SYNTHETIC:
            synthetic = self.config.providers.synthetic
            return SyntheticProvider(
                model=entry.model, config=synthetic, registry=self.registry, minds=self.minds
            )
        model = self.config.model_for(entry) or ""
        http = HTTPProvider(
            self.registry.profile(entry.provider),
            model,
            self.registry.codec(entry.provider),
            config=self.config.inference.transport,
            environ=self.environ,
            registry=self.registry,
        )
        self._stack.push_async_callback(http.aclose)
        return http

    def price(self, entry: ChainEntry) -> Price:
        if entry.provider == EMBEDDED:
            return FREE
        if entry.provider == SYNTHETIC:
            synthetic = self.config.providers.synthetic
            emulated = (synthetic.emulate, entry.model or synthetic.model)
            return self.registry.price_for(*emulated) or FREE
        model = self.config.model_for(entry) or ""
        return self.registry.price_for(entry.provider, model) or FREE

    def billed_in_diem(self, entry: ChainEntry) -> bool:
        """Venice spends DIEM first, and so does the synthetic provider emulating it."""
        vendor = entry.provider
        if vendor == SYNTHETIC:
            vendor = self.config.providers.synthetic.emulate
        return vendor == "venice"

    def route(self, tier: Tier) -> Route:
        return self.chain_route(self.config.inference.chain(tier))

    def verify_route(self) -> Route | None:
        """Risk's second opinion (`[subsystems.risk] verify_with`), when one is asked."""
        verifier = self.config.subsystems.risk.verifier()
        return None if verifier is None else self.chain_route((verifier,))

    def chain_route(self, chain: tuple[ChainEntry, ...]) -> Route:
        providers = [self.provider(entry) for entry in chain]
        provider = providers[0] if len(providers) == 1 else FallbackProvider(providers)
        first = chain[0]
        return Route(
            provider=provider,
            model=self.config.model_for(first) or first.provider,
            # A chain is priced at its dearest member: the allocator's worst case must hold
            # whichever member answers.
            price=max((self.price(e) for e in chain), key=lambda p: (p.output, p.input)),
            max_output_tokens=self.config.inference.max_output_tokens,
            diem=self.billed_in_diem(first),
            tokenizer=provider.count_tokens if isinstance(provider, CountsTokens) else None,
        )

    async def aclose(self) -> None:
        await self._stack.aclose()


def build_routes(pool: ProviderPool) -> Routes:
    """The Routes of a config: t1 and t2 chains, death's own, and risk's verifier."""
    return Routes(
        tiers={_TIERS[t]: pool.route(t) for t in ("t1", "t2")},
        death=pool.route("death"),
        verify=pool.verify_route(),
    )
