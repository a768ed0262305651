"""The snapshot projected into pages (pure): home, category directories (R2), the concept index A–Z,
the topic index, the graph page — and, in ``object_pages``, each article, concept and topic; in
``source_pages``, each source rendered and its raw view. Every page is finished HTML; the plugin hands
it to the theme as the page's content.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import partial
from types import MappingProxyType
from typing import Any

from wikigen.model.config import CATEGORIES
from wikigen.model.ids import normalize_name
from wikigen.views.knowledge import Knowledge
from wikigen.views.layout import CONCEPT_INDEX, GRAPH_PAGE, TOPIC_INDEX, Layout
from wikigen.views.markup import Doc, Page, PageSpec, esc
from wikigen.views.object_pages import article_page, concept_page, topic_page
from wikigen.views.site import CATEGORY_NOTES, CATEGORY_TITLES, Site, label_of
from wikigen.views.source_pages import source_pages

BUILD_BUNDLE = "cd wikigen/views/graph_app && npm ci && node build.mjs"


GRAPH_META: Mapping[str, Any] = MappingProxyType({"hide": ["navigation", "toc"]})


def build_pages(site: Site) -> list[Page]:
    """Every page of the site except the sources' (see ``source_pages.source_pages``)."""
    return [spec.make() for spec in page_specs(site)]


def page_specs(site: Site) -> list[PageSpec]:
    """``build_pages`` before any page is written: each page's place and title, and how to write it."""
    k, layout = site.knowledge, site.layout
    specs = [
        PageSpec(layout.home, "Home", partial(home_page, site)),
        PageSpec(CONCEPT_INDEX, "Concepts", partial(concept_index_page, site)),
        PageSpec(TOPIC_INDEX, "Topics", partial(topic_index_page, site)),
        PageSpec(GRAPH_PAGE, "Graph", partial(graph_page, site), GRAPH_META),
    ]
    categories = sorted({s.category for s in k.sources.values()} | set(CATEGORIES))
    specs += [
        PageSpec(layout.category(c), CATEGORY_TITLES.get(c, c), partial(category_page, site, c))
        for c in categories
    ]
    makers = {"article": article_page, "concept": concept_page, "topic": topic_page}
    for oid, obj in sorted(k.objects.items()):
        maker = makers.get(str(obj.get("kind")))
        if maker is not None:
            specs.append(PageSpec(layout.object(oid) or "", label_of(obj), partial(maker, site, oid, obj)))
    return specs


# -- overview pages --------------------------------------------------------------------------------


