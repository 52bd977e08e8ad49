"""The embedded model's constrained decoding, per decision schema: tokens/s with llguidance
masks beside llama.cpp's own grammar in the same run, decision latency p50/p95 (the first
call after start, model load included, reported apart), answers that stopped by
themselves rather than at max_tokens, and the share of calls whose decision was valid
(after the re-asks) and meaningful (golem.subsystems.meaningful: an invalid one is not).

    python benchmarks/bench_local.py            # 20 llguidance and 3 grammar calls a schema
    python benchmarks/bench_local.py --quick    # the heartbeat only, 1 and 1 (goals not judged)
    python benchmarks/bench_local.py --schemas daimon_appraisal --spread 8
        # and the daimon on seven ticks' events, 8 calls each: situations its worked
        # examples were not written for, so a copied example shows

--quick also runs llama.cpp on one thread unless --threads says otherwise: on a busy 2-core
machine two threads were seen to decode at 1 tok/s (threads waiting on each other for a
core), one thread at 50; the smoke run in `make test` must not hang on that.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import structlog
import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import golem.subsystems
from golem.inference import FinishReason, StructuredOutputInvalid, run_structured
from golem.inference.local import Generation, LocalConfig, LocalProvider
from golem.inference.structured import StructuredOutput
from golem.subsystems.contract import Event
from golem.subsystems.daimon import (
    AppraisalRules,
    DaimonAppraisal,
    DaimonConfig,
    appraise,
    grounded,
)
from golem.subsystems.meaningful import meaningful
from tests.local_model.prompts import DAIMON_SPREAD, prompt_text, request_for

MAX_TOKENS = 400
GOALS = (
    "goals: llguidance >= 40 tok/s; heartbeat p50 <= 2 s; every schema valid >= 90% and "
    "meaningful >= 80% (llguidance); every answer stops by itself"
)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    runs: list[Generation] = field(default_factory=list)
    valid: int = 0
    meaningful: int = 0
    first: float | None = None
    hollow: list[str] = field(default_factory=list)  # the first problem of each hollow answer
    invalid: list[str] = field(default_factory=list)  # the first error of each invalid one
    answers: list[StructuredOutput] = field(default_factory=list)  # the valid decisions

    def tokens_per_s(self) -> float:
        tokens = sum(max(0, r.output_tokens - 1) for r in self.runs)
        seconds = sum(r.decode_s for r in self.runs)
        return tokens / seconds if seconds else 0.0

    def stopped(self) -> str:
        own = sum(r.finish_reason is FinishReason.STOP for r in self.runs)
        return f"{own}/{len(self.runs)}"


async def measure(
    provider: LocalProvider,
    decision: type[StructuredOutput],
    calls: int,
    tally: Tally,
    events: tuple[Event, ...] | None = None,
) -> None:
    name = decision.response_schema().name
    provider.on_generation = tally.runs.append
    request = request_for(name, MAX_TOKENS, events=events)
    for _ in range(calls):
        started = time.perf_counter()
        try:
            response = await run_structured(provider, request, decision)
            tally.valid += 1
        except StructuredOutputInvalid as exc:  # after re-asks: the latency still counts
            tally.invalid += exc.errors[:1] or [str(exc)]
        else:
            tally.answers.append(response.parsed)
            problems = meaningful(response.parsed, prompt_text(request))
            tally.meaningful += not problems
            tally.hollow += problems[:1]
        tally.latencies.append(time.perf_counter() - started)


def reasons(tally: Tally) -> None:
    """The commonest reasons answers were invalid or hollow, each with its first example."""
    for kind, found in (("invalid", tally.invalid), ("hollow", tally.hollow)):
        for problem, count in Counter(h.split(":")[0] for h in found).most_common(3):
            example = next(h for h in found if h.startswith(problem))
            print(f"  {'':<18} {kind} {count}x: {example[:90]}", flush=True)


async def spread(provider: LocalProvider, decision: type[StructuredOutput], calls: int) -> None:
    """The daimon on each of DAIMON_SPREAD's ticks, `calls` each, and over them all; with
    how many valid appraisals the rule table would override (`grounded`: a feeling farther
    than the grounding distance from the rules' is not felt). meaningful() does not judge
    whether a feeling fits its event; the grounding does, at run time."""
    print(f"daimon_appraisal on {len(DAIMON_SPREAD)} ticks' events, {calls} calls each:")
    total, overridden = Tally(), 0
    limit = DaimonConfig().grounding_distance
    for events in DAIMON_SPREAD:
        tally = Tally()
        await measure(provider, decision, calls, tally, events)
        rule = appraise(events, AppraisalRules())
        lost = sum(
            grounded(answer, rule, limit)[0] is not answer
            for answer in tally.answers
            if isinstance(answer, DaimonAppraisal)
        )
        overridden += lost
        print(
            f"  {' + '.join(map(str, events)):<42} valid {share(tally.valid, tally.latencies):>5} "
            f"meaningful {share(tally.meaningful, tally.latencies):>5} "
            f"overridden by the rules {lost}/{tally.valid}",
            flush=True,
        )
        reasons(tally)
        total.latencies += tally.latencies
        total.hollow += tally.hollow
        total.invalid += tally.invalid
        total.valid += tally.valid
        total.meaningful += tally.meaningful
    print(
        f"  {'all':<42} valid {share(total.valid, total.latencies):>5} "
        f"meaningful {share(total.meaningful, total.latencies):>5} "
        f"overridden by the rules {overridden}/{total.valid}"
    )


def percentile(values: list[float], q: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def row(name: str, backend: str, tally: Tally) -> str:
    lat = tally.latencies
    first = f"{tally.first:6.2f}" if tally.first is not None else "     -"
    return (
        f"{name:<20} {backend:<13} {tally.tokens_per_s():7.1f} {len(lat):5d} "
        f"{percentile(lat, 50):6.2f} {percentile(lat, 95):6.2f} {first} "
        f"{tally.stopped():>7} {share(tally.valid, lat):>6} {share(tally.meaningful, lat):>6}"
    )


def share(count: int, calls: list[float]) -> str:
    return f"{100 * count / len(calls):.0f}%" if calls else "-"


async def main(args: argparse.Namespace) -> None:
    decisions = {d.response_schema().name: d for d in golem.subsystems.DECISIONS}
    names = args.schemas or list(decisions)
    names.sort(key=lambda n: n != "heartbeat_decision")  # the cold start is a heartbeat
    base = LocalConfig(threads=args.threads, max_tokens=MAX_TOKENS)
    fast = LocalProvider(base)
    grammar = LocalProvider(base.model_copy(update={"backend": "llama-grammar"}))
    print(
        f"bench_local: threads={fast.threads}, cores={len(os.sched_getaffinity(0))}, "
        f"load average {os.getloadavg()[0]:.2f}, max_tokens={MAX_TOKENS}"
        + (" (quick)" if args.quick else "")
    )
    print(
        f"{'schema':<20} {'backend':<13} {'tok/s':>7} {'calls':>5} {'p50 s':>6} {'p95 s':>6} "
        f"{'first':>6} {'stopped':>7} {'valid':>6} {'meant':>6}"
    )
    started = time.perf_counter()
    for index, name in enumerate(names):
        decision = decisions[name]
        tally = Tally()
        if index == 0:  # the first call after start: model load and tokenizer included
            await measure(fast, decision, 1, tally)
            tally.first = tally.latencies[0]
        await measure(fast, decision, args.calls - (index == 0), tally)
        print(row(name, "llguidance", tally), flush=True)
        reasons(tally)
        if args.grammar_calls:
            slow = Tally()
            await measure(grammar, decision, args.grammar_calls, slow)
            print(row(name, "llama-grammar", slow), flush=True)
    if args.spread:
        await spread(fast, decisions["daimon_appraisal"], args.spread)
    goals = "(quick) goals not judged in --quick" if args.quick else GOALS
    print(f"{goals}\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="heartbeat_decision only, 1 llguidance and 1 grammar call, 1 thread: a smoke run",
    )
    parser.add_argument("--calls", type=int, help="llguidance calls per schema (default 20)")
    parser.add_argument(
        "--grammar-calls", type=int, help="grammar calls per schema (default 3; 0: none)"
    )
    parser.add_argument("--threads", type=int, help="llama.cpp threads (default: the cores)")
    parser.add_argument("--schemas", nargs="*", help="only these schemas")
    parser.add_argument(
        "--spread",
        type=int,
        default=0,
        help="then the daimon on seven ticks' events, this many calls each (default 0: not)",
    )
    arguments = parser.parse_args()
    calls, grammar_calls, schemas = (
        (1, 1, ["heartbeat_decision"]) if arguments.quick else (20, 3, None)
    )
    arguments.calls = arguments.calls if arguments.calls is not None else calls
    arguments.grammar_calls = (
        arguments.grammar_calls if arguments.grammar_calls is not None else grammar_calls
    )
    arguments.schemas = arguments.schemas or schemas
    if arguments.quick and arguments.threads is None:
        arguments.threads = 1
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    trio.run(main, arguments)
