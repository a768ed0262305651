"""The semantic graph page in a real browser (V4): render, search, one-hop highlight, empty graph.

The bundle is built outside the tests (``cd wikigen/views/graph_app && npm ci && node build.mjs``);
without it these tests skip. Chromium is Debian's (/usr/bin/chromium), driven by Playwright.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from wikigen.views.graph import graph_files, semantic_graph
from wikigen.views.positions import SERVER_LAYOUT_MIN_NODES

pytestmark = pytest.mark.integration

ASSETS = Path(__file__).resolve().parents[2] / "wikigen" / "views" / "assets"
EMPTY_MESSAGE = "No concepts in this snapshot yet"

PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Graph</title><link rel="stylesheet" href="{root}assets/graph.css"></head>
<body>
<div id="wikigen-graph" data-src="graph.json"></div>
<script src="{root}assets/graph.js"></script>
</body>
</html>
"""


def concept(slug: str, label: str, degree: int, community: int, component: int) -> dict[str, object]:
    return {
        "id": f"concept/{slug}",
        "label": label,
        "type": "concept",
        "degree": degree,
        "community": community,
        "component": component,
        "url": f"../wiki/concepts/{slug}/",
        "x": None,
        "y": None,
        "definition": f"A {label} is a test concept.",
        "articles": [{"title": f"{label}s", "url": f"../wiki/articles/{slug}s/"}],
        "evidence": [
            {
                "quote": f"A {label} is the smallest thing.",
                "source": f"knowledge/{slug}s",
                "source_title": f"{label}s",
                "url": f"../sources/knowledge/{slug}s/raw/#c-{slug}",
                "citation_id": f"{slug:0<12}"[:12],
            }
        ],
    }


def edge(a: str, b: str, *relations: tuple[str, str, str]) -> dict[str, object]:
    return {
        "id": f"concept/{a}|concept/{b}",
        "source": f"concept/{a}",
        "target": f"concept/{b}",
        "weight": len(relations),
        "relations": [
            {"id": f"relation/{s}-{o}", "subject": f"concept/{s}", "predicate": p, "object": f"concept/{o}"}
            for s, p, o in relations
        ],
    }


# Two components with edges ({pod, node, container, image, kubelet}, {service, endpoint}) and a
# lone concept. Pod's one-hop neighbours are node, container and kubelet — not image.
GRAPH = {
    "kind": "semantic",
    "nodes": [
        concept("pod", "Pod", 4, 0, 0),
        concept("node", "Node", 3, 0, 0),
        concept("container", "Container", 2, 1, 0),
        concept("image", "Container Image", 1, 1, 0),
        concept("kubelet", "Kubelet", 2, 0, 0),
        concept("service", "Service", 1, 2, 1),
        concept("endpoint", "Endpoint", 1, 2, 1),
        concept("namespace", "Namespace", 0, 3, 2),
    ],
    "edges": [
        edge("pod", "node", ("pod", "runs on", "node"), ("node", "contains", "pod")),
        edge("pod", "container", ("pod", "groups", "container")),
        edge("container", "image", ("container", "is started from", "image")),
        edge("kubelet", "node", ("kubelet", "runs on", "node")),
        edge("kubelet", "pod", ("kubelet", "starts", "pod")),
        edge("service", "endpoint", ("service", "routes to", "endpoint")),
    ],
    "communities": 4,
    "components": 3,
}
EMPTY_GRAPH = {"kind": "semantic", "nodes": [], "edges": [], "communities": 0, "components": 0}


