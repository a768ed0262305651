"""The page projection (V1, R27, R37, the span convention, safety), on in-memory snapshots.

The helpers at the top build small snapshots (sources with bodies, objects citing them); the graph
tests import them too. The real build, browser included, is in tests/integration/test_site.py.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from types import MappingProxyType
from typing import Any

import pytest

from wikigen.evidence.passages import lines_of_span
from wikigen.model.hashing import citation_id
from wikigen.model.objects import object_path
from wikigen.views.knowledge import Knowledge, SourceView
from wikigen.views.layout import (
    Layout,
    escape_segment,
    readable_names,
    relative_url,
    safe_segment,
    unescape_segment,
)
from wikigen.views.markup import Anchor, LinkContext, raw_view, render_markdown, utf16_offsets
from wikigen.views.pages import all_pages

# -- helpers: small snapshots ----------------------------------------------------------------------


def source(
    sid: str, body: str, *, title: str = "", verification: str = "verified", version: str = "v1"
) -> SourceView:
    category = sid.split("/", 1)[0]
    return SourceView(
        id=sid,
        path=f"content/sources/{sid}.md",
        title=title or sid,
        category=category,
        verification=verification,
        status="compiled",
        version=version,
        blob="b" * 40,
        body=body,
        verified_body=True,
        compiled_version=version,
    )


def cite(src: SourceView, quote: str, occurrence: int = 0) -> dict[str, Any]:
    """A citation of the ``occurrence``-th place of ``quote`` in the source's body (E2, E3)."""
    assert src.body is not None
    start = -1
    for _ in range(occurrence + 1):
        start = src.body.index(quote, start + 1)
    end = start + len(quote)
    first, last = lines_of_span(src.body, start, end)
    return {
        "citation_id": citation_id(src.id, start),
        "source": src.id,
        "version": src.compiled_version,
        "source_span": {"start": start, "end": end},
        "lines": {"start": first, "end": last},
        "quote": quote,
    }


def concept(
    name: str, cites: list[dict[str, Any]], *, articles: tuple[str, ...] = (), **extra: Any
) -> dict[str, Any]:
    slug = name.casefold().replace(" ", "-")
    return {
        "id": f"concept/{slug}",
        "kind": "concept",
        "name": name,
        "aliases": [],
        "type": "concept",
        "definition": {"text": cites[0]["quote"], "status": "stated", "citations": [cites[0]["citation_id"]]},
        "evidence": [c["citation_id"] for c in cites[1:]],
        "citations": cites,
        "articles": list(articles),
        **extra,
    }


def relation(
    subject: str, predicate: str, obj: str, cites: list[dict[str, Any]], rid: str = ""
) -> dict[str, Any]:
    return {
        "id": rid or f"relation/{subject.split('/')[-1]}-{predicate.replace(' ', '-')}-{obj.split('/')[-1]}",
        "kind": "relation",
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "basis": "explicit",
        "evidence": cites,
    }


def article(
    aid: str, title: str, claims: list[tuple[str, str, list[dict[str, Any]]]], **extra: Any
) -> dict[str, Any]:
    cites = [c for _, _, cs in claims for c in cs]
    for key in ("contradictions", "open_questions"):
        for issue in extra.get(key, []):
            cites += issue.pop("_cites", [])
    return {
        "id": aid,
        "kind": "article",
        "title": title,
        "status": "candidate",
        "sources": sorted({c["source"] for c in cites}),
        "summary": [
            {"text": text, "status": status, "citations": [c["citation_id"] for c in cs]}
            for text, status, cs in claims
        ],
        "sections": [],
        "contradictions": extra.get("contradictions", []),
        "open_questions": extra.get("open_questions", []),
        "citations": list({c["citation_id"]: c for c in cites}.values()),
    }


def knowledge(sources: list[SourceView], objects: list[dict[str, Any]], version: int = 1) -> Knowledge:
    return Knowledge(
        version=version,
        exists=True,
        head="c" * 40,
        sources=MappingProxyType({s.id: s for s in sources}),
        objects=MappingProxyType({o["id"]: MappingProxyType(o) for o in objects}),
    )


