"""Injection screening measured on public corpora: the share of attacks `screen()`
quarantines (direct and indirect apart) and the share of real financial text it flags,
per source file, and what each rule contributes.

The corpora are the development split, read from ../shared/fixtures/injection/ (its
SOURCES.md says where each file comes from; GOLEM_SHARED or --corpus DIR point elsewhere);
they are not part of this repository, and without them the run says so and exits 0.
Every item is in the development half (even item number) or the held-out half (odd): the
rules were written looking at the development half only, and the held-out column is the
honest figure.

Goal (issue 25): at least 50% of the indirect attacks quarantined, at most 0.1% of the
benign texts flagged. The figures are reported whether or not it is met.
Before this rule set, main's five rules quarantined, on the whole development split,
74 of 432 indirect attacks (17.1%), 364 of 1,439 attacks (25.3%) and flagged 11 of 8,969
benign texts (0.12%).

    python benchmarks/bench_screening.py                # every file found
    python benchmarks/bench_screening.py --show dev     # also list the development half's
                                                        # misses and false alarms
    python benchmarks/bench_screening.py --quick        # 200 items a file: a smoke run,
                                                        # goal not judged
"""

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golem.subsystems.context import screen  # noqa: E402
from golem.subsystems.context.screening_rules import RULES  # noqa: E402
from tests.fixtures import INJECTION  # noqa: E402

GOAL_INDIRECT, GOAL_BENIGN = 0.50, 0.001
QUICK_ITEMS = 200
HALVES = ("whole", "dev", "held-out")


@dataclass(frozen=True, slots=True)
class Item:
    file: str
    style: str  # direct | indirect | benign
    half: str  # dev | held-out
    text: str
    reasons: tuple[str, ...]


def corpus_files(where: Path) -> dict[str, Path]:
    """File name -> path of the corpus's files (attacks `atk_*`, benign texts `ben_*`)."""
    found = sorted(p for prefix in ("atk_", "ben_") for p in where.glob(f"{prefix}*.jsonl"))
    return {p.name: p for p in found}


def load(path: Path, limit: int | None) -> list[Item]:
    items = []
    for line in path.read_text(encoding="utf-8").splitlines()[:limit]:
        row = json.loads(line)
        number = int(row["id"].rsplit(":", 1)[1])
        style = row["style"] if row["label"] == "attack" else "benign"
        half = "dev" if number % 2 == 0 else "held-out"
        items.append(Item(path.stem, style, half, row["text"], ()))
    return items


def in_half(items: list[Item], half: str) -> list[Item]:
    return items if half == "whole" else [i for i in items if i.half == half]


def rate(items: list[Item]) -> str:
    hit = sum(1 for i in items if i.reasons)
    share = 100 * hit / len(items) if items else 0.0
    return f"{hit:>4}/{len(items):<5}{share:6.2f}%"


def per_source(items: list[Item]) -> None:
    print(f"\n{'source file':30} {'style':9}" + "".join(f"{h:>18}" for h in HALVES))
    for file in sorted({i.file for i in items}, key=lambda f: (not f.startswith("atk"), f)):
        of_file = [i for i in items if i.file == file]
        for style in sorted({i.style for i in of_file}):
            group = [i for i in of_file if i.style == style]
            print(
                f"{file:30} {style:9}" + "".join(f"{rate(in_half(group, h)):>18}" for h in HALVES)
            )


def totals(items: list[Item]) -> tuple[float, float]:
    print(f"\n{'totals':40}" + "".join(f"{h:>18}" for h in HALVES))
    groups = {
        "attacks quarantined": [i for i in items if i.style != "benign"],
        "  indirect attacks quarantined": [i for i in items if i.style == "indirect"],
        "  direct attacks quarantined": [i for i in items if i.style == "direct"],
        "benign texts flagged": [i for i in items if i.style == "benign"],
    }
    for name, group in groups.items():
        print(f"{name:40}" + "".join(f"{rate(in_half(group, h)):>18}" for h in HALVES))
    indirect, benign = groups["  indirect attacks quarantined"], groups["benign texts flagged"]
    return (
        sum(1 for i in indirect if i.reasons) / max(1, len(indirect)),
        sum(1 for i in benign if i.reasons) / max(1, len(benign)),
    )


def rule_contribution(items: list[Item]) -> None:
    """Hits per rule; 'alone' counts the attacks no other rule caught."""
    hits: Counter[tuple[str, str]] = Counter()
    alone: Counter[str] = Counter()
    for item in items:
        for name in item.reasons:
            hits[name, item.style] += 1
        if len(item.reasons) == 1 and item.style != "benign":
            alone[item.reasons[0]] += 1
    counts = Counter(i.style for i in items)
    heads = [f"indirect/{counts['indirect']}", f"direct/{counts['direct']}"]
    heads += [f"benign/{counts['benign']}", "alone"]
    print(f"\n{'rule (whole split)':16}" + "".join(f"{h:>15}" for h in heads))
    for rule in RULES:
        row = [hits[rule.name, s] for s in ("indirect", "direct", "benign")] + [alone[rule.name]]
        print(f"{rule.name:16}" + "".join(f"{n:>15}" for n in row) + f"   {rule.targets}")


def every_rule(text: str) -> tuple[str, ...]:
    """What screen() would say if it ran every rule, cues or not."""
    return tuple(rule.name for rule in RULES if rule.compiled().search(text))


def show(items: list[Item], half: str) -> None:
    for item in in_half(items, half):
        missed = item.style != "benign" and not item.reasons
        if missed or (item.style == "benign" and item.reasons):
            what = "MISSED" if missed else "FLAGGED " + ",".join(item.reasons)
            print(f"{item.file} {what}: {item.text[:160]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 items a file, goal not judged")
    parser.add_argument("--corpus", type=Path, default=INJECTION.path, help="the split's dir")
    parser.add_argument("--show", choices=HALVES, help="list misses and false alarms")
    args = parser.parse_args()

    if not args.corpus.is_dir():
        reason = INJECTION.reason if args.corpus == INJECTION.path else f"{args.corpus} is absent"
        print(f"skipped: {reason}")
        return
    files = corpus_files(args.corpus)
    items: list[Item] = []
    for path in files.values():
        items += load(path, QUICK_ITEMS if args.quick else None)
    started = time.perf_counter()
    items = [Item(i.file, i.style, i.half, i.text, screen("bench", i.text).reasons) for i in items]
    elapsed = time.perf_counter() - started

    print(f"measured {', '.join(files)} from {args.corpus}")
    if args.show:
        show(items, args.show)
    per_source(items)
    indirect, benign = totals(items)
    rule_contribution(items)
    uncued = sum(1 for i in items if i.reasons != every_rule(i.text))
    print(f"\nitems whose reasons differ with every rule run (cues unsound if not 0): {uncued}")
    chars = sum(len(i.text) for i in items)
    print(
        f"screen(): {1e6 * elapsed / len(items):.1f} us an item on average "
        f"({len(items)} items, {chars / len(items):.0f} characters on average)"
    )
    if args.quick:
        print("quick run: goal not judged")
        return
    print(
        f"goal: indirect quarantined >= {GOAL_INDIRECT:.0%}: {indirect:.1%} "
        f"({'met' if indirect >= GOAL_INDIRECT else 'NOT met'}); benign flagged <= "
        f"{GOAL_BENIGN:.1%}: {benign:.2%} ({'met' if benign <= GOAL_BENIGN else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