def dense_graph(nodes: int) -> dict[str, object]:
    """A power-law graph with long labels and isolated concepts, through the real graph.json
    builder (so that, from SERVER_LAYOUT_MIN_NODES on, the build places the nodes)."""
    import networkx as nx

    links = nx.powerlaw_cluster_graph(nodes, 2, 0.3, seed=11)
    concepts = {
        f"concept/c{i:05}": {"name": f"A rather long concept name {i}"} for i in range(nodes + nodes // 10)
    }
    evidence = [{"citation_id": "c1", "source": "knowledge/x", "quote": "q"}]
    relations = [
        {
            "id": f"relation/{n}",
            "kind": "relation",
            "subject": f"concept/c{a:05}",
            "predicate": "links",
            "object": f"concept/c{b:05}",
        }
        | {"evidence": evidence}
        for n, (a, b) in enumerate(links.edges())
    ]
    return semantic_graph(concepts, relations)


# The shape of the Elixir guide's graph (seen in screenshots): a connected part around a
# hub, and 41 concepts with no relation in the band beside it, some with long labels.
# fmt: off
GUIDE_LINKED = [
    "Elixir", "Alias", "Anonymous function", "Argument", "Arity", "Atom", "Binary", "Bitstring",
    "Bitstring generator", "Charlists", "Clause", "Code Point", "Comprehension", "Directive",
    "Encoding", "Enum", "Enumerable", "ExUnit", "Exception", "Exit", "File", "File.read/1", "File.rm/1",
    "Filter", "Function", "Function definition", "GenServer", "Generator", "Graphemes", "Heredocs",
    "IO", "Inspect", "Keyword", "Keyword list", "Link", "List", "Macro", "Map", "Markdown", "Module",
    "Module attribute", "Module name", "Parent process", "Path", "Pattern matching", "Process",
    "Protocol", "Recursion", "Regular expression", "Sigil", "Stream", "Stream.cycle/1", "String",
    "Struct", "Tagged tuples", "Task", "Tuple", "UTF-8", "case", "chardata", "do", "import", "iodata",
    "nil", "require", "size", "spawn/1", "trunc/1", "use", "~r",
]
GUIDE_ISOLATED = [
    ":deprecated", ":into", ":queue", "@doc", "@moduledoc", "@spec", "@typedoc", "Access syntax",
    "Agent", "Any", "Capture syntax", "Closures", "Custom sigils", "Date", "Doctests", "ETS",
    "File.mkdir/1", "File.mkdir_p/1", "IEx", "IO.inspect/2", "Index", "Length", "Map algorithms",
    "Match operator", "Optional syntax", "Pin operator", "Pipe operator", "Prying", "Reduce algorithm",
    "String.Chars", "String.split/3", "Structural comparison", "Termination clause", "Throw", "Truthy",
    "Unicode", "catch", "cond", "dbg/2", "if", "inspect/1",
]
# fmt: on


def guide_graph() -> dict[str, object]:
    import networkx as nx

    names = GUIDE_LINKED + GUIDE_ISOLATED
    concepts = {f"concept/g{i:03}": {"name": name} for i, name in enumerate(names)}
    evidence = [{"citation_id": "c1", "source": "knowledge/x", "quote": "q"}]
    links = nx.powerlaw_cluster_graph(len(GUIDE_LINKED), 2, 0.3, seed=7)
    relations = [
        {
            "id": f"relation/{n}",
            "kind": "relation",
            "subject": f"concept/g{a:03}",
            "predicate": "links",
            "object": f"concept/g{b:03}",
            "evidence": evidence,
        }
        for n, (a, b) in enumerate(links.edges())
    ]
    return semantic_graph(concepts, relations)


def label_overlaps(boxes: list[dict[str, float]]) -> list[tuple[str, str]]:
    return [
        (a["label"], b["label"])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["y0"] < b["y1"] and b["y0"] < a["y1"]
    ]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A tiny static site on 127.0.0.1: /graph/ (the test graph), /empty/ (no concepts) and
    /missing/ (no graph.json)."""
    if not (ASSETS / "graph.js").is_file():
        pytest.skip(
            "wikigen/views/assets/graph.js is not built: run `npm ci && node build.mjs` in wikigen/views/graph_app"
        )
    root = tmp_path_factory.mktemp("graph-site")
    shutil.copytree(ASSETS, root / "assets")
    graphs = (
        ("graph", GRAPH),
        ("empty", EMPTY_GRAPH),
        ("missing", None),
        ("dense", dense_graph(300)),
        ("big", dense_graph(SERVER_LAYOUT_MIN_NODES + 500)),
        ("guide", guide_graph()),
    )
    for name, graph in graphs:
        (root / name).mkdir()
        (root / name / "index.html").write_text(PAGE.format(root="../"), encoding="utf-8")
        # As the site writes them: "big" is placed at build time, so it comes in columns plus details.
        for file, document in graph_files(graph).items() if graph is not None else ():
            (root / name / file).write_text(json.dumps(document), encoding="utf-8")
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def requests() -> list[str]:
    return []


@pytest.fixture
def page(browser, requests, site):
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def open_graph(page, site: str, name: str = "graph") -> None:
    page.goto(f"{site}/{name}/")
    page.wait_for_function("window.wikigenGraph !== undefined")
    page.evaluate("window.wikigenGraph.ready")


def host(url: str) -> str | None:
    if url.startswith("blob:"):  # the ForceAtlas2 worker's script, made in the page
        url = url.removeprefix("blob:")
    return urlsplit(url).hostname


def test_graph_renders(page, site, requests):
    open_graph(page, site)
    assert page.locator("#wikigen-graph canvas").count() >= 1
    assert page.evaluate("window.wikigenGraph.firstRenderMs") > 0
    page.evaluate("window.wikigenGraph.settled")  # layout finished in its worker, hulls drawn
    assert page.locator("#wikigen-graph-search").is_visible()
    assert page.evaluate("window.wikigenGraph.highlighted()") == []


def test_search_flies_to_node_and_shows_panel(page, site):
    open_graph(page, site)
    page.evaluate("window.wikigenGraph.settled")
    # Exact match first (not "Container Image"), case-insensitive.
    assert page.evaluate("window.wikigenGraph.search('container')") == "concept/container"
    assert page.evaluate("window.wikigenGraph.search('CONTAINER I')") == "concept/image"
    assert page.evaluate("window.wikigenGraph.search('kube')") == "concept/kubelet"  # prefix
    assert page.evaluate("window.wikigenGraph.search('no such concept')") is None

    page.fill("#wikigen-graph-search", "pod")
    suggestions = page.locator("#wikigen-graph-suggestions li")
    assert suggestions.first.inner_text() == "Pod"
    page.press("#wikigen-graph-search", "Enter")
    page.wait_for_timeout(900)  # the camera animation lasts 600 ms
    position = page.evaluate("window.wikigenGraph.clientPosition('concept/pod')")
    stage = page.locator(".wikigen-graph__stage").bounding_box()
    assert stage is not None
    assert abs(position["x"] - (stage["x"] + stage["width"] / 2)) < 5
    assert abs(position["y"] - (stage["y"] + stage["height"] / 2)) < 5

    panel = page.locator(".wikigen-graph__panel")
    assert panel.locator("h2").inner_text() == "Pod"
    assert "A Pod is a test concept." in panel.inner_text()
    assert (
        panel.locator("a", has_text="Open the concept page").get_attribute("href") == "../wiki/concepts/pod/"
    )
    assert panel.locator("a", has_text="Pods").get_attribute("href") == "../wiki/articles/pods/"
    quote = panel.locator("a.wikigen-graph__quote")
    assert quote.inner_text() == "A Pod is the smallest thing."
    assert quote.get_attribute("href") == "../sources/knowledge/pods/raw/#c-pod"
    assert page.url == f"{site}/graph/"  # the panel did not leave the graph


def test_focus_highlights_exactly_the_one_hop_neighbours(page, site):
    open_graph(page, site)
    assert page.evaluate("window.wikigenGraph.focus('concept/pod')") is True
    assert page.evaluate("window.wikigenGraph.highlighted()") == [
        "concept/container",
        "concept/kubelet",
        "concept/node",
        "concept/pod",
    ]
    page.evaluate("window.wikigenGraph.focus('concept/service')")
    assert page.evaluate("window.wikigenGraph.highlighted()") == ["concept/endpoint", "concept/service"]
    page.evaluate("window.wikigenGraph.focus('concept/namespace')")
    assert page.evaluate("window.wikigenGraph.highlighted()") == ["concept/namespace"]
    assert page.evaluate("window.wikigenGraph.focus('concept/unknown')") is False
    page.evaluate("window.wikigenGraph.focus(null)")
    assert page.evaluate("window.wikigenGraph.highlighted()") == []


def hover_node(page, node_id: str, attempts: int = 10) -> None:
    """Hover a node; on a loaded machine the last layout frame may still be pending, so re-aim."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(attempts):
        page.mouse.move(5, 5)
        position = page.evaluate(f"window.wikigenGraph.clientPosition('{node_id}')")
        page.mouse.move(position["x"], position["y"], steps=4)
        try:
            page.wait_for_function("window.wikigenGraph.highlighted().length > 0", timeout=3000)
            return
        except PlaywrightTimeout:
            page.wait_for_timeout(250)
    raise AssertionError(f"hovering {node_id} never highlighted it")


def test_hover_highlights_node_and_edge_shows_predicates(page, site):
    open_graph(page, site)
    page.evaluate("window.wikigenGraph.settled")
    hover_node(page, "concept/container")
    assert page.evaluate("window.wikigenGraph.highlighted()") == [
        "concept/container",
        "concept/image",
        "concept/pod",
    ]
    # The highlight's labels (drawn on the veil) are the highlighted concepts'.
    assert {b["id"] for b in page.evaluate("window.wikigenGraph.labels()")} == {
        "concept/container",
        "concept/image",
        "concept/pod",
    }
    page.mouse.move(20, 200, steps=4)
    page.wait_for_function("window.wikigenGraph.highlighted().length === 0")

    # The pod–node edge aggregates two relations: both directions are shown.
    tooltip = page.locator(".wikigen-graph__tooltip")
    for _ in range(10):
        a = page.evaluate("window.wikigenGraph.clientPosition('concept/pod')")
        b = page.evaluate("window.wikigenGraph.clientPosition('concept/node')")
        page.mouse.move((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2, steps=4)
        page.wait_for_timeout(300)
        if tooltip.is_visible():
            break
        page.mouse.move(5, 5)
    tooltip.wait_for(state="visible", timeout=3000)
    assert tooltip.inner_text().splitlines() == ["Pod —runs on→ Node", "Node —contains→ Pod"]


def settled_labels(page, site: str, name: str) -> list[dict[str, Any]]:
    """The label boxes of the default view, once the layout has settled (stage pixels)."""
    open_graph(page, site, name)
    page.evaluate("window.wikigenGraph.settled")
    page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))")
    boxes: list[dict[str, Any]] = page.evaluate("window.wikigenGraph.labels()")
    return boxes


