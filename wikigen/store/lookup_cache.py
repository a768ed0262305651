"""The lookup cache (``lookup.sqlite``): what a compile asks of a sharded object index besides single
entries — who depends on what, which names start with a word, which concept holds a name, the graph
— from a local SQLite copy of the index stored in one tree (:mod:`wikigen.store.tree_cache`)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
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
from wikigen.store.git import GitStore
from wikigen.store.tree_cache import TreeCache, rows_for

SCHEMA = "3"  # the layout's version: a cache of another layout is rebuilt (TreeCache._open)
MIRROR_FILE = "lookup.sqlite"  # below the git dir's wikigen/ folder
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


class Mirror(TreeCache):
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
        # the rows (a topic's entry is large)
        row = self.db.execute("SELECT COUNT(*) FROM graph WHERE subject IS NOT NULL AND subject != object").fetchone()
        return int(row[0])

    def graph(self, full: bool = True) -> dict[str, dict[str, Any]]:
        if full:
            return {oid: json.loads(entry) for oid, entry in self.db.execute("SELECT id, entry FROM graph ORDER BY id")}
        # In the table's order: the partition does not depend on it, and "ORDER BY id" walks the key's
        # index and looks up every row
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


def lookup_of(store: GitStore, index: Mapping[str, Mapping[str, Any]], index_tree: str | None) -> Lookup:
    """The lookup of a snapshot's index: the mirror of its stored tree (schema 2), else computed from
    the index itself (held whole: a schema-1 snapshot, or none)."""
    if index_tree is None:
        return IndexLookup(index)
    return Mirror(store, index_tree)

