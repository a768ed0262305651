"""The community record (V3): Leiden warm-started from the parent record, communities
named by a stable member and coloured from that name, recorded by the compiler, read by the views."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import networkx as nx

from tests.conftest import GitRepo, source
from tests.engines import extract
from tests.old_layout import dump_whole_communities
from wikigen.compiler.communities import (
    community_color,
    kept_share,
    partition,
    record_communities,
    semantic_edges,
)
from wikigen.compiler.community_record import (
    COMMUNITIES_DIR,
    COMMUNITIES_LEVELS,
    WHOLE_RECORD_PATH,
    Record,
    load_record,
)
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.shards import decode_shard, shard_of
from wikigen.store.communities import read_record
from wikigen.store.git import GitStore
from wikigen.views.knowledge import load_knowledge


def power_law(nodes: int, seed: int) -> dict[tuple[str, str], int]:
    graph = nx.powerlaw_cluster_graph(nodes, 2, 0.3, seed=seed)
    return {(min(f"c{a:05}", f"c{b:05}"), max(f"c{a:05}", f"c{b:05}")): 1 for a, b in graph.edges()}


def change(edges: dict[tuple[str, str], int], share: float, seed: int) -> dict[tuple[str, str], int]:
    """``share`` of the relations replaced: half removed, as many added between random concepts."""
    rng = random.Random(seed)
    pairs = sorted(edges)
    removed = set(rng.sample(pairs, int(len(pairs) * share / 2)))
    out = {p: w for p, w in edges.items() if p not in removed}
    nodes = sorted({n for p in edges for n in p})
    while len(out) < len(edges):
        a, b = rng.sample(nodes, 2)
        out[(min(a, b), max(a, b))] = 1
    return out


def test_a_warm_start_keeps_communities_names_and_colours_where_a_fresh_run_does_not():
    edges = power_law(1500, seed=3)
    nodes = sorted({n for p in edges for n in p})
    first = partition(nodes, edges)
    changed = change(edges, 0.01, seed=4)
    warm = partition(nodes, changed, previous=first)
    cold = partition(nodes, changed)
    assert kept_share(first, warm) >= 0.95
    assert kept_share(first, warm) > kept_share(first, cold)
    # The names, hence the colours, are kept too: no matching needed.
    same_name = sum(1 for n in nodes if first[n] == warm[n]) / len(nodes)
    assert same_name >= 0.95
    sizes = Counter(warm.values())
    old_sizes = Counter(first.values())
    same_colour = sum(
        1
        for n in nodes
        if community_color(first[n], old_sizes[first[n]]) == community_color(warm[n], sizes[warm[n]])
    )
    assert same_colour / len(nodes) >= 0.95


def test_a_warm_start_never_runs_a_fresh_partition(monkeypatch):
    """R24: with a parent record only local moves run — no whole Leiden run per compile (its cost
    grows with the graph) and no refresh that moves thousands of concepts at once. Many compiles of
    1% changes each keep the communities close to a fresh run's modularity all the same."""
    import igraph as ig
    import leidenalg as la

    edges = power_law(1500, seed=5)
    nodes = sorted({n for p in edges for n in p})
    record = partition(nodes, edges)
    fresh_run = la.find_partition
    monkeypatch.setattr(la, "find_partition", lambda *a, **k: (_ for _ in ()).throw(AssertionError("fresh run")))
    for step in range(10):
        edges = change(edges, 0.01, seed=10 + step)
        moved = partition(nodes, edges, previous=record)
        assert kept_share(record, moved) >= 0.95
        record = moved
    monkeypatch.setattr(la, "find_partition", fresh_run)
    linked = sorted({n for p in edges for n in p})
    position = {n: i for i, n in enumerate(linked)}
    graph = ig.Graph(n=len(linked), edges=[(position[a], position[b]) for a, b in sorted(edges)])
    warm_q = graph.modularity(_labels(record, linked))
    fresh_q = graph.modularity(_labels(partition(linked, edges), linked))
    assert warm_q >= 0.95 * fresh_q, (warm_q, fresh_q)