@pytest.mark.parametrize("name", ["graph", "dense", "big", "guide"])
def test_no_label_overlaps_another_at_the_default_zoom(page, site, name):
    """V4: the boxes of the labels drawn on the page never intersect, on a small graph, on
    a dense one laid out in the browser and on one laid out at build time."""
    boxes = settled_labels(page, site, name)
    assert len(boxes) >= {"graph": 7, "dense": 10, "big": 5, "guide": 60}[name]
    assert label_overlaps(boxes) == []


@pytest.mark.parametrize("name", ["graph", "dense", "big", "guide"])
def test_every_label_is_inside_the_stage_at_the_default_zoom(page, site, name):
    """The initial camera shows the whole graph with its labels: none is cut by the canvas (the
    band's last column was cut: "Structu…")."""
    boxes = settled_labels(page, site, name)
    stage = page.locator(".wikigen-graph__stage").bounding_box()
    assert stage is not None
    outside = [
        box["label"]
        for box in boxes
        if box["x0"] < 0 or box["y0"] < 0 or box["x1"] > stage["width"] or box["y1"] > stage["height"]
    ]
    assert outside == []


# app.js: up to 300 concepts every node carries a label; above, only a node of at least 6 px on the
# screen does (sigma's labelRenderedSizeThreshold), and a label may cross the dots smaller than that.
SMALL_GRAPH = 300
LABELLED_NODE_PX = 6


