"""Benchmark the semantic graph page (V4) in headless Chromium.

Generates a seeded graph.json (20,000 concepts, about 40,000 aggregated edges by default), serves
it with the built bundle on 127.0.0.1 and prints the first-render time and the hover-highlight
latency. Targets (measured, not asserted): first frame within 3 s, hover highlight within 100 ms.

    cd wikigen/views/graph_app && npm ci && node build.mjs && cd -
    .venv/bin/python scripts/bench_graph.py [--nodes 20000] [--edges 40000] [--precomputed]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import random
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

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


def generate(nodes: int, edges: int, seed: int, precomputed: bool) -> dict[str, Any]:
    """A seeded semantic graph: communities, a large component and many small ones, like a corpus."""
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

    degree = [0] * nodes
    parent = list(range(nodes))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (a, b), relations in pairs.items():
        degree[a] += len(relations)
        degree[b] += len(relations)
        parent[find(a)] = find(b)
    components: dict[int, int] = {}
    return {
        "kind": "semantic",
        "nodes": [
            {
                "id": ids[i],
                "label": f"Concept {i}",
                "type": "concept",
                "degree": degree[i],
                "community": community[i],
                "component": components.setdefault(find(i), len(components)),
                "url": f"../wiki/concepts/c{i:05d}/",
                "x": rng.uniform(-1000, 1000) if precomputed else None,
                "y": rng.uniform(-1000, 1000) if precomputed else None,
                "definition": f"Concept {i} is a generated concept.",
                "articles": [],
                "evidence": [],
            }
            for i in range(nodes)
        ],
        "edges": [
            {
                "id": f"{ids[a]}|{ids[b]}",
                "source": ids[a],
                "target": ids[b],
                "weight": len(relations),
                "relations": relations,
            }
            for (a, b), relations in sorted(pairs.items())
        ],
        "communities": COMMUNITIES,
        "components": len(components),
    }


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
        page.evaluate("window.wikigenGraph.settled")
        since_navigation = page.evaluate("window.benchReadyAt")
        settled = page.evaluate("window.benchSettledAt")

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
            page.wait_for_function("window.wikigenGraph.highlighted().length === 0")
            page.evaluate(ARM_HOVER)
            page.mouse.move(point["x"], point["y"])
            try:
                page.wait_for_function("window.wikigenBench !== null", timeout=2000)
            except PlaywrightTimeout:
                continue  # the point hit no node: try another
            hovers.append(page.evaluate("window.wikigenBench"))
        browser.close()
    return {
        "first_render_ms": first_render,
        "ready_since_navigation_ms": since_navigation,
        "layout_settled_since_navigation_ms": settled,
        "hover": hovers,
        "external_requests": [u for u in requests if "127.0.0.1" not in u],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--edges", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--samples", type=int, default=10, help="hover measurements")
    parser.add_argument("--precomputed", action="store_true", help="give x/y in graph.json (no layout)")
    args = parser.parse_args()
    if not (ASSETS / "graph.js").is_file():
        print(
            "wikigen/views/assets/graph.js is missing: run `npm ci && node build.mjs` in wikigen/views/graph_app"
        )
        return 1

    graph = generate(args.nodes, args.edges, args.seed, args.precomputed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ASSETS, root / "assets")
        (root / "index.html").write_text(PAGE, encoding="utf-8")
        (root / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
        size = (root / "graph.json").stat().st_size
        server, thread = serve(root)
        try:
            result = measure(f"http://127.0.0.1:{server.server_address[1]}/", args.samples)
        finally:
            server.shutdown()
            server.server_close()
            thread.join()

    handled = [h["handled"] for h in result["hover"]]
    frame = [h["frame"] for h in result["hover"]]
    print(
        f"graph: {len(graph['nodes'])} nodes, {len(graph['edges'])} edges, {graph['components']} components, "
        f"graph.json {size / 1e6:.1f} MB, layout {'precomputed' if args.precomputed else 'ForceAtlas2 worker'}"
    )
    print(
        f"first render: {result['first_render_ms']:.0f} ms after the script started "
        f"({result['ready_since_navigation_ms']:.0f} ms after navigation; target 3000)"
    )
    if not args.precomputed:
        print(f"layout stopped: {result['layout_settled_since_navigation_ms']:.0f} ms after navigation")
    if frame:
        print(
            f"hover highlight: median {statistics.median(frame):.0f} ms, max {max(frame):.0f} ms to the next frame "
            f"(handlers {statistics.median(handled):.0f} ms median; {len(frame)} samples; target 100)"
        )
    else:
        print("hover highlight: no sample hit a node")
    print(f"requests outside 127.0.0.1: {len(result['external_requests'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
