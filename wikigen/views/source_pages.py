"""Each source's two pages (pure): the rendered page, and the raw view — the exact body of the cited
version read from git, numbered by body lines, with an anchor on every cited span (V1, E2).

A source is rendered with markdown-it and raw HTML disabled, so a ``<script>`` in it is shown as
text and a ``javascript:`` link stays text; images from other hosts become plain links.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from types import MappingProxyType
from typing import Any

from wikigen.views.knowledge import SourceView
from wikigen.views.markup import Doc, Page, PageSpec, esc, raw_view, render_markdown
from wikigen.views.site import CATEGORY_TITLES, Site, citations_of

RAW_META: Mapping[str, Any] = MappingProxyType({"search": {"exclude": True}})


def source_pages(site: Site) -> list[Page]:
    return [spec.make() for spec in source_page_specs(site)]


def source_page_specs(site: Site) -> list[PageSpec]:
    """Each source's two pages before they are written: place, title, and how to write each."""
    specs = []
    for sid in sorted(site.sources):
        source = site.sources[sid]
        specs.append(PageSpec(site.layout.source(sid) or "", source.title, partial(source_page, site, source)))
        specs.append(PageSpec(site.layout.raw(sid) or "", raw_title(source), partial(raw_page, site, source), RAW_META))
    return specs


def raw_title(source: SourceView) -> str:
    return f"{source.title} (raw)"


def _facts(site: Site, doc: Doc, source: SourceView) -> str:
    status = {
        "compiled": "compiled",
        "pending": "pending" + (f" ({source.reason})" if source.reason else ""),
        "uncompiled": "not compiled yet",
        "rejected": "rejected (withdrawn)",
    }.get(source.status, source.status)
    rows = [
        ("Source id", f"<code>{esc(source.id)}</code>"),
        (
            "Category",
            site.link(
                doc.src_uri,
                site.layout.category(source.category),
                CATEGORY_TITLES.get(source.category, source.category),
            ),
        ),
        ("Verification", site.verification_badge(source.verification)),
        ("Status", site.badge(status, source.status)),
        (
            "Compiled version",
            f"<code>{esc(source.compiled_version)}</code>" if source.compiled_version else "none",
        ),
    ]
    if source.pending_version:
        rows.append(("Pending version", f"<code>{esc(source.pending_version)}</code>"))
    rows.append(("Path", f"<code>{esc(source.path)}</code>"))
    if source.blob:
        rows.append(("Blob", f"<code>{esc(source.blob)}</code>"))
    if source.private:
        rows.append(("Private", site.badge("private: never sent to a remote engine", "private")))
    for key in sorted(source.metadata):
        rows.append((str(key), esc(source.metadata[key])))
    body = "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<div class="wikigen-facts-table"><table><tbody>{body}</tbody></table></div>'


def _notices(source: SourceView) -> str:
    out = []
    if source.changed:
        out.append(
            "A newer version of this file is committed but not compiled yet; citations still point at the compiled version."
        )
    if source.status == "pending" and source.compiled_version:
        out.append(
            "A newer version waits (pending); the page shows the compiled version, the one citations point at."
        )
    if source.body is None and source.reason:
        out.append(f"The text cannot be shown: {source.reason}.")
    return "".join(f'<p class="wikigen-warning">{esc(text)}</p>' for text in out)


def source_page(site: Site, source: SourceView) -> Page:
    layout = site.layout
    doc = Doc(layout.source(source.id) or "")
    doc.heading(1, source.title)
    doc.add(_facts(site, doc, source), _notices(source))
    raw = site.href(doc.src_uri, layout.raw(source.id))
    if source.body is not None and raw:
        doc.add(
            f'<p><a class="wikigen-raw-link" href="{esc(raw)}">Raw view</a>: the exact text of version '
            f"<code>{esc(source.version)}</code> with body line numbers and every cited span.</p>"
        )
    derived = sorted(site.cited_by.get(source.id, set()) | set(site.articles_of.get(source.id, [])))
    if derived:
        doc.heading(2, "Compiled from this source", "compiled")
        groups = []
        for kind, title in (("article", "Articles"), ("concept", "Concepts"), ("topic", "Topics")):
            ids = [oid for oid in derived if site.objects[oid].get("kind") == kind]
            if ids:
                links = ", ".join(site.object_link(doc.src_uri, oid) for oid in ids)
                groups.append(f"<li>{title}: {links}</li>")
        relations = [oid for oid in derived if site.objects[oid].get("kind") == "relation"]
        if relations:
            groups.append(f"<li>Relations: {len(relations)}</li>")
        doc.add('<ul class="wikigen-links">' + "".join(groups) + "</ul>")
    if source.body is not None:
        doc.heading(2, "Text", "text")
        html = render_markdown(source.body, site.link_context(doc.src_uri, source))
        doc.add(f'<div class="wikigen-source-body">{html}</div>')
    return doc.page(source.title)


def raw_page(site: Site, source: SourceView) -> Page:
    layout = site.layout
    doc = Doc(layout.raw(source.id) or "")
    title = raw_title(source)
    doc.heading(1, title)
    page = site.href(doc.src_uri, layout.source(source.id))
    if source.body is None:
        doc.add(_notices(source))
        return doc.page(title, **RAW_META)
    checked = (
        "its sha256 matches the manifest"
        if source.verified_body
        else "not compiled, so nothing to check against"
    )
    doc.add(
        f'<p class="wikigen-lead">The exact body of version <code>{esc(source.version)}</code> '
        f"(blob <code>{esc(source.blob)}</code>; {checked}), read from git, numbered by body lines — the "
        f"lines citations count, after the frontmatter. {site.verification_badge(source.verification)} "
        f'<a href="{esc(page)}">Rendered page</a>.</p>',
        _notices(source),
    )
    anchors = site.anchors(source)
    doc.add(raw_view(source.body, anchors))
    if anchors:
        doc.heading(2, "Cited spans", "cited-spans")
        citing: dict[str, set[str]] = {}
        for oid in site.cited_by.get(source.id, set()):
            for c in citations_of(site.objects[oid]):
                if c["source"] == source.id:
                    citing.setdefault(str(c["citation_id"]), set()).add(oid)
        items = []
        for anchor in anchors:
            quote = source.body[anchor.start : anchor.end]
            by = ", ".join(
                site.object_link(doc.src_uri, oid) for oid in sorted(citing.get(anchor.citation_id, ()))
            )
            items.append(
                f'<li><a href="#{esc(anchor.name)}" class="wikigen-span-link">{esc(anchor.citation_id)}</a> '
                f"<q>{site.inline(doc.src_uri, quote, [source.id])}</q> — cited by {by}</li>"
            )
        doc.add('<ol class="wikigen-spans" data-search-exclude>' + "".join(items) + "</ol>")
    return doc.page(title, **RAW_META)
