"""Communities and connected components of the semantic graph (V3), numbered deterministically.

Communities come from networkx's Louvain implementation with a fixed seed, computed on the semantic
graph alone (concepts and evidenced relations, weighted by relation count): reading pages never
take part. Numbers are assigned by size, then by the smallest member id, so the same snapshot
always gets the same numbers (and the same colours in the browser).
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

DEFAULT_SEED = 42


def _numbered(groups: Iterable[Iterable[str]]) -> dict[str, int]:
    ordered = sorted((sorted(g) for g in groups), key=lambda g: (-len(g), g[0]))
    return {node: number for number, group in enumerate(ordered) for node in group}


def _graph(nodes: Iterable[str], edges: Iterable[tuple[str, str, int]]) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(sorted(nodes))
    for a, b, weight in sorted(edges):
        graph.add_edge(a, b, weight=weight)
    return graph


def communities(
    nodes: Iterable[str], edges: Iterable[tuple[str, str, int]], seed: int = DEFAULT_SEED
) -> dict[str, int]:
    """Node id → community number (Louvain, fixed seed); an isolated node is its own community."""
    graph = _graph(nodes, edges)
    if graph.number_of_nodes() == 0:
        return {}
    found = nx.community.louvain_communities(graph, weight="weight", seed=seed)
    return _numbered(found)


def components(nodes: Iterable[str], edges: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    """Node id → connected component number."""
    return _numbered(nx.connected_components(_graph(nodes, edges)))