def layout_for(k: Knowledge, *, use_directory_urls: bool = True) -> Layout:
    return Layout(
        source_ids=k.sources,
        object_files={oid: object_path(oid) for oid in k.objects if not oid.startswith("relation/")},
        use_directory_urls=use_directory_urls,
        names=readable_names(k.objects),
    )


def page_of(pages: list[Any], src_uri: str) -> Any:
    return next(p for p in pages if p.src_uri == src_uri)


class _Text(HTMLParser):
    """The text content of the first element with a given class (what the browser's DOM holds)."""

    def __init__(self, cls: str) -> None:
        super().__init__(convert_charrefs=True)
        self.cls, self.depth, self.parts = cls, 0, []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += 1
        elif self.cls in (dict(attrs).get("class") or "").split():
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


def text_of(markup: str, cls: str) -> str:
    parser = _Text(cls)
    parser.feed(markup)
    return "".join(parser.parts)


def anchors_of(markup: str) -> dict[str, tuple[int, int]]:
    found = re.finditer(
        r'<a class="wikigen-raw__anchor" id="([^"]+)"[^>]*data-start="(\d+)" data-end="(\d+)"', markup
    )
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in found}


def utf16_slice(text: str, start: int, end: int) -> str:
    return text.encode("utf-16-le")[2 * start : 2 * end].decode("utf-16-le")


POD_BODY = (
    "\n# Pods ☕\r\n\n"
    "Concept Pod: a group of containers — café ☕ 🚀 on 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 nodes.\n"
    "Concept Node: a worker\tmachine.\n"
    "REL Pod -runs on-> Node.\n"
    "<script>window.pwned = 1</script> [click](javascript:alert(1))\n"
)
RETRO_BODY = "Failure: the import was slow.\n\nThe cause is a hypothesis: the disk was full.\n"


def snapshot() -> tuple[Knowledge, dict[str, Any]]:
    pods = source("knowledge/pods", POD_BODY, title="Pods <script>alert('title')</script>")
    retro = source(
        "retrospectives/slow", RETRO_BODY, title="Slow import", verification="unverified", version="v9"
    )
    c_pod = cite(pods, "Concept Pod: a group of containers — café ☕ 🚀 on 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 nodes.")
    c_emoji = cite(pods, "🚀 on 𝔘𝔫𝔦𝔠𝔬𝔡𝔢")
    c_node = cite(pods, "Concept Node: a worker\tmachine.")
    c_rel = cite(pods, "REL Pod -runs on-> Node.")
    # Same start as c_pod, shorter: the same citation_id (E3), cited by another object.
    c_prefix = cite(pods, "Concept Pod")
    c_cause = cite(retro, "The cause is a hypothesis: the disk was full.")
    objects = [
        article(
            "article/knowledge--pods", "Pods", [("Pods group containers.", "stated", [c_prefix, c_emoji])]
        ),
        article(
            "article/retrospectives--slow",
            "Slow import",
            [("The disk was full.", "hypothesis", [c_cause]), ("Split the import.", "suggestion", [c_cause])],
            contradictions=[
                {
                    "text": "Two causes disagree",
                    "scope": "import",
                    "uncertainty": "high",
                    "versions": ["retrospectives/slow@v9"],
                    "citations": [c_cause["citation_id"]],
                    "_cites": [c_cause],
                }
            ],
            open_questions=[
                {
                    "text": "Was the disk full?",
                    "versions": ["retrospectives/slow@v9"],
                    "citations": [c_cause["citation_id"]],
                }
            ],
        ),
        concept("Pod", [c_pod], articles=("article/knowledge--pods",), aliases=["Pods"]),
        concept("Node", [c_node], articles=("article/knowledge--pods",)),
        relation("concept/pod", "runs on", "concept/node", [c_rel]),
    ]
    return knowledge([pods, retro], objects), {
        "pod": c_pod,
        "emoji": c_emoji,
        "node": c_node,
        "prefix": c_prefix,
        "cause": c_cause,
    }


# -- offsets and the raw view ----------------------------------------------------------------------


def test_utf16_offsets_count_astral_characters_as_two_units():
    text = "a☕🚀b𝔘c\U0001f600é"
    convert = utf16_offsets(text)
    for index in range(len(text) + 1):
        assert convert(index) == len(text[:index].encode("utf-16-le")) // 2
    assert convert(3) == 4  # after 🚀, one code point and two UTF-16 units


