"""The lookup mirror (issue 14): what a compile asks of a sharded object index besides single entries
— who depends on what, which names start with a word, which concept holds a name, the graph — in
SQLite under ``.git/wikigen/lookup.sqlite``; and the manifest mirror beside it
(``manifest.sqlite``): which source lives at a path and every source's latest version, what a plan
made from a diff asks of the whole manifest (``wikigen.store.plan_from_diff``).

It is a cache, never committed: everything in it is derived from one index tree, whose id it
records. It follows the snapshot in O(change): brought to another index tree by diffing the two
trees, it reads only the shards that differ and replaces only their objects' rows. A clone without
it (or with an unreadable one) builds it once from the shards, one shard at a time. It never
answers for a tree it was not brought to.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from wikigen.compiler.lookup import (
    IndexLookup,
    Lookup,
    among,
    concept_keys,
    dependency_keys,
    graph_entry,
    named_by,
)
from wikigen.compiler.topics import TOPIC_ROUTE
from wikigen.model.errors import SnapshotError, environmental
from wikigen.model.hashing import fingerprint_of_text, pairs_text, spliced
from wikigen.model.ids import name_keys
from wikigen.model.shards import decode_shard
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store.git import GitStore

SCHEMA = "3"  # 3: relations indexed by object too (each concept's degree from the indexes alone)
MIRROR_FILE = "lookup.sqlite"  # below the git dir's wikigen/ folder
MANIFEST_FILE = "manifest.sqlite"
ID_CHUNK = 500  # ids asked in one query (SQLite bounds its parameters)
PAIR_SEEKS = 250  # endpoints up to which relations_among seeks each pair (the default cap is 100 anchors)

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS graph (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, subject TEXT, object TEXT, entry TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS graph_by_ends ON graph (subject, object);
CREATE INDEX IF NOT EXISTS graph_by_object ON graph (object, subject);
CREATE TABLE IF NOT EXISTS deps (dep TEXT NOT NULL, id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS deps_by_dep ON deps (dep);
CREATE INDEX IF NOT EXISTS deps_by_id ON deps (id);
CREATE TABLE IF NOT EXISTS names (word TEXT NOT NULL, words TEXT NOT NULL, id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS names_by_word ON names (word);
CREATE INDEX IF NOT EXISTS names_by_id ON names (id);
CREATE TABLE IF NOT EXISTS concept_names (key TEXT NOT NULL, id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS concept_names_by_key ON concept_names (key);
CREATE INDEX IF NOT EXISTS concept_names_by_id ON concept_names (id);
"""
_PER_OBJECT = ("graph", "deps", "names", "concept_names")


class _TreeCache:
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


