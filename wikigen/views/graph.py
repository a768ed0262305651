"""``graph.json``: the semantic graph (V2–V3), pure.

Nodes are concepts only; edges are evidenced relations only. Relations between the same two
concepts are drawn as one edge that keeps every relation — each with its own direction and
predicate — and the edge's weight is their count. A node's degree is the number of relations
touching it. Articles, topics and sources are reading pages: they appear in a node's side panel
(its articles and evidence) and never as nodes, edges or degree. Positions are left to the browser
(``x``/``y`` null) below ``SERVER_LAYOUT_MIN_NODES`` concepts and computed here above it
(``wikigen.views.positions``); they are never written back.

:func:`graph_files` writes that document as the page's files: as it is for a graph the browser lays
out, and in two files for one the build placed, so that a large graph's first frame comes fast:
``graph.json`` in columns, only what the first frame draws, and ``graph-details.json``, what a
click or an edge hover shows, which the page fetches after its first frame.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from wikigen.compiler.communities import community_color
from wikigen.views.groups import DEFAULT_SEED, communities, components
from wikigen.views.layout import GRAPH_PAGE
from wikigen.views.positions import SERVER_LAYOUT_MIN_NODES, layout
from wikigen.views.site import Site, citations_of, label_of

Citation = Mapping[str, Any]
DETAILS_JSON = "graph-details.json"  # beside graph.json
# What a click (the side panel) shows of a concept: not drawn, so not in the columns.
DETAIL_KEYS = ("type", "url", "definition", "articles", "evidence")


def semantic_graph(
    concepts: Mapping[str, Mapping[str, Any]],
    relations: Iterable[Mapping[str, Any]],
    *,
    concept_url: Callable[[str], str] = lambda oid: "",
    article: Callable[[str], tuple[str, str] | None] = lambda oid: None,
    evidence: Callable[[Citation], tuple[str, str]] = lambda c: (str(c["source"]), ""),
    seed: int = DEFAULT_SEED,
    recorded: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The graph.json document for these concepts and relations (URLs from the given callables);
    ``recorded``: the compiler's community record (concept id → community name), if any."""
    edges: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    degree = dict.fromkeys(concepts, 0)
    for relation in relations:
        subject, target = str(relation.get("subject")), str(relation.get("object"))
        # V2: only relations between two concepts, with evidence, are edges; never a self-loop.
        if (
            subject not in concepts
            or target not in concepts
            or subject == target
            or not citations_of(relation)
        ):
            continue
        a, b = sorted((subject, target))
        edges.setdefault((a, b), []).append(relation)
        degree[subject] += 1
        degree[target] += 1

    weighted = [(a, b, len(rels)) for (a, b), rels in edges.items()]
    community = communities(concepts, weighted, seed=seed, recorded=recorded)
    component = components(concepts, weighted)
    sizes = Counter(community.values())
    # V4: above the size the browser's ForceAtlas2 settles, the build places the nodes.
    placed = (
        layout(
            concepts,
            {(a, b): w for a, b, w in weighted},
            community,
            {o: label_of(concepts[o]) for o in concepts},
        )
        if len(concepts) >= SERVER_LAYOUT_MIN_NODES
        else {}
    )

    nodes = []
    for oid in sorted(concepts):
        obj = concepts[oid]
        definition = _definition(obj)
        articles = [found for a in obj.get("articles", []) or [] if (found := article(str(a))) is not None]
        nodes.append(
            {
                "id": oid,
                "label": label_of(obj),
                "type": str(obj.get("type", "concept")),
                "degree": degree[oid],
                "community": community[oid],
                "color": community_color(community[oid], sizes[community[oid]]),
                "component": component[oid],
                "url": concept_url(oid),
                "x": placed[oid][0] if oid in placed else None,
                "y": placed[oid][1] if oid in placed else None,
                "definition": str(definition.get("text", "")),
                "articles": [{"title": title, "url": url} for title, url in articles],
                "evidence": [_evidence(c, evidence) for c in _ordered_citations(obj)],
            }
        )
    return {
        "kind": "semantic",
        "nodes": nodes,
        "edges": [
            {
                "id": f"{a}|{b}",
                "source": a,
                "target": b,
                "weight": len(rels),
                "relations": [
                    {
                        "id": str(r["id"]),
                        "subject": str(r["subject"]),
                        "predicate": str(r["predicate"]),
                        "object": str(r["object"]),
                    }
                    for r in sorted(rels, key=lambda r: str(r["id"]))
                ],
            }
            for (a, b), rels in sorted(edges.items())
        ],
        "communities": len(set(community.values())),
        "layout": "build" if placed else "browser",
        "components": len(set(component.values())),
    }