def test_raw_view_text_is_the_body_exactly_and_each_anchor_spans_its_quote_in_utf16():
    k, cites = snapshot()
    pages = all_pages(k, layout_for(k))
    raw = page_of(pages, "sources/knowledge/pods/raw.md").html
    # CR, tab, emoji, astral letters and markup survive byte for byte in the DOM's text.
    assert text_of(raw, "wikigen-raw__body") == POD_BODY
    anchors = anchors_of(raw)
    for key in ("pod", "emoji", "node"):
        c = cites[key]
        start, end = anchors[f"c-{c['citation_id']}"]
        assert utf16_slice(POD_BODY, start, end) == c["quote"]
    # Two quotes from the same start share one citation_id (E3): the longer gets c-<id>.
    prefix = cites["prefix"]
    assert prefix["citation_id"] == cites["pod"]["citation_id"]
    start, end = anchors[f"c-{prefix['citation_id']}-{prefix['source_span']['end']}"]
    assert utf16_slice(POD_BODY, start, end) == "Concept Pod"
    assert "<script>" not in raw and "&lt;script&gt;window.pwned" in raw


def test_raw_view_numbers_body_lines_as_the_compiler_does():
    body = "a\r\nb\rc\n\nd"  # CRLF, CR and LF all end a line (evidence.passages)
    markup = raw_view(body, [Anchor("c-x", 7, 8, "x")])
    lines = re.findall(
        r'<span class="wikigen-raw__line" id="L(\d+)" data-line="\d+">(.*?)</span>', markup, re.S
    )
    assert [int(n) for n, _ in lines] == [1, 2, 3, 4, 5]
    assert lines_of_span(body, 7, 8) == (4, 4)
    assert 'id="c-x"' in lines[3][1] and lines[4][1] == "d"


# -- safety ----------------------------------------------------------------------------------------

HOSTILE = (
    "<script>window.pwned = 1</script>\n\n"
    '<img src="x" onerror="window.pwned = 2">\n\n'
    "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](java&#x09;script:alert(1)) "
    "<javascript:alert(1)> [d](data:text/html,hello) [e](vbscript:msgbox) [f](%20javascript:alert(1))\n\n"
    "[ok](https://example.org/page) [rel](other.md#part) ![local](diagram.png) ![remote](https://example.org/a.png)\n"
)


def test_markdown_escapes_raw_html_and_never_makes_javascript_a_live_link():
    links = LinkContext("sources/knowledge", lambda path, fragment: f"/resolved/{path}#{fragment}")
    out = render_markdown(HOSTILE, links)
    assert "<script" not in out and '<img src="x"' not in out
    assert "&lt;script&gt;" in out and "onerror" not in out.replace("onerror=&quot;", "")
    hrefs = re.findall(r'href="([^"]*)"', out)
    assert not [h for h in hrefs if re.match(r"\s*(javascript|vbscript|data):", html.unescape(h), re.I)]
    # `%20javascript:` is a relative path (a file name), resolved inside the site like any other.
    assert [h for h in hrefs if "javascript" in h.lower()] == [
        "/resolved/sources/knowledge/ javascript:alert(1)#"
    ]
    assert 'href="https://example.org/page"' in out
    assert 'href="/resolved/sources/knowledge/other.md#part"' in out
    assert 'src="/resolved/sources/knowledge/diagram.png#"' in out
    # An image from another host would be a request: it becomes a plain link.
    assert 'src="https://example.org/a.png"' not in out and 'href="https://example.org/a.png"' in out


def test_every_generated_page_escapes_a_script_in_titles_and_bodies():
    k, _ = snapshot()
    pages = all_pages(k, layout_for(k))
    assert len(pages) > 10
    for page in pages:
        scripts = re.findall(r"<script[^>]*>", page.html, flags=re.I)
        if page.src_uri == "graph/index.md":
            assert scripts == ['<script src="../assets/wikigen/graph.js">']
        else:
            assert scripts == [], page.src_uri
        assert not re.search(r'href="\s*javascript:', page.html, flags=re.I), page.src_uri
    source_page = page_of(pages, "sources/knowledge/pods.md")
    assert source_page.title == "Pods <script>alert('title')</script>"  # plain text; the plugin escapes it
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;" in source_page.html
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in source_page.html