def home_page(site: Site) -> Page:
    k, layout = site.knowledge, site.layout
    doc = Doc(layout.home)
    doc.heading(1, "Knowledge base")
    counts = {kind: len(k.of_kind(kind)) for kind in ("article", "concept", "relation", "topic")}
    if k.exists:
        doc.add(
            f'<p class="wikigen-lead">Snapshot <strong>{k.version}</strong>'
            + (f", commit <code>{esc(k.head[:12])}</code>" if k.head else "")
            + ". Everything compiled here is a "
            + site.badge("candidate", "candidate")
            + ": a reading of the sources, each claim citing the exact text it comes from. Hover a "
            "citation marker to see the quote; click it to land on that span in the source.</p>"
        )
    else:
        doc.add(
            '<p class="wikigen-lead">No snapshot yet: run <code>wikigen compile</code> to compile the '
            "sources into articles, concepts and relations. The sources are shown below.</p>"
        )
    if k.stale:
        doc.add(
            '<p class="wikigen-warning">Sources changed since this snapshot was compiled; the changed '
            "ones are marked on their pages. Run <code>wikigen compile</code> to compile them.</p>"
        )
    doc.heading(2, "Figures", "figures")
    links = {
        "concept": layout.href(doc.src_uri, CONCEPT_INDEX),
        "topic": layout.href(doc.src_uri, TOPIC_INDEX),
        "relation": layout.href(doc.src_uri, GRAPH_PAGE),
    }
    rows = []
    for kind, title in (
        ("article", "Articles"),
        ("concept", "Concepts"),
        ("relation", "Relations"),
        ("topic", "Topics"),
    ):
        label = f'<a href="{esc(links[kind])}">{title}</a>' if kind in links else title
        rows.append(
            f'<tr><td>{label}</td><td class="wikigen-num" data-kind="{kind}">{counts[kind]}</td></tr>'
        )
    doc.add('<div class="wikigen-figures"><table><thead><tr><th>Kind</th><th>Count</th></tr></thead><tbody>')
    doc.add(*rows, "</tbody></table></div>")

    doc.heading(2, "Sources per category", "sources")
    doc.add(
        '<div class="wikigen-figures"><table><thead><tr><th>Category</th><th>Sources</th><th>Compiled</th>'
        "<th>Pending</th><th>Not compiled</th><th>Verified</th></tr></thead><tbody>"
    )
    for category in sorted({s.category for s in k.sources.values()} | set(CATEGORIES)):
        members = [s for s in k.sources.values() if s.category == category]
        cells = [
            len(members),
            sum(1 for s in members if s.compiled_version is not None),
            sum(1 for s in members if s.status == "pending"),
            sum(1 for s in members if s.status in ("uncompiled", "rejected")),
            sum(1 for s in members if s.verification == "verified"),
        ]
        title = CATEGORY_TITLES.get(category, category)
        doc.add(
            f'<tr data-category="{esc(category)}"><td>{site.link(doc.src_uri, layout.category(category), title)}</td>'
            + "".join(f'<td class="wikigen-num">{n}</td>' for n in cells)
            + "</tr>"
        )
    doc.add("</tbody></table></div>")

    trace = k.trace
    if trace:
        doc.heading(2, "Last compile", "last-compile")
        routes = ", ".join(
            f"{esc(s)}: <code>{esc(r)}</code>" for s, r in sorted((trace.get("routes") or {}).items())
        )
        doc.add(
            f"<p>Engine <code>{esc(trace.get('engine', '?'))}</code>"
            + (f" ({routes})" if routes else "")
            + f", {esc(trace.get('engineCalls', 0))} engine call(s), "
            f"{len(trace.get('changed') or [])} source(s) changed, "
            f"{len(trace.get('withdrawn') or [])} withdrawn.</p>"
        )
    if k.problems:
        doc.heading(2, "Problems", "problems")
        doc.add('<ul class="wikigen-problems">' + "".join(f"<li>{esc(p)}</li>" for p in k.problems) + "</ul>")
    return doc.page("Home")


def category_page(site: Site, category: str) -> Page:
    k, layout = site.knowledge, site.layout
    doc = Doc(layout.category(category))
    title = CATEGORY_TITLES.get(category, category)
    doc.heading(1, title)
    doc.add(f'<p class="wikigen-lead">{esc(CATEGORY_NOTES.get(category, "Sources of this category."))}</p>')
    members = sorted(
        (s for s in k.sources.values() if s.category == category), key=lambda s: (s.title.casefold(), s.id)
    )
    if not members:
        doc.add("<p>No sources in this category yet.</p>")
        return doc.page(title)
    doc.add(
        '<div class="wikigen-directory"><table><thead><tr><th>Source</th><th>Verification</th><th>Status</th>'
        "<th>Version</th><th>Articles</th></tr></thead><tbody>"
    )
    for s in members:
        raw = site.href(doc.src_uri, layout.raw(s.id))
        articles = ", ".join(site.object_link(doc.src_uri, a) for a in site.articles_of.get(s.id, []))
        doc.add(
            f'<tr data-source="{esc(s.id)}"><td>{site.source_link(doc.src_uri, s.id)}'
            + (
                f' <a class="wikigen-raw-link" href="{esc(raw)}">raw</a>'
                if raw and s.body is not None
                else ""
            )
            + f"</td><td>{site.verification_badge(s.verification)}</td><td>{_status(site, s)}</td>"
            f"<td><code>{esc(s.version or '')}</code></td><td>{articles}</td></tr>"
        )
    doc.add("</tbody></table></div>")
    return doc.page(title)


def _status(site: Site, source: Any) -> str:
    text = {
        "compiled": "compiled",
        "pending": "pending",
        "uncompiled": "not compiled",
        "rejected": "rejected",
    }
    badge = site.badge(text.get(source.status, source.status), source.status)
    if source.reason and source.status == "pending":
        badge += f" <small>({esc(source.reason)})</small>"
    return badge


def _initial(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name.strip())
    first = next((ch for ch in folded if not unicodedata.combining(ch)), "")
    return first.upper() if first.isalpha() and first.upper() <= "Z" else "#"