@pytest.mark.parametrize("name", ["graph", "dense", "big", "guide"])
def test_no_label_covers_a_node_at_the_default_zoom(page, site, name):
    """A label never lies on another node's disc (the hub's label sat over a neighbour); in a big
    graph, on the disc of another node big enough to carry a label."""
    boxes = settled_labels(page, site, name)
    discs = page.evaluate("window.wikigenGraph.discs()")
    if len(discs) > SMALL_GRAPH:
        discs = [d for d in discs if d["r"] >= LABELLED_NODE_PX]

    def meets(disc: dict[str, Any], box: dict[str, Any]) -> bool:
        dx = disc["x"] - max(box["x0"], min(disc["x"], box["x1"]))
        dy = disc["y"] - max(box["y0"], min(disc["y"], box["y1"]))
        return dx * dx + dy * dy < disc["r"] ** 2

    covered = [(b["label"], d["id"]) for b in boxes for d in discs if d["id"] != b["id"] and meets(d, b)]
    assert covered == []


@pytest.mark.parametrize("name", ["graph", "guide"])
def test_a_band_that_fits_shows_every_isolated_concept_s_label(page, site, name):
    """No empty rows in the band of isolated concepts: each of them has its label, at the default
    zoom, and the band's rows are evenly spaced, A to Z (sigma's label grid culled every other one)."""
    boxes = settled_labels(page, site, name)
    graph = GRAPH if name == "graph" else guide_graph()
    isolated = {n["id"]: n["label"] for n in graph["nodes"] if n["degree"] == 0}
    drawn = {b["id"]: b for b in boxes}
    assert sorted(isolated.keys() - drawn.keys()) == []
    # A to Z, top to bottom then column by column.
    band = sorted((drawn[i] for i in isolated), key=lambda b: (round(b["x0"]), b["y0"]))
    labels = [b["label"].casefold() for b in band]
    assert labels == sorted(labels)


