"""Local moves of the community partition (V3): the parent record brought to a changed graph
from the concepts whose relations changed, reading only their neighbourhood of the graph and record."""

from __future__ import annotations

import random
from typing import Any

import networkx as nx

from tests.conftest import GitRepo
from tests.engines import extract
from tests.test_communities import power_law
from tests.test_shards import K, communities_at, corpus
from wikigen.compiler.communities import MemoryView, kept_share, partition, semantic_edges
from wikigen.compiler.community_moves import local_moves
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine
from wikigen.store.git import GitStore
from wikigen.store.snapshot import read_snapshot

Edges = dict[tuple[str, str], int]


def changed(edges: Edges, seed: int) -> Edges:
    """About 1% of the relations removed and as many added, two concepts gone with all their
    relations, three new ones related to old ones."""
    rng = random.Random(seed)
    pairs = sorted(edges)
    nodes = sorted({n for p in edges for n in p})
    gone = set(rng.sample(nodes, 2))
    out = {p: w for p, w in edges.items() if not (set(p) & gone)}
    for p in rng.sample(sorted(out), len(pairs) // 200):
        del out[p]
    alive = sorted(set(nodes) - gone)
    for _ in range(len(pairs) // 200):
        a, b = rng.sample(alive, 2)
        out[(min(a, b), max(a, b))] = out.get((min(a, b), max(a, b)), 0) + 1
    for i in range(3):
        new = f"n{seed:03}{i}"
        for other in rng.sample(alive, 2):
            out[(min(new, other), max(new, other))] = 1
    return out


def difference(before: Edges, after: Edges) -> tuple[list[str], list[tuple[str, str]]]:
    """The seeds (ends of every pair whose weight changed) and the cut (pairs that lost weight)."""
    pairs = {p for p in set(before) | set(after) if before.get(p, 0) != after.get(p, 0)}
    cut = sorted(p for p in pairs if after.get(p, 0) < before.get(p, 0))
    return sorted({n for p in pairs for n in p}), cut


def check_record(record: dict[str, str], edges: Edges) -> None:
    """What every record holds: exactly the linked concepts, each community connected and named by one
    of its members."""
    graph = nx.Graph(list(edges))
    assert set(record) == set(graph.nodes)
    groups: dict[str, set[str]] = {}
    for n, name in record.items():
        groups.setdefault(name, set()).add(n)
    for name, members in groups.items():
        assert name in members
        assert nx.is_connected(graph.subgraph(members)), name


def test_local_moves_keep_the_record_whole_connected_and_close_to_a_fresh_run():
    """V3: ten changes, each seeded with only the concepts whose relations changed (what the
    compiler knows), keep every invariant of the record, keep ≥ 95% of assignments each time, and
    stay within 5% of a fresh run's modularity."""
    import igraph as ig

    edges = power_law(1500, seed=21)
    record = partition(sorted({n for p in edges for n in p}), edges)
    for step in range(10):
        after = changed(edges, seed=30 + step)
        seeds, cut = difference(edges, after)
        nodes = sorted({n for p in after for n in p})
        moved = partition(nodes, after, previous=record, changed=seeds, cut=cut)
        check_record(moved, after)
        assert kept_share(record, moved) >= 0.95
        record, edges = moved, after
    linked = sorted(record)
    position = {n: i for i, n in enumerate(linked)}
    graph = ig.Graph(n=len(linked), edges=[(position[a], position[b]) for a, b in sorted(edges)])
    graph.es["weight"] = [edges[p] for p in sorted(edges)]
    labels: dict[str, int] = {}
    local_q = graph.modularity([labels.setdefault(record[n], len(labels)) for n in linked], weights="weight")
    labels = {}
    fresh = partition(linked, edges)
    fresh_q = graph.modularity([labels.setdefault(fresh[n], len(labels)) for n in linked], weights="weight")
    assert local_q >= 0.95 * fresh_q, (local_q, fresh_q)


class CountingView(MemoryView):
    """A view that counts the concepts and communities the moves asked about."""

    def __init__(self, edges: Edges, previous: dict[str, str]) -> None:
        super().__init__(edges, previous)
        self.asked: set[str] = set()
        self.communities: set[str] = set()

    def neighbours(self, node: str) -> Any:
        self.asked.add(node)
        return super().neighbours(node)

    def members(self, name: str) -> Any:
        self.communities.add(name)
        return super().members(name)


def test_a_local_update_reads_the_neighbourhood_of_the_change_only():
    edges = power_law(3000, seed=8)
    record = partition(sorted({n for p in edges for n in p}), edges)
    a, b = "c00100", "c02900"
    after = {**edges, (a, b): edges.get((a, b), 0) + 1}
    view = CountingView(after, record)
    moves = local_moves(view, [a, b])
    # The two ends and at most a few concepts near them; their communities, not all of them.
    assert {a, b} <= view.asked and len(view.asked) <= 60, len(view.asked)
    assert len(view.communities) <= 12 < len(set(record.values()))
    assert len(moves) <= 60


def test_a_cut_community_is_split_and_the_part_without_its_name_is_named_by_its_centre():
    """V3."""
    # One community of two triangles joined by a bridge, named "b"; the bridge c–d is removed.
    edges = {("a", "b"): 1, ("a", "c"): 1, ("b", "c"): 1, ("c", "d"): 1, ("d", "e"): 2, ("d", "f"): 1, ("e", "f"): 2}
    edges |= {("x", "y"): 1, ("y", "z"): 1, ("x", "z"): 1}
    previous = {n: "b" for n in "abcdef"} | {n: "x" for n in "xyz"}
    after = {p: w for p, w in edges.items() if p != ("c", "d")}
    moved = partition(sorted(previous), after, previous=previous, changed=["c", "d"], cut=[("c", "d")])
    check_record(moved, after)
    assert moved == {**{n: "b" for n in "abc"}, **{n: "e" for n in "def"}, **{n: "x" for n in "xyz"}}
    # The last relation of "f" goes: it leaves the record; a new concept joins with its first one.
    later = {p: w for p, w in after.items() if "f" not in p} | {("q", "x"): 1}
    seeds, cut = difference(after, later)
    again = partition(sorted(set(moved) | {"q"}), later, previous=moved, changed=seeds, cut=cut)
    check_record(again, later)
    assert "f" not in again and again["q"] == "x" and again["d"] == again["e"]


def test_the_compiler_updates_the_stored_record_as_the_local_moves_do_in_memory(git_repo: GitRepo):
    """The stored path (the lookup mirror, the record's cache and the increment's relations over them)
    gives the same record as the moves over the whole graph held in memory, seeded the same way."""
    files = corpus()
    git_repo.commit(files)
    assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published
    edits = {
        f"{K}/s05.md": files[f"{K}/s05.md"].replace("REL Term5 -depends on-> Term4.", "REL Term5 -depends on-> Term30."),
        f"{K}/s12.md": files[f"{K}/s12.md"] + "\nREL Term12 -feeds-> Term3.\n",
        f"{K}/s20.md": files[f"{K}/s20.md"].replace("REL Term20 -depends on-> Term19.", ""),
    }
    for step in range(2):
        git_repo.commit(edits if step == 0 else {f"{K}/s33.md": files[f"{K}/s33.md"] + "\nREL Term33 -feeds-> Term2.\n"})
        assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published
        store = GitStore(git_repo.root)
        graphs = []
        for rev in ("HEAD~1", "HEAD"):
            index = dict(read_snapshot(store, store.commit_tree(store.resolve(rev))).objects.items())
            graphs.append(semantic_edges(index))
        (_, before), (nodes, after) = graphs
        seeds, cut = difference(before, after)
        assert seeds  # the edit changed relations
        previous = communities_at(git_repo, "HEAD~1")
        expected = partition(nodes, after, previous=previous, changed=seeds, cut=cut)
        assert communities_at(git_repo, "HEAD") == expected
        check_record(expected, after)
