"""Communities of the semantic graph (V3), recorded by the compiler and only read by the views. Pure.

A community is named by a stable member: the concept it was named by in the parent snapshot's record
when that concept is still a member, else its most central concept (the largest relation weight to
other members, ties by id). Its colour is a function of that name alone, so a community that keeps
its core keeps its name and its colour whatever happens elsewhere (issue 13.3).

The partition comes from Leiden (``leidenalg`` on ``igraph``, modularity, fixed seed) on the
semantic graph alone: concepts, and relations between two of them weighted by their count; a
concept with no relation is its own community and is not recorded. With a parent record it is
warm-started: every concept starts in its recorded community (a new one alone) and only Leiden's
local moves run, so a node moves only when moving raises modularity — a 1% change of relations
keeps about 99% of assignments where a fresh run keeps about half. A community the change cut in
two is split into its connected parts. A fresh run is made only for a large change — at least
``REFRESH_MIN`` concepts, and ``REFRESH_SHARE`` of the linked ones, joined or left the graph, as in
the increments of a ``--batch`` baseline, which write much anyway — never for an ordinary edit
(issue 14): comparing every compile's partition with a fresh run cost a whole Leiden run each time
(1.6 s at 10,000 sources), and taking the fresh one moved thousands of concepts in a one-file
compile. Local moves alone, over a 10,000-source baseline built in 36 increments, ended at 0.86 of
a fresh run's modularity; ten 1% changes of relations lose under 2%.

The record is sharded like the snapshot's index (issue 14, item 3; :mod:`wikigen.shards`):
``content/.wikigen/communities/ab/c.json`` holds ``{concept id: community name}`` for the concepts
whose ``sha1(id)`` starts with ``abc``, one per line, so that a commit rewrites only the shards of the
concepts that moved. Its constant header (schema, algorithm, seed, folder, levels) is in the snapshot's
root record (``layout.communities``, :func:`layout`), which every commit writes anyway.

Before it was sharded the record was one file, ``content/.wikigen/communities.json`` (each community's
name and its members; :func:`load_whole` still reads it). A schema-1 repo's file moves into the shards
in the storage-layout move (:mod:`wikigen.migration`). A repo already in the sharded layout that still
holds the whole file (compiled by a wikigen that sharded the snapshot but not this record) reads it
as the parent record, and the next compile that merges writes every shard of the new partition and
removes the file, in the same commit: no crash, no colour lost.

Pure but for :func:`read_record`, the one reader of the stored record (given a store).
"""

from __future__ import annotations

import colorsys
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from wikigen.gitstore import EMPTY_TREE, GitStore
from wikigen.shards import Levels, changed_shards, decode_shard

COMMUNITIES_DIR = "content/.wikigen/communities"
COMMUNITIES_LEVELS: Levels = (2, 1)  # 4,096 shards, as the relations
WHOLE_RECORD_PATH = "content/.wikigen/communities.json"  # the record before it was sharded (schema 1)
SCHEMA = 2  # of the record: 1 was the whole file
SEED = 42
ALGORITHM = "leiden-modularity; warm start: local moves from the parent record"
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
    nodes: Iterable[str], edges: Edges, previous: Mapping[str, str] | None = None, seed: int = SEED
) -> dict[str, str]:
    """Concept id → community name, for every concept that has a relation (isolated ones are left
    out: each is its own community). ``previous``: the parent record's concept → name."""
    import igraph as ig
    import leidenalg as la

    linked = sorted({n for pair in edges for n in pair} & set(nodes))
    if not linked:
        return {}
    previous = dict(previous) if previous else None  # a stored record is read once, not per concept
    position = {n: i for i, n in enumerate(linked)}
    pairs = sorted(edges.items())
    graph = ig.Graph(n=len(linked), edges=[(position[a], position[b]) for (a, b), _ in pairs])
    graph.es["weight"] = [w for _, w in pairs]

    joined = sum(1 for n in linked if n not in previous) if previous else len(linked)
    left = sum(1 for n in previous if n not in position) if previous else 0
    if previous and joined + left < max(REFRESH_MIN, REFRESH_SHARE * len(linked)):
        labels: dict[str, int] = {}
        membership = []
        for n in linked:
            key = previous.get(n, "\0" + n)  # a concept not in the record starts alone
            membership.append(labels.setdefault(key, len(labels)))
        found = la.ModularityVertexPartition(graph, weights="weight", initial_membership=membership)
        optimiser = la.Optimiser()
        optimiser.set_rng_seed(seed)
        while optimiser.move_nodes(found) > 0:
            pass
        groups = _connected_parts(graph, found.membership)
    else:
        fresh = la.find_partition(graph, la.ModularityVertexPartition, weights="weight", seed=seed, n_iterations=-1)
        groups = [list(c) for c in fresh]
    members = [sorted(linked[i] for i in group) for group in groups]
    return _named(members, edges, previous or {})


def _connected_parts(graph: Any, membership: list[int]) -> list[list[int]]:
    """The communities, each split into its connected parts (a removed relation may cut one): the
    components of the graph's edges inside a community, found at once, in the order of their
    community's first vertex, then of their own."""
    inside = [i for i, (a, b) in enumerate(graph.get_edgelist()) if membership[a] == membership[b]]
    parts = graph.subgraph_edges(inside, delete_vertices=False).connected_components()
    first: dict[int, int] = {}
    for i, label in enumerate(membership):
        first.setdefault(label, i)
    groups = [sorted(part) for part in parts]
    return sorted(groups, key=lambda g: (first[membership[g[0]]], g[0]))


