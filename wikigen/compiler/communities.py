"""Communities of the semantic graph (V3), recorded by the compiler and only read by the views. Pure.

A community is named by a stable member: the concept it was named by in the parent snapshot's record
when that concept is still a member, else its most central concept (the largest relation weight to
other members, ties by id). Its colour is a function of that name alone, so a community that keeps
its core keeps its name and its colour whatever happens elsewhere (V3).

The partition comes from Leiden (``leidenalg`` on ``igraph``, modularity, fixed seed) on the
semantic graph alone: concepts, and relations between two of them weighted by their count; a
concept with no relation is its own community and is not recorded. With a parent record it is
updated, not made again: local moves (:mod:`wikigen.compiler.community_moves`) from the concepts
whose relations changed, so a concept moves only when moving raises modularity and only the
change's neighbourhood is visited — a small change of relations keeps almost every assignment,
where a fresh run would reshuffle many. A community the change cut in two is split into its
connected parts. In a compile the update reads the graph and the record through the parent's lookup
mirror and the record's cache (:func:`updated_record`), so what it reads follows the change, not the
graph. A fresh run is made only for a large change — at least ``REFRESH_MIN`` concepts, and
``REFRESH_SHARE`` of the linked ones, joined or left the graph, as in the increments of a
``--batch`` baseline, which write much anyway — never for an ordinary edit, where a fresh partition
would move thousands of concepts. Local moves alone drift below a fresh run's modularity;
``tests/test_moves.py`` holds them within 5% of it over ten 1% changes of relations.

The record (:mod:`wikigen.compiler.community_record`) is sharded like the snapshot's index
(:mod:`wikigen.model.shards`): ``content/.wikigen/communities/ab/c.json`` holds ``{concept id: community
name}`` for the concepts whose ``sha1(id)`` starts with ``abc``, one per line, so that a commit rewrites
only the shards of the concepts that moved. Its constant header (schema, algorithm, seed, folder,
levels) is in the snapshot's root record (``layout.communities``, :func:`layout`), which every commit
writes anyway.

A schema-1 repo holds the record as one file, ``content/.wikigen/communities.json`` (each community's
name and its members; :func:`wikigen.compiler.community_record.load_whole` reads it), which the
storage-layout move (:mod:`wikigen.store.migration`) puts into the shards. A repo in the sharded layout
that still holds the whole file (its snapshot sharded, this record not) reads it as the parent record,
and the next compile that merges writes every shard of the new partition and removes the file, in the
same commit: no crash, no colour lost.

Pure but for :func:`read_record` and :class:`StoredRecord`, the readers of the stored record (given a
store; the second through its cache, :class:`wikigen.store.community_cache.CommunityMirror`).
"""

from __future__ import annotations

import colorsys
import hashlib
import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from wikigen.compiler.community_moves import GraphView, community_names, local_moves
from wikigen.compiler.community_record import (
    COMMUNITIES_DIR,
    COMMUNITIES_LEVELS,
    HeldRecord,
    Record,
    RecordReader,
    record_files,
)
from wikigen.compiler.lookup import Lookup
from wikigen.model.shards import encode_shard, shard_of

SCHEMA = 2  # of the record: 1 is the whole file
SEED = 42
ALGORITHM = "leiden-modularity; updated by local moves from the concepts whose relations changed"
REFRESH_MIN = 100  # concepts joined or left the graph, at least, for a fresh partition ...
REFRESH_SHARE = 0.02  # ... and this share of the linked concepts
SINGLETON_COLOR = "#9e9e9e"

Edges = Mapping[tuple[str, str], int]


def semantic_edges(index: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], dict[tuple[str, str], int]]:
    """(concept ids, (a, b) with a < b → relation count) from a snapshot's object index."""
    concepts = sorted(oid for oid, e in index.items() if e.get("kind") == "concept")
    known = set(concepts)
    edges: dict[tuple[str, str], int] = {}
    for entry in index.values():
        if entry.get("kind") != "relation":
            continue
        a, b = str(entry.get("subject")), str(entry.get("object"))
        if a in known and b in known and a != b:
            pair = (min(a, b), max(a, b))
            edges[pair] = edges.get(pair, 0) + 1
    return concepts, edges