def test_a_large_change_takes_a_fresh_partition_so_a_batch_baseline_stays_good():
    """V3: increments that add many concepts (a --batch baseline) partition afresh, names
    carried over; local moves alone, growing the graph from nothing, fall far behind a fresh run."""
    import igraph as ig

    edges = power_law(1500, seed=6)
    order = sorted({n for p in edges for n in p}, key=lambda n: hashlib.sha1(n.encode()).hexdigest())
    record: dict[str, str] = {}
    for size in range(150, 1501, 150):  # ten increments of 150 concepts (over REFRESH_MIN)
        present = set(order[:size])
        grown = {p: w for p, w in edges.items() if p[0] in present and p[1] in present}
        record = partition(present, grown, previous=record)
    linked = sorted({n for p in edges for n in p})
    position = {n: i for i, n in enumerate(linked)}
    graph = ig.Graph(n=len(linked), edges=[(position[a], position[b]) for a, b in sorted(edges)])
    assert graph.modularity(_labels(record, linked)) >= 0.99 * graph.modularity(_labels(partition(linked, edges), linked))


def _labels(assignment: dict[str, str], order: list[str]) -> list[int]:
    labels: dict[str, int] = {}
    return [labels.setdefault(assignment[n], len(labels)) for n in order]


def test_a_community_is_named_by_a_member_its_most_central_one_when_new():
    edges = {("a", "b"): 1, ("b", "c"): 1, ("b", "d"): 1, ("x", "y"): 2, ("y", "z"): 1}
    named = partition(["a", "b", "c", "d", "x", "y", "z", "lone"], edges)
    assert named == {"a": "b", "b": "b", "c": "b", "d": "b", "x": "y", "y": "y", "z": "y"}
    # A recorded name that is still a member is kept, even when another member is now more central.
    more = {**edges, ("a", "c"): 3, ("a", "d"): 3}
    assert partition(["a", "b", "c", "d", "x", "y", "z"], more, previous=named)["a"] == "b"
    assert partition(["a", "b", "c", "d", "x", "y", "z"], more)["a"] == "a"


def test_colours_come_from_the_name_alone():
    assert community_color("concept/pod") == community_color("concept/pod")
    assert community_color("concept/pod").startswith("#") and len(community_color("concept/pod")) == 7
    assert community_color("concept/pod") != community_color("concept/node")
    assert community_color("concept/pod", size=1) == community_color(None) == "#9e9e9e"


def stored(files: dict[str, bytes | None]) -> Record:
    """The record as a reader finds it after ``files`` are written (over nothing)."""
    shards = [(p, d) for p, d in files.items() if p.startswith(COMMUNITIES_DIR + "/") and d is not None]
    return load_record(shards, None)


def test_the_record_round_trips_through_its_shards_and_is_not_rewritten_when_unchanged():
    index = {
        "concept/a": {"kind": "concept"},
        "concept/b": {"kind": "concept"},
        "concept/c": {"kind": "concept"},
        "relation/1": {"kind": "relation", "subject": "concept/a", "object": "concept/b"},
        "relation/2": {"kind": "relation", "subject": "concept/b", "object": "concept/a"},
    }
    assert semantic_edges(index) == (["concept/a", "concept/b", "concept/c"], {("concept/a", "concept/b"): 2})
    files = record_communities(index, Record())
    # One shard per sha1 prefix, {concept id: community name}; c has no relation.
    assert set(files) == {f"{COMMUNITIES_DIR}/{shard_of(c, COMMUNITIES_LEVELS)}" for c in ("concept/a", "concept/b")}
    merged: dict[str, str] = {}
    for data in files.values():
        assert data is not None
        merged.update(decode_shard(data))
    assert merged == {"concept/a": "concept/a", "concept/b": "concept/a"}
    record = stored(files)
    assert record.sharded and not record.whole and dict(record.assignment) == merged
    assert record_communities(index, record) == {}  # R24: unchanged, not rewritten
    no_relations = {k: v for k, v in index.items() if k.startswith("concept/")}
    assert record_communities(no_relations, record) == dict.fromkeys(files)  # every shard removed
    assert load_record([("ab/c.json", b"not json")], None) == Record(sharded=True)