class Mirror(_TreeCache):
    """A :class:`wikigen.compiler.lookup.Lookup` of the sharded index stored in one tree (``index_tree``)."""

    SCHEMA = SCHEMA
    FILE = MIRROR_FILE
    TABLES = _TABLES
    PER_RECORD = _PER_OBJECT

    def _insert(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        graph, deps, names, keys = [], [], [], []
        for oid, entry in records.items():
            if entry.get("kind") in ("concept", "relation", "topic"):
                compact = graph_entry(entry)
                row = (oid, compact["kind"], compact.get("subject"), compact.get("object"))
                graph.append((*row, json.dumps(compact, sort_keys=True)))
            deps += [(dep, oid) for dep in dependency_keys(entry)]
            names += [(words[0], json.dumps(words), oid) for words in named_by(oid, entry)]
            keys += [(key, oid) for key in concept_keys(entry)]
        self.db.executemany("INSERT OR REPLACE INTO graph VALUES (?, ?, ?, ?, ?)", graph)
        self.db.executemany("INSERT INTO deps VALUES (?, ?)", deps)
        self.db.executemany("INSERT INTO names VALUES (?, ?, ?)", names)
        self.db.executemany("INSERT INTO concept_names VALUES (?, ?)", keys)

    # -- the Lookup questions ------------------------------------------------------------------------

    def dependents(self, key: str) -> frozenset[str]:
        return frozenset(r[0] for r in self.db.execute("SELECT id FROM deps WHERE dep = ?", (key,)))

    def names_from(self, word: str) -> list[tuple[tuple[str, ...], str]]:
        rows = self.db.execute("SELECT words, id FROM names WHERE word = ? ORDER BY id, words", (word,))
        return [(tuple(json.loads(words)), oid) for words, oid in rows]

    def concepts_named(self, key: str) -> frozenset[str]:
        return frozenset(r[0] for r in self.db.execute("SELECT id FROM concept_names WHERE key = ?", (key,)))

    def relations_at(self, concept: str) -> list[tuple[str, str, str]]:
        # From the (subject, object) and (object, subject) indexes: a relation depends on its two ends
        # only, and a hub's other dependents (thousands of articles) are never walked.
        rows = self.db.execute(
            "SELECT id, subject, object FROM graph WHERE subject = ? UNION "
            "SELECT id, subject, object FROM graph WHERE object = ? ORDER BY id",
            (concept, concept),
        )
        return [(str(rid), str(subject), str(obj)) for rid, subject, obj in rows]

    def relations_among(self, concepts: Collection[str]) -> list[tuple[str, str, str]]:
        wanted = sorted(set(concepts))
        if len(wanted) > PAIR_SEEKS:  # a large increment: each endpoint's relations, read once
            return among(wanted, self.relations_at)
        rows = self.db.execute(among_query(len(wanted)), (*wanted, *wanted))
        return [(str(rid), str(subject), str(obj)) for rid, subject, obj in rows]

    def entries(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        rows = rows_for(self.db, "SELECT id, entry FROM graph WHERE id IN ({ids})", ids)
        return dict(sorted((str(oid), json.loads(entry)) for oid, entry in rows))

    def labels(self, ids: Iterable[str]) -> dict[str, str]:
        query = "SELECT id, COALESCE(json_extract(entry, '$.label'), id) FROM graph WHERE kind = 'concept' AND id IN ({ids})"
        return dict(sorted((str(oid), str(label)) for oid, label in rows_for(self.db, query, ids)))

    def present(self, ids: Iterable[str]) -> set[str]:
        # Every object depends on something (a source it cites, its ends, its members), so each is an
        # ``id`` of the deps table.
        return {str(r[0]) for r in rows_for(self.db, "SELECT DISTINCT id FROM deps WHERE id IN ({ids})", ids)}

    def linked_concepts(self) -> list[str]:
        rows = self.db.execute(
            "SELECT subject FROM graph WHERE subject IS NOT NULL UNION SELECT object FROM graph WHERE object IS NOT NULL"
        )
        return sorted(str(r[0]) for r in rows)

    def topic_ids(self) -> list[str]:
        return [str(r[0]) for r in self.db.execute("SELECT id FROM graph WHERE kind = 'topic' ORDER BY id")]

    def engine_topics(self) -> bool:
        # An entry is stored as json.dumps(graph_entry, sort_keys=True): a derived topic's holds its
        # route as below (a title holding these characters would hold them escaped).
        derived = "%" + json.dumps({"route": TOPIC_ROUTE})[1:-1] + "%"
        row = self.db.execute(
            "SELECT 1 FROM graph WHERE kind = 'topic' AND entry NOT LIKE ? LIMIT 1", (derived,)
        ).fetchone()
        return row is not None

    def degrees(self, concepts: Iterable[str]) -> dict[str, int]:
        # Each end's relations counted from its index alone (a hub's deps are never walked): only a
        # relation's row has a subject and an object.
        wanted = sorted(set(concepts))
        counts = dict.fromkeys(wanted, 0)
        for end, other in (("subject", "object"), ("object", "subject")):
            query = (
                f"SELECT {end}, COUNT(*) FROM graph WHERE {end} IN ({{ids}}) AND {other} IS NOT NULL "
                f"AND {end} != {other} GROUP BY {end}"
            )
            for c, n in rows_for(self.db, query, wanted):
                counts[str(c)] += int(n)
        return counts

    def relation_count(self) -> int:
        # Only a relation's row has a subject: counted from the (subject, object) index alone, never
        # the rows (a topic's entry is large; 0.01 s against up to 0.2 s at 100,000 sources)
        row = self.db.execute("SELECT COUNT(*) FROM graph WHERE subject IS NOT NULL AND subject != object").fetchone()
        return int(row[0])

    def graph(self, full: bool = True) -> dict[str, dict[str, Any]]:
        if full:
            return {oid: json.loads(entry) for oid, entry in self.db.execute("SELECT id, entry FROM graph ORDER BY id")}
        # In the table's order: the partition does not depend on it, and "ORDER BY id" walks the key's
        # index and looks up every row (0.73 s against 0.23 s at 100,000 sources, issue 14)
        graph: dict[str, dict[str, Any]] = {}
        for oid, kind, subject, obj in self.db.execute(
            "SELECT id, kind, subject, object FROM graph WHERE kind IN ('concept', 'relation')"
        ):
            graph[oid] = {"kind": kind} if kind == "concept" else {"kind": kind, "subject": subject, "object": obj}
        return graph


def among_query(count: int) -> str:
    """The relations between two of ``count`` concepts (given twice): one index seek per (subject,
    object) pair, so that a hub's thousands of relations are never read."""
    marks = ", ".join("?" * count)
    return (
        f"SELECT id, subject, object FROM graph WHERE subject IN ({marks}) AND object IN ({marks}) "
        "AND kind = 'relation' ORDER BY id"
    )


# What this process knows of the last stored manifest tree asked (ManifestMirror._kept): a tree's
# rows and pairs never change, and a compile asks them of the same tree twice (the plan, the snapshot)
_KEPT: dict[str, Any] = {}


class ManifestMirror(_TreeCache):
    """What a plan asks of the whole sharded manifest stored in one tree, without reading it: which
    source id lives at a path (the path its latest known blob lives at, as ``Snapshot.by_path``), and
    every (id, latest version) pair the fingerprint hashes."""

    # Schema 2: the rows are stored in id order (WITHOUT ROWID), so that every pair comes sorted from
    # one scan of the table (issue 14: the sort of 100,000 pairs cost 0.07 s a compile)
    # 3: relations indexed by object too (each concept's degree from the indexes alone)
    # 4: the text the fingerprint hashes, kept with the rows (``pairs``), spliced as they change
    # 5: each id's R40 name keys (``names``), so that a new id meeting an unchanged one is found
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
        :func:`wikigen.model.hashing.spliced`), and the fingerprints already spliced from it (0.03 s each at
        100,000 sources)."""
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
            # id's (a scan of the table, no sort: 0.08 s at 100,000 sources, issue 14)
            rows = self.db.execute("SELECT id, COALESCE(latest, '') FROM manifest ORDER BY id").fetchall()
            kept["rows"] = tuple(rows)
        rows_kept: tuple[tuple[str, str], ...] = kept["rows"]
        return list(rows_kept)

    def count(self) -> int:
        """The number of sources: the pairs of the kept text where it can be split (see
        :func:`wikigen.model.hashing.spliced`; 0.02 s less than counting the rows at 100,000 sources)."""
        kept = self._kept_text()
        if kept["splittable"]:
            held: str = kept["text"]
            return 0 if held == "[]" else held.count('"],["') + 1
        return int(self.db.execute("SELECT COUNT(*) FROM manifest").fetchone()[0])


class CommunityMirror(_TreeCache):
    """The communities record stored in one tree (its folder, ``content/.wikigen/communities``): each
    concept's community and each community's members, what a local update of the partition asks of
    the parent record without reading every shard (issue 14; :mod:`wikigen.compiler.communities`)."""

    SCHEMA = "1"
    FILE = "communities.sqlite"
    TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS assignment (id TEXT PRIMARY KEY, community TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS assignment_by_community ON assignment (community);
"""
    PER_RECORD = ("assignment",)

    def _records(self, blob: str | None) -> dict[str, Any]:
        try:
            return super()._records(blob)
        except (ValueError, UnicodeDecodeError):
            return {}  # an unreadable shard: its concepts start alone, as communities.load_record says

    def _rebuild(self, tree: str) -> None:
        self.rebuilt = True
        self.db.execute("DELETE FROM assignment")
        if tree == EMPTY_TREE:
            return
        for _, data in self.store.generated_files(tree):
            self.shards_read += 1
            try:
                self._insert(decode_shard(data))
            except (ValueError, UnicodeDecodeError):
                continue

    def _insert(self, records: Mapping[str, Any]) -> None:
        rows = [(str(cid), str(name)) for cid, name in records.items()]
        self.db.executemany("INSERT OR REPLACE INTO assignment VALUES (?, ?)", rows)

    def names_of(self, concepts: Iterable[str]) -> dict[str, str]:
        """Concept → its recorded community, for those of ``concepts`` that have one."""
        rows = rows_for(self.db, "SELECT id, community FROM assignment WHERE id IN ({ids})", concepts)
        return {str(c): str(n) for c, n in rows}

    def members(self, name: str) -> list[str]:
        """The concepts recorded in community ``name``, by id."""
        rows = self.db.execute("SELECT id FROM assignment WHERE community = ? ORDER BY id", (name,))
        return [str(r[0]) for r in rows]

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM assignment").fetchone()[0])


def rows_for(db: sqlite3.Connection, query: str, ids: Iterable[str]) -> Iterator[tuple[Any, ...]]:
    """The rows of ``query`` (its ``{ids}`` a list of parameters) for every one of ``ids``, asked
    :data:`ID_CHUNK` at a time."""
    wanted = sorted(set(ids))
    for at in range(0, len(wanted), ID_CHUNK):
        chunk = wanted[at : at + ID_CHUNK]
        yield from db.execute(query.format(ids=",".join("?" * len(chunk))), chunk)


def lookup_of(store: GitStore, index: Mapping[str, Mapping[str, Any]], index_tree: str | None) -> Lookup:
    """The lookup of a snapshot's index: the mirror of its stored tree (schema 2), else computed from
    the index itself (held whole: a schema-1 snapshot, or none)."""
    if index_tree is None:
        return IndexLookup(index)
    return Mirror(store, index_tree)


def _translated(exc: BaseException, action: str) -> Exception:
    machine = environmental(action, exc)
    if machine is not None:
        return machine
    return SnapshotError(f"{action} failed ({exc}); it is a cache rebuilt from git alone: delete it and run again")