def partition(
    nodes: Iterable[str],
    edges: Edges,
    previous: Mapping[str, str] | None = None,
    seed: int = SEED,
    changed: Iterable[str] | None = None,
    cut: Iterable[tuple[str, str]] = (),
) -> dict[str, str]:
    """Concept id → community name, for every concept that has a relation (isolated ones are left
    out: each is its own community). ``previous``: the parent record's concept → name; ``changed``:
    the concepts whose relations differ from the parent's graph, and ``cut`` the pairs that lost a
    relation (:func:`wikigen.compiler.community_moves.local_moves`; unknown: every concept is visited and every
    community checked whole)."""
    linked = sorted({n for pair in edges for n in pair} & set(nodes))
    previous = dict(previous) if previous else None  # a stored record is read once, not per concept
    if not linked:
        return {}
    known = set(linked)
    kept = {pair: w for pair, w in edges.items() if pair[0] in known and pair[1] in known and pair[0] != pair[1]}
    joined = sum(1 for n in linked if n not in previous) if previous else len(linked)
    left = sum(1 for n in previous if n not in known) if previous else 0
    if not previous or joined + left >= refresh_at(len(linked)):
        return fresh_partition(linked, kept, previous or {}, seed)
    view = MemoryView(kept, previous)
    if changed is None:
        moved = local_moves(view, sorted(known | set(previous)), recheck=sorted(set(previous.values())))
    else:
        moved = local_moves(view, changed, cut)
    assignment = {n: name for n, name in previous.items() if n in known}
    for n, name in moved.items():
        if name is None:
            assignment.pop(n, None)
        else:
            assignment[n] = name
    return dict(sorted(assignment.items()))


def refresh_at(linked: int) -> int:
    """Concepts joined or left the graph, at least, for a fresh partition of ``linked`` concepts."""
    return max(REFRESH_MIN, math.ceil(REFRESH_SHARE * linked))


def fresh_partition(linked: list[str], edges: Edges, previous: Mapping[str, str], seed: int = SEED) -> dict[str, str]:
    """A fresh Leiden run over the whole graph, named from ``previous`` where it can be."""
    import igraph as ig
    import leidenalg as la

    position = {n: i for i, n in enumerate(linked)}
    pairs = sorted(edges.items())
    graph = ig.Graph(n=len(linked), edges=[(position[a], position[b]) for (a, b), _ in pairs])
    graph.es["weight"] = [w for _, w in pairs]
    fresh = la.find_partition(graph, la.ModularityVertexPartition, weights="weight", seed=seed, n_iterations=-1)
    members = [sorted(linked[i] for i in group) for group in fresh]
    return _named(members, edges, previous)


class MemoryView(GraphView):
    """The :class:`wikigen.compiler.community_moves.GraphView` of a graph and a record held whole."""

    def __init__(self, edges: Edges, previous: Mapping[str, str]) -> None:
        self.adjacent: dict[str, dict[str, int]] = {}
        for (a, b), w in edges.items():
            if a != b:
                self.adjacent.setdefault(a, {})[b] = self.adjacent.get(a, {}).get(b, 0) + w
                self.adjacent.setdefault(b, {})[a] = self.adjacent.get(b, {}).get(a, 0) + w
        self.weight = sum(w for (a, b), w in edges.items() if a != b)
        self.record = HeldRecord(previous)

    def neighbours(self, node: str) -> Mapping[str, int]:
        return self.adjacent.get(node, {})

    def degrees(self, nodes: Collection[str]) -> Mapping[str, int]:
        return {n: sum(self.adjacent.get(n, {}).values()) for n in nodes}

    def total(self) -> int:
        return self.weight

    def names_of(self, nodes: Collection[str]) -> Mapping[str, str]:
        return self.record.names_of(nodes)

    def members(self, name: str) -> Sequence[str]:
        return self.record.members(name)


def _named(members: list[list[str]], edges: Edges, previous: Mapping[str, str]) -> dict[str, str]:
    """Each community's name (:func:`wikigen.compiler.community_moves.community_names`), for every member."""
    community_of = {n: i for i, group in enumerate(members) for n in group}
    strength: dict[int, dict[str, int]] = {}
    for (a, b), w in edges.items():
        i = community_of.get(a)
        if i is not None and i == community_of.get(b):
            inner = strength.setdefault(i, {})
            inner[a] = inner.get(a, 0) + w
            inner[b] = inner.get(b, 0) + w
    names = community_names(members, previous.get, lambda i: strength.get(i, {}))
    return {n: names[i] for i, group in enumerate(members) for n in group}


def community_color(name: str | None, size: int = 2) -> str:
    """A community's colour from its name alone (a lone concept is grey)."""
    if name is None or size < 2:
        return SINGLETON_COLOR
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    hue = int.from_bytes(digest[:4], "big") / 2**32
    lightness = (0.40, 0.50, 0.60)[digest[4] % 3]
    saturation = (0.55, 0.75)[digest[5] % 2]
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


# -- the record ------------------------------------------------------------------------------------


def layout() -> dict[str, Any]:
    """The record's constant header, kept in the snapshot's root record (``layout.communities``)."""
    return {
        "folder": COMMUNITIES_DIR,
        "levels": list(COMMUNITIES_LEVELS),
        "schema": SCHEMA,
        "algorithm": ALGORITHM,
        "seed": SEED,
    }


