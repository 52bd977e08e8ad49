"""Cost of one synthetic provider call: the decision, the wire body and its decoding by the
real codec, tokens and price; alone, and inside run_structured (which adds validation).

A heartbeat prompt in the subsystems' format, answered by the heartbeat's mind (with no
facts on the request it reads a quiet moment; the prompt's size sets the tokens). Goal:
<= 100 µs a call for SchemaEnforced with no faults (the simulator makes hundreds of
thousands). Best of 5 runs of 5,000 calls, in CPU time (process_time) and wall time: on a
shared machine the wall time also counts the waits for a core. `--quick`: best of 2 runs
of 500 calls, goal not judged (a smoke run).
"""

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golem.inference import (
    Capabilities,
    Message,
    Mode,
    ReasoningConfig,
    Request,
    SyntheticProvider,
    get_schema,
    run_structured,
)
from golem.subsystems.minds import MINDS  # registers the subsystems' decisions

CALLS, RUNS = 5_000, 5
QUICK_CALLS, QUICK_RUNS = 500, 2
GOAL_US = 100.0
SYSTEM = (
    "You are one subsystem of a golem: an autonomous agent with a finite wallet that trades "
    "a paper portfolio and pays for every thought. Be concise and concrete.\nYou are the "
    "heartbeat: on each tick whose probes surprised the golem, judge how serious it is."
)
USER = """## State
vitality 0.62 (stable); credits $41.20 of $100.00; burn $0.0012/tick
portfolio: cash $640.00, equity $1010.00, positions ETH 0.2
mood: pleasure -0.10, arousal +0.30, dominance +0.05

## Market
price 1850.20; change last tick -2.40%, over the window -6.10%; z-score vs 20-period SMA -2.20
volume ratio 1.80; volatility 0.0310; health factor 1.40
probes fired: price_delta>2%, health<1.5; prediction error 0.72 (gate 0.31)

## Task
Decide on this tick and answer with a heartbeat_decision."""


def per_call_us(call: Callable[[], object], calls: int, runs: int) -> tuple[float, float]:
    """(CPU µs, wall µs) per call, each the best of `runs` runs."""
    cpu = wall = float("inf")
    for _ in range(runs):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        for _ in range(calls):
            call()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start_wall)
    return cpu / calls * 1e6, wall / calls * 1e6


def main(quick: bool) -> None:
    calls, runs = (QUICK_CALLS, QUICK_RUNS) if quick else (CALLS, RUNS)
    decision = get_schema("heartbeat_decision")
    schema = decision.response_schema()
    request = Request(messages=(Message.system(SYSTEM), Message.user(USER)))
    enforced = request.evolve(response_schema=schema, mode=Mode.SCHEMA_ENFORCED)
    tool = request.evolve(
        response_schema=schema,
        mode=Mode.TOOL_USE,
        tools=(),
        tool_choice=f"respond_{schema.name}",
        reasoning=ReasoningConfig.medium(),
    )
    gemini = SyntheticProvider("gemini", "gemini-2.5-flash", minds=MINDS)
    anthropic = SyntheticProvider("anthropic", "claude-sonnet-4", minds=MINDS)
    cases = [
        ("openai gpt-4o-mini, SchemaEnforced", SyntheticProvider(minds=MINDS), enforced),
        ("gemini 2.5 flash, SchemaEnforced", gemini, enforced),
        ("anthropic, tool use + thinking", anthropic, tool),
    ]
    print(f"{'case':<42} {'CPU µs':>8} {'wall µs':>8}{'  (quick)' if quick else ''}")
    results = {}
    for label, provider, wire in cases:
        results[label] = per_call_us(lambda p=provider, w=wire: p.answer(w), calls, runs)
        print(f"{label:<42} {results[label][0]:8.1f} {results[label][1]:8.1f}")
    structured = SyntheticProvider(capabilities=Capabilities(response_schema=True), minds=MINDS)

    async def loop() -> None:
        for _ in range(calls):
            await run_structured(structured, request, decision)

    cpu, wall = per_call_us(lambda: trio.run(loop), 1, runs)
    label = "run_structured (openai), in one trio.run"
    print(f"{label:<42} {cpu / calls:8.1f} {wall / calls:8.1f}")
    first = results[cases[0][0]][0]
    verdict = "meets" if first <= GOAL_US else "misses"
    if quick:
        verdict = "not judged in --quick"
    print(f"goal <= {GOAL_US:.0f} CPU µs (SchemaEnforced, no faults): {verdict} ({first:.1f} µs)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 calls, 2 runs: a smoke run")
    main(parser.parse_args().quick)