def _definition(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    definition = obj.get("definition")
    return definition if isinstance(definition, Mapping) else {}


def _ordered_citations(obj: Mapping[str, Any]) -> list[Citation]:
    """The definition's citations first, then the rest, each once."""
    definition = _definition(obj)
    first = [str(cid) for cid in definition.get("citations", []) or []]
    cites = citations_of(obj)
    rank = {cid: i for i, cid in enumerate(first)}
    return sorted(cites, key=lambda c: (rank.get(str(c["citation_id"]), len(rank)),))


def _evidence(citation: Citation, evidence: Callable[[Citation], tuple[str, str]]) -> dict[str, str]:
    source_title, url = evidence(citation)
    return {
        "quote": str(citation.get("quote", "")),
        "source": str(citation["source"]),
        "source_title": source_title,
        "url": url,
        "citation_id": str(citation["citation_id"]),
    }


def site_graph(site: Site, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """graph.json for a site, every URL relative to the graph page."""
    layout = site.layout
    concepts = site.knowledge.of_kind("concept")

    def concept_url(oid: str) -> str:
        return site.href(GRAPH_PAGE, layout.object(oid)) or ""

    def article(oid: str) -> tuple[str, str] | None:
        obj = site.objects.get(oid)
        href = site.href(GRAPH_PAGE, layout.object(oid))
        return None if obj is None or href is None else (label_of(obj), href)

    def evidence(citation: Citation) -> tuple[str, str]:
        source = site.sources.get(str(citation["source"]))
        target = site.target(citation)
        href = site.href(GRAPH_PAGE, target.page, target.anchor or "") or ""
        return (source.title if source else str(citation["source"]), href)

    return semantic_graph(
        concepts,
        site.knowledge.of_kind("relation").values(),
        concept_url=concept_url,
        article=article,
        evidence=evidence,
        seed=seed,
        recorded=site.knowledge.communities,
    )


def graph_files(graph: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The files of the graph page's data, by name beside ``graph.json``: ``graph`` (made by
    :func:`semantic_graph`) as it is, or, when the build placed the nodes, in columns plus details.

    The columns: per node, in ``graph["nodes"]`` order, its id, label, x, y, degree, component,
    colour (an index into ``colors``) and community (the index of the node that names it, -1 when
    none does); per edge, its two ends as node indices and its weight. The details: per node its
    ``DETAIL_KEYS``, per edge its relations, in the same orders. Parsing one JSON array per field
    instead of one object per node is what makes the first frame cheap.
    """
    if graph.get("layout") != "build":
        return {"graph.json": dict(graph)}
    nodes, edges = graph["nodes"], graph["edges"]
    index = {node["id"]: i for i, node in enumerate(nodes)}
    colors = sorted({node["color"] for node in nodes})
    color = {c: i for i, c in enumerate(colors)}
    columns = {
        "kind": graph["kind"],
        "format": "columns",
        "layout": graph["layout"],
        "communities": graph["communities"],
        "components": graph["components"],
        "details": DETAILS_JSON,
        "colors": colors,
        "nodes": {
            "id": [node["id"] for node in nodes],
            "label": [node["label"] for node in nodes],
            "x": [node["x"] for node in nodes],
            "y": [node["y"] for node in nodes],
            "degree": [node["degree"] for node in nodes],
            "component": [node["component"] for node in nodes],
            "color": [color[node["color"]] for node in nodes],
            "community": [index.get(node["community"], -1) for node in nodes],
        },
        "edges": {
            "source": [index[edge["source"]] for edge in edges],
            "target": [index[edge["target"]] for edge in edges],
            "weight": [edge["weight"] for edge in edges],
        },
    }
    details = {
        "kind": "semantic-details",
        "nodes": [{key: node[key] for key in DETAIL_KEYS} for node in nodes],
        "relations": [edge["relations"] for edge in edges],
    }
    return {"graph.json": columns, DETAILS_JSON: details}