def test_a_whole_record_is_read_as_the_parent_and_moved_into_shards():
    """A repo that still holds a whole communities.json (written before the record was sharded) reads
    it as the parent; the next write stores every shard and removes the file, colours kept."""
    index = {
        **{f"concept/{n}": {"kind": "concept"} for n in "abcd"},
        "relation/1": {"kind": "relation", "subject": "concept/a", "object": "concept/b"},
        "relation/2": {"kind": "relation", "subject": "concept/c", "object": "concept/d"},
    }
    old = {"concept/a": "concept/b", "concept/b": "concept/b", "concept/c": "concept/c", "concept/d": "concept/c"}
    parent = load_record((), dump_whole_communities(old))
    assert parent.whole and not parent.sharded and dict(parent.assignment) == old
    files = record_communities(index, parent)
    assert files.pop(WHOLE_RECORD_PATH) is None
    assert dict(stored(files).assignment) == old  # the names (so the colours) carried over
    # Shards and a leftover whole file: the shards are the record, the file only goes.
    both = load_record(list(files.items()), dump_whole_communities({"concept/a": "concept/x"}))
    assert dict(both.assignment) == old and record_communities(index, both) == {WHOLE_RECORD_PATH: None}


K = "content/sources/knowledge"
HUB = "Intro.\n\nConcept Pod: a unit.\nConcept Node: a machine.\nConcept Volume: a disk.\nConcept Label: a tag.\n\nREL Pod -runs on-> Node.\nREL Pod -uses-> Volume.\nREL Pod -has-> Label.\n"
OTHER = "Intro.\n\nConcept Cache: a store.\nConcept Entry: an item.\n\nREL Cache -holds-> Entry.\nREL Cache -evicts-> Entry.\n"


def test_the_compiler_records_the_partition_and_the_views_read_it(git_repo: GitRepo):
    git_repo.commit(
        {f"{K}/pods.md": source(HUB, title="Pods"), f"{K}/cache.md": source(OTHER, title="Cache")}
    )
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    store = GitStore(git_repo.root)
    tree = store.commit_tree(store.head_commit())
    folder = store.subtree(tree, COMMUNITIES_DIR)
    record = read_record(store, tree).assignment
    assert record["concept/node"] == record["concept/pod"] == "concept/pod"
    assert record["concept/entry"] == record["concept/cache"]
    assert load_knowledge(git_repo.root).communities == record
    assert store.read_file(tree, WHOLE_RECORD_PATH) is None  # no whole file: shards only
    # Another source's edit leaves the record alone when no community changes (warm start).
    git_repo.commit({f"{K}/cache.md": source(OTHER + "\nMore text.\n", title="Cache")})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert store.subtree(store.commit_tree(store.head_commit()), COMMUNITIES_DIR) == folder


def test_an_edit_that_adds_no_concept_or_relation_reads_no_community_shard(git_repo: GitRepo, monkeypatch):
    """R24: the record is read on first use, and only the partition uses it, so an increment in
    which no concept or relation came or went reads none of its shards (it stays as it is)."""
    git_repo.commit(
        {f"{K}/pods.md": source(HUB, title="Pods"), f"{K}/cache.md": source(OTHER, title="Cache")}
    )
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    store = GitStore(git_repo.root)
    before = read_record(store, store.commit_tree(store.head_commit())).assignment
    folders: list[str] = []
    generated_files = GitStore.generated_files

    def counted(self: GitStore, tree: str):  # type: ignore[no-untyped-def]
        folders.append(tree)
        return generated_files(self, tree)

    monkeypatch.setattr(GitStore, "generated_files", counted)
    git_repo.commit({f"{K}/cache.md": source(OTHER + "\nMore text.\n", title="Cache")})
    report = compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert report.published
    head = store.commit_tree(store.head_commit())
    communities = store.subtree(head, COMMUNITIES_DIR)
    assert communities not in folders  # never read, yet the record stands as it was
    assert dict(read_record(store, head).assignment) == dict(before)
    assert communities in folders  # read when asked


def test_the_partition_does_not_depend_on_the_order_of_the_index():
    """V3: the mirror hands the partition the graph in its table's order, not by id."""
    edges = power_law(400, seed=5)
    index: dict[str, dict[str, str]] = {}
    for a, b in edges:
        index[a] = index[b] = {"kind": "concept"}
    for i, (a, b) in enumerate(sorted(edges)):
        index[f"relation/r{i:05}"] = {"kind": "relation", "subject": a, "object": b}
    first = record_communities(index, Record())
    parent = load_record(((p, d) for p, d in first.items() if d is not None), None)
    shuffled = list(index.items())
    random.Random(6).shuffle(shuffled)
    assert record_communities(dict(shuffled), Record()) == first
    changed = dict(shuffled)
    changed.pop(next(k for k in changed if k.startswith("relation/")))
    assert record_communities(changed, parent) == record_communities(dict(sorted(changed.items())), parent)
