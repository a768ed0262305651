"""Positions of a big semantic graph, computed at build time (V4), pure and deterministic.

In the browser ForceAtlas2 settles a few thousand concepts in its time budget; above
:data:`SERVER_LAYOUT_MIN_NODES` it stops early and leaves a blob, so the build places the nodes
and ``graph.json`` carries x/y: the browser only draws.

The positions are a function of the recorded communities and the node ids alone, so a small change
moves little:

- each community is a disk whose area is its size, centred at a point drawn from a hash of its name
  (its stable identity, ``wikigen.compiler.communities``), then pushed apart from the disks it overlaps;
- each concept starts at a point of its community's disk drawn from a hash of its id, then is
  pulled halfway towards its neighbours in the community, anchored to that point (so related
  concepts sit together and a community keeps its spread);
- concepts with no relation are not scattered among the others: they are set out in a band beside
  the connected part, in rows, in order of their label (``A`` to ``Z``).

Positions are visual only (V4) and never written back.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping

import numpy as np

SERVER_LAYOUT_MIN_NODES = 2000  # measured with scripts/bench_graph.py (see docs): FA2 settles below
SPACING = 10.0  # graph units per concept: a disk of n concepts has area n * SPACING**2
PADDING = 2 * SPACING  # between two community disks
SMOOTHING_STEPS = 6
SMOOTHING = 0.5  # weight of the neighbours' mean against the node's own seeded point
SEPARATION_ROUNDS = 200
BAND_GAP = 4 * SPACING  # between the connected part and the band of isolated concepts
BAND_COLUMN = 16 * SPACING  # one column of isolated concepts: room for a label


def _unit(text: str, salt: str) -> tuple[float, float]:
    digest = hashlib.sha256(f"{salt}\0{text}".encode()).digest()
    return (
        int.from_bytes(digest[:8], "big") / 2**64,
        int.from_bytes(digest[8:16], "big") / 2**64,
    )


def _in_disk(text: str, salt: str) -> tuple[float, float]:
    """A point of the unit disk, uniform, drawn from ``text``."""
    u, v = _unit(text, salt)
    r, angle = math.sqrt(u), 2 * math.pi * v
    return r * math.cos(angle), r * math.sin(angle)


def layout(
    nodes: Iterable[str],
    edges: Mapping[tuple[str, str], int],
    community: Mapping[str, str],
    labels: Mapping[str, str] | None = None,
) -> dict[str, tuple[float, float]]:
    """Node id → (x, y): communities placed stably, nodes inside them from a seed, the isolated
    concepts in a band to the right, ordered by label then id."""
    nodes = sorted(nodes)
    linked = sorted({n for pair in edges for n in pair} & set(nodes))
    groups: dict[str, list[str]] = {}
    for n in linked:
        groups.setdefault(community.get(n, n), []).append(n)
    names = sorted(groups)
    sizes = np.array([len(groups[c]) for c in names], dtype=float)
    radii = SPACING * np.sqrt(sizes / math.pi) + SPACING
    centres = _place_disks(names, radii)

    position: dict[str, tuple[float, float]] = {}
    index = {n: i for i, n in enumerate(linked)}
    points = np.zeros((len(linked), 2))
    home = np.zeros(len(linked), dtype=int)
    for c, name in enumerate(names):
        for n in groups[name]:
            px, py = _in_disk(n, "node")
            points[index[n]] = centres[c] + 0.9 * radii[c] * np.array([px, py])
            home[index[n]] = c
    points = _smooth(points, home, centres, radii, edges, index)
    for n, i in index.items():
        position[n] = (round(float(points[i, 0]), 2), round(float(points[i, 1]), 2))

    isolated = [n for n in nodes if n not in index]
    position.update(_band(isolated, points, labels or {}))
    return position


def _place_disks(names: list[str], radii: np.ndarray) -> np.ndarray:
    """Disk centres: each drawn from its name in a disk big enough for all, then overlaps pushed
    apart (larger disks move less). The same names and radii give the same centres."""
    if not names:
        return np.zeros((0, 2))
    room = 1.2 * math.sqrt(float(np.sum((radii + PADDING) ** 2)))
    centres = np.array([_in_disk(name, "community") for name in names]) * room
    weight = 1.0 / radii**2
    for _ in range(SEPARATION_ROUNDS):
        delta = centres[:, None, :] - centres[None, :, :]
        distance = np.sqrt(np.sum(delta**2, axis=2))
        needed = radii[:, None] + radii[None, :] + PADDING
        overlap = needed - distance
        np.fill_diagonal(overlap, 0.0)
        overlap[overlap < 0] = 0.0
        if not overlap.any():
            break
        # Coincident centres: separate along a direction drawn from the pair's indices.
        safe = np.where(distance > 1e-9, distance, 1.0)
        direction = delta / safe[:, :, None]
        share = weight[:, None] / (weight[:, None] + weight[None, :])
        push = (overlap * share)[:, :, None] * direction
        centres = centres + 0.5 * push.sum(axis=1)
    return centres


def _smooth(
    points: np.ndarray,
    home: np.ndarray,
    centres: np.ndarray,
    radii: np.ndarray,
    edges: Mapping[tuple[str, str], int],
    index: Mapping[str, int],
) -> np.ndarray:
    """A few steps of pulling each node towards the mean of its neighbours in its own community,
    kept inside the community's disk."""
    pairs = np.array(
        [(index[a], index[b], w) for (a, b), w in sorted(edges.items()) if a in index and b in index],
        dtype=float,
    ).reshape(-1, 3)
    if len(pairs) == 0:
        return points
    a, b, w = pairs[:, 0].astype(int), pairs[:, 1].astype(int), pairs[:, 2]
    same = home[a] == home[b]
    a, b, w = a[same], b[same], w[same]
    seeded = points.copy()
    for _ in range(SMOOTHING_STEPS):
        total = np.zeros_like(points)
        weight = np.zeros(len(points))
        np.add.at(total, a, points[b] * w[:, None])
        np.add.at(total, b, points[a] * w[:, None])
        np.add.at(weight, a, w)
        np.add.at(weight, b, w)
        has = weight > 0
        target = points.copy()
        target[has] = total[has] / weight[has, None]
        # Anchored to the seeded point, so a community keeps its spread instead of collapsing.
        points = (1 - SMOOTHING) * seeded + SMOOTHING * target
        offset = points - centres[home]
        norm = np.sqrt(np.sum(offset**2, axis=1))
        limit = 0.95 * radii[home]
        outside = norm > limit
        points[outside] = centres[home[outside]] + offset[outside] * (limit[outside] / norm[outside])[:, None]
    return points


def _band(
    isolated: list[str], points: np.ndarray, labels: Mapping[str, str]
) -> dict[str, tuple[float, float]]:
    """The isolated concepts in columns to the right of the connected part, A to Z, top to bottom
    on the page (the graph page's y axis points up, as sigma's does)."""
    if not isolated:
        return {}
    ordered = sorted(isolated, key=lambda n: (labels.get(n, n).casefold(), n))
    if len(points):
        left = float(points[:, 0].max()) + BAND_GAP
        low, high = float(points[:, 1].min()), float(points[:, 1].max())
    else:
        left, low, high = 0.0, 0.0, 0.0
    rows = max(1, int((high - low) / SPACING) + 1, math.ceil(math.sqrt(len(ordered))))
    return {
        n: (round(left + BAND_COLUMN * (i // rows), 2), round(high - SPACING * (i % rows), 2))
        for i, n in enumerate(ordered)
    }