def _named(members: list[list[str]], edges: Edges, previous: Mapping[str, str]) -> dict[str, str]:
    """Each community's name: the parent's name of the community it overlaps most (one-to-one,
    largest overlaps first) when that named concept is still a member; else its most central one."""
    community_of = {n: i for i, group in enumerate(members) for n in group}
    overlap: dict[tuple[int, str], int] = {}
    for n, old in previous.items():
        if n in community_of:
            key = (community_of[n], old)
            overlap[key] = overlap.get(key, 0) + 1
    names: dict[int, str] = {}
    taken: set[str] = set()
    for (i, old), _ in sorted(overlap.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0])):
        if i in names or old in taken or community_of.get(old) != i:
            continue
        names[i] = old
        taken.add(old)
    strength: dict[str, int] = {}
    for (a, b), w in edges.items():
        if community_of.get(a) is not None and community_of.get(a) == community_of.get(b):
            strength[a] = strength.get(a, 0) + w
            strength[b] = strength.get(b, 0) + w
    for i, group in enumerate(members):
        if i not in names:
            names[i] = min(group, key=lambda n: (-strength.get(n, 0), n))
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


@dataclass(frozen=True, slots=True)
class Record:
    """A stored record: concept id → community name, and how it is stored."""

    assignment: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    sharded: bool = False  # read from shards: what the next write diffs against
    whole: bool = False  # a whole communities.json is there: the next write removes it

    @property
    def exists(self) -> bool:
        return self.sharded or self.whole


def layout() -> dict[str, Any]:
    """The record's constant header, kept in the snapshot's root record (``layout.communities``)."""
    return {
        "folder": COMMUNITIES_DIR,
        "levels": list(COMMUNITIES_LEVELS),
        "schema": SCHEMA,
        "algorithm": ALGORITHM,
        "seed": SEED,
    }


def load_record(shards: Iterable[tuple[str, bytes]], whole: bytes | None) -> Record:
    """The record from its shards' bytes, else from a whole communities.json (the shards win where
    both are there). An unreadable shard or file is left out: its concepts start alone at the next
    compile, which is correct, only less stable."""
    assignment: dict[str, str] = {}
    sharded = False
    for _, data in shards:
        sharded = True
        try:
            assignment.update({str(k): str(v) for k, v in decode_shard(data).items()})
        except (ValueError, UnicodeDecodeError):
            continue
    if not sharded:
        assignment = load_whole(whole)
    return Record(MappingProxyType(dict(sorted(assignment.items()))), sharded, whole is not None)


def load_whole(data: bytes | None) -> dict[str, str]:
    """Concept id → community name from a whole communities.json (schema 1: ``{"communities": {name:
    [members]}}``); {} when there is none or it is unreadable."""
    if not data:
        return {}
    try:
        doc = json.loads(data)
        groups = doc["communities"]
        return {str(m): str(name) for name, found in groups.items() for m in found}
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}


def read_record(store: GitStore, tree: str) -> Record:
    """The record stored in ``tree`` (a commit's root tree). Issue 14: its assignment is read on first
    use, so an increment that does not partition (no concept or relation came or went) reads no shard."""
    folder = store.subtree(tree, COMMUNITIES_DIR)
    whole = store.read_file(tree, WHOLE_RECORD_PATH)
    if folder == EMPTY_TREE:
        return load_record((), whole)

    def read() -> Mapping[str, str]:
        return load_record(store.generated_files(folder), whole).assignment

    return Record(_OnFirstUse(read), sharded=True, whole=whole is not None)


class _OnFirstUse(Mapping[str, str]):
    """A read-only mapping loaded by ``load`` when it is first asked anything."""

    __slots__ = ("_load", "_loaded")

    def __init__(self, load: Callable[[], Mapping[str, str]]) -> None:
        self._load = load
        self._loaded: Mapping[str, str] | None = None

    def _data(self) -> Mapping[str, str]:
        if self._loaded is None:
            self._loaded = self._load()
        return self._loaded

    def __getitem__(self, key: str) -> str:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())


def record_files(assignment: Mapping[str, str], parent: Record) -> dict[str, bytes | None]:
    """The files that store ``assignment`` where ``parent`` is stored: only the shards holding a
    concept whose community changed (R24), every shard when the parent is not in shards; ``None``
    removes a shard left empty, and the whole file."""
    old = parent.assignment if parent.sharded else None
    shards = changed_shards(assignment, old, COMMUNITIES_LEVELS, str)
    files: dict[str, bytes | None] = {f"{COMMUNITIES_DIR}/{path}": data for path, data in shards.items()}
    if parent.whole:
        files[WHOLE_RECORD_PATH] = None
    return files


def record_communities(index: Mapping[str, Mapping[str, Any]], parent: Record) -> dict[str, bytes | None]:
    """The files to write for a merged object index: the partition warm-started from the parent
    record, written as the shards whose assignments changed (nothing when none did; every shard
    removed when no concept has a relation)."""
    nodes, edges = semantic_edges(index)
    return record_files(partition(nodes, edges, parent.assignment), parent)


def moved_record(whole: bytes | None) -> dict[str, bytes | None]:
    """R9: a whole communities.json moved into its shards, every assignment unchanged (the storage
    layout move of a schema-1 repo); nothing when there is no such file."""
    if whole is None:
        return {}
    parent = load_record((), whole)
    return record_files(parent.assignment, parent)


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
