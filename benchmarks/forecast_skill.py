"""Forecast skill of simulated lives: each resolved episode's predicted price change against
the actual one over its horizon, scored as 1 − MSE/MSE_naive on returns, where the naive
forecast is no change (a random walk's best guess). Above 0: the forecasts beat the naive
one; 0: no better; below 0: worse.

Reads the state databases and logs a batch kept (`golem simulate SCENARIO --seeds N --logs`)
and prints the skill per policy, over all episodes, split by the tier that decided (t0: the
rules; t1/t2: a model), and the model-made heartbeat episodes split into those whose answer
was informed by the world's truth and the others (`reads_informed`, in
golem.subsystems.heartbeat.informed, tells an informed answer's rationale), with the counts.

    python benchmarks/forecast_skill.py OUT_DIR
"""

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golem.runtime.store import StateStore  # noqa: E402
from golem.subsystems.heartbeat.informed import reads_informed  # noqa: E402


def skill(pairs: Iterable[tuple[float, float]]) -> float | None:
    """1 − Σ(actual − predicted)² / Σ actual² over (predicted, actual) returns."""
    error = naive = 0.0
    for predicted, actual in pairs:
        error += (actual - predicted) ** 2
        naive += actual * actual
    return None if naive == 0 else 1.0 - error / naive


def informed_ticks(log: Path) -> dict[str, bool]:
    """Tick time → whether the tick's last model-made heartbeat answer was informed (by
    time: a successor's ticks count from 0 while the market it shares counts on)."""
    ticks: dict[str, bool] = {}
    with log.open() as lines:
        for line in lines:
            if '"subsystem":"heartbeat"' not in line or '"source":"model"' not in line:
                continue
            record = json.loads(line)
            ticks[record["time"]] = reads_informed(record["decision"].get("rationale", ""))
    return ticks


def main(out: Path) -> None:
    by_group: defaultdict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for database in sorted(out.rglob("state/golem.db")):
        life = database.parent.parent  # a golem's directory: seed-N, or its generation-N
        parts = database.relative_to(out).parts  # POLICY/seed-N/[generation-N/]state/golem.db
        policy = parts[0] if len(parts) > 3 else "life"
        log = life / "golem.log"
        informed = informed_ticks(log) if log.exists() else {}
        with StateStore.open(database.parent) as store:
            for episode in store.episodes():
                if episode.outcome is None:
                    continue
                pair = (episode.decision.predicted_delta, episode.outcome.actual_delta)
                by_group[policy, "all"].append(pair)
                tier = episode.decision.tier
                by_group[policy, tier if tier.startswith("t") else f"t{tier}"].append(pair)
                seen = informed.get(episode.observation.time.isoformat())
                if seen is not None:
                    by_group[policy, "informed" if seen else "blind"].append(pair)
    print(f"{'policy':<10} {'episodes':<9} {'count':>7} {'skill':>8}")
    for (policy, group), pairs in sorted(by_group.items()):
        score = skill(pairs)
        shown = "n/a" if score is None else f"{score:+.4f}"
        print(f"{policy:<10} {group:<9} {len(pairs):>7} {shown:>8}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="a batch's --out directory (run with --logs)")
    main(parser.parse_args().out)
