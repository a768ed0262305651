"""The manifest cache (``manifest.sqlite``): what a plan made from a diff asks of the whole sharded
manifest stored in one tree (:mod:`wikigen.store.plan_from_diff`) — which source lives at a path and
every source's latest version — without reading it (:mod:`wikigen.store.tree_cache`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wikigen.model.hashing import fingerprint_of_text, pairs_text, spliced
from wikigen.model.ids import name_keys
from wikigen.store.tree_cache import TreeCache, rows_for

MANIFEST_FILE = "manifest.sqlite"

# What this process knows of the last stored manifest tree asked (ManifestMirror._kept): a tree's
# rows and pairs never change, and a compile asks them of the same tree twice (the plan, the snapshot)
_KEPT: dict[str, Any] = {}


class ManifestMirror(TreeCache):
    """What a plan asks of the whole sharded manifest stored in one tree, without reading it: which
    source id lives at a path (the path its latest known blob lives at, as ``Snapshot.by_path``), and
    every (id, latest version) pair the fingerprint hashes."""

    # The layout's version (a cache of another layout is rebuilt): the rows stored in id order
    # (WITHOUT ROWID), so that every pair comes sorted from one scan of the table; the text the
    # fingerprint hashes kept with the rows (``pairs``), spliced as they change; each id's R40 name
    # keys (``names``), so that a new id meeting an unchanged one is found.
    SCHEMA = "5"
    FILE = MANIFEST_FILE
    TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS manifest (id TEXT PRIMARY KEY, path TEXT NOT NULL, latest TEXT) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS manifest_by_path ON manifest (path);
CREATE TABLE IF NOT EXISTS pairs (one INTEGER PRIMARY KEY CHECK (one = 1), text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS names (key TEXT NOT NULL, id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS names_by_key ON names (key);
CREATE INDEX IF NOT EXISTS names_by_id ON names (id);
"""
    PER_RECORD = ("manifest", "names")
    _touched: set[str] | None = None  # the ids a diff deletes or inserts, while it is applied

    def _rebuild(self, tree: str) -> None:
        super()._rebuild(tree)
        self._store_pairs(self._text_of_rows())

    def _apply_diff(self, old: str, new: str) -> None:
        self._touched = set()
        try:
            super()._apply_diff(old, new)
            touched = self._touched
        finally:
            self._touched = None
        now: dict[str, str | None] = dict.fromkeys(touched)  # None: the id is gone
        now.update(rows_for(self.db, "SELECT id, COALESCE(latest, '') FROM manifest WHERE id IN ({ids})", touched))
        held = self._pairs()
        text = spliced(held, now) if held is not None else None
        self._store_pairs(text if text is not None else self._text_of_rows())

    def _text_of_rows(self) -> str:
        return pairs_text(self.db.execute("SELECT id, COALESCE(latest, '') FROM manifest"))

    def _delete(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if self._touched is not None:
            self._touched.update(ids)
        super()._delete(ids)

    def _store_pairs(self, text: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO pairs VALUES (1, ?)", (text,))

    def _pairs(self) -> str | None:
        row = self.db.execute("SELECT text FROM pairs WHERE one = 1").fetchone()
        return None if row is None else str(row[0])

    def _kept(self) -> dict[str, Any]:
        """:data:`_KEPT` for this tree (emptied for another one; never kept for a cache in memory)."""
        key = (str(self.path), self.tree)
        if self.path is None or _KEPT.get("key") != key:
            _KEPT.clear()
            _KEPT["key"] = key
        return _KEPT

    def _kept_text(self) -> dict[str, Any]:
        """The kept text, whether every pair has a version, whether the text can be split (see
        :func:`wikigen.model.hashing.spliced`), and the fingerprints already spliced from it."""
        kept = self._kept()
        if "text" not in kept:
            held = self._pairs()
            kept.update(
                text=held,
                unversioned=held is not None and '",""]' in held,
                splittable=held is not None and "\\" not in held and held.startswith("["),
                found={},
            )
        return kept

    def fingerprint(self, changes: Mapping[str, str | None], *, versioned: bool = False) -> str | None:
        """The fingerprint of this tree's (id, latest version or "") pairs with ``changes`` made (a
        version, or None for an id taken out), from the kept text (:func:`wikigen.model.hashing.spliced`);
        ``versioned``: of the pairs that have a version only. None where only the pairs can say (the
        text cannot be spliced, or ``versioned`` and some pair has none): ask :meth:`latest`."""
        kept = self._kept_text()
        held: str | None = kept["text"]
        if held is None or (versioned and kept["unversioned"]):
            return None
        asked = tuple(sorted(changes.items(), key=lambda change: change[0]))
        if asked not in kept["found"]:
            text = spliced(held, changes)
            kept["found"][asked] = None if text is None else fingerprint_of_text(text)
        found: str | None = kept["found"][asked]
        return found

    def _insert(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        if self._touched is not None:
            self._touched.update(records)
        rows = []
        for sid, entry in records.items():
            pending = entry.get("pending") or None
            path = pending["path"] if pending else entry["path"]
            latest = pending.get("version") if pending else entry.get("version")
            rows.append((sid, path, latest))
        self.db.executemany("INSERT OR REPLACE INTO manifest VALUES (?, ?, ?)", rows)
        self.db.executemany("INSERT INTO names VALUES (?, ?)", ((k, sid) for sid in records for k in name_keys(sid)))

    def ids_named(self, keys: Iterable[str]) -> set[str]:
        """The ids that have one of the R40 name ``keys`` (:func:`wikigen.model.ids.name_keys`)."""
        return {r[0] for r in rows_for(self.db, "SELECT id FROM names WHERE key IN ({ids})", keys)}

    def ids_at(self, path: str) -> list[str]:
        """The ids whose latest known blob lives at ``path`` (one, unless the manifest is damaged)."""
        return [r[0] for r in self.db.execute("SELECT id FROM manifest WHERE path = ? ORDER BY id", (path,))]

    def latest(self) -> list[tuple[str, str]]:
        """(id, latest version, or "" where none) of every source, by id. A compile asks it twice of
        the same stored tree (the plan, then the snapshot's fingerprint): the rows a cache file gave
        for the last tree asked are kept in this process (a tree's rows never change)."""
        kept = self._kept()
        if "rows" not in kept:
            # TEXT columns: the rows come as (str, str) tuples already, in the table's own order, the
            # id's (a scan of the table, no sort)
            rows = self.db.execute("SELECT id, COALESCE(latest, '') FROM manifest ORDER BY id").fetchall()
            kept["rows"] = tuple(rows)
        rows_kept: tuple[tuple[str, str], ...] = kept["rows"]
        return list(rows_kept)

    def count(self) -> int:
        """The number of sources: the pairs of the kept text where it can be split (see
        :func:`wikigen.model.hashing.spliced`; cheaper than counting the rows)."""
        kept = self._kept_text()
        if kept["splittable"]:
            held: str = kept["text"]
            return 0 if held == "[]" else held.count('"],["') + 1
        return int(self.db.execute("SELECT COUNT(*) FROM manifest").fetchone()[0])
