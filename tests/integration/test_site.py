"""The built site in a real browser (V1–V5): a knowledge repo compiled with the scripted engine, a
real `mkdocs build --strict`, the site served on 127.0.0.1, Debian's chromium driven by Playwright.

Proves: a citation click lands on the raw view with a highlighted span equal to the quote (emoji
and astral characters included); the graph page renders, search flies to a concept and focusing it
highlights exactly its one-hop neighbours; a <script> planted in a source never runs; no request
leaves 127.0.0.1; the build writes nothing to the repo (V5).
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "wikigen" / "views" / "assets"
BIN = Path(sys.executable).parent
MKDOCS_YML = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
K = "content/sources/knowledge"

CODE_LINE = "Run `kubectl get pods`; see the [`kubectl` reference][kubectl-docs] and _Nodes_."
POD_LINE = "Concept Pod: a group of containers — café ☕ 🚀 on 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 nodes."
PODS = f"""# Pods

{POD_LINE}
Concept Container: a process in a box.
REL Pod -groups-> Container.
REL Pod -runs on-> Node.

<script>window.__pwned = "script"</script>

<img src="x" onerror="window.__pwned = 'onerror'">

[click me](javascript:window.__pwned='link')

![diagram](diagram.png)

{CODE_LINE}

[kubectl-docs]: https://kubernetes.io/docs/reference/kubectl/
"""
NODES = """# Nodes

Concept Node: a worker machine.
Concept Kubelet: the agent on each node.
Concept Image: a container image.
REL Node -hosts-> Pod.
REL Kubelet -runs on-> Node.
REL Kubelet -starts-> Pod.
REL Container -is started from-> Image.
"""
SERVICES = """# Services ✨

Concept Service: a stable name 🚀 in front of pods.
Concept Endpoint: an address behind a service.
Concept Namespace: a scope for names.
REL Service -routes to-> Endpoint.
"""
RETRO = "Failure: the import was slow.\n\nThe cause is a hypothesis: the disk was full.\n"
HYPOTHESIS = "The cause is a hypothesis: the disk was full."
POD_NEIGHBOURS = ["concept/container", "concept/kubelet", "concept/node", "concept/pod"]


def engine(stage: str, request: dict[str, Any]) -> dict[str, Any]:
    """The scripted extractor, plus R27/R37 material and a topic."""
    delta = extract(stage, request)
    for article in delta["articles"]:
        if article["sources"] == ["knowledge/pods"]:
            quote = [{"source": "knowledge/pods", "quote": CODE_LINE}]
            article["summary"].append({"text": CODE_LINE, "quotes": quote})
        if article["sources"] == ["retrospectives/slow"]:
            quote = [{"source": "retrospectives/slow", "quote": HYPOTHESIS}]
            article["summary"].append({"text": "The disk was full.", "status": "hypothesis", "quotes": quote})
            article["contradictions"] = [
                {"text": "Two causes disagree", "scope": "import", "uncertainty": "high", "quotes": quote}
            ]
            article["open_questions"] = [{"text": "Was the disk full?", "quotes": quote}]
    if stage == "analyze":
        delta["topics"] = [
            {
                "title": "Workloads",
                "members": ["Pod", "Container"],
                "summary": [
                    {
                        "text": "Pods group containers.",
                        "quotes": [{"source": "knowledge/pods", "quote": "REL Pod -groups-> Container."}],
                    }
                ],
            }
        ]
    return delta


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A compiled knowledge repo and its site, built by a real `mkdocs build --strict`."""
    repo = GitRepo(tmp_path_factory.mktemp("site") / "repo")
    repo.commit(
        {
            "mkdocs.yml": MKDOCS_YML,
            ".gitignore": "site/\n",
            "content/manual/index.md": "# Manual\n\nHow this wiki works.\n",
            f"{K}/pods.md": source(
                PODS, title="Pods ☕ <script>window.__pwned = 'title'</script>", verification="verified"
            ),
            f"{K}/nodes.md": source(NODES, title="Nodes"),
            f"{K}/services.md": SERVICES,
            f"{K}/diagram.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 16,
            "content/sources/retrospectives/slow.md": source(RETRO, title="Slow import"),
        },
        message="sources",
    )
    compile_repo(repo.root, engine=ScriptedEngine(engine))
    head = repo.head()
    content_before = tree_digest(repo.root / "content")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "-f", str(repo.root / "mkdocs.yml")],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    return {
        "repo": repo,
        "site": repo.root / "site",
        "result": result,
        "head_before": head,
        "content_before": content_before,
    }


