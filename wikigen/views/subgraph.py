"""A topic's members as a small drawn graph (pure): its concepts and the evidenced relations among
them, as an inline SVG that needs no script.

The anchor (a derived topic's concept) sits in the middle and the other concepts on a circle around
it, most related first, so the same members are always drawn the same way; each node has its
community's colour, as on the graph page. Labels sit outside the
circle, left or right of their node, so they never cross an edge's end or each other while the
ring keeps enough room per node. Every label is escaped; every node links to its concept page.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from wikigen.views.markup import esc

NODE_SPACING = 22.0  # px of ring per node: a label's height and a little air
MIN_RADIUS = 70.0
LABEL_ROOM = 170.0  # px beside the ring for labels
MAX_LABEL = 28  # characters; a longer label is cut with an ellipsis (the full name is its title)


def subgraph_svg(
    concepts: Mapping[str, Mapping[str, Any]],
    relations: Iterable[Mapping[str, Any]],
    *,
    center: str | None = None,
    href: Callable[[str], str | None] = lambda oid: None,
    label: Callable[[Mapping[str, Any]], str] = lambda obj: str(obj.get("name", "")),
    color: Callable[[str], str | None] = lambda oid: None,
) -> str:
    """The SVG of these concepts and the relations between two of them ('' when there are none)."""
    if not concepts:
        return ""
    edges: dict[tuple[str, str], list[str]] = {}
    weight = dict.fromkeys(concepts, 0)
    for r in relations:
        a, b = str(r.get("subject")), str(r.get("object"))
        if a in concepts and b in concepts and a != b:
            edges.setdefault((min(a, b), max(a, b)), []).append(f"{a} —{r.get('predicate', '')}→ {b}")
            weight[a] += 1
            weight[b] += 1
    middle = center if center in concepts else None
    ring = sorted((c for c in concepts if c != middle), key=lambda c: (-weight[c], c))
    radius = max(MIN_RADIUS, NODE_SPACING * len(ring) / (2 * math.pi)) if ring else 0.0
    # Nodes go down the right half, then up the left, so labels on each side never collide.
    position: dict[str, tuple[float, float]] = {}
    if middle is not None:
        position[middle] = (0.0, 0.0)
    for i, oid in enumerate(ring):
        angle = -math.pi / 2 + 2 * math.pi * (i + 0.5) / len(ring)
        position[oid] = (radius * math.cos(angle), radius * math.sin(angle))
    half_w, half_h = radius + LABEL_ROOM, radius + 24
    out = [
        f'<svg class="wikigen-subgraph" role="img" aria-label="Members and their relations" '
        f'viewBox="{-half_w:.0f} {-half_h:.0f} {2 * half_w:.0f} {2 * half_h:.0f}" '
        f'width="{2 * half_w:.0f}" height="{2 * half_h:.0f}">'
    ]
    for (a, b), names in sorted(edges.items()):
        (x1, y1), (x2, y2) = position[a], position[b]
        out.append(
            f'<line class="wikigen-subgraph__edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke-width="{min(4, len(names)):.0f}"><title>{esc("; ".join(sorted(names)))}</title></line>'
        )
    for oid in sorted(position, key=lambda o: (o != middle, o)):
        x, y = position[oid]
        name = label(concepts[oid])
        shown = name if len(name) <= MAX_LABEL else name[: MAX_LABEL - 1] + "…"
        right = x >= 0
        tx, ty, anchor = (x + (9 if right else -9), y + 4, "start" if right else "end")
        if oid == middle:
            tx, ty, anchor = 0.0, -13.0, "middle"  # above the anchor, inside the ring
        node_class = "wikigen-subgraph__node" + (" wikigen-subgraph__node--anchor" if oid == middle else "")
        link = href(oid)
        fill = f' style="fill: {esc(found)}"' if (found := color(oid)) else ""
        body = (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{7 if oid == middle else 5}"{fill}/>'
            f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}">{esc(shown)}</text>'
            f"<title>{esc(name)}</title>"
        )
        if link:
            out.append(f'<a class="{node_class}" href="{esc(link)}" data-id="{esc(oid)}">{body}</a>')
        else:
            out.append(f'<g class="{node_class}" data-id="{esc(oid)}">{body}</g>')
    out.append("</svg>")
    return '<div class="wikigen-subgraph-wrap">' + "".join(out) + "</div>"
