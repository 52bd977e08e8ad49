"""The share of input tokens a prompt cache would serve, and the money it would save, over a
3-day decline life (simulations/decline.toml: synthetic claude-haiku-4-5 / claude-sonnet-4,
Anthropic's wire format).

Every call the life makes is recorded as it is asked: its time (the tick's `now`), model,
the request Anthropic's codec encodes for it, and the input tokens the synthetic provider's
token model reports for it. The stable prefix of each request is what the codec puts before
its `cache_control` breakpoint (tools, then system), counted with the same token model
(characters / chars_per_token). Anthropic's cache is then replayed call by call: a prefix
at or above the model's minimum (1024 tokens for Sonnet 4, 4096 for Haiku 4.5) is written
on a miss (billed 1.25x input) and read on a hit (0.1x) when the same model saw the same
prefix less than 5 minutes before (each hit refreshes it). The figures: the share of input
tokens served from cache, and the input bill with and without the breakpoints, at the
models' list prices. Nothing here is tuned: the life, prompts and prices are golem's own.

Run: .venv/bin/python benchmarks/bench_cache.py [--days 3] [--quick]
(--quick: 0.2 days, a smoke run)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson
import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golem.inference.codecs.anthropic import PRICES, PROFILE, AnthropicCodec  # noqa: E402
from golem.inference.synthetic import SyntheticProvider  # noqa: E402
from golem.inference.types import Request, Response  # noqa: E402
from golem.simulation import LifeSpec, live, load_scenario  # noqa: E402

SCENARIO = ROOT / "simulations" / "decline.toml"
TTL_S = 300.0
MINIMUM = {"claude-haiku-4-5": 4096, "claude-sonnet-4": 1024}


@dataclass(frozen=True)
class Asked:
    at: float  # seconds since the epoch, the tick's simulated time
    model: str
    prefix: str  # the request up to its breakpoint, as sent
    prefix_tokens: int
    input_tokens: int


def _prefix(body: dict[str, Any]) -> str:
    """Tools, then the system blocks: everything before and at the breakpoint."""
    return orjson.dumps([body.get("tools", []), body.get("system", "")]).decode()


def record(calls: list[Asked], chars_per_token: float) -> None:
    codec = AnthropicCodec(PROFILE)
    answer = SyntheticProvider.answer

    def recorded(self: SyntheticProvider, request: Request) -> Response:
        response = answer(self, request)
        ctx = getattr(request.facts, "ctx", None)
        if ctx is not None:
            body = dict(codec.encode(request, self.model).body)
            prefix = _prefix(body)
            calls.append(
                Asked(
                    ctx.now.timestamp(),
                    self.model,
                    prefix,
                    round(len(prefix) / chars_per_token),
                    response.usage.input_tokens,
                )
            )
        return response

    SyntheticProvider.answer = recorded  # type: ignore[method-assign]


def replay(calls: list[Asked], minimum: dict[str, int]) -> dict[str, float]:
    last: dict[tuple[str, str], float] = {}
    read = written = total = 0
    plain_usd = cached_usd = 0.0
    for call in sorted(calls, key=lambda c: c.at):
        price = PRICES[call.model]
        total += call.input_tokens
        plain_usd += call.input_tokens * price.input
        prefix = min(call.prefix_tokens, call.input_tokens)
        key = (call.model, call.prefix)
        rest = call.input_tokens - prefix
        if prefix < minimum[call.model]:
            cached_usd += call.input_tokens * price.input
            continue
        seen = last.get(key)
        last[key] = call.at
        if seen is not None and call.at - seen < TTL_S:
            read += prefix
            cached_usd += prefix * (price.cached_input or price.input) + rest * price.input
        else:
            written += prefix
            cached_usd += prefix * (price.cache_write or price.input) + rest * price.input
    return {
        "calls": len(calls),
        "input": total,
        "read": read,
        "written": written,
        "plain_usd": plain_usd * 1e-6,
        "cached_usd": cached_usd * 1e-6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=float, default=3.0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    days = 0.2 if args.quick else args.days
    scenario = load_scenario(SCENARIO)
    mortality = scenario.config.mortality.model_copy(update={"stochastic_death": False})
    config = scenario.config.model_copy(update={"mortality": mortality})
    scenario = replace(
        scenario,
        config=config,
        simulation=scenario.simulation.model_copy(update={"horizon_days": days}),
    )
    calls: list[Asked] = []
    record(calls, 4.0)  # the synthetic token model's chars_per_token (its default)
    with tempfile.TemporaryDirectory() as out:
        trio.run(live, scenario, LifeSpec(SCENARIO, 1, Path(out), days))
    figures = replay(calls, MINIMUM)
    unbounded = replay(calls, dict.fromkeys(MINIMUM, 1))
    by_model: dict[str, list[int]] = {}
    for call in calls:
        by_model.setdefault(call.model, []).append(call.prefix_tokens)
    print(f"decline, {days:g} days: {figures['calls']} model calls")
    for model, sizes in sorted(by_model.items()):
        sizes.sort()
        print(
            f"  {model}: {len(sizes)} calls, stable prefix {sizes[0]}-{sizes[-1]} tokens "
            f"(median {sizes[len(sizes) // 2]}), cache minimum {MINIMUM[model]}"
        )
    share = figures["read"] / figures["input"] if figures["input"] else 0.0
    saved = figures["plain_usd"] - figures["cached_usd"]
    print(f"input tokens: {figures['input']:,}; read from cache: {figures['read']:,} ({share:.1%})")
    print(f"written to cache: {figures['written']:,}")
    print(
        f"input bill: ${figures['plain_usd']:.4f} without breakpoints, "
        f"${figures['cached_usd']:.4f} with them: saved ${saved:.4f} "
        f"({saved / figures['plain_usd']:.1%})"
        if figures["plain_usd"]
        else "no input billed"
    )
    share = unbounded["read"] / unbounded["input"] if unbounded["input"] else 0.0
    saved = unbounded["plain_usd"] - unbounded["cached_usd"]
    print(
        f"were there no minimum (what the breakpoint does once prefixes are long enough): "
        f"{share:.1%} read from cache, saved ${saved:.4f}"
    )


if __name__ == "__main__":
    main()
