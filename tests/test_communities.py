"""The community record (V3, issue 13.3): Leiden warm-started from the parent record, communities
named by a stable member and coloured from that name, recorded by the compiler, read by the views."""

from __future__ import annotations

import json
import random
from collections import Counter

import networkx as nx

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.communities import (
    COMMUNITIES_PATH,
    community_color,
    dump_record,
    kept_share,
    load_record,
    partition,
    record_communities,
    semantic_edges,
)
from wikigen.engines.scripted import ScriptedEngine
from wikigen.pipeline import compile_repo
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


def test_the_record_round_trips_and_is_not_rewritten_when_unchanged():
    index = {
        "concept/a": {"kind": "concept"},
        "concept/b": {"kind": "concept"},
        "concept/c": {"kind": "concept"},
        "relation/1": {"kind": "relation", "subject": "concept/a", "object": "concept/b"},
        "relation/2": {"kind": "relation", "subject": "concept/b", "object": "concept/a"},
    }
    assert semantic_edges(index) == (["concept/a", "concept/b", "concept/c"], {("concept/a", "concept/b"): 2})
    files = record_communities(index, None)
    data = files[COMMUNITIES_PATH]
    assert data is not None
    doc = json.loads(data)
    assert doc["communities"] == {"concept/a": ["concept/a", "concept/b"]}  # c has no relation
    assert load_record(data) == {"concept/a": "concept/a", "concept/b": "concept/a"}
    assert dump_record(load_record(data)) == data
    assert record_communities(index, data) == {}  # R24: unchanged, not rewritten
    no_relations = {k: v for k, v in index.items() if k.startswith("concept/")}
    assert record_communities(no_relations, data) == {COMMUNITIES_PATH: None}
    assert load_record(b"not json") == {}


K = "content/sources/knowledge"
HUB = "Intro.\n\nConcept Pod: a unit.\nConcept Node: a machine.\nConcept Volume: a disk.\nConcept Label: a tag.\n\nREL Pod -runs on-> Node.\nREL Pod -uses-> Volume.\nREL Pod -has-> Label.\n"
OTHER = "Intro.\n\nConcept Cache: a store.\nConcept Entry: an item.\n\nREL Cache -holds-> Entry.\nREL Cache -evicts-> Entry.\n"


def test_the_compiler_records_the_partition_and_the_views_read_it(git_repo: GitRepo):
    git_repo.commit(
        {f"{K}/pods.md": source(HUB, title="Pods"), f"{K}/cache.md": source(OTHER, title="Cache")}
    )
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    data = git_repo.repo.revparse_single(f"HEAD:{COMMUNITIES_PATH}").data
    record = load_record(data)
    assert record["concept/node"] == record["concept/pod"] == "concept/pod"
    assert record["concept/entry"] == record["concept/cache"]
    assert load_knowledge(git_repo.root).communities == record
    # Another source's edit leaves the record alone when no community changes (warm start).
    git_repo.commit({f"{K}/cache.md": source(OTHER + "\nMore text.\n", title="Cache")})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert git_repo.repo.revparse_single(f"HEAD:{COMMUNITIES_PATH}").data == data
