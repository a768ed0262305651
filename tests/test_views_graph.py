"""graph.json (V2–V3): concepts only, evidenced relations only, aggregated edges that keep every
predicate and direction, degree = relation count, deterministic communities named by a member and coloured from that name."""

from __future__ import annotations

import json
import random

from tests.test_views_pages import (
    article,
    cite,
    concept,
    knowledge,
    layout_for,
    relation,
    snapshot,
    source,
)
from wikigen.views.graph import DETAILS_JSON, graph_files, semantic_graph, site_graph
from wikigen.views.groups import communities, components
from wikigen.views.site import Site

NODE_KEYS = {
    "id",
    "label",
    "type",
    "degree",
    "community",
    "color",
    "component",
    "url",
    "x",
    "y",
    "definition",
    "articles",
    "evidence",
}
EDGE_KEYS = {"id", "source", "target", "weight", "relations"}
BODY = "".join(f"Line {i}: REL statement number {i}.\n" for i in range(40))
SRC = source("knowledge/k8s", BODY, title="Kubernetes")


def c(i: int) -> dict:
    return cite(SRC, f"Line {i}:")


def concepts(*names: str) -> dict[str, dict]:
    return {f"concept/{n}": concept(n, [c(i)]) for i, n in enumerate(names)}


def test_relations_between_the_same_concepts_are_one_edge_keeping_every_predicate_and_direction():
    nodes = concepts("pod", "node")
    rels = [
        relation("concept/pod", "runs on", "concept/node", [c(10)], "relation/r1"),
        relation("concept/node", "hosts", "concept/pod", [c(11)], "relation/r2"),
        relation("concept/pod", "is scheduled to", "concept/node", [c(12)], "relation/r3"),
    ]
    graph = semantic_graph(nodes, rels)
    assert graph["kind"] == "semantic"
    assert len(graph["edges"]) == 1
    edge = graph["edges"][0]
    assert set(edge) == EDGE_KEYS
    assert edge["id"] == "concept/node|concept/pod"  # sorted endpoints
    assert (edge["source"], edge["target"]) == ("concept/node", "concept/pod")
    assert edge["weight"] == 3
    assert [(r["id"], r["subject"], r["predicate"], r["object"]) for r in edge["relations"]] == [
        ("relation/r1", "concept/pod", "runs on", "concept/node"),
        ("relation/r2", "concept/node", "hosts", "concept/pod"),
        ("relation/r3", "concept/pod", "is scheduled to", "concept/node"),
    ]


def test_degree_is_the_number_of_relations_touching_a_node():
    nodes = concepts("a", "b", "c", "lonely")
    rels = [
        relation("concept/a", "uses", "concept/b", [c(20)], "relation/1"),
        relation("concept/b", "uses", "concept/a", [c(21)], "relation/2"),
        relation("concept/a", "feeds", "concept/c", [c(22)], "relation/3"),
    ]
    graph = semantic_graph(nodes, rels)
    degree = {n["id"]: n["degree"] for n in graph["nodes"]}
    assert degree == {"concept/a": 3, "concept/b": 2, "concept/c": 1, "concept/lonely": 0}
    assert sum(degree.values()) == 2 * len(rels)
    assert sum(e["weight"] for e in graph["edges"]) == len(rels)


def test_only_evidenced_relations_between_concepts_are_edges():
    nodes = concepts("a", "b")
    rels = [
        relation("concept/a", "uses", "concept/b", [], "relation/no-evidence"),
        relation("concept/a", "cites", "article/x", [c(23)], "relation/to-an-article"),
        relation("concept/a", "is", "concept/a", [c(24)], "relation/self-loop"),
        relation("concept/a", "uses", "concept/b", [c(25)], "relation/ok"),
    ]
    graph = semantic_graph(nodes, rels)
    assert [r["id"] for e in graph["edges"] for r in e["relations"]] == ["relation/ok"]
    assert {n["id"]: n["degree"] for n in graph["nodes"]} == {"concept/a": 1, "concept/b": 1}


def test_reading_pages_add_no_node_edge_or_degree():
    k, _ = snapshot()
    before = site_graph(Site(k, layout_for(k)))
    # More articles and a topic about the same concepts: reading pages, not graph members.
    pods = k.sources["knowledge/pods"]
    extra = [
        article("article/more", "More about pods", [("Pods again.", "stated", [cite(pods, "REL Pod")])]),
        {
            "id": "topic/pods-and-nodes-1",
            "kind": "topic",
            "title": "Pods and nodes",
            "members": ["concept/pod", "concept/node", "article/more"],
            "summary": [],
            "contradictions": [],
            "open_questions": [],
            "citations": [],
        },
    ]
    k2 = knowledge(list(k.sources.values()), [*map(dict, k.objects.values()), *extra])
    after = site_graph(Site(k2, layout_for(k2)))
    assert (
        [n["id"] for n in after["nodes"]]
        == [n["id"] for n in before["nodes"]]
        == ["concept/node", "concept/pod"]
    )
    assert after["edges"] == before["edges"]
    assert [n["degree"] for n in after["nodes"]] == [n["degree"] for n in before["nodes"]] == [1, 1]
    pod = next(n for n in after["nodes"] if n["id"] == "concept/pod")
    assert set(pod) == NODE_KEYS
    # The side panel's data: its articles and evidence, with URLs relative to the graph page.
    assert pod["url"] == "../wiki/concepts/pod/"
    assert pod["articles"] == [{"title": "Pods", "url": "../wiki/articles/knowledge--pods/"}]
    assert pod["x"] is None and pod["y"] is None
    evidence = pod["evidence"][0]
    assert evidence["source"] == "knowledge/pods" and evidence["source_title"].startswith("Pods <script>")
    assert evidence["url"] == f"../sources/knowledge/pods/raw/#c-{evidence['citation_id']}"
    assert evidence["quote"].startswith("Concept Pod:")


