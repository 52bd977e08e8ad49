"""The daemon's state in SQLite (WAL) under state_dir/golem.db: wallet, ledger, vitality,
episodes, grimoire, mood, portfolio, the market window's observations, job fire times,
golem meta and the requests of model decisions (`requests`, for `golem replay`).
`transaction()` makes a tick's writes one commit, so a killed daemon resumes where it was;
what must wait for that commit waits (`at_commit`), and the charges a rollback undid come
back voided (bills.py): the provider billed those calls all the same.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import orjson
import structlog
from msgspec.structs import astuple

from golem.runtime.private import private_dir, private_file
from golem.runtime.store.approvals import ApprovalBook
from golem.runtime.store.control import ControlLog
from golem.runtime.store.history import Past, read_past
from golem.runtime.store.migrations import SchemaTooNew, migrate
from golem.runtime.store.observations import ObservationLog
from golem.runtime.store.predictions import PredictionTable
from golem.runtime.store.requests import RequestArchive
from golem.runtime.store.rows import Resumed, VitalityRow, vitality_values
from golem.runtime.store.transactional import Transactional
from golem.subsystems.contract import GrimoireEntry, Mood
from golem.world import Episode

__all__ = ["DB_NAME", "Resumed", "StateError", "StateStore", "VitalityRow"]

DB_NAME = "golem.db"

log = structlog.get_logger("golem")


class StateError(RuntimeError):
    """The state directory cannot be used as asked (another golem's state, say)."""


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is not UTC:
        if moment.tzinfo is None:
            raise ValueError("stored times must be timezone-aware")
        moment = moment.astimezone(UTC)
    return moment


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _episode_row(episode: Episode) -> tuple[int, int, str]:
    return (episode.id, episode.observation.tick, _json(episode.to_dict()))


_GRIMOIRE = "id, text, confidence, tier, provenance, regime, low_cycles, archived"
_SET_META = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"
_RECORD_VITALITY = "INSERT OR REPLACE INTO vitality VALUES (?, ?, ?, ?, ?, ?)"
_SAVE_EPISODE = "INSERT OR REPLACE INTO episodes (id, tick, data) VALUES (?, ?, ?)"


class StateStore(Transactional):
    """One golem's state. Calls are synchronous sqlite3 calls of well under a millisecond
    (FULL sync adds one fsync per commit); the daemon makes them between awaits, from the
    trio thread that opened the store, one task writing at a time.

    `synchronous` is FULL by default: WAL with NORMAL already survives SIGKILL (a commit
    is in the OS's page cache), but FULL also keeps the last commits through a power cut,
    and at one commit per tick its fsync costs nothing that matters. The simulator, whose
    state nobody resumes after a crash, may pass OFF and `commit_every=N`: then the outermost
    `transaction()` is a savepoint inside a batch that commits every N of them (and on
    `flush()` / `close()`), so a failed tick still undoes only its own writes.

    In a batch, writes that return nothing are held back (`_Pending`) and sent as one
    `executemany` per statement at the commit; a savepoint is opened in SQLite only when
    a read (or a write that needs its result) must see the held writes first. Rolling
    back a transaction drops its held writes and, if it reached SQLite, its savepoint."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, *, commit_every: int = 1, durable: bool = True
    ) -> None:
        super().__init__(conn, path, commit_every=commit_every, durable=durable)
        self.path = path
        self.requests = RequestArchive(
            self._read, lambda sql, params: self._write("requests", sql, params), self._iso
        )
        self.control = ControlLog(
            self._read, lambda sql, params: self._write("control", sql, params), self._iso
        )
        self.approvals = ApprovalBook(
            self._read, lambda sql, params: self._write("approvals", sql, params), self._iso
        )
        self.observed = ObservationLog(
            self._read, lambda sql, params: self._write("observations", sql, params)
        )
        self.predictions = PredictionTable(self._read, self._write, self._iso, self._write_many)
        self._wallet: tuple[float | None, float] | None = None  # (initial, income), kept
        self._credits: tuple[int, float] | None = None  # (ledger version, credits), kept
        self._stamp: tuple[datetime | None, str] = (None, "")  # the last time stored, as text

    def _forget(self) -> None:
        """A rollback undid writes: drop every sum kept from them."""
        self._wallet = self._credits = None
        super()._forget()

    def _iso(self, moment: datetime) -> str:
        """A stored time's text: ISO in UTC. A tick stores its time twice (vitality, fire
        time): the last one's text is kept."""
        moment = _utc(moment)
        last, text = self._stamp
        if moment != last:
            text = moment.isoformat()
            self._stamp = (moment, text)
        return text

    @classmethod
    def open(
        cls,
        state_dir: Path | str,
        *,
        synchronous: Literal["FULL", "NORMAL", "OFF"] = "FULL",
        commit_every: int = 1,
    ) -> StateStore:
        """Open (creating the directory and database if needed, private to the owner) and
        migrate the schema."""
        path = Path(state_dir) / DB_NAME
        private_dir(path.parent)
        # SQLite makes the WAL and shared-memory files with the database's own mode.
        for file in (path, *(path.with_name(f"{DB_NAME}-{end}") for end in ("wal", "shm"))):
            if file is path or file.exists():
                private_file(file)
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise StateError(f"{path}: SQLite refused WAL mode (got {mode})")
            conn.execute(f"PRAGMA synchronous = {synchronous}")
            migrate(conn)
        except sqlite3.DatabaseError as exc:
            conn.close()
            # Named, never repaired or replaced: the file may hold what cannot be redone.
            raise StateError(f"state database {path}: {exc} (left as it is)") from exc
        except SchemaTooNew as exc:
            conn.close()
            raise StateError(f"{path}: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        return cls(conn, path, commit_every=commit_every, durable=synchronous != "OFF")

    def close(self) -> None:
        self.flush()
        self._conn.close()

    def __enter__(self) -> StateStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def integrity_check(self) -> str:
        return str(self._read("PRAGMA integrity_check").fetchone()[0])

    # --- meta: identity, tick counter, death record -------------------------------------

    def get_meta(self, key: str) -> Any:
        row = self._read("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return orjson.loads(row[0])
        except orjson.JSONDecodeError:
            raise StateError(
                f"{self.path}: meta value {key!r} is not JSON ({str(row[0])[:40]!r}): "
                "the state is damaged"
            ) from None

    def set_meta(self, key: str, value: Any) -> None:
        self._write("meta", _SET_META, (key, _json(value)), replaces=key)

    def set_metas(self, values: Mapping[str, Any]) -> None:
        """Several meta keys in one statement."""
        for key, value in values.items():
            self._write("meta", _SET_META, (key, _json(value)), replaces=key)

    def identify(self, golem_id: str, seed: int) -> None:
        """Mark the state as this golem's; refuse another golem's state."""
        stored = (self.get_meta("golem_id"), self.get_meta("seed"))
        if stored == (None, None):
            with self.transaction():
                self.set_meta("golem_id", golem_id)
                self.set_meta("seed", seed)
        elif stored != (golem_id, seed):
            raise StateError(
                f"{self.path} holds golem {stored[0]!r} (seed {stored[1]}), "
                f"not {golem_id!r} (seed {seed})"
            )

    def tick(self) -> int:
        """The next tick to run: how many ticks have committed."""
        return int(self.get_meta("tick") or 0)

    def set_tick(self, tick: int) -> None:
        self.set_meta("tick", tick)

    def record_death(self, record: Mapping[str, Any]) -> None:
        self.set_meta("death", dict(record))

    def death(self) -> dict[str, Any] | None:
        record = self.get_meta("death")
        return None if record is None else dict(record)

    # --- wallet: credits are derived from it and the ledger, never stored ---------------

    def fund(self, initial_usd: float, time: datetime) -> float:
        """Set the initial credits once; later calls change nothing and return the stored
        amount (a config edit does not refill a living golem)."""
        self._read(
            "INSERT OR IGNORE INTO wallet (key, kind, usd, time) "
            "VALUES ('initial', 'initial', ?, ?)",
            (initial_usd, self._iso(time)),
        )
        self._wallet = self._credits = None
        stored = self.initial_credits()
        return initial_usd if stored is None else stored

    def add_income(self, key: str, usd: float, time: datetime) -> bool:
        """Credit income once per key; False when the key was already credited."""
        cursor = self._read(
            "INSERT OR IGNORE INTO wallet (key, kind, usd, time) VALUES (?, 'income', ?, ?)",
            (key, usd, self._iso(time)),
        )
        self._wallet = self._credits = None
        return bool(cursor.rowcount)

    def initial_credits(self) -> float | None:
        return self._read_wallet()[0]

    def income(self) -> float:
        return self._read_wallet()[1]

    def credits(self) -> float:
        """Initial credits + income − every charge, summed exactly (kept until either
        changes: read several times a tick)."""
        kept, version = self._credits, self.ledger.version
        if kept is not None and kept[0] == version:
            return kept[1]
        initial, income = self._read_wallet()
        credits = (initial or 0.0) + income - self.ledger.total_usd()
        self._credits = (version, credits)
        return credits

    def _read_wallet(self) -> tuple[float | None, float]:
        if self._wallet is None:
            row = self._read("SELECT usd FROM wallet WHERE kind = 'initial'").fetchone()
            rows = self._read("SELECT usd FROM wallet WHERE kind = 'income'")
            income = math.fsum(usd for (usd,) in rows)
            self._wallet = (None if row is None else float(row[0]), income)
        return self._wallet

    # --- histories ----------------------------------------------------------------------

    def record_vitality(self, row: VitalityRow) -> None:
        """The tick's vitality (a second row for the same tick replaces the first)."""
        self._write(
            "vitality",
            _RECORD_VITALITY,
            (row.tick, self._iso(row.time), row.vitality, row.phase, row.economic, row.epistemic),
        )

    def record_vitalities(self, rows: Sequence[VitalityRow]) -> None:
        """Several ticks' vitality (a quiet stretch's) in one statement."""
        self._write_many("vitality", _RECORD_VITALITY, vitality_values(rows))

    def vitality_history(self, since_tick: int = 0) -> list[VitalityRow]:
        rows = self._read("SELECT * FROM vitality WHERE tick >= ? ORDER BY tick", (since_tick,))
        return [VitalityRow.from_row(row) for row in rows]

    def past(self, at_most: int) -> Past:
        """What the dashboard draws of the life so far (store/history.py)."""
        return read_past(self._read, at_most)

    def last_vitality(self) -> VitalityRow | None:
        row = self._read("SELECT * FROM vitality ORDER BY tick DESC LIMIT 1").fetchone()
        return None if row is None else VitalityRow.from_row(row)

    def phase_since(self, phase: str) -> datetime | None:
        """When the golem entered `phase` and has stayed in it since: the time of the first
        row of the trailing run of vitality rows in it (None when the last row is in
        another phase, or there is none). One backward scan, read at resume only."""
        row = self._read(
            "SELECT time FROM vitality WHERE tick > "
            "COALESCE((SELECT MAX(tick) FROM vitality WHERE phase != ?), -1) "
            "ORDER BY tick LIMIT 1",
            (phase,),
        ).fetchone()
        return None if row is None else datetime.fromisoformat(row[0])

    def record_mood(self, tick: int, time: datetime, mood: Mood) -> None:
        self._write(
            "mood",
            "INSERT OR REPLACE INTO mood VALUES (?, ?, ?, ?, ?)",
            (tick, self._iso(time), mood.pleasure, mood.arousal, mood.dominance),
        )

    def mood(self) -> Mood | None:
        row = self._read(
            "SELECT pleasure, arousal, dominance FROM mood ORDER BY tick DESC LIMIT 1"
        ).fetchone()
        return None if row is None else Mood(*row)

    def save_episode(self, episode: Episode) -> None:
        """Store an episode, or replace it once its outcome is known."""
        self._write("episodes", _SAVE_EPISODE, _episode_row(episode))

    def save_episodes(self, episodes: Sequence[Episode]) -> None:
        """`save_episode` for each in turn (a quiet stretch's), in one statement."""
        self._write_many("episodes", _SAVE_EPISODE, [_episode_row(e) for e in episodes])

    def episodes(self, limit: int | None = None) -> list[Episode]:
        """The last `limit` episodes (all when None), oldest first."""
        rows = self._read(
            "SELECT data FROM episodes ORDER BY id DESC LIMIT ?", (-1 if limit is None else limit,)
        ).fetchall()
        return [Episode.from_dict(orjson.loads(data)) for (data,) in reversed(rows)]

    def save_grimoire_entry(self, entry: GrimoireEntry) -> None:
        self._write(
            "grimoire",
            f"INSERT OR REPLACE INTO grimoire ({_GRIMOIRE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            astuple(entry),  # the columns are the fields, in order
        )

    def remove_grimoire_entry(self, entry_id: str) -> None:
        self._write("grimoire", "DELETE FROM grimoire WHERE id = ?", (entry_id,))

    def grimoire(self, *, include_archived: bool = True) -> list[GrimoireEntry]:
        where = "" if include_archived else " WHERE archived = 0"
        rows = self._read(f"SELECT {_GRIMOIRE} FROM grimoire{where} ORDER BY rowid")
        return [
            GrimoireEntry(i, text, conf, tier, prov, regime, low, bool(archived))
            for i, text, conf, tier, prov, regime, low, archived in rows
        ]

    def save_portfolio(self, tick: int, snapshot: Mapping[str, Any]) -> None:
        """The paper portfolio as of `tick` (`PaperPortfolio.to_dict()`): one row, replaced."""
        self._write(
            "portfolio",
            "INSERT OR REPLACE INTO portfolio (id, tick, data) VALUES (1, ?, ?)",
            (tick, _json(dict(snapshot))),
        )

    def portfolio(self) -> dict[str, Any] | None:
        row = self._read("SELECT data FROM portfolio WHERE id = 1").fetchone()
        return None if row is None else dict(orjson.loads(row[0]))

    # --- job fire times: the scheduler's FireTimes --------------------------------------

    def last_fire(self, job: str) -> datetime | None:
        row = self._read("SELECT last_fire FROM job_fires WHERE job = ?", (job,)).fetchone()
        return None if row is None else datetime.fromisoformat(row[0])

    def record_fire(self, job: str, at: datetime) -> None:
        self._write(
            "job_fires",
            "INSERT OR REPLACE INTO job_fires (job, last_fire) VALUES (?, ?)",
            (job, self._iso(at)),
            replaces=job,
        )

    def fire_times(self) -> dict[str, datetime]:
        rows = self._read("SELECT job, last_fire FROM job_fires ORDER BY job")
        return {job: datetime.fromisoformat(at) for job, at in rows}

    def resume(self, *, episodes: int = 1000) -> Resumed:
        """Everything a restarted daemon picks up, read in one transaction."""
        with self.transaction():
            return Resumed(
                tick=self.tick(),
                initial_credits=self.initial_credits(),
                credits=self.credits(),
                vitality=self.last_vitality(),
                mood=self.mood(),
                grimoire=tuple(self.grimoire()),
                portfolio=self.portfolio(),
                episodes=tuple(self.episodes(episodes)),
                fire_times=self.fire_times(),
                death=self.death(),
            )
