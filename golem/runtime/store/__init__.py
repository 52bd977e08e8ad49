"""A golem's state on disk: the SQLite store a tick commits to (`state`), its plain rows
(`rows`), the spend ledger over its `charges` table (`ledger`), the schema's migrations
(`migrations`), the requests kept for replay (`requests`), the state as `golem replay`
reads it (`archive`), the decision ids (`ids`) and the state directory as `golem run`
takes it (`directory`); its files are the owner's alone by golem.runtime.private, as the
log's are.
"""

from golem.runtime.store.archive import KeptState
from golem.runtime.store.directory import (
    LOCK_NAME,
    StartFootprint,
    StateLock,
    check_db,
    check_dir,
    check_file,
)
from golem.runtime.store.ids import DecisionId
from golem.runtime.store.ledger import SQLiteLedger
from golem.runtime.store.migrations import SCHEMA_VERSION, SchemaTooNew
from golem.runtime.store.requests import Answer, KeptRequest, RequestArchive
from golem.runtime.store.rows import Resumed, VitalityRow
from golem.runtime.store.state import DB_NAME, StateError, StateStore

__all__ = [
    "DB_NAME",
    "LOCK_NAME",
    "SCHEMA_VERSION",
    "Answer",
    "DecisionId",
    "KeptRequest",
    "KeptState",
    "RequestArchive",
    "Resumed",
    "SQLiteLedger",
    "SchemaTooNew",
    "StartFootprint",
    "StateError",
    "StateLock",
    "StateStore",
    "VitalityRow",
    "check_db",
    "check_dir",
    "check_file",
]