QUOTING_BODY = (
    "Use the `--netrc` flag; see the [`ftp` man pages][netrc-docs] and _this_ [guide](other.md#top).\n"
    "A claim may say <b>bold</b> or [run](javascript:alert(1)) or [nothing][missing].\n\n"
    '[netrc-docs]: https://example.org/netrc "netrc"\n'
)


def quoting_snapshot() -> tuple[Knowledge, dict[str, Any]]:
    src = source("knowledge/netrc", QUOTING_BODY)
    other = source("knowledge/other", "# Other\n")
    first = QUOTING_BODY.splitlines()[0]
    c_first = cite(src, first)
    c_second = cite(src, QUOTING_BODY.splitlines()[1])
    objects = [
        article(
            "article/knowledge--netrc",
            "netrc",
            [(first, "stated", [c_first]), ("Second.", "stated", [c_second])],
        ),
        concept("netrc", [c_first, c_second]),
    ]
    return knowledge([src, other], objects), {"first": c_first, "second": c_second}


def test_claims_definitions_and_quotes_render_their_inline_markdown_safely():
    """V1: code spans, emphasis and links (reference links from the source's own
    definitions) are rendered; raw HTML and unsafe links stay text; a missing reference is text."""
    k, _ = quoting_snapshot()
    pages = all_pages(k, layout_for(k))
    art = page_of(pages, "wiki/articles/knowledge--netrc.md").html
    claim = re.search(r'<p class="wikigen-claim wikigen-claim--stated">(.*?)<sup', art)
    assert claim is not None
    text = claim.group(1)
    assert "<code>--netrc</code>" in text and "<em>this</em>" in text
    assert (
        '<a href="https://example.org/netrc" title="netrc" rel="noopener noreferrer nofollow"><code>ftp</code> man pages</a>'
        in text
    )
    assert '<a href="../../../sources/knowledge/other/#top">guide</a>' in text
    for page in (art, page_of(pages, "wiki/concepts/netrc.md").html):
        assert "&lt;b&gt;bold&lt;/b&gt;" in page and "<b>" not in page
        assert "[nothing][missing]" in page  # no definition: shown as written
        assert not re.search(r'href="\s*javascript:', page, flags=re.I)
        assert "`" not in re.sub(r"<[^>]+>", "", page.split('id="citations"')[0])
    definition = page_of(pages, "wiki/concepts/netrc.md").html
    assert re.search(r'wikigen-claim--stated">Use the <code>--netrc</code> flag', definition)
    # The hover card and the citation list render the quote too.
    assert "“Use the <code>--netrc</code> flag" in art
    assert "<q>Use the <code>--netrc</code> flag" in art


def test_a_citation_of_one_line_says_line_not_a_range():
    k, cites = quoting_snapshot()
    art = page_of(all_pages(k, layout_for(k)), "wiki/articles/knowledge--netrc.md").html
    assert cites["first"]["lines"] == {"start": 1, "end": 1}
    assert "line 1</" in art and "lines 1–1" not in art


# -- citations, candidates, R27, R37 ---------------------------------------------------------------


def test_markers_link_to_the_raw_view_at_the_span_and_show_quote_title_version_status_and_id():
    k, cites = snapshot()
    pages = all_pages(k, layout_for(k))
    art = page_of(pages, "wiki/articles/knowledge--pods.md").html
    c = cites["emoji"]
    href = f"../../../sources/knowledge/pods/raw/#c-{c['citation_id']}"
    mark = re.search(
        rf'<a class="wikigen-cite__mark" href="{re.escape(href)}"[^>]*>\[2\]</a>(.*?)</sup>', art
    )
    assert mark is not None
    card = mark.group(1)
    assert "🚀 on 𝔘𝔫𝔦𝔠𝔬𝔡𝔢" in card  # the quote
    assert "Pods &lt;script&gt;" in card  # the source title, escaped
    assert "<code>v1</code>" in card and "wikigen-badge--verified" in card
    assert f"<code>{c['citation_id']}</code>" in card
    # Two quotes from one start share a citation_id: each page links to its own span's anchor.
    prefix = cites["prefix"]
    assert f'raw/#c-{prefix["citation_id"]}-{prefix["source_span"]["end"]}"' in art
    concept_page = page_of(pages, "wiki/concepts/pod.md").html
    assert f'raw/#c-{prefix["citation_id"]}"' in concept_page


