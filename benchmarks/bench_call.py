"""Structured calls per second through golem's whole path, beside the openai SDK and instructor.

Every path runs under trio against the same httpx.MockTransport, which serves the recorded
OpenAI chat completion (openai/chat-json-schema-strict-simple.json) with its content replaced
by a ~600-byte heartbeat-shaped answer. golem: run_structured over HTTPProvider (encode,
httpx, decode, parse, validate, content checks, cost). SDK: `chat.completions.create` then
the typed model, and `chat.completions.parse`. instructor: `create(response_model=...)`.
Goals: >= 7,000 calls/s, and >= 8x the SDK's create.

Run: .venv/bin/python benchmarks/bench_call.py [--calls N] [--profile] [--quick]
(--quick: 100 calls, one round, goals not judged; `make test` runs it so the script keeps working)
(openai and instructor are benchmark-only: .venv/bin/pip install openai instructor)
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import os
import pstats
import sys
import time
from collections.abc import Awaitable, Callable
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import orjson
import trio

from golem.inference import HTTPProvider, Message, Request
from golem.inference import run_structured as golem_run_structured
from golem.subsystems.heartbeat import HeartbeatDecision
from tests.fixtures import PROVIDERS

GOAL_CALLS_S = 7000.0
GOAL_RATIO = 8.0
MODEL = "gpt-4.1-nano"
BASE_URL = "https://api.openai.com/v1"
SYSTEM = "You are the heartbeat of an autonomous trading agent. Judge the tick."
USER = "ETH -4.2% in 15 min, funding flipped negative, health factor 1.41. Decide."


ANSWER = {
    "severity": "high",
    "action": "hedge",
    "confidence": 0.72,
    "rationale": (
        "Price fell fast while funding turned negative: shorts are paying, momentum is down. "
        "The health factor is under 1.5, so a further 5% drop puts the position near "
        "liquidation. Hedge now; escalate for a deeper look at whether to unwind."
    ),
    "signals": [
        {"source": "price", "description": "ETH fell 4.2% in 15 minutes", "magnitude": 0.8},
        {"source": "funding", "description": "perp funding flipped negative", "magnitude": 0.4},
        {"source": "liquidity", "description": "health factor 1.41, under 1.5", "magnitude": 0.5},
    ],
    "escalate": True,
}


@cache
def recorded_body() -> bytes:
    body = orjson.loads(PROVIDERS.read("openai/chat-json-schema-strict-simple.json"))
    body["choices"][0]["message"]["content"] = orjson.dumps(ANSWER).decode()
    return orjson.dumps(body)


def handler(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        200, content=recorded_body(), headers={"content-type": "application/json"}
    )


TRANSPORT = httpx.MockTransport(handler)


# -- the paths: each gets an httpx client on TRANSPORT; golem uses the transport itself --
Call = Callable[[], Awaitable[HeartbeatDecision]]


async def golem_path(client: httpx.AsyncClient) -> Call:
    provider = HTTPProvider.named(
        "openai", MODEL, transport=TRANSPORT, environ={"OPENAI_API_KEY": "sk-bench"}
    )
    request = Request(messages=(Message.system(SYSTEM), Message.user(USER)))

    async def call() -> HeartbeatDecision:
        response = await golem_run_structured(provider, request, HeartbeatDecision)
        parsed: HeartbeatDecision = response.parsed
        return parsed

    return call


def sdk_client(client: httpx.AsyncClient) -> Any:
    import openai

    return openai.AsyncOpenAI(api_key="sk-bench", base_url=BASE_URL, http_client=client)


MESSAGES = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": USER}]
RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "name": "bench_heartbeat",
        "schema": dict(HeartbeatDecision.response_schema().schema),
        "strict": True,
    },
}


async def sdk_create_path(client: httpx.AsyncClient) -> Call:
    sdk = sdk_client(client)

    async def call() -> HeartbeatDecision:
        completion = await sdk.chat.completions.create(
            model=MODEL, messages=MESSAGES, response_format=RESPONSE_FORMAT
        )
        return HeartbeatDecision.model_validate_json(completion.choices[0].message.content)

    return call


async def sdk_parse_path(client: httpx.AsyncClient) -> Call:
    sdk = sdk_client(client)

    async def call() -> HeartbeatDecision:
        completion = await sdk.chat.completions.parse(
            model=MODEL, messages=MESSAGES, response_format=HeartbeatDecision
        )
        parsed: HeartbeatDecision = completion.choices[0].message.parsed
        return parsed

    return call


async def instructor_path(client: httpx.AsyncClient) -> Call:
    import instructor

    patched = instructor.from_openai(sdk_client(client), mode=instructor.Mode.JSON)

    async def call() -> HeartbeatDecision:
        result: HeartbeatDecision = await patched.chat.completions.create(
            model=MODEL, messages=MESSAGES, response_model=HeartbeatDecision
        )
        return result

    return call


# -- measuring --------------------------------------------------------------------------
PATHS: dict[str, Callable[[httpx.AsyncClient], Awaitable[Call]]] = {
    "golem run_structured": golem_path,
    "openai SDK create + model": sdk_create_path,
    "openai SDK parse()": sdk_parse_path,
    "instructor (Mode.JSON)": instructor_path,
}
GOLEM, SDK_CREATE = "golem run_structured", "openai SDK create + model"
ROUNDS = 5  # golem and the SDK's create alternate, best round kept: load hits both alike
WARM_UP = 50


Rates = dict[str, tuple[float, float]]  # label: (calls per wall second, per CPU second)


async def measure(calls: dict[str, Call], n: int, rounds: int) -> Rates:
    """Calls per second of each path, by the wall clock and by this process's CPU time
    (which other processes on a busy machine do not inflate): the best of `rounds`, the
    paths taking turns."""
    best = dict.fromkeys(calls, (0.0, 0.0))
    for _ in range(rounds):
        for label, call in calls.items():
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(n):
                await call()
            rates = (n / (time.perf_counter() - wall), n / (time.process_time() - cpu))
            best[label] = (max(best[label][0], rates[0]), max(best[label][1], rates[1]))
    return best


async def prepared(labels: list[str], client: httpx.AsyncClient, warm_up: int) -> dict[str, Call]:
    expected = HeartbeatDecision.model_validate(ANSWER).model_dump()
    calls = {}
    for label in labels:
        call = calls[label] = await PATHS[label](client)
        for _ in range(warm_up):  # warm-up: schema caches, lazy imports
            assert (await call()).model_dump() == expected
    return calls


async def profile_golem(n: int) -> None:
    async with httpx.AsyncClient(transport=TRANSPORT) as client:
        call = await golem_path(client)
        for _ in range(100):
            await call()
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(n):
            await call()
        profiler.disable()
    stats = pstats.Stats(profiler).strip_dirs().sort_stats("tottime")
    stats.print_stats(25)


def judged(met: bool, quick: bool) -> str:
    if quick:
        return "not judged in --quick"
    return "met" if met else "MISSED"


def missing_tools() -> list[str]:
    return [name for name in ("openai", "instructor") if importlib.util.find_spec(name) is None]


async def main(n: int, profile: bool, quick: bool) -> None:
    rounds, warm_up = (1, 10) if quick else (ROUNDS, WARM_UP)
    if profile:
        await profile_golem(n)
        return
    missing = missing_tools()
    if missing:
        print(
            f"not installed: {', '.join(missing)}; the comparison needs them "
            "(benchmark-only, not project dependencies):\n"
            "    .venv/bin/pip install openai instructor\n"
        )
    async with httpx.AsyncClient(transport=TRANSPORT) as client:
        if missing:
            results = await measure(await prepared([GOLEM], client, warm_up), n, rounds)
        else:
            both = await prepared([GOLEM, SDK_CREATE], client, warm_up)
            results = await measure(both, n, rounds)
            slow = await prepared(["openai SDK parse()", "instructor (Mode.JSON)"], client, warm_up)
            results |= await measure(slow, n, 1)
    print(
        f"{n} structured calls per round under trio on one httpx.MockTransport; best of "
        f"{rounds} alternating rounds for golem and the SDK's create, one for the others"
        f"{' (quick)' if quick else ''}\n"
    )
    print(f"  {'path':<28} {'calls/s wall':>13} {'calls/s CPU':>12}  golem is (CPU)")
    golem_wall, golem_cpu = results[GOLEM]
    for label, (wall, cpu) in results.items():
        versus = f"{golem_cpu / cpu:5.1f}x" if label != GOLEM else ""
        print(f"  {label:<28} {wall:>13,.0f} {cpu:>12,.0f}  {versus}")
    print()
    for clock, golem in (("wall", golem_wall), ("CPU", golem_cpu)):
        verdict = judged(golem >= GOAL_CALLS_S, quick)
        print(f"goal >= {GOAL_CALLS_S:,.0f} calls/s ({clock}): {verdict} ({golem:,.0f})")
    if SDK_CREATE in results:
        sdk_wall, sdk_cpu = results[SDK_CREATE]
        for clock, ratio in (("wall", golem_wall / sdk_wall), ("CPU", golem_cpu / sdk_cpu)):
            verdict = judged(ratio >= GOAL_RATIO, quick)
            print(f"goal >= {GOAL_RATIO:.0f}x the SDK's create ({clock}): {verdict} ({ratio:.1f}x)")
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1) * 0.5:
        print(f"\nnote: load average {load:.1f} on {os.cpu_count()} CPUs: wall rates are low")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, help="calls per round (default 1000)")
    parser.add_argument("--profile", action="store_true", help="cProfile the golem path")
    parser.add_argument(
        "--quick", action="store_true", help="100 calls (unless --calls), one round: a smoke run"
    )
    args = parser.parse_args()
    if not PROVIDERS.present:
        print(f"skipped: {PROVIDERS.reason}")
        sys.exit(0)
    calls = args.calls if args.calls is not None else (100 if args.quick else 1000)
    trio.run(main, calls, args.profile, args.quick)