def test_the_browser_sets_isolated_concepts_beside_the_connected_part(page, site):
    open_graph(page, site, "dense")
    page.evaluate("window.wikigenGraph.settled")
    right = max(
        page.evaluate(f"window.wikigenGraph.clientPosition('concept/c{i:05}')")["x"] for i in range(300)
    )
    lone = [
        page.evaluate(f"window.wikigenGraph.clientPosition('concept/c{i:05}')")["x"] for i in range(300, 330)
    ]
    assert min(lone) > right


def test_a_big_graph_s_details_come_after_its_first_frame(page, site, requests):
    """A graph placed at build time comes in columns; what a click shows (definition, evidence,
    relations) is in graph-details.json, fetched after the first frame."""
    open_graph(page, site, "big")
    page.evaluate("window.wikigenGraph.settled")
    assert [urlsplit(u).path for u in requests if u.endswith(".json")] == [
        "/big/graph.json",
        "/big/graph-details.json",
    ]
    expected = next(
        n for n in dense_graph(SERVER_LAYOUT_MIN_NODES + 500)["nodes"] if n["id"] == "concept/c00001"
    )
    assert page.evaluate("window.wikigenGraph.focus('concept/c00001')") is True
    assert len(page.evaluate("window.wikigenGraph.highlighted()")) == expected["degree"] + 1
    panel = page.locator(".wikigen-graph__panel")
    assert panel.locator("h2").inner_text() == expected["label"]
    assert panel.locator(".wikigen-graph__type").inner_text() == expected["type"]
    assert panel.locator("button.wikigen-graph__neighbour").count() == min(
        expected["degree"], 100
    )  # panel.js


def test_empty_graph_shows_message(page, site):
    open_graph(page, site, "empty")
    message = page.locator(".wikigen-graph__status")
    assert message.inner_text() == EMPTY_MESSAGE
    assert message.is_visible()
    assert page.evaluate("window.wikigenGraph.highlighted()") == []
    assert page.evaluate("window.wikigenGraph.search('pod')") is None


def test_missing_graph_json_says_so(page, site):
    page.goto(f"{site}/missing/")
    page.wait_for_function("window.wikigenGraph !== undefined")
    outcome = page.evaluate("window.wikigenGraph.ready.then(() => 'resolved', (error) => error.message)")
    assert outcome == "Could not load the graph (HTTP 404)."
    assert page.locator(".wikigen-graph__status").inner_text() == outcome


def test_no_request_leaves_localhost(page, site, requests):
    open_graph(page, site)
    page.evaluate("window.wikigenGraph.settled")
    page.evaluate("window.wikigenGraph.search('pod')")
    page.wait_for_timeout(300)
    assert requests, "the page made no request at all"
    assert {host(url) for url in requests} == {"127.0.0.1"}