def test_compiled_knowledge_is_a_candidate_with_its_sources_verification():
    k, _ = snapshot()
    pages = all_pages(k, layout_for(k))
    art = page_of(pages, "wiki/articles/retrospectives--slow.md").html
    note = re.search(r'<p class="wikigen-candidate">(.*?)</p>', art)
    assert note is not None
    assert "candidate" in note.group(1) and "Slow import</a>" in note.group(1)
    assert "wikigen-badge--unverified" in note.group(1)


def test_hypothesis_stays_a_hypothesis_and_issues_keep_scope_versions_uncertainty():
    k, _ = snapshot()
    art = page_of(all_pages(k, layout_for(k)), "wiki/articles/retrospectives--slow.md").html
    assert re.search(r'wikigen-claim--hypothesis">.*Hypothesis</span> The disk was full\.', art)
    assert re.search(r'wikigen-claim--suggestion">.*Suggestion \(not done\)</span> Split the import\.', art)
    contradictions = art[art.index('id="contradictions"') : art.index('id="open-questions"')]
    assert "Two causes disagree" in contradictions
    assert "scope: import" in contradictions and "uncertainty: high" in contradictions
    assert "Slow import</a> @ <code>v9</code>" in contradictions
    questions = art[art.index('id="open-questions"') :]
    assert "Was the disk full?" in questions and "uncertainty: not stated" in questions


def test_overview_pages_home_categories_and_concept_index():
    k, _ = snapshot()
    pages = all_pages(k, layout_for(k))
    home = page_of(pages, "index.md").html
    assert "Snapshot <strong>1</strong>" in home
    assert re.search(r'data-kind="concept">2<', home) and re.search(r'data-kind="relation">1<', home)
    assert re.search(r'data-category="knowledge">.*?<td class="wikigen-num">1</td>', home)
    knowledge_dir = page_of(pages, "categories/knowledge.md").html
    assert 'data-source="knowledge/pods"' in knowledge_dir and "retrospectives/slow" not in knowledge_dir
    for category in ("tasks", "retrospectives", "constraints"):
        page_of(pages, f"categories/{category}.md")  # R2: all four, even when empty
    index = page_of(pages, "concepts.md")
    assert [t for _, _, t in index.toc] == ["N", "P"]
    assert "Pods → <a" in index.html  # an alias points at its concept


def test_a_page_listed_before_it_is_written_has_the_place_title_and_meta_it_is_written_with():
    # V1: the MkDocs plugin stubs every page from its spec and writes it later; the two agree.
    from wikigen.views.pages import page_specs
    from wikigen.views.site import Site
    from wikigen.views.source_pages import source_page_specs

    k, _ = snapshot()
    site = Site(k, layout_for(k))
    specs = page_specs(site) + source_page_specs(site)
    assert {"article", "concept"} <= {str(obj.get("kind")) for obj in k.objects.values()}
    made = [spec.make() for spec in specs]
    assert [(s.src_uri, s.title, dict(s.meta)) for s in specs] == [
        (p.src_uri, p.title, dict(p.meta)) for p in made
    ]
    assert [p.html for p in made] == [p.html for p in all_pages(k, layout_for(k))]
    assert any(s.meta for s in specs)  # the graph page and the raw views carry meta


def test_an_empty_snapshot_still_has_all_its_pages():
    k = knowledge([source("knowledge/only", "Just text.\n")], [])
    uris = {p.src_uri for p in all_pages(k, layout_for(k))}
    assert {"index.md", "concepts.md", "topics.md", "graph/index.md", "sources/knowledge/only.md"} <= uris
    assert "sources/knowledge/only/raw.md" in uris


def test_missing_graph_bundle_explains_how_to_build_it():
    from wikigen.views.pages import graph_page
    from wikigen.views.site import Site

    k, _ = snapshot()
    page = graph_page(Site(k, layout_for(k), graph_bundle=False))
    assert "npm ci &amp;&amp; node build.mjs" in page.html and "<script" not in page.html