def concept_index_page(site: Site) -> Page:
    doc = Doc(CONCEPT_INDEX)
    doc.heading(1, "Concepts A–Z")
    entries: list[tuple[str, str, str | None]] = []  # (shown name, concept id, alias of)
    for oid, obj in site.knowledge.of_kind("concept").items():
        entries.append((label_of(obj), oid, None))
        entries += [(str(alias), oid, label_of(obj)) for alias in obj.get("aliases", []) or []]
    if not entries:
        doc.add("<p>No concepts in this snapshot yet.</p>")
        return doc.page("Concepts")
    entries.sort(key=lambda e: (_initial(e[0]) == "#", _initial(e[0]), normalize_name(e[0]), e[1]))
    groups: dict[str, list[tuple[str, str, str | None]]] = {}
    for entry in entries:
        groups.setdefault(_initial(entry[0]), []).append(entry)
    jump = " ".join(
        f'<a href="#letter-{esc(letter if letter != "#" else "other")}">{esc(letter)}</a>'
        for letter in groups
    )
    doc.add(f'<p class="wikigen-letters">{jump}</p>')
    for letter, group in groups.items():
        doc.heading(2, letter, f"letter-{letter if letter != '#' else 'other'}")
        items = []
        for name, oid, alias_of in group:
            obj = site.objects[oid]
            target = site.href(doc.src_uri, site.layout.object(oid))
            if alias_of:
                items.append(f'<li>{esc(name)} → <a href="{esc(target)}">{esc(alias_of)}</a></li>')
            else:
                items.append(
                    f'<li><a href="{esc(target)}">{esc(name)}</a> '
                    f"{site.badge(str(obj.get('type', 'concept')), 'type')}</li>"
                )
        doc.add('<ul class="wikigen-index">' + "".join(items) + "</ul>")
    return doc.page("Concepts")


def topic_index_page(site: Site) -> Page:
    doc = Doc(TOPIC_INDEX)
    doc.heading(1, "Topics")
    topics = sorted(site.knowledge.of_kind("topic").items(), key=lambda t: normalize_name(label_of(t[1])))
    if not topics:
        doc.add("<p>No topics in this snapshot yet.</p>")
        return doc.page("Topics")
    items = [
        f"<li>{site.object_link(doc.src_uri, oid)} <small>({len(obj.get('members', []))} members)</small></li>"
        for oid, obj in topics
    ]
    doc.add('<ul class="wikigen-index">' + "".join(items) + "</ul>")
    return doc.page("Topics")


def graph_page(site: Site) -> Page:
    doc = Doc(GRAPH_PAGE)
    layout = site.layout
    concepts = len(site.knowledge.of_kind("concept"))
    relations = len(site.knowledge.of_kind("relation"))
    doc.heading(1, "Semantic graph")
    doc.add(
        f'<p class="wikigen-lead">{concepts} concept(s), {relations} relation(s). Nodes are concepts only '
        "and edges evidenced relations only; communities are colours, connected components hulls. "
        "Hover or click a concept to highlight its neighbours; search flies to a concept.</p>"
    )
    css = layout.href(doc.src_uri, layout.asset("graph.css"))
    js = layout.href(doc.src_uri, layout.asset("graph.js"))
    data = layout.href(doc.src_uri, "graph/graph.json")
    if site.graph_bundle:
        doc.add(
            f'<link rel="stylesheet" href="{esc(css)}">',
            f'<div id="wikigen-graph" data-src="{esc(data)}"></div>',
            f'<script src="{esc(js)}"></script>',
        )
    else:
        # A `pip install git+URL` runs no npm, so that copy of wikigen has no viewer.
        doc.add(
            '<div class="wikigen-warning" id="wikigen-graph-missing"><p>No graph is drawn here: the copy '
            "of wikigen that built this site has no graph viewer. The viewer is built with npm; a release's "
            "wheel or sdist carries it, a <code>pip install git+…</code> does not. Install wikigen from a "
            f"release, or in a checkout of wikigen run <code>make assets</code> (<code>{esc(BUILD_BUNDLE)}</code>), "
            f'then build the site again. The graph data is here: <a href="{esc(data)}">graph.json</a>.</p></div>'
        )
    return doc.page("Graph", **GRAPH_META)


def all_pages(knowledge: Knowledge, layout: Layout, *, graph_bundle: bool = True) -> list[Page]:
    """Every page of the snapshot: overview, compiled knowledge, and each source's two pages."""
    site = Site(knowledge, layout, graph_bundle=graph_bundle)
    return build_pages(site) + source_pages(site)
