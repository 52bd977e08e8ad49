"""Time to assemble one prompt under each pipeline profile, on a golem with 10,000
grimoire entries and 50,000 episodes (all resolved but a quarter), a 64-observation window
and a world feed of five items, one of them an injection attempt. Each call sees another
market moment (sixty in turn), so retrieval and rendering really run every time. Token
estimates of lines already seen are cached, as in a running golem whose consecutive
prompts share most lines; the cold column clears that cache before every call.

Goal: Standard under 1 ms. Compared with what the same prompt costs without the indexes
(knowledge ranked by a scan of every entry, episodes by `EpisodeLog.most_similar`, the
linear scan the world package offers), which is what a naive implementation would do.

    python benchmarks/bench_context.py           # the figures above
    python benchmarks/bench_context.py --quick   # 1,000 entries, 5,000 episodes, 30 calls:
                                                 # a smoke run, goal not judged
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

from msgspec.structs import replace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golem.mortality import PipelineProfile  # noqa: E402
from golem.subsystems.context import (  # noqa: E402
    CallBudget,
    Memory,
    assemble,
    estimate_tokens,
    words_of,
)
from golem.subsystems.contract import Brief  # noqa: E402
from golem.world import EpisodeLog  # noqa: E402
from tests.policy import CONTEXT  # noqa: E402
from tests.subsystems.context.support import (  # noqa: E402
    NEWS,
    episodes,
    grimoire,
    observations,
    rich_context,
)
from tests.subsystems.support import market  # noqa: E402

GRIMOIRE, EPISODES, ROUNDS = 10_000, 50_000, 300
QUICK_GRIMOIRE, QUICK_EPISODES, QUICK_ROUNDS = 1_000, 5_000, 30
GOAL_STANDARD_MS = 1.0
BRIEF = Brief(
    "You are the heartbeat: read the market and say what to do.",
    "Decide on this tick and answer with a heartbeat_decision.",
)
BUDGET = CallBudget(400, 0.0021, 2, 0.31, "low")


def timed(fn, rounds: int) -> float:
    """Median milliseconds per call of fn(i), after a warm-up."""
    for i in range(min(20, rounds)):
        fn(i)
    samples = []
    for i in range(rounds):
        started = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def moments(base):
    """Sixty different market moments, so no two calls in a row retrieve the same things."""
    return [
        replace(
            base,
            tick=base.tick + i,
            market=market(
                tick=7 + i,
                delta_1=(i % 7 - 3) / 200,
                delta_period=(i % 11 - 6) / 80,
                zscore=(i % 9 - 4) / 1.5,
                return_volatility=0.001 + (i % 5) / 1000,
            ),
        )
        for i in range(60)
    ]


def main(quick: bool) -> None:
    if quick:
        grimoire_size, episode_count, rounds = QUICK_GRIMOIRE, QUICK_EPISODES, QUICK_ROUNDS
    else:
        grimoire_size, episode_count, rounds = GRIMOIRE, EPISODES, ROUNDS
    started = time.perf_counter()
    entries, lives = grimoire(grimoire_size - 1), episodes(episode_count)
    memory = Memory.of(entries, lives, observations(64), NEWS)
    built_s = time.perf_counter() - started
    contexts = moments(rich_context(memory=memory))
    ctx = contexts[0]
    print(
        f"memory: {memory.grimoire_size:,} grimoire entries, {memory.episode_count:,} episodes "
        f"(built in {built_s:.2f} s, indexed as they arrive){' (quick)' if quick else ''}"
    )
    print(f"{'profile':>9} {'median ms':>10} {'cold ms':>8} {'tokens':>7} {'limit':>6}")
    results = {}
    for profile in PipelineProfile:
        prompt = assemble(BRIEF, ctx, profile, budget=BUDGET, settings=CONTEXT)

        def run(i: int, profile: PipelineProfile = profile) -> None:
            assemble(BRIEF, contexts[i % len(contexts)], profile, budget=BUDGET, settings=CONTEXT)

        def cold(i: int, profile: PipelineProfile = profile) -> None:
            estimate_tokens.cache_clear()
            assemble(BRIEF, contexts[i % len(contexts)], profile, budget=BUDGET, settings=CONTEXT)

        results[profile] = timed(run, rounds)
        report = prompt.report
        print(
            f"{profile:>9} {results[profile]:>10.3f} {timed(cold, rounds):>8.3f} "
            f"{report.tokens:>7} {report.limit:>6}"
        )

    # The same retrieval done by scanning: every entry scored, every episode measured.
    log = EpisodeLog(capacity=episode_count)
    for episode in lives:
        log.append(episode)
    words = words_of(BRIEF.task)

    def scan(_: int) -> None:
        active = [e for e in entries if not e.archived]
        sorted(active, key=lambda e: e.confidence * (1 + 0.5 * len(words_of(e.text) & words)))
        log.most_similar(ctx.market, 5, resolved_only=True)

    scanned = timed(scan, rounds=2 if quick else 5)
    standard = results[PipelineProfile.STANDARD]
    verdict = "PASS" if standard < GOAL_STANDARD_MS else "MISS"
    if quick:
        verdict = "not judged in --quick"
    print(f"standard: {standard:.3f} ms (goal < {GOAL_STANDARD_MS} ms): {verdict}")
    print(
        f"retrieval by scanning alone: {scanned:.1f} ms, {scanned / standard:.0f}x the whole "
        f"indexed Standard assembly{' (quick)' if quick else ''}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    main(parser.parse_args().quick)
