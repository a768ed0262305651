"""Benchmark the semantic graph (V3, V4): stability of communities, colours and layout,
and the page in headless Chromium.

Stability (``--stability``, on by default): on a seeded 5,000-concept power-law graph and on the
Kubernetes snapshot, 1% of the relations are replaced (half removed, as many added), and
separately one source's relations; the partition is warm-started from the previous one as the
compiler does. Printed: the share of concepts keeping their community (after the best one-to-one
matching of communities), the share keeping their colour, and the median displacement of a concept
in the build-time layout as a share of the layout's extent. Targets: ≥ 0.95, ≥ 0.95, ≤ 0.05.
A fresh (cold) partition is printed beside the warm one for reference.

The page: a seeded graph.json (20,000 concepts, about 40,000 aggregated edges by default) made by
the real builder (communities, colours and, above ``SERVER_LAYOUT_MIN_NODES``, positions), served
with the built bundle on 127.0.0.1: first-render time, layout spread (no blob), hover-highlight
latency and drawn labels. Targets: first frame within 1.5 s, hover highlight p95 within 100 ms.

    cd wikigen/views/graph_app && npm ci && node build.mjs && cd -
    .venv/bin/python scripts/bench_graph.py [--nodes 20000] [--edges 40000] [--browser-layout]
        [--k8s-repo DIR] [--no-stability] [--no-page]

``--k8s-repo`` is a repo compiled from ../shared/corpora/k8s-concepts (``bench_quality.py --keep``
makes one); without it the corpus is compiled into a temporary repo with the offline engine first.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import math
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from wikigen.compiler.communities import kept_share
from wikigen.views.graph import graph_files, semantic_graph

ASSETS = Path(__file__).resolve().parents[1] / "wikigen" / "views" / "assets"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
COMMUNITIES = 60
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="assets/graph.css"></head>
<body><div id="wikigen-graph" data-src="graph.json"></div><script src="assets/graph.js"></script>
<script>
// Timestamps taken in the page: a busy main thread would delay Playwright's own round trips.
document.addEventListener("DOMContentLoaded", () => {
  window.wikigenGraph.ready.then(() => { window.benchReadyAt = performance.now(); });
  window.wikigenGraph.settled.then(() => { window.benchSettledAt = performance.now(); });
});
</script></body>
</html>
"""
PREDICATES = ("is part of", "depends on", "runs on", "contains", "configures", "replaces")

# In the page: arm listeners for the next hover. The stage's capturing listener runs before
# sigma's (on document), the window's bubbling one after it: by then the highlight is applied and
# drawn; the next animation frame is when it reaches the screen.
ARM_HOVER = """
() => {
  const stage = document.querySelector('.wikigen-graph__stage');
  window.wikigenBench = null;
  let start = null;
  const capture = (event) => { start = event.timeStamp; };
  const after = () => {
    const handled = performance.now();
    if (window.wikigenGraph.highlighted().length === 0) return;
    window.removeEventListener('mousemove', after);
    stage.removeEventListener('mousemove', capture, true);
    requestAnimationFrame(() => {
      window.wikigenBench = { handled: handled - start, frame: performance.now() - start };
    });
  };
  stage.addEventListener('mousemove', capture, true);
  window.addEventListener('mousemove', after);
}
"""


