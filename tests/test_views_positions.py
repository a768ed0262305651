"""Build-time positions of big graphs (V4): deterministic, stable under a small change,
communities apart, isolated concepts in a band beside the connected part."""

from __future__ import annotations

import statistics

from tests.test_communities import change, power_law
from wikigen.compiler.communities import partition
from wikigen.views.positions import layout


def _extent(pos: dict[str, tuple[float, float]]) -> float:
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def test_positions_are_deterministic_and_a_small_change_moves_little():
    edges = power_law(1500, seed=5)
    nodes = sorted({n for p in edges for n in p}) + [f"lone{i}" for i in range(40)]
    community = partition(nodes, edges)
    first = layout(nodes, edges, community)
    assert layout(list(reversed(nodes)), dict(reversed(list(edges.items()))), community) == first
    changed = change(edges, 0.01, seed=6)
    after = layout(nodes, changed, partition(nodes, changed, previous=community))
    moved = [((first[n][0] - after[n][0]) ** 2 + (first[n][1] - after[n][1]) ** 2) ** 0.5 for n in nodes]
    assert statistics.median(moved) <= 0.05 * _extent(first)


def test_isolated_concepts_sit_in_a_band_beside_the_connected_part_in_label_order():
    edges = {("a", "b"): 1, ("b", "c"): 1, ("x", "y"): 1}
    nodes = ["a", "b", "c", "x", "y", "zeta", "alpha", "mid"]
    labels = {"zeta": "Zeta", "alpha": "Alpha", "mid": "Mid"}
    pos = layout(nodes, edges, partition(nodes, edges), labels)
    right = max(pos[n][0] for n in "abcxy")
    assert all(pos[n][0] > right for n in labels)
    # Column by column, top to bottom on the page: the page's y axis points up.
    band = sorted(labels, key=lambda n: (pos[n][0], -pos[n][1]))
    assert band == ["alpha", "mid", "zeta"]


def test_community_disks_do_not_overlap():
    edges = power_law(800, seed=8)
    nodes = sorted({n for p in edges for n in p})
    community = partition(nodes, edges)
    pos = layout(nodes, edges, community)
    groups: dict[str, list[tuple[float, float]]] = {}
    for n, c in community.items():
        groups.setdefault(c, []).append(pos[n])
    boxes = {
        c: (min(p[0] for p in ps), min(p[1] for p in ps), max(p[0] for p in ps), max(p[1] for p in ps))
        for c, ps in groups.items()
    }
    centres = {c: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for c, b in boxes.items()}
    # Each community's centre lies outside every other community's bounding box.
    for c, (x, y) in centres.items():
        for d, box in boxes.items():
            if d != c and len(groups[d]) > 3:
                assert not (box[0] < x < box[2] and box[1] < y < box[3]), (c, d)
