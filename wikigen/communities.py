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
two is split into its connected parts, and when the warm partition's modularity falls clearly
below a fresh run's, the fresh one is taken (names still carried over by overlap).

The record, ``content/.wikigen/communities.json``, is one small file: each community's name and its
members, one member per line so that a commit's diff is the concepts that moved.
"""

from __future__ import annotations

import colorsys
import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

COMMUNITIES_PATH = "content/.wikigen/communities.json"
SCHEMA = 1
SEED = 42
ALGORITHM = "leiden-modularity; warm start: local moves from the parent record"
REFRESH_BELOW = 0.97  # a warm partition under this share of a fresh one's modularity is replaced
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
    position = {n: i for i, n in enumerate(linked)}
    pairs = sorted(edges.items())
    graph = ig.Graph(n=len(linked), edges=[(position[a], position[b]) for (a, b), _ in pairs])
    graph.es["weight"] = [w for _, w in pairs]

    def fresh() -> Any:
        return la.find_partition(
            graph, la.ModularityVertexPartition, weights="weight", seed=seed, n_iterations=-1
        )

    if previous:
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
        reference = fresh()
        # Both by igraph's modularity: leidenalg's ``.modularity`` normalizes weights otherwise.
        warm_q = graph.modularity(_membership(groups, len(linked)), weights="weight")
        if warm_q < REFRESH_BELOW * graph.modularity(reference.membership, weights="weight"):
            groups = [list(c) for c in reference]
    else:
        groups = [list(c) for c in fresh()]
    members = [sorted(linked[i] for i in group) for group in groups]
    return _named(members, edges, previous or {})


def _membership(groups: list[list[int]], size: int) -> list[int]:
    membership = [0] * size
    for number, group in enumerate(groups):
        for i in group:
            membership[i] = number
    return membership


def _connected_parts(graph: Any, membership: list[int]) -> list[list[int]]:
    """The communities, each split into its connected parts (a removed relation may cut one)."""
    by_label: dict[int, list[int]] = {}
    for i, label in enumerate(membership):
        by_label.setdefault(label, []).append(i)
    groups: list[list[int]] = []
    for vertices in by_label.values():
        sub = graph.subgraph(vertices)
        for part in sub.connected_components():
            groups.append(sorted(vertices[j] for j in part))
    return groups


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


def load_record(data: bytes | None) -> dict[str, str]:
    """Concept id → community name from a record's bytes ({} when there is none or it is unreadable:
    the next compile then starts fresh, which is correct, only less stable)."""
    if not data:
        return {}
    try:
        doc = json.loads(data)
        groups = doc["communities"]
        return {str(m): str(name) for name, found in groups.items() for m in found}
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}


def dump_record(assignment: Mapping[str, str], seed: int = SEED) -> bytes:
    groups: dict[str, list[str]] = {}
    for node, name in assignment.items():
        groups.setdefault(name, []).append(node)
    doc = {
        "schema": SCHEMA,
        "algorithm": ALGORITHM,
        "seed": seed,
        "communities": {name: sorted(found) for name, found in sorted(groups.items())},
    }
    return (json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


def record_communities(
    index: Mapping[str, Mapping[str, Any]], parent: bytes | None
) -> dict[str, bytes | None]:
    """The files to write for a merged object index: the record warm-started from the parent's
    bytes, ``None`` to remove it when no concept has a relation, nothing when it would be
    byte-identical to the parent's (R24: nothing unaffected is rewritten)."""
    nodes, edges = semantic_edges(index)
    assignment = partition(nodes, edges, load_record(parent))
    data = dump_record(assignment) if assignment else None
    return {} if data == parent else {COMMUNITIES_PATH: data}


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