def generate(nodes: int, edges: int, seed: int, browser_layout: bool) -> dict[str, Any]:
    """A seeded semantic graph: communities, a large component and many small ones, like a corpus,
    made into graph.json by the real builder (communities, colours, build-time positions)."""
    rng = random.Random(seed)
    ids = [f"concept/c{i:05d}" for i in range(nodes)]
    community = [rng.randrange(COMMUNITIES) for _ in range(nodes)]
    members: dict[int, list[int]] = {}
    for i, c in enumerate(community):
        members.setdefault(c, []).append(i)
    pairs: dict[tuple[int, int], list[dict[str, str]]] = {}
    # Most concepts sit in one big component; every 50th is left out so that small components exist.
    linkable = [i for i in range(nodes) if i % 50]
    while len(pairs) < edges:
        a = rng.choice(linkable)
        pool = members[community[a]] if rng.random() < 0.85 else linkable
        b = rng.choice(pool)
        if a == b or b % 50 == 0:
            continue
        key = (min(a, b), max(a, b))
        subject, obj = (a, b) if rng.random() < 0.5 else (b, a)
        relations = pairs.setdefault(key, [])
        relations.append(
            {
                "id": f"relation/{len(pairs):06x}{len(relations)}",
                "subject": ids[subject],
                "predicate": rng.choice(PREDICATES),
                "object": ids[obj],
            }
        )
    for i in range(0, nodes - 1, 100):  # pairs of left-out concepts: two-node components
        if i % 50 == 0 and i + 50 < nodes:
            pairs[(i, i + 50)] = [
                {
                    "id": f"relation/pair{i}",
                    "subject": ids[i],
                    "predicate": "is paired with",
                    "object": ids[i + 50],
                }
            ]

    evidence = [{"citation_id": "c0", "source": "knowledge/bench", "quote": "generated"}]
    concepts = {
        ids[i]: {"id": ids[i], "kind": "concept", "name": f"Concept {i}", "type": "concept"}
        for i in range(nodes)
    }
    relations = [
        {**relation, "kind": "relation", "evidence": evidence}
        for _, found in sorted(pairs.items())
        for relation in found
    ]
    graph = semantic_graph(concepts, relations, concept_url=lambda oid: f"../wiki/concepts/{oid[8:]}/")
    if browser_layout:
        for node in graph["nodes"]:
            node["x"] = node["y"] = None
        graph["layout"] = "browser"
    return graph


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, threading.Thread]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def measure(url: str, samples: int) -> dict[str, Any]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(url)
        page.wait_for_function("window.wikigenGraph !== undefined")
        page.evaluate("window.wikigenGraph.ready")
        first_render = page.evaluate("window.wikigenGraph.firstRenderMs")
        # The app's marks (app.js): graph.json parsed, the graph built, sigma's constructor, all drawn.
        marks = page.evaluate(
            "performance.getEntriesByType('mark').filter((m) => m.name.startsWith('wikigen:'))"
            ".map((m) => [m.name.slice(8), Math.round(m.startTime)])"
        )
        page.evaluate("window.wikigenGraph.settled")
        since_navigation = page.evaluate("window.benchReadyAt")
        settled = page.evaluate("window.benchSettledAt")
        print(
            f"  (first render {first_render:.0f} ms, ready {since_navigation:.0f} ms after navigation; "
            f"marks after navigation: {', '.join(f'{name} {at}' for name, at in marks)})",
            flush=True,
        )
        page.set_default_timeout(10_000)

        stage = page.locator(".wikigen-graph__stage").bounding_box()
        assert stage is not None
        blank = (stage["x"] + 3, stage["y"] + 3)
        rng = random.Random(1)
        hovers: list[dict[str, float]] = []
        tries = 0
        while len(hovers) < samples and tries < samples * 10:
            tries += 1
            node = f"concept/c{rng.randrange(1, 20000):05d}"
            point = page.evaluate(f"window.wikigenGraph.clientPosition('{node}')")
            if point is None:
                continue
            page.mouse.move(*blank)
            try:
                page.wait_for_function("window.wikigenGraph.highlighted().length === 0", polling=100)
            except PlaywrightTimeout:
                print("  (the highlight did not clear: skipped)", flush=True)
                continue
            page.evaluate(ARM_HOVER)
            page.mouse.move(point["x"], point["y"])
            try:
                page.wait_for_function("window.wikigenBench !== null", timeout=5000, polling=50)
            except PlaywrightTimeout:
                continue  # the point hit no node: try another
            hovers.append(page.evaluate("window.wikigenBench"))
            print(f"  (hover {len(hovers)}: {hovers[-1]['frame']:.0f} ms)", flush=True)
        page.mouse.move(*blank)
        page.evaluate("window.wikigenGraph.focus(null)")
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        labels = page.evaluate("window.wikigenGraph.labels()")
        ids = [f"concept/c{i:05d}" for i in range(0, 20000, 37)]
        points = [p for p in (page.evaluate(f"window.wikigenGraph.clientPosition('{i}')") for i in ids) if p]
        browser.close()
    return {
        "first_render_ms": first_render,
        "ready_since_navigation_ms": since_navigation,
        "layout_settled_since_navigation_ms": settled,
        "hover": hovers,
        "labels": labels,
        "points": points,
        "external_requests": [u for u in requests if "127.0.0.1" not in u],
    }


