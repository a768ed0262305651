"""The shared base of wikigen's SQLite caches under ``.git/wikigen/``: rows derived from the shards of
one stored tree (:mod:`~wikigen.store.lookup_cache`, :mod:`~wikigen.store.manifest_cache`,
:mod:`~wikigen.store.community_cache`).

A cache is never committed: everything in it is derived from one tree, whose id it records. It
follows the snapshot in O(change): brought to another tree by diffing the two trees, it reads only
the shards that differ and replaces only their records' rows. A clone without it (or with an
unreadable one) builds it once from the shards, one shard at a time. It never answers for a tree it
was not brought to.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from wikigen.model.errors import SnapshotError, environmental
from wikigen.model.shards import decode_shard
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store.git import GitStore

ID_CHUNK = 500  # ids asked in one query (SQLite bounds its parameters)


class TreeCache:
    """Rows derived from the shards of one stored tree, in SQLite, brought from the tree they were
    made for to another by diffing the two (a subclass says which tables and rows)."""

    SCHEMA = ""
    FILE = ""
    TABLES = ""
    PER_RECORD: tuple[str, ...] = ()  # the tables whose rows belong to one record (an ``id`` column)

    def __init__(self, store: GitStore, index_tree: str, path: Path | None = None) -> None:
        self.store = store
        self.tree = index_tree
        self.path: Path | None = path if path is not None else store.cache_path(self.FILE)
        self.rebuilt = False  # built from every shard (no earlier tree to diff from)
        self.shards_read = 0
        try:
            self.db = self._open(self.path)
            self._bring_to(index_tree)
        except (OSError, sqlite3.OperationalError):
            # The cache cannot be written here (a read-only clone, a full disk, a lock held too long):
            # this run builds it in memory, and whatever it writes next reports the machine's fault.
            self._in_memory(index_tree)
        except sqlite3.DatabaseError:
            # A damaged cache is rebuilt from git, never trusted.
            if hasattr(self, "db"):
                self.db.close()
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            try:
                self.db = self._open(self.path)
                self._bring_to(index_tree)
            except (OSError, sqlite3.Error):
                self._in_memory(index_tree)

    def _in_memory(self, tree: str) -> None:
        self.path = None
        try:
            self.db = self._open(None)
            self._bring_to(tree)
        except sqlite3.Error as exc:
            raise _translated(exc, "building the lookup cache in memory") from None

    def _open(self, path: Path | None) -> sqlite3.Connection:
        if path is None:
            db = sqlite3.connect(":memory:", isolation_level=None)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, timeout=60, isolation_level=None)
        try:
            if path is not None:
                db.execute("PRAGMA journal_mode = WAL")
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            held = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() if "meta" in tables else None
            if held is not None and held[0] != self.SCHEMA:
                # A cache of another layout is rebuilt, never migrated.
                for table in tables:
                    db.execute(f"DROP TABLE IF EXISTS {table}")
            db.executescript(self.TABLES)
        except sqlite3.Error:
            db.close()
            raise
        return db

    def close(self) -> None:
        self.db.close()

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _bring_to(self, tree: str) -> None:
        """Bring the rows to ``tree``, then hold a read transaction so that another process moving the
        cache to another tree cannot change what this one reads."""
        if self._meta("tree") != tree or self._meta("schema") != self.SCHEMA:
            self.db.execute("BEGIN IMMEDIATE")  # one writer at a time; another waits, then finds it done
            try:
                held = self._meta("tree")
                if held != tree or self._meta("schema") != self.SCHEMA:
                    if held is not None and self._meta("schema") == self.SCHEMA and self._known(held):
                        self._apply_diff(held, tree)
                    else:
                        self._rebuild(tree)
                    self.db.executemany(
                        "INSERT OR REPLACE INTO meta VALUES (?, ?)", [("tree", tree), ("schema", self.SCHEMA)]
                    )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        self.db.execute("BEGIN")
        if self._meta("tree") != tree:  # moved again between the commit and the read transaction
            self.db.execute("ROLLBACK")
            self._bring_to(tree)

    def _known(self, tree: str) -> bool:
        return tree == EMPTY_TREE or self.store.has_object(tree)

    def _rebuild(self, tree: str) -> None:
        self.rebuilt = True
        for table in self.PER_RECORD:
            self.db.execute(f"DELETE FROM {table}")
        if tree == EMPTY_TREE:
            return
        for _, data in self.store.generated_files(tree):
            self.shards_read += 1
            self._insert(decode_shard(data))

    def _apply_diff(self, old: str, new: str) -> None:
        for change in self.store.diff(old, new, "", renames=False):
            before = self._records(change.old_blob)
            after = self._records(change.new_blob)
            gone = [oid for oid in before if oid not in after or after[oid] != before[oid]]
            self._delete(gone)
            self._insert({oid: e for oid, e in after.items() if before.get(oid) != e})

    def _records(self, blob: str | None) -> dict[str, Any]:
        if blob is None:
            return {}
        self.shards_read += 1
        return decode_shard(self.store.read_generated_blob(blob))

    def _delete(self, ids: Iterable[str]) -> None:
        rows = [(oid,) for oid in ids]
        for table in self.PER_RECORD:
            self.db.executemany(f"DELETE FROM {table} WHERE id = ?", rows)

    def _insert(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        raise NotImplementedError


def rows_for(db: sqlite3.Connection, query: str, ids: Iterable[str]) -> Iterator[tuple[Any, ...]]:
    """The rows of ``query`` (its ``{ids}`` a list of parameters) for every one of ``ids``, asked
    :data:`ID_CHUNK` at a time."""
    wanted = sorted(set(ids))
    for at in range(0, len(wanted), ID_CHUNK):
        chunk = wanted[at : at + ID_CHUNK]
        yield from db.execute(query.format(ids=",".join("?" * len(chunk))), chunk)


def _translated(exc: BaseException, action: str) -> Exception:
    machine = environmental(action, exc)
    if machine is not None:
        return machine
    return SnapshotError(f"{action} failed ({exc}); it is a cache rebuilt from git alone: delete it and run again")