# -- layout ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("directory_urls", [True, False])
def test_layout_urls_and_relative_links_match_mkdocs(directory_urls):
    from mkdocs.structure.files import File
    from mkdocs.utils import get_relative_url

    k, _ = snapshot()
    layout = layout_for(k, use_directory_urls=directory_urls)
    uris = [
        "index.md",
        "concepts.md",
        "graph/index.md",
        "sources/knowledge/pods.md",
        "sources/knowledge/pods/raw.md",
        "graph/graph.json",
    ]
    for uri in uris:
        expected = File(uri, src_dir="/docs", dest_dir="/site", use_directory_urls=directory_urls).url
        assert layout.url(uri) == expected
        for other in uris[:-1]:
            assert relative_url(layout.url(uri), layout.url(other)) == get_relative_url(
                layout.url(uri), layout.url(other)
            )
    art = page_of(all_pages(k, layout), "wiki/articles/knowledge--pods.md").html
    raw = (
        "../../sources/knowledge/pods/raw.html#c-"
        if not directory_urls
        else "../../../sources/knowledge/pods/raw/#c-"
    )
    assert raw in art


def test_source_ids_become_safe_unique_paths():
    layout = Layout(
        source_ids=["../../etc/passwd", "a/index", "a", "knowledge/pods", "knowledge/pods/raw", ".hidden"],
        object_files={},
    )
    pages = {
        sid: layout.source(sid)
        for sid in ["../../etc/passwd", "a/index", "a", "knowledge/pods", "knowledge/pods/raw", ".hidden"]
    }
    for uri in pages.values():
        assert (
            uri is not None
            and ".." not in uri.split("/")
            and not any(p.startswith(".") for p in uri.split("/"))
        )
    taken = list(pages.values()) + [layout.raw(s) for s in pages]
    assert len({layout.url(u) for u in taken if u}) == len(taken)  # no two pages at one URL
    assert safe_segment("pods") == "pods" and safe_segment("index") != "index"


@pytest.mark.parametrize(
    "text",
    [
        "child_process",
        "node.js",
        "offline_engine",
        "a/b c~d",
        "..",
        ".hidden",
        "index",
        "README",
        "café",
        "x?y#z%",
    ],
)
def test_url_segments_are_a_reversible_escape_that_keeps_underscores_and_dots(text):
    escaped = escape_segment(text)
    assert unescape_segment(escaped) == text
    assert escaped.casefold() not in ("index", "readme") and not escaped.startswith(".")
    assert all(ch.isalnum() or ch in "_.-~" for ch in escaped)
    if text in ("child_process", "node.js", "offline_engine", "café"):
        assert escaped == text


def test_page_urls_come_from_names_and_source_ids_with_no_hash():
    """V1: an id that carries a hash (a name or source id with `_` or `.`) still gets a
    readable URL; ids stay as they are (R25)."""
    from wikigen.model.ids import article_id, concept_id, topic_id

    src = source("knowledge/nodejs-api/child_process", "Concept child_process: spawns.\n")
    c = cite(src, "Concept child_process: spawns.")
    objects = [
        {**article(article_id([src.id], "x"), "child_process", [("Spawns.", "stated", [c])])},
        {**concept("child_process", [c]), "id": concept_id("child_process")},
        {**concept("Node.js", [c]), "id": concept_id("Node.js")},
        {**concept("offline engine", [c]), "id": concept_id("offline engine")},
        {
            "id": topic_id("Process model", ["concept/x"]),
            "kind": "topic",
            "title": "Process model",
            "members": [],
            "citations": [],
        },
    ]
    k = knowledge([src], objects)
    assert all(re.search(r"-[0-9a-f]{6,8}$", o["id"]) for o in objects if "offline" not in o["id"])
    layout = layout_for(k)
    uris = {oid: layout.object(oid) for oid in k.objects}
    assert sorted(uris.values()) == [
        "wiki/articles/knowledge--nodejs-api--child_process.md",
        "wiki/concepts/child_process.md",
        "wiki/concepts/node.js.md",
        "wiki/concepts/offline_engine.md",
        "wiki/topics/process_model.md",
    ]
    assert layout.url("wiki/concepts/node.js.md") == "wiki/concepts/node.js/"
    # Two names that escape alike keep distinct pages.
    twins = knowledge(
        [src],
        [{**concept("a b", [c]), "id": concept_id("a b")}, {**concept("a_b", [c]), "id": concept_id("a_b")}],
    )
    twin_uris = {layout_for(twins).object(oid) for oid in twins.objects}
    assert len(twin_uris) == 2 and "wiki/concepts/a_b.md" in twin_uris


