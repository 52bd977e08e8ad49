"""Recovery rate of tolerant JSON extraction on 24 malformed model answers.

An answer counts as recovered when the typed model validates to the intended values.
Compared in the same run: golem's extract_json, json-repair alone, and the seed design
(text[find('{') : rfind('}') + 1] then json.loads).
Run: .venv/bin/python benchmarks/bench_extract.py [--quick]
(--quick: the same table, timed over 2 passes instead of 20)
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import json_repair
from pydantic import BaseModel, ConfigDict, ValidationError

from golem.inference import UnparseableOutput, extract_json


class Verdict(BaseModel):
    model_config = ConfigDict(extra="ignore")

    severity: str
    action: str
    confidence: float


INTENDED = Verdict(severity="high", action="hedge", confidence=0.72)
J = '{"severity": "high", "action": "hedge", "confidence": 0.72}'
DECOY = '{"severity": "low", "action": "observe", "confidence": 0.1}'

CASES: list[tuple[str, str]] = [
    ("clean", J),
    ("json fence", f"```json\n{J}\n```"),
    ("bare fence", f"```\n{J}\n```"),
    ("prose before", f"Here is my answer: {J}"),
    ("prose after with braces", f"{J}\nNote: I used {{price}} and {{volume}} as inputs."),
    ("prose both sides", f"After review {{of the chart}}: {J} -- end {{done}}"),
    ("decoy in <think>", f"<think>maybe {DECOY}? no.</think>\n{J}"),
    ("think without opening tag", f"hmm {DECOY} no</think>{J}"),
    ("several fences, json second", f"```python\nx = {{'a': 1}}\n```\n```json\n{J}\n```"),
    ("trailing comma", J[:-1] + ",}"),
    ("comments", J.replace('"action"', '/* act */ "action"')),
    ("single quotes", J.replace('"', "'")),
    ("smart quotes", J.replace('"', "\u201c", 1).replace('"', "\u201d", 1)),
    ("unquoted keys", '{severity: "high", action: "hedge", confidence: 0.72}'),
    ("python literals", J[:-1] + ', "escalate": True, "note": None}'),
    ("raw newline in string", J[:-1] + ', "why": "line one\nline two"}'),
    ("escaped quotes and braces", J[:-1] + ', "why": "a \\"}\\" here"}'),
    ("one-element array", f"[{J}]"),
    ("json inside a json string", json.dumps(J)),
    ("bom", "\ufeff" + J),
    ("string as number", J.replace("0.72", '"0.72"')),
    ("truncated mid-string", J[:-1] + ', "why": "the price fell be'),
    ("trailing explanation ending in a brace", f"{J}\nThat is all (see {{appendix}})"),
    ("prose with an earlier unrelated object", f'Input was {{"price": 3000}}. Answer: {J}'),
]
KEYS = tuple(Verdict.model_fields)


def golem_extract(text: str) -> Any:
    return extract_json(text, keys=KEYS).value


def json_repair_alone(text: str) -> Any:
    return json_repair.loads(text)


def seed_design(text: str) -> Any:
    return json.loads(text[text.find("{") : text.rfind("}") + 1])


def recovered(extract: Callable[[str], Any], text: str) -> bool:
    try:
        value = extract(text)
        return Verdict.model_validate(value) == INTENDED
    except (UnparseableOutput, ValidationError, ValueError, TypeError):
        return False


def main(quick: bool) -> None:
    passes = 2 if quick else 20
    contenders = {
        "golem extract_json": golem_extract,
        "json-repair alone": json_repair_alone,
        "seed find/rfind + json.loads": seed_design,
    }
    totals = {}
    print(f"{'case':<42}" + "".join(f"{name[:20]:>22}" for name in contenders))
    for label, text in CASES:
        marks = ["ok" if recovered(fn, text) else "--" for fn in contenders.values()]
        print(f"{label:<42}" + "".join(f"{m:>22}" for m in marks))
    for name, fn in contenders.items():
        totals[name] = sum(recovered(fn, text) for _, text in CASES)
    print("\ntimed over 2 passes, not 20 (quick)" if quick else "")
    for name, count in totals.items():
        start = time.perf_counter()
        for _ in range(passes):
            for _, text in CASES:
                recovered(contenders[name], text)
        us = (time.perf_counter() - start) / (passes * len(CASES)) * 1e6
        print(f"{name:<32} recovered {count:>2}/{len(CASES)}   {us:7.1f} µs/answer")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="time 2 passes, not 20")
    main(parser.parse_args().quick)