def spread(points: list[dict[str, float]]) -> dict[str, float]:
    """How the drawn concepts fill the stage: the share of a 10×10 grid over their box that holds
    any, and the largest share of concepts in one cell (a blob puts most of them in a few cells)."""
    xs, ys = [p["x"] for p in points], [p["y"] for p in points]
    width, height = max(xs) - min(xs) or 1.0, max(ys) - min(ys) or 1.0
    cells = Counter(
        (min(int(10 * (x - min(xs)) / width), 9), min(int(10 * (y - min(ys)) / height), 9))
        for x, y in zip(xs, ys, strict=True)
    )
    return {
        "width_px": width,
        "height_px": height,
        "cells_used": len(cells) / 100,
        "densest_cell": max(cells.values()) / len(points),
    }


def overlaps(boxes: list[dict[str, float]]) -> int:
    return sum(
        1
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["y0"] < b["y1"] and b["y0"] < a["y1"]
    )


def page_bench(args: argparse.Namespace) -> int:
    if not (ASSETS / "graph.js").is_file():
        print(
            "wikigen/views/assets/graph.js is missing: run `npm ci && node build.mjs` in wikigen/views/graph_app"
        )
        return 1
    started = time.perf_counter()
    graph = generate(args.nodes, args.edges, args.seed, args.browser_layout)
    built = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ASSETS, root / "assets")
        (root / "index.html").write_text(PAGE, encoding="utf-8")
        # As the site writes them (mkdocs_plugin): compact JSON, in columns plus details for a big graph.
        sizes = {}
        for name, document in graph_files(graph).items():
            (root / name).write_text(json.dumps(document, separators=(",", ":")), encoding="utf-8")
            sizes[name] = (root / name).stat().st_size
        server, thread = serve(root)
        try:
            result = measure(f"http://127.0.0.1:{server.server_address[1]}/", args.samples)
        finally:
            server.shutdown()
            server.server_close()
            thread.join()

    frame = sorted(h["frame"] for h in result["hover"])
    placed = graph["layout"] == "build"
    print(
        f"graph: {len(graph['nodes'])} nodes, {len(graph['edges'])} edges, {graph['communities']} communities, "
        f"{graph['components']} components, "
        + ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in sizes.items())
        + f" built in {built:.1f} s, "
        f"layout {'at build time' if placed else 'ForceAtlas2 worker in the page'}"
    )
    print(
        f"first render: {result['first_render_ms']:.0f} ms after the script started "
        f"({result['ready_since_navigation_ms']:.0f} ms after navigation; target 1500)"
    )
    # settled: the layout stopped (browser layout), or a placed graph's edges are in sigma and its
    # details loaded (app.js): from then on hover, click and edge hover have everything.
    print(f"settled: {result['layout_settled_since_navigation_ms']:.0f} ms after navigation")
    found = spread(result["points"]) if result["points"] else None
    if found:
        print(
            f"spread of {len(result['points'])} sampled concepts: {found['width_px']:.0f}×{found['height_px']:.0f} px, "
            f"{found['cells_used']:.0%} of a 10×10 grid used, densest cell {found['densest_cell']:.1%} of them"
        )
    print(
        f"labels drawn at the default zoom: {len(result['labels'])}, overlapping pairs: {overlaps(result['labels'])}"
    )
    if frame:
        p95 = frame[min(len(frame) - 1, math.ceil(0.95 * len(frame)) - 1)]
        print(
            f"hover highlight: median {statistics.median(frame):.0f} ms, p95 {p95:.0f} ms, max {frame[-1]:.0f} ms "
            f"to the next frame (handlers: median {statistics.median(h['handled'] for h in result['hover']):.0f} ms; "
            f"{len(frame)} samples; target p95 100)"
        )
    else:
        print("hover highlight: no sample hit a node")
    print(f"requests outside 127.0.0.1: {len(result['external_requests'])}")
    return 0


