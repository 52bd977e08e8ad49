"""The prediction ledger (Bardo 17-prediction-engine.md) in the state database: the
`predictions` table (one row per prediction, never changed after it is written) and the
`checkpoints` table (one row per resolved checkpoint, appended). Both are written through
the store's held writes, so they commit with the tick that made them; a restart reads them
back (`load`) and the Oracle is rebuilt from them.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

import orjson

from golem.oracle import (
    EQUITY,
    Above,
    Band,
    Below,
    Boolean,
    Category,
    Claim,
    Direction,
    InRange,
    Move,
    Prediction,
    Resolution,
    Source,
    WithinBps,
)
from golem.runtime.store.rows import iso_texts

__all__ = ["LedgerError", "PredictionTable"]

Read = Callable[[str, tuple[Any, ...]], sqlite3.Cursor]
Write = Callable[[str, str, tuple[Any, ...]], None]  # (table, sql, params)
WriteMany = Callable[[str, str, list[tuple[Any, ...]]], None]  # (table, sql, rows)

_CLAIMS: dict[str, type[Claim]] = {
    cls.__name__: cls for cls in (WithinBps, InRange, Above, Below, Boolean, Move, Band)
}


_INSERT_PREDICTION = (
    "INSERT INTO predictions (id, created_at, category, source, regime, confidence,"
    " confidence_raw, action_ref, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_RESOLUTION = (
    "INSERT INTO checkpoints (prediction_id, checkpoint, resolved_at, status, actual,"
    " residual, correct, forecast, observed) VALUES (?, ?, ?, 'resolved', ?, ?, ?, ?, ?)"
)
# Inaction's claim's data, around its level: `append_prediction`'s bytes (orjson writes a
# float's text the same alone, in a list or in an object).
_HOLD_HEAD = b'{"claim":{"type":"Above","level":'
_HOLD_ITEM = b'},"item":' + orjson.dumps(EQUITY) + b',"checkpoints":'
_HOLD_TAIL = b',"source_detail":"","correction":0.0}'


class LedgerError(ValueError):
    """A stored prediction that cannot be read back (written by another version)."""


# Each claim type's name and fields, read once (dataclasses.asdict copies deeply, slowly).
_FIELDS: dict[type[Claim], tuple[str, tuple[str, ...]]] = {
    cls: (name, tuple(f.name for f in dataclasses.fields(cls))) for name, cls in _CLAIMS.items()
}


def _claim_data(claim: Claim) -> dict[str, Any]:
    name, fields = _FIELDS[type(claim)]
    data: dict[str, Any] = {"type": name}
    for field in fields:
        data[field] = getattr(claim, field)
    return data


def _claim(data: dict[str, Any]) -> Claim:
    kind = data.pop("type", None)
    cls = _CLAIMS.get(str(kind))
    if cls is None:
        raise LedgerError(f"predictions: unknown claim type {kind!r}")
    if cls is Band:
        return Band(tuple(data["edges"]), tuple(data["names"]), data["band"])
    if cls is Move:
        return Move(Direction(data["direction"]), data["baseline"], data["flat_bps"])
    return cls(**data)


class PredictionTable:
    """`PredictionLedger` over the state database (`write` holds a write for the commit,
    named by its table: a batch sends each table's rows as one `executemany`, so a tick's
    prediction and resolution rows, named apart, go as two statements a batch, not two a
    tick)."""

    def __init__(
        self,
        read: Read,
        write: Write,
        iso: Callable[[datetime], str],
        write_many: WriteMany | None = None,
    ) -> None:
        self._read, self._write, self._iso = read, write, iso
        self._write_many = write_many or self._each

    def _each(self, table: str, sql: str, rows: list[tuple[Any, ...]]) -> None:
        for row in rows:
            self._write(table, sql, row)

    def append_prediction(self, prediction: Prediction) -> None:
        data = {
            "claim": _claim_data(prediction.claim),
            "item": prediction.item,
            "checkpoints": [c.total_seconds() for c in prediction.checkpoints],
            "source_detail": prediction.source_detail,
            "correction": prediction.correction,
        }
        self._write(
            "predictions",
            _INSERT_PREDICTION,
            (
                prediction.id,
                self._iso(prediction.created_at),
                str(prediction.category),
                str(prediction.source),
                prediction.regime,
                prediction.confidence,
                prediction.confidence_raw,
                prediction.action_ref,
                orjson.dumps(data),
            ),
        )

    def append_holds(
        self,
        first_id: int,
        *,
        created: Sequence[str],
        regimes: Sequence[str],
        confidences: Sequence[float],
        raw: float,
        levels: Sequence[float],
        checkpoints: tuple[timedelta, ...],
    ) -> None:
        """Inaction's claims (`holding_is_optimal`'s, made on a quiet stretch's ticks:
        runtime/quiet_oracle.py), ids from `first_id` on, one per creation time (its
        `texts`) with its regime, calibrated confidence and level (`raw` the stated
        confidence): the rows `append_prediction` writes for them, in one write, without
        building each."""
        if not created:
            return
        tail = _HOLD_ITEM + orjson.dumps([c.total_seconds() for c in checkpoints]) + _HOLD_TAIL
        written = orjson.dumps(list(levels))[1:-1].split(b",")  # each level's text
        rows = [
            (pid, at, "inaction", "analytical", regime, confidence, raw, None, data)
            for pid, at, regime, confidence, data in zip(
                range(first_id, first_id + len(created)),
                created,
                regimes,
                confidences,
                [_HOLD_HEAD + level + tail for level in written],
                strict=True,
            )
        ]
        self._write_many("predictions", _INSERT_PREDICTION, rows)

    def append_resolution(self, resolution: Resolution) -> None:
        r = resolution
        self._write(
            "checkpoints",
            _INSERT_RESOLUTION,
            (
                r.prediction_id,
                r.checkpoint,
                self._iso(r.resolved_at),
                r.actual,
                r.residual,
                int(r.correct),
                r.forecast,
                r.observed,
            ),
        )

    def append_resolutions(self, resolutions: Sequence[Resolution], at: Sequence[str]) -> None:
        """`append_resolution` of each (in the order they were made; `at`: the `texts` of
        their times) in one write."""
        if not resolutions:
            return
        rows: list[tuple[Any, ...]] = [
            (
                *(r.prediction_id, r.checkpoint, when, r.actual, r.residual, int(r.correct)),
                *(r.forecast, r.observed),
            )
            for r, when in zip(resolutions, at, strict=True)
        ]
        self._write_many("checkpoints", _INSERT_RESOLUTION, rows)

    @staticmethod
    def texts(times: Sequence[datetime]) -> list[str]:
        """The stored text of each time (as every row's time is stored), in bulk."""
        return iso_texts(times)

    def load(self) -> tuple[list[Prediction], list[Resolution]]:
        """Every prediction (id order) and every resolution (in the order they were made)."""
        predictions: dict[int, Prediction] = {}
        for row in self._read(
            "SELECT id, created_at, category, source, regime, confidence, confidence_raw,"
            " action_ref, data FROM predictions ORDER BY id",
            (),
        ):
            pid, created, category, source, regime, confidence, raw, ref, blob = row
            data = orjson.loads(blob)
            try:
                predictions[pid] = Prediction(
                    id=pid,
                    created_at=datetime.fromisoformat(created),
                    category=Category(category),
                    source=Source(source),
                    claim=_claim(dict(data["claim"])),
                    item=data["item"],
                    checkpoints=tuple(timedelta(seconds=s) for s in data["checkpoints"]),
                    regime=regime,
                    confidence=confidence,
                    confidence_raw=raw,
                    source_detail=data.get("source_detail", ""),
                    action_ref=ref,
                    correction=data.get("correction", 0.0),
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise LedgerError(f"predictions row {pid}: {exc}") from exc
        resolutions: list[Resolution] = []
        for row in self._read(
            "SELECT prediction_id, checkpoint, resolved_at, actual, residual, correct, forecast,"
            " observed FROM checkpoints WHERE status = 'resolved' ORDER BY rowid",
            (),
        ):
            pid, index, at, actual, residual, correct, forecast, observed = row
            prediction = predictions.get(pid)
            if prediction is None:
                raise LedgerError(f"checkpoints: a resolution of unknown prediction {pid}")
            resolutions.append(
                Resolution(
                    prediction_id=pid,
                    checkpoint=index,
                    resolved_at=datetime.fromisoformat(at),
                    category=prediction.category,
                    regime=prediction.regime,
                    actual=actual,
                    residual=residual,
                    correct=bool(correct),
                    forecast=forecast,
                    observed=observed,
                    confidence=prediction.confidence,
                )
            )
        return list(predictions.values()), resolutions