def test_build_is_strict_clean_and_changes_nothing_in_the_repo(built):
    result = built["result"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr
    repo, site = built["repo"], built["site"]
    # V5: no file under content/ written, no commit, no snapshot.
    assert tree_digest(repo.root / "content") == built["content_before"]
    assert repo.head() == built["head_before"]
    assert repo.git("status", "--porcelain").stdout == ""
    for page in (
        "index.html",
        "concepts/index.html",
        "topics/index.html",
        "graph/index.html",
        "graph/graph.json",
        "categories/knowledge/index.html",
        "categories/tasks/index.html",
        "wiki/articles/knowledge--pods/index.html",
        "wiki/concepts/pod/index.html",
        "sources/knowledge/pods/index.html",
        "sources/knowledge/pods/raw/index.html",
        "sources/knowledge/diagram.png",  # an asset beside a source is copied
        "manual/index.html",
        "assets/wikigen/citations.js",
    ):
        assert (site / page).is_file(), page
    graph = json.loads((site / "graph" / "graph.json").read_text(encoding="utf-8"))
    assert graph["kind"] == "semantic"
    assert {n["id"] for n in graph["nodes"]} == {
        f"concept/{n}"
        for n in ("pod", "node", "container", "image", "kubelet", "service", "endpoint", "namespace")
    }
    assert sum(e["weight"] for e in graph["edges"]) == 7
    assert graph["components"] == 3
    # Nothing in any page loads from another host.
    for html_file in site.rglob("*.html"):
        text = html_file.read_text(encoding="utf-8")
        loads = re.findall(r'<(?:script|img|link|iframe)\b[^>]*?(?:src|href)="((?:https?:)?//[^"]+)"', text)
        assert loads == [], html_file
    # The nav lists the overview pages, not every source.
    home = (site / "index.html").read_text(encoding="utf-8")
    nav = home[home.index('class="md-nav md-nav--primary"') :]
    assert "Concepts" in nav and "Graph" in nav and "Manual" in nav
    assert "sources/knowledge/pods/" not in nav[: nav.index("</nav>")]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def server(built) -> Iterator[str]:
    assert built["result"].returncode == 0, built["result"].stderr
    handler = functools.partial(QuietHandler, directory=str(built["site"]))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture
def requests() -> list[str]:
    return []


@pytest.fixture
def page(browser, server, requests):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert dialogs == []
    assert errors == []


def test_citation_click_lands_on_the_exact_span_highlighted(page, server):
    page.goto(f"{server}/wiki/concepts/pod/")
    marker = page.locator("#definition ~ p .wikigen-cite__mark").first
    card = page.locator("#definition ~ p .wikigen-cite__card").first
    assert not card.is_visible()
    marker.hover()
    card.wait_for(state="visible")
    text = card.inner_text()
    assert POD_LINE in text  # the quote
    assert "Pods ☕ <script>" in text  # the source title, shown as text
    assert "verified" in text and "citation_id" in text
    cid = marker.get_attribute("data-citation-id")
    assert cid and cid in text
    marker.click()
    page.wait_for_url(re.compile(rf"/sources/knowledge/pods/raw/#c-{cid}$"))
    page.wait_for_function("window.wikigenCitations && window.wikigenCitations.highlighted() !== ''")
    assert page.evaluate("window.wikigenCitations.highlighted()") == POD_LINE
    marks = page.locator("mark.wikigen-hl")
    assert "".join(marks.all_text_contents()) == POD_LINE
    assert marks.first.is_visible()
    # The raw view's text is the body of the cited version exactly.
    body = page.evaluate("document.querySelector('code.wikigen-raw__body').textContent")
    assert body == PODS

    # Another cited span on the same page: the hash changes, the highlight follows.
    page.locator(".wikigen-span-link", has_text=re.compile(".")).last.click()
    page.wait_for_function(f"window.wikigenCitations.citation() !== {json.dumps(cid)}")
    highlighted = page.evaluate("window.wikigenCitations.highlighted()")
    assert highlighted and highlighted in body and highlighted != POD_LINE


def test_article_marker_from_another_source_with_emoji(page, server):
    page.goto(f"{server}/wiki/articles/knowledge--services/")
    marker = page.locator(".wikigen-claim .wikigen-cite__mark").first
    marker.click()
    page.wait_for_url(re.compile(r"/sources/knowledge/services/raw/#c-"))
    page.wait_for_function("window.wikigenCitations.highlighted() !== ''")
    assert page.evaluate("window.wikigenCitations.highlighted()") == "# Services ✨"


def test_a_claim_renders_its_code_spans_emphasis_and_reference_link(page, server):
    """V1: quoted Markdown is rendered, the reference link resolved from the source's own
    definition; no backtick is left on the page's claims."""
    page.goto(f"{server}/wiki/articles/knowledge--pods/")
    claim = page.locator(".wikigen-claim", has_text="kubectl get pods")
    assert claim.locator(":scope > code", has_text="kubectl get pods").count() == 1
    link = claim.locator(":scope > a[href='https://kubernetes.io/docs/reference/kubectl/']")
    assert link.inner_text() == "kubectl reference"
    assert link.locator("code").inner_text() == "kubectl"
    assert claim.locator(":scope > em").inner_text() == "Nodes"
    text = claim.evaluate(
        "p => [...p.childNodes].filter(n => n.nodeName !== 'SUP').map(n => n.textContent).join('')"
    )
    assert "`" not in text and "[kubectl-docs]" not in text and "_Nodes_" not in text
    # The hover card renders the quote the same way.
    claim.locator(".wikigen-cite__mark").first.hover()
    card = claim.locator(".wikigen-cite__card").first
    card.wait_for(state="visible")
    assert card.locator("code", has_text="kubectl get pods").count() == 1
    assert "line " in card.inner_text() and "lines " not in card.inner_text()


def test_a_hypothesis_contradictions_open_questions_and_candidates_are_shown(page, server):
    """R27, R37: a hypothesis stays marked as one, and contradictions (with scope and uncertainty),
    open questions and candidates are shown on the article's page."""
    page.goto(f"{server}/wiki/articles/retrospectives--slow/")
    claim = page.locator(".wikigen-claim--hypothesis")
    assert claim.inner_text().startswith("Hypothesis The disk was full.")
    assert "scope: import" in page.locator("#contradictions + ul").inner_text()
    assert "uncertainty: high" in page.locator("#contradictions + ul").inner_text()
    assert "Was the disk full?" in page.locator("#open-questions + ul").inner_text()
    assert "candidate" in page.locator(".wikigen-candidate").inner_text()


def test_graph_page_search_flies_to_a_concept_and_focus_highlights_its_one_hop_neighbours(page, server):
    page.goto(f"{server}/graph/")
    if not (ASSETS / "graph.js").is_file():
        assert "npm ci" in page.locator("#wikigen-graph-missing").inner_text()
        pytest.skip("the graph bundle is not built: cd wikigen/views/graph_app && npm ci && node build.mjs")
    page.wait_for_function("window.wikigenGraph !== undefined")
    page.evaluate("window.wikigenGraph.ready")
    assert page.locator("#wikigen-graph canvas").count() >= 1
    page.evaluate("window.wikigenGraph.settled")
    assert page.evaluate("window.wikigenGraph.search('kubelet')") == "concept/kubelet"
    page.fill("#wikigen-graph-search", "Pod")
    page.press("#wikigen-graph-search", "Enter")
    panel = page.locator(".wikigen-graph__panel")
    panel.locator("h2", has_text="Pod").wait_for()
    page.wait_for_timeout(900)  # the camera flies for 600 ms
    position = page.evaluate("window.wikigenGraph.clientPosition('concept/pod')")
    stage = page.locator(".wikigen-graph__stage").bounding_box()
    assert stage is not None
    assert abs(position["x"] - (stage["x"] + stage["width"] / 2)) < 5
    assert abs(position["y"] - (stage["y"] + stage["height"] / 2)) < 5
    assert POD_LINE in panel.inner_text()  # the side panel's evidence
    assert page.evaluate("window.wikigenGraph.focus('concept/pod')") is True
    assert page.evaluate("window.wikigenGraph.highlighted()") == POD_NEIGHBOURS
    page.evaluate("window.wikigenGraph.focus('concept/namespace')")
    assert page.evaluate("window.wikigenGraph.highlighted()") == ["concept/namespace"]
    # The panel's links lead to the concept page.
    page.evaluate("window.wikigenGraph.focus('concept/pod')")
    link = panel.locator("a", has_text="Open the concept page")
    link.click()
    page.wait_for_url(re.compile(r"/wiki/concepts/pod/$"))


def test_a_script_planted_in_a_source_never_runs(page, server):
    for url in (
        "/sources/knowledge/pods/",
        "/sources/knowledge/pods/raw/",
        "/wiki/articles/knowledge--pods/",
        "/wiki/concepts/pod/",
        "/categories/knowledge/",
        "/graph/",
        "/",
    ):
        page.goto(server + url)
        page.wait_for_load_state("load")
        assert page.evaluate("window.__pwned === undefined"), url
        assert page.locator('a[href^="javascript:" i]').count() == 0, url
    page.goto(f"{server}/sources/knowledge/pods/")
    body = page.locator(".wikigen-source-body")
    assert "<script>window.__pwned" in body.inner_text()
    assert body.locator("img[src='x']").count() == 0
    assert body.locator("img[src$='diagram.png']").count() == 1
    page.get_by_text("click me").click()
    page.wait_for_timeout(200)
    assert page.evaluate("window.__pwned === undefined")
    # Material's search shows the planted text as text too (once its worker has the index).
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    page.locator("input.md-search__input").press_sequentially("onerror")
    result = page.locator(".md-search-result__item", has_text="onerror").first
    result.wait_for()
    assert '<img src="x" onerror=' in result.inner_text()
    assert page.evaluate("window.__pwned === undefined")


def test_no_request_leaves_localhost(page, server, requests):
    for url in ("/", "/concepts/", "/wiki/concepts/pod/", "/sources/knowledge/pods/raw/", "/manual/"):
        page.goto(server + url)
        page.wait_for_load_state("networkidle")
    page.goto(f"{server}/graph/")
    if (ASSETS / "graph.js").is_file():
        page.wait_for_function("window.wikigenGraph !== undefined")
        page.evaluate("window.wikigenGraph.settled")
    page.wait_for_load_state("networkidle")
    page.locator("input.md-search__input").press_sequentially("pod")
    page.wait_for_timeout(500)
    assert len(requests) > 10

    def host(url: str) -> str | None:
        if url.startswith("blob:"):
            url = url.removeprefix("blob:")
        return None if url.startswith("data:") else urlsplit(url).hostname

    assert {host(url) for url in requests} - {None} == {"127.0.0.1"}


def test_offline_plugin_from_disk_uses_the_local_shim_and_stays_on_disk(built, browser, tmp_path):
    """With Material's offline plugin the site opens from file://: search runs through wikigen's
    local iframe-worker shim (never the unpkg.com polyfill) and every request stays on disk."""
    repo = built["repo"]
    config = repo.root / "mkdocs-offline.yml"
    config.write_text(MKDOCS_YML.replace("  - wikigen\n", "  - wikigen\n  - offline\n"), encoding="utf-8")
    site = tmp_path / "offline-site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    config.unlink()
    assert result.returncode == 0, result.stderr
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "unpkg.com" not in home and 'src="assets/wikigen/iframe-worker.js"' in home
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    raw = next(site.joinpath("sources/knowledge/pods").glob("raw.html"))
    cid = re.search(r'id="(c-[0-9a-f]{12})"', raw.read_text(encoding="utf-8"))
    assert cid is not None
    page.goto(raw.as_uri() + f"#{cid.group(1)}")
    page.wait_for_function("window.wikigenCitations.highlighted() !== ''")
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    page.locator("input.md-search__input").press_sequentially("kubelet")
    page.locator(".md-search-result__item").first.wait_for()
    context.close()
    assert {urlsplit(url).scheme for url in requests} <= {"file", "blob", "data"}


@pytest.fixture(scope="module")
def one_source_edit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A site built, one source edited and compiled, the site built again: both served."""
    from wikigen.store.communities import read_record
    from wikigen.store.git import GitStore

    repo = GitRepo(tmp_path_factory.mktemp("edit") / "repo")
    repo.commit(
        {
            "mkdocs.yml": MKDOCS_YML,
            ".gitignore": "site*/\n",
            f"{K}/pods.md": source(PODS, title="Pods"),
            f"{K}/nodes.md": source(NODES, title="Nodes"),
            f"{K}/services.md": SERVICES,
        },
        message="sources",
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    records = []
    for name in ("before", "after"):
        if name == "after":
            edited = SERVICES + "Concept Gateway: a door for traffic.\nREL Gateway -routes to-> Service.\n"
            repo.commit({f"{K}/services.md": edited}, message="edit one source")
        compile_repo(repo.root, engine=ScriptedEngine(extract))
        store = GitStore(repo.root)
        records.append(dict(read_record(store, store.commit_tree(store.head_commit())).assignment))
        build = [
            str(BIN / "mkdocs"),
            "build",
            "--strict",
            "-f",
            str(repo.root / "mkdocs.yml"),
            "-d",
            f"site-{name}",
        ]
        result = subprocess.run(build, cwd=repo.root, capture_output=True, text=True, env=env, timeout=300)
        assert result.returncode == 0, result.stderr
    handler = functools.partial(QuietHandler, directory=str(repo.root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield {"url": f"http://127.0.0.1:{httpd.server_address[1]}", "records": records}
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_colours_of_unchanged_communities_stay_after_a_one_source_edit(browser, one_source_edit):
    """V3: a community whose members did not change keeps its colour on the page."""
    if not (ASSETS / "graph.js").is_file():
        pytest.skip("the graph bundle is not built")
    colours = []
    for name in ("before", "after"):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{one_source_edit['url']}/site-{name}/graph/")
        page.wait_for_function("window.wikigenGraph !== undefined")
        page.evaluate("window.wikigenGraph.ready")
        data = json.loads(urlopen(f"{one_source_edit['url']}/site-{name}/graph/graph.json").read())
        colours.append(
            {
                n["id"]: page.evaluate(f"window.wikigenGraph.color({json.dumps(n['id'])})")
                for n in data["nodes"]
            }
        )
        context.close()
    before, after = one_source_edit["records"]

    def groups(record: dict[str, str]) -> dict[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for node, name in record.items():
            found.setdefault(name, set()).add(node)
        return {name: frozenset(members) for name, members in found.items()}

    unchanged = set(groups(before).values()) & set(groups(after).values())
    assert any("concept/pod" in members for members in unchanged)
    assert "concept/gateway" in after and "concept/gateway" not in before
    for members in unchanged:
        for node in members:
            assert colours[0][node] == colours[1][node], node