def test_a_snapshot_without_concepts_gives_an_empty_graph():
    k = knowledge([SRC], [article("article/k8s", "K8s", [("Text.", "stated", [c(1)])])])
    graph = site_graph(Site(k, layout_for(k)))
    assert graph == {
        "kind": "semantic",
        "nodes": [],
        "edges": [],
        "communities": 0,
        "components": 0,
        "layout": "browser",
    }
    assert json.loads(json.dumps(graph)) == graph


def _two_clusters() -> tuple[dict[str, dict], list[dict]]:
    names = [f"a{i}" for i in range(5)] + [f"b{i}" for i in range(5)] + ["solo"]
    nodes = concepts(*names)
    rels = []
    n = 0
    for group in ("a", "b"):
        for i in range(5):
            for j in range(i + 1, 5):
                rels.append(
                    relation(
                        f"concept/{group}{i}", "links", f"concept/{group}{j}", [c(n % 40)], f"relation/{n:03}"
                    )
                )
                n += 1
    rels.append(relation("concept/a0", "bridges", "concept/b0", [c(39)], "relation/bridge"))
    return nodes, rels


def test_communities_are_deterministic_and_computed_on_the_semantic_graph():
    nodes, rels = _two_clusters()
    first = semantic_graph(nodes, rels, seed=7)
    for attempt in range(5):
        shuffled = rels[:]
        random.Random(attempt).shuffle(shuffled)
        again = semantic_graph(dict(reversed(list(nodes.items()))), shuffled, seed=7)
        assert again == first
    community = {n["id"]: n["community"] for n in first["nodes"]}
    assert len({community[f"concept/a{i}"] for i in range(5)}) == 1
    assert len({community[f"concept/b{i}"] for i in range(5)}) == 1
    assert community["concept/a0"] != community["concept/b0"]
    assert first["communities"] == 3  # two clusters and the isolated concept
    assert first["components"] == 2
    component = {n["id"]: n["component"] for n in first["nodes"]}
    assert component["concept/a3"] == component["concept/b4"] == 0 and component["concept/solo"] == 1


def test_communities_are_named_by_their_most_central_member_and_coloured_from_the_name():
    named = communities(["x", "y", "z", "w"], [("x", "y", 1), ("y", "w", 1)])
    assert named == {"w": "y", "x": "y", "y": "y", "z": "z"}  # z: alone, named by itself
    assert components(["b", "a"], []) == {"a": 0, "b": 1}
    assert communities([], []) == {}
    nodes, rels = _two_clusters()
    graph = semantic_graph(nodes, rels)
    by_id = {n["id"]: n for n in graph["nodes"]}
    assert by_id["concept/solo"]["color"] == "#9e9e9e"  # a lone concept is grey
    a, b = by_id["concept/a1"], by_id["concept/b1"]
    assert a["community"] in nodes and a["color"] != b["color"]


def test_the_views_read_the_recorded_partition():
    """V3/V5: a recorded partition is shown as recorded, names and colours included."""
    nodes, rels = _two_clusters()
    recorded = {oid: "concept/a0" for oid in nodes if oid != "concept/solo"}
    graph = semantic_graph(nodes, rels, recorded=recorded)
    assert {n["community"] for n in graph["nodes"]} == {"concept/a0", "concept/solo"}
    assert len({n["color"] for n in graph["nodes"] if n["id"] != "concept/solo"}) == 1


def test_a_graph_placed_at_build_time_is_written_in_columns_and_details():
    """V4: the big graph's first file holds only what the first frame draws, one array per
    field; the details (what a click or an edge hover shows) are a second file, in the same order."""
    nodes, rels = _two_clusters()
    small = semantic_graph(nodes, rels)
    assert graph_files(small) == {"graph.json": small}  # laid out in the browser: as it is
    placed = {
        **small,
        "layout": "build",
        "nodes": [{**n, "x": 1.5 * i, "y": -i} for i, n in enumerate(small["nodes"])],
    }
    files = graph_files(placed)
    assert set(files) == {"graph.json", DETAILS_JSON}
    columns, details = files["graph.json"], files[DETAILS_JSON]
    assert columns["format"] == "columns" and columns["details"] == DETAILS_JSON
    ids = columns["nodes"]["id"]
    rebuilt = [
        {
            "id": ids[i],
            **{key: columns["nodes"][key][i] for key in ("label", "x", "y", "degree", "component")},
            "color": columns["colors"][columns["nodes"]["color"][i]],
            "community": ids[columns["nodes"]["community"][i]],
            **details["nodes"][i],
        }
        for i in range(len(ids))
    ]
    assert rebuilt == placed["nodes"]
    edges = columns["edges"]
    assert [
        {
            "id": f"{ids[a]}|{ids[b]}",
            "source": ids[a],
            "target": ids[b],
            "weight": w,
            "relations": details["relations"][i],
        }
        for i, (a, b, w) in enumerate(zip(edges["source"], edges["target"], edges["weight"], strict=True))
    ] == placed["edges"]