def test_a_topic_page_draws_its_members_subgraph_and_links_to_their_articles():
    """V1: the member concepts and the relations among them, each node a link; the members'
    articles listed."""
    k, cites = snapshot()
    topic = {
        "id": "topic/pod-12345678",
        "kind": "topic",
        "title": "Pod <b>",
        "anchor": "concept/pod",
        "members": ["concept/node", "concept/pod"],
        "summary": [
            {"text": "Pods `group`.", "status": "stated", "citations": [cites["pod"]["citation_id"]]}
        ],
        "citations": [cites["pod"]],
    }
    k = knowledge(list(k.sources.values()), [*(dict(o) for o in k.objects.values()), topic])
    page = page_of(all_pages(k, layout_for(k)), "wiki/topics/pod_~3Cb~3E.md").html
    svg = page[page.index("<svg") : page.index("</svg>")]
    nodes = re.findall(r'<a class="wikigen-subgraph__node[^"]*" href="([^"]+)" data-id="([^"]+)"', svg)
    assert nodes == [("../../concepts/pod/", "concept/pod"), ("../../concepts/node/", "concept/node")]
    assert svg.count("<line ") == 1 and "concept/pod —runs on→ concept/node" in svg
    assert "wikigen-subgraph__node--anchor" in svg
    articles = page[page.index('id="articles"') :]
    assert 'href="../../articles/knowledge--pods/"' in articles
    assert "<code>group</code>" in page and "<b>" not in page


def test_citation_ids_in_fixtures_follow_e3():
    k, cites = snapshot()
    c = cites["node"]
    assert c["citation_id"] == citation_id("knowledge/pods", c["source_span"]["start"])
    assert MappingProxyType(k.objects)["concept/node"]["citations"][0] == c


# -- reading the committed snapshot from git -------------------------------------------------------


def test_knowledge_is_read_from_head_at_the_cited_version_and_checked_against_the_manifest(git_repo):

    from tests.conftest import source as source_file
    from tests.engines import extract
    from wikigen.compiler.driver import compile_repo
    from wikigen.engines.scripted import ScriptedEngine
    from wikigen.views.knowledge import load_knowledge

    body = "Concept Pod: a group of containers 🚀.\n"
    git_repo.commit({"content/sources/knowledge/pods.md": source_file(body, title="Pods")})
    empty = load_knowledge(git_repo.root)  # committed, never compiled: pages all the same
    assert not empty.exists and empty.sources["knowledge/pods"].status == "uncompiled"
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    k = load_knowledge(git_repo.root)
    pods = k.sources["knowledge/pods"]
    assert (pods.status, pods.body, pods.verified_body, pods.changed) == ("compiled", body, True, False)
    assert {o.get("kind") for o in k.objects.values()} == {"article", "concept"}

    # A newer committed version is not compiled yet: the cited version is still the one shown.
    git_repo.commit({"content/sources/knowledge/pods.md": source_file(body + "More.\n", title="Pods")})
    k = load_knowledge(git_repo.root)
    assert k.stale and k.sources["knowledge/pods"].changed and k.sources["knowledge/pods"].body == body

    # E5: a manifest whose hash does not match the blob shows no body and says why.
    git_repo.edit_manifest(lambda m: m["knowledge/pods"].update(contentHash="0" * 64))
    k = load_knowledge(git_repo.root)
    assert k.sources["knowledge/pods"].body is None
    assert any("does not hold the body" in p for p in k.problems)
    raw = page_of(all_pages(k, layout_for(k)), "sources/knowledge/pods/raw.md").html
    assert "wikigen-raw__body" not in raw and "does not hold the body" in raw
