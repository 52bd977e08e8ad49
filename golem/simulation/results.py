"""A batch's lives as one table, a row per life, for pandas or polars: `results.parquet`
(pyarrow) and `results.csv` under --out. A row names the life (`life`: its directory under
--out), its scenario, the swept values (a column per `--set` key), policy and seed, then
every scalar figure of its summary.json (a table of figures flattened to `table.key`:
`final.vitality`, `spend_usd_by_subsystem.heartbeat`; the per-generation `lineage` list
is left in summary.json). A life that failed is a row too: `error` holds its exception,
its figures are empty.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["CSV_NAME", "PARQUET_NAME", "figures", "read_rows", "row", "write_rows"]

PARQUET_NAME = "results.parquet"
CSV_NAME = "results.csv"
_LEADING = ("life", "scenario")
_TRAILING = ("policy", "seed", "error")


def figures(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The scalar figures of a summary, tables flattened to dotted keys; lists left out."""
    flat: dict[str, Any] = {}
    for key, value in summary.items():
        if isinstance(value, Mapping):
            flat.update({f"{key}.{k}": v for k, v in figures(value).items()})
        elif not isinstance(value, list | tuple):
            flat[key] = value
    return flat


def row(
    life: str,
    *,
    scenario: str,
    point: Iterable[tuple[str, Any]],
    policy: str,
    seed: int,
    summary: Mapping[str, Any] | None,
    error: str | None = None,
) -> dict[str, Any]:
    """A life's row: who it is, then its summary's figures (none for a failed life)."""
    who = {"life": life, "scenario": scenario, **dict(point), "policy": policy, "seed": seed}
    found = figures(summary or {})
    return {**who, "error": error, **{k: v for k, v in found.items() if k not in who}}


def write_rows(out: Path, rows: Sequence[Mapping[str, Any]], swept: Sequence[str]) -> None:
    """results.parquet and results.csv: the rows in order, the columns `life`,
    `scenario`, the swept keys, `policy`, `seed`, `error`, then the figures by name."""
    import pyarrow as pa  # noqa: PLC0415 (a batch's import, not every command's)
    import pyarrow.parquet as pq  # noqa: PLC0415

    named = (*_LEADING, *swept, *_TRAILING)
    rest = sorted({key for r in rows for key in r} - set(named))
    columns = [*named, *rest]
    arrays = {c: pa.array(_column([r.get(c) for r in rows])) for c in columns}
    arrays["error"] = pa.array([r.get("error") for r in rows], type=pa.string())
    table = pa.table(arrays)
    out.mkdir(parents=True, exist_ok=True)
    partial = out / f"{PARQUET_NAME}.partial"
    pq.write_table(table, partial)
    partial.replace(out / PARQUET_NAME)
    with (out / CSV_NAME).open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=columns)
        writer.writeheader()
        writer.writerows({c: _csv(r.get(c)) for c in columns} for r in rows)


def read_rows(out: Path) -> list[dict[str, Any]]:
    """The rows of `out`'s results.parquet (none when there is none), None for a blank."""
    import pyarrow.parquet as pq  # noqa: PLC0415

    path = out / PARQUET_NAME
    if not path.is_file():
        return []
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return [{k: v for k, v in r.items() if v is not None} for r in rows]


def _column(values: list[Any]) -> list[Any]:
    """One type per column: whole numbers beside fractions become floats; anything else
    mixed (a swept value that is a number here, a word there) becomes text."""
    kinds = {type(v) for v in values if v is not None}
    if kinds <= {int, float} and float in kinds:
        return [None if v is None else float(v) for v in values]
    if len(kinds) > 1:
        return [None if v is None else str(v) for v in values]
    return values


def _csv(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
