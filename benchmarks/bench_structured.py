"""µs per answer for parse + validate + typed model of a ~600-byte HeartbeatDecision.

Paths measured: schema-enforced valid (the goal: <= 15 µs), schema-enforced invalid (a
content error), prompt-guided (JSON in prose, through extract_json), and for comparison
jsonschema validation alone with a compiled validator and with jsonschema.validate().
Run: .venv/bin/python benchmarks/bench_structured.py [--quick]
(--quick: a tenth of the calls, best of 2 runs, goal not judged)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import jsonschema
import orjson

from golem.inference import StructuredOutputInvalid, parse_response
from golem.subsystems.heartbeat import HeartbeatDecision

GOAL_US = 15.0


ANSWER = {
    "severity": "high",
    "action": "hedge",
    "confidence": 0.72,
    "rationale": (
        "ETH fell 4.1% in fifteen minutes on 2.7x volume while the lending position's "
        "health factor slipped below 1.5; the regime moved from trending to volatile, so "
        "hedging half the exposure limits liquidation risk without selling into the drop."
    ),
    "signals": [
        {"source": "price", "description": "ETH fell 4.1% in 15 minutes", "magnitude": 0.8},
        {"source": "volume", "description": "2.7x the 20-tick mean", "magnitude": 0.6},
        {"source": "liquidity", "description": "health factor 1.41, under 1.5", "magnitude": 0.5},
    ],
    "escalate": True,
    "expected_move": -0.03,
}
VALID = orjson.dumps(ANSWER).decode()
INVALID = orjson.dumps({**ANSWER, "severity": "low"}).decode()  # a content error
PROSE = f"Here is my assessment of the tick:\n```json\n{VALID}\n```\nI will check again soon."


def enforced_valid() -> None:
    value, _ = parse_response(HeartbeatDecision, VALID, schema_enforced=True)
    if value.validate_content():
        raise AssertionError("valid answer reported invalid")


def enforced_invalid() -> None:
    value, _ = parse_response(HeartbeatDecision, INVALID, schema_enforced=True)
    if not value.validate_content():
        raise AssertionError("invalid answer reported valid")


def schema_invalid() -> None:
    try:
        parse_response(HeartbeatDecision, VALID.replace('"hedge"', '"panic"'), schema_enforced=True)
    except StructuredOutputInvalid:
        return
    raise AssertionError("schema violation not reported")


def prompt_guided() -> None:
    value, _ = parse_response(HeartbeatDecision, PROSE)
    value.validate_content()


SCHEMA = HeartbeatDecision.schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def jsonschema_compiled() -> None:
    VALIDATOR.validate(orjson.loads(VALID))


def jsonschema_uncompiled() -> None:
    jsonschema.validate(orjson.loads(VALID), SCHEMA)


def measure(fn: Callable[[], None], n: int, repeats: int = 5) -> float:
    """Best of `repeats` runs, in µs per call."""
    for _ in range(min(n, 200)):
        fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


def main(quick: bool) -> None:
    scale, repeats = (10, 2) if quick else (1, 5)
    tag = " (quick)" if quick else ""
    print(f"answer size: {len(VALID)} bytes ({len(PROSE)} with prose){tag}")
    rows = [
        ("schema-enforced, valid (parse+validate+typed+content)", enforced_valid, 20_000),
        ("schema-enforced, content error", enforced_invalid, 20_000),
        ("schema-enforced, schema error (bad enum)", schema_invalid, 5_000),
        ("prompt-guided, JSON in a fence with prose", prompt_guided, 5_000),
        ("reference: jsonschema, compiled validator", jsonschema_compiled, 2_000),
        ("reference: jsonschema.validate() per call", jsonschema_uncompiled, 200),
    ]
    results = {}
    for label, fn, n in rows:
        results[label] = us = measure(fn, max(1, n // scale), repeats)
        print(f"{label:<58} {us:9.2f} µs/answer")
    valid = results[rows[0][0]]
    compiled = results[rows[4][0]]
    print(f"valid path vs compiled jsonschema alone: {compiled / valid:.1f}x faster{tag}")
    verdict = "not judged in --quick" if quick else "PASS" if valid <= GOAL_US else "MISS"
    print(f"goal: valid path <= {GOAL_US:.0f} µs -> {valid:.2f} µs {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the calls: a smoke run")
    main(parser.parse_args().quick)