# -- stability --------------------------------------------------------------------------------------

Edges = dict[tuple[str, str], int]


def power_law(nodes: int, seed: int) -> Edges:
    import networkx as nx

    graph = nx.powerlaw_cluster_graph(nodes, 2, 0.3, seed=seed)
    return {(f"concept/c{min(a, b):05d}", f"concept/c{max(a, b):05d}"): 1 for a, b in graph.edges()}


def replace(edges: Edges, chosen: list[tuple[str, str]], among: list[str], rng: random.Random) -> Edges:
    """The ``chosen`` relations removed and as many added between concepts of ``among``."""
    out = dict(edges)
    for pair in chosen:
        out[pair] -= 1
        if out[pair] == 0:
            del out[pair]
    for _ in range(len(chosen)):
        a, b = rng.sample(among, 2)
        pair = (min(a, b), max(a, b))
        out[pair] = out.get(pair, 0) + 1
    return out


def one_percent(edges: Edges, nodes: list[str], seed: int) -> Edges:
    rng = random.Random(seed)
    relations = [pair for pair, w in sorted(edges.items()) for _ in range(w)]
    return replace(edges, rng.sample(relations, max(1, len(relations) // 100)), nodes, rng)


def stability(label: str, nodes: list[str], edges: Edges, changed: Edges) -> None:
    from wikigen.compiler.communities import community_color, partition
    from wikigen.views.groups import communities
    from wikigen.views.positions import layout

    def full(assignment: dict[str, str]) -> dict[str, str]:
        return communities(nodes, [], recorded=assignment)

    def colours(assignment: dict[str, str]) -> dict[str, str]:
        sizes = Counter(assignment.values())
        return {n: community_color(c, sizes[c]) for n, c in assignment.items()}

    first = full(partition(nodes, edges))
    # As the compiler updates the record: local moves from the concepts whose relations changed.
    pairs = {p for p in set(edges) | set(changed) if edges.get(p, 0) != changed.get(p, 0)}
    seeds = sorted({n for p in pairs for n in p})
    cut = sorted(p for p in pairs if changed.get(p, 0) < edges.get(p, 0))
    recorded = partition(nodes, edges)
    t = time.perf_counter()
    warm = full(partition(nodes, changed, previous=recorded, changed=seeds, cut=cut))
    warm_s = time.perf_counter() - t
    cold = full(partition(nodes, changed))
    before_pos, after_pos = layout(nodes, edges, first), layout(nodes, changed, warm)
    xs = [p[0] for p in before_pos.values()]
    ys = [p[1] for p in before_pos.values()]
    extent = max(max(xs) - min(xs), max(ys) - min(ys))
    moved = statistics.median(math.dist(before_pos[n], after_pos[n]) for n in nodes)
    a, b, c = colours(first), colours(warm), colours(cold)
    print(
        f"{label}: community kept {kept_share(first, warm):.3f} (cold {kept_share(first, cold):.3f}), "
        f"colour kept {sum(a[n] == b[n] for n in nodes) / len(nodes):.3f} "
        f"(cold {sum(a[n] == c[n] for n in nodes) / len(nodes):.3f}), "
        f"median displacement {moved / extent:.4f} of the extent; warm partition {warm_s:.1f} s"
    )


def synthetic_stability(nodes: int, seed: int) -> None:
    edges = power_law(nodes, seed)
    ids = sorted({n for pair in edges for n in pair})
    print(f"synthetic power-law graph: {len(ids)} concepts, {sum(edges.values())} relations")
    stability("  1% of relations", ids, edges, one_percent(edges, ids, seed + 1))
    # One source's relations: each relation is cited by one of nodes/10 sources, as a corpus would.
    rng = random.Random(seed + 2)
    relations = [pair for pair, w in sorted(edges.items()) for _ in range(w)]
    source_of = [rng.randrange(max(1, nodes // 10)) for _ in relations]
    busiest = Counter(source_of).most_common(1)[0][0]
    chosen = [pair for pair, s in zip(relations, source_of, strict=True) if s == busiest]
    among = sorted({n for pair in chosen for n in pair})
    stability(f"  one source ({len(chosen)} relations)", ids, edges, replace(edges, chosen, among, rng))


def k8s_stability(repo: Path | None, seed: int) -> None:
    from wikigen.views.knowledge import load_knowledge

    if repo is None:
        repo = Path(tempfile.mkdtemp(prefix="bench-graph-k8s-")) / "repo"
        print(f"compiling the Kubernetes corpus into {repo} (offline engine; minutes)")
        compile_k8s(repo)
    knowledge = load_knowledge(repo)
    concepts = sorted(knowledge.of_kind("concept"))
    edges: Edges = {}
    cited: dict[str, list[tuple[str, str]]] = {}
    for relation in knowledge.of_kind("relation").values():
        a, b = str(relation["subject"]), str(relation["object"])
        if a == b or a not in knowledge.objects or b not in knowledge.objects:
            continue
        pair = (min(a, b), max(a, b))
        edges[pair] = edges.get(pair, 0) + 1
        for source in sorted({str(c["source"]) for c in relation.get("evidence", [])}):
            cited.setdefault(source, []).append(pair)
    print(
        f"Kubernetes snapshot {knowledge.version}: {len(concepts)} concepts, {sum(edges.values())} relations, "
        f"{len(knowledge.sources)} sources"
    )
    stability("  1% of relations", concepts, edges, one_percent(edges, concepts, seed + 1))
    rng = random.Random(seed + 2)
    ordered = sorted(cited, key=lambda s: (-len(cited[s]), s))
    for source in (ordered[0], ordered[len(ordered) // 2]):
        chosen = cited[source]
        among = sorted({n for pair in chosen for n in pair})
        # The source is re-read: its relations are replaced by as many among the concepts it names.
        label = f"  one source {source} ({len(chosen)} relations)"
        stability(label, concepts, edges, replace(edges, chosen, among, rng) if len(among) > 1 else edges)


def compile_k8s(root: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import pygit2
    from bench_quality import commit_files, corpus_files

    from wikigen.compiler.driver import compile_repo
    from wikigen.engines.offline.engine import OfflineEngine

    repo = pygit2.init_repository(str(root), initial_head="main")
    commit_files(repo, dict(corpus_files("k8s")))
    compile_repo(root, engine=OfflineEngine(), batch=True)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--edges", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--samples", type=int, default=40, help="hover measurements")
    parser.add_argument(
        "--browser-layout", action="store_true", help="no x/y in graph.json: ForceAtlas2 in the page"
    )
    parser.add_argument("--stability-nodes", type=int, default=5_000)
    parser.add_argument("--k8s-repo", type=Path, help="a repo compiled from the Kubernetes corpus")
    parser.add_argument("--no-k8s", action="store_true")
    parser.add_argument("--no-stability", action="store_true")
    parser.add_argument("--no-page", action="store_true")
    args = parser.parse_args()
    if not args.no_stability:
        synthetic_stability(args.stability_nodes, args.seed)
        if not args.no_k8s:
            k8s_stability(args.k8s_repo, args.seed)
    return 0 if args.no_page else page_bench(args)


if __name__ == "__main__":
    sys.exit(main())
