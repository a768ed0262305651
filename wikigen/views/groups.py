"""Communities and connected components of the semantic graph (V3), as the views show them.

The partition is the compiler's record (``wikigen.compiler.communities``, in ``content/.wikigen/``): the views
only read it (V5). A snapshot compiled before the record existed gets the same cold partition,
computed here in memory and written nowhere. A community is named by a stable member and
coloured from that name; an isolated concept is its own community, named by itself. Components are
numbered by size, then by their smallest member id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from wikigen.compiler.communities import SEED, partition

DEFAULT_SEED = SEED


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
    nodes: Iterable[str],
    edges: Iterable[tuple[str, str, int]],
    seed: int = DEFAULT_SEED,
    recorded: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Node id → community name: the recorded one, else a cold partition of these edges; a node the
    partition leaves out (no relation) is its own community, named by itself."""
    nodes = sorted(nodes)
    if recorded is None:
        pairs: dict[tuple[str, str], int] = {}
        for a, b, weight in edges:
            pair = (min(a, b), max(a, b))
            pairs[pair] = pairs.get(pair, 0) + weight
        recorded = partition(nodes, pairs, seed=seed)
    return {node: recorded.get(node, node) for node in nodes}


def components(nodes: Iterable[str], edges: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    """Node id → connected component number."""
    return _numbered(nx.connected_components(_graph(nodes, edges)))