def record_communities(index: Mapping[str, Mapping[str, Any]], parent: Record) -> dict[str, bytes | None]:
    """The files to write for a merged object index: the partition warm-started from the parent
    record, written as the shards whose assignments changed (nothing when none did; every shard
    removed when no concept has a relation)."""
    nodes, edges = semantic_edges(index)
    return record_files(partition(nodes, edges, parent.assignment), parent)


Ends = tuple[str, str]  # a relation's (subject, object)


def updated_record(
    lookup: Lookup, relations: Mapping[str, tuple[Ends | None, Ends | None]], parent: Record
) -> dict[str, bytes | None] | None:
    """The files that bring a sharded parent record to the graph the increment made, by local moves
    from the concepts whose relations changed, reading only what the change touches: only the
    shards of the concepts whose community changed. ``lookup``: the parent snapshot's;
    ``relations``: every relation the increment added, removed or rewrote → its endpoints before and
    after (``None``: not there). ``None`` when so many concepts joined or left the graph that a fresh
    partition is due (:func:`partition`)."""
    view = MergedView(lookup, relations, parent.reader())
    try:
        changed = {pair for pair in relations.values() if pair[0] != pair[1]}
        seeds = sorted({n for before, after in changed for ends in (before, after) if ends for n in ends})
        cut = sorted({before for before, after in changed if before is not None and before[0] != before[1]})
        degrees, recorded = view.degrees(seeds), view.names_of(seeds)
        joined = sum(1 for n in seeds if degrees[n] > 0 and n not in recorded)
        left = sum(1 for n in seeds if degrees[n] == 0 and n in recorded)
        if joined + left >= refresh_at(view.records.count() + joined - left):
            return None
        moved = local_moves(view, seeds, cut)
        files: dict[str, bytes | None] = {}
        for path in sorted({shard_of(n, COMMUNITIES_LEVELS) for n in moved}):
            records = view.records.shard(path)
            for n, name in moved.items():
                if shard_of(n, COMMUNITIES_LEVELS) == path:
                    if name is None:
                        records.pop(n, None)
                    else:
                        records[n] = name
            files[f"{COMMUNITIES_DIR}/{path}"] = encode_shard(records) if records else None
        return files
    finally:
        view.records.close()


class MergedView(GraphView):
    """The :class:`wikigen.compiler.community_moves.GraphView` of a stored snapshot's graph (its lookup) with an
    increment's relations over it, and of its stored record."""

    def __init__(
        self, lookup: Lookup, relations: Mapping[str, tuple[Ends | None, Ends | None]], records: RecordReader
    ) -> None:
        self.lookup, self.records = lookup, records
        self.touched = set(relations)
        self.added: dict[str, list[str]] = {}  # concept → the other end of each relation the increment holds
        self.delta: dict[str, int] = {}  # concept → relations the increment added less those it removed
        self.weight_delta = 0
        for before, after in relations.values():
            for ends, step in ((before, -1), (after, 1)):
                if ends is None or ends[0] == ends[1]:
                    continue
                self.weight_delta += step
                for n in ends:
                    self.delta[n] = self.delta.get(n, 0) + step
                if step == 1:
                    self.added.setdefault(ends[0], []).append(ends[1])
                    self.added.setdefault(ends[1], []).append(ends[0])
        self._total: int | None = None

    def neighbours(self, node: str) -> Mapping[str, int]:
        found: dict[str, int] = {}
        for rid, subject, obj in self.lookup.relations_at(node):
            if rid in self.touched or subject == obj or node not in (subject, obj):
                continue
            other = obj if subject == node else subject
            found[other] = found.get(other, 0) + 1
        for other in self.added.get(node, ()):
            found[other] = found.get(other, 0) + 1
        return found

    def degrees(self, nodes: Collection[str]) -> Mapping[str, int]:
        base = self.lookup.degrees(nodes)
        return {n: base.get(n, 0) + self.delta.get(n, 0) for n in nodes}

    def total(self) -> int:
        if self._total is None:
            self._total = self.lookup.relation_count() + self.weight_delta
        return self._total

    def names_of(self, nodes: Collection[str]) -> Mapping[str, str]:
        return self.records.names_of(nodes)

    def members(self, name: str) -> Sequence[str]:
        return self.records.members(name)


def kept_share(before: Mapping[str, str], after: Mapping[str, str]) -> float:
    """Share of concepts whose community is the same after the best one-to-one matching of the
    communities of ``before`` and ``after`` (concept → community name): the stability measure of the
    tests and of ``scripts/bench_graph.py``."""
    common = [n for n in before if n in after]
    if not common:
        return 1.0
    pairs = Counter((before[n], after[n]) for n in common)
    used_a: set[str] = set()
    used_b: set[str] = set()
    kept = 0
    for (a, b), count in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0])):
        if a not in used_a and b not in used_b:
            used_a.add(a)
            used_b.add(b)
            kept += count
    return kept / len(common)
