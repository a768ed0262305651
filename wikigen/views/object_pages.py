"""The compiled objects' pages (pure): an article, a concept, a topic — each shown as a candidate with
the verification status of its sources; a hypothesis stays labelled a hypothesis (R37); contradictions
and open questions are shown with their scope, versions and uncertainty (R27).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from wikigen.model.ids import kind_of
from wikigen.views.layout import GRAPH_PAGE
from wikigen.views.markup import Doc, Page, esc
from wikigen.views.site import STATUS_LABEL, Notes, Site, citations_of, label_of
from wikigen.views.subgraph import subgraph_svg


def _claims(site: Site, notes: Notes, claims: Iterable[Mapping[str, Any]]) -> str:
    out = []
    for claim in claims:
        status = str(claim.get("status", "stated"))
        label = STATUS_LABEL.get(status)
        badge = site.badge(label, status) + " " if label else ""
        text = site.inline(notes.page, claim.get("text", ""), notes.sources_of(claim.get("citations", [])))
        out.append(
            f'<p class="wikigen-claim wikigen-claim--{esc(status)}">{badge}{text} '
            f"{notes.marks(claim.get('citations', []))}</p>"
        )
    return "\n".join(out)


def _issues(site: Site, doc: Doc, notes: Notes, title: str, issues: Sequence[Mapping[str, Any]]) -> None:
    """R27: contradictions and open questions are shown with scope, versions and uncertainty."""
    if not issues:
        return
    doc.heading(2, title)
    items = []
    for issue in issues:
        facts = []
        if issue.get("scope"):
            facts.append(f"scope: {esc(issue['scope'])}")
        versions = []
        for pinned in issue.get("versions", []) or []:
            sid, _, version = str(pinned).rpartition("@")
            versions.append(f"{site.source_link(doc.src_uri, sid)} @ <code>{esc(version)}</code>")
        if versions:
            facts.append("versions: " + ", ".join(versions))
        facts.append(f"uncertainty: {esc(issue.get('uncertainty') or 'not stated')}")
        text = site.inline(doc.src_uri, issue.get("text", ""), notes.sources_of(issue.get("citations", [])))
        items.append(
            f'<li><span class="wikigen-issue__text">{text}</span> '
            f"{notes.marks(issue.get('citations', []))}"
            f'<br><small class="wikigen-issue__facts">{" · ".join(facts)}</small></li>'
        )
    doc.add(f'<ul class="wikigen-issues" data-issues="{esc(title.casefold())}">' + "".join(items) + "</ul>")


def _sources_of(obj: Mapping[str, Any]) -> list[str]:
    return sorted({str(c["source"]) for c in citations_of(obj)} | {str(s) for s in obj.get("sources", [])})


def _links(site: Site, page: str, ids: Iterable[str]) -> str:
    items = [f"<li>{site.object_link(page, oid)}</li>" for oid in sorted(set(ids)) if oid in site.objects]
    return '<ul class="wikigen-links">' + "".join(items) + "</ul>" if items else ""


def article_page(site: Site, oid: str, obj: Mapping[str, Any]) -> Page:
    doc = Doc(site.layout.object(oid) or "")
    notes = Notes(site, doc.src_uri).add(citations_of(obj))
    title = label_of(obj)
    doc.heading(1, title)
    for note in obj.get("notes", []) or []:  # how it was compiled, e.g. a source in another language
        doc.add(f'<p class="wikigen-article-note"><small>{esc(str(note))}</small></p>')
    doc.add(site.candidate_note(doc.src_uri, _sources_of(obj)))
    doc.add(_claims(site, notes, obj.get("summary", [])))
    for section in obj.get("sections", []) or []:
        doc.heading(2, str(section.get("heading", "")))
        doc.add(_claims(site, notes, section.get("claims", [])))
    _issues(site, doc, notes, "Contradictions", obj.get("contradictions", []) or [])
    _issues(site, doc, notes, "Open questions", obj.get("open_questions", []) or [])
    concepts = site.concepts_of.get(oid, [])
    if concepts:
        doc.heading(2, "Concepts")
        doc.add(_links(site, doc.src_uri, concepts))
    if site.topics_of.get(oid):
        doc.heading(2, "Topics")
        doc.add(_links(site, doc.src_uri, site.topics_of[oid]))
    doc.add(notes.section())
    return doc.page(title)


def concept_page(site: Site, oid: str, obj: Mapping[str, Any]) -> Page:
    doc = Doc(site.layout.object(oid) or "")
    notes = Notes(site, doc.src_uri).add(citations_of(obj))
    relations = [site.objects[r] for r in sorted(set(site.relations_of.get(oid, []))) if r in site.objects]
    for relation in relations:
        notes.add(citations_of(relation))
    title = label_of(obj)
    doc.heading(1, title)
    facts = [site.badge(str(obj.get("type", "concept")), "type")]
    if obj.get("aliases"):
        facts.append("also: " + ", ".join(f"<em>{esc(a)}</em>" for a in obj["aliases"]))
    doc.add(f'<p class="wikigen-facts">{" · ".join(facts)}</p>')
    doc.add(site.candidate_note(doc.src_uri, _sources_of(obj)))
    definition = obj.get("definition")
    if isinstance(definition, Mapping):
        doc.heading(2, "Definition")
        doc.add(_claims(site, notes, [definition]))
    evidence = [str(e) for e in obj.get("evidence", []) or []]
    if evidence:
        doc.heading(2, "Evidence")
        items = [
            f"<li><q>{site.quote(doc.src_uri, notes.pool[cid])}</q> {notes.marks([cid])}</li>"
            for cid in evidence
            if cid in notes.pool
        ]
        doc.add('<ul class="wikigen-evidence">' + "".join(items) + "</ul>")
    if relations:
        doc.heading(2, "Relations")
        items = [f"<li>{site.relation_line(doc.src_uri, r, notes)}</li>" for r in relations]
        doc.add('<ul class="wikigen-relations">' + "".join(items) + "</ul>")
    if obj.get("articles"):
        doc.heading(2, "Articles")
        doc.add(_links(site, doc.src_uri, [str(a) for a in obj["articles"]]))
    if site.topics_of.get(oid):
        doc.heading(2, "Topics")
        doc.add(_links(site, doc.src_uri, site.topics_of[oid]))
    graph = site.href(doc.src_uri, GRAPH_PAGE)
    doc.add(f'<p><a class="wikigen-graph-link" href="{esc(graph)}">Open the semantic graph</a></p>')
    doc.add(notes.section())
    return doc.page(title)


def topic_page(site: Site, oid: str, obj: Mapping[str, Any]) -> Page:
    doc = Doc(site.layout.object(oid) or "")
    notes = Notes(site, doc.src_uri).add(citations_of(obj))
    title = label_of(obj)
    doc.heading(1, title)
    doc.add(site.candidate_note(doc.src_uri, _sources_of(obj)))
    doc.add(_claims(site, notes, obj.get("summary", [])))
    members = [str(m) for m in obj.get("members", []) or []]
    concepts = {m: site.objects[m] for m in members if m in site.objects and kind_of(m) == "concept"}
    if concepts:
        doc.heading(2, "Concepts", "concepts")
        relations = [site.objects[r] for c in sorted(concepts) for r in site.relations_of.get(c, [])]
        doc.add(
            subgraph_svg(
                concepts,
                relations,
                center=str(obj.get("anchor") or ""),
                href=lambda c: site.href(doc.src_uri, site.layout.object(c)),
                label=label_of,
                color=site.community_color,
            )
        )
        doc.add(_community_note(site, doc.src_uri, str(obj.get("anchor") or "")))
        doc.add(_links(site, doc.src_uri, concepts))
    # The members' articles: the topic's own, then those of its concepts.
    articles = [m for m in members if kind_of(m) == "article"]
    articles += [str(a) for c in sorted(concepts) for a in concepts[c].get("articles", []) or []]
    if articles:
        doc.heading(2, "Articles", "articles")
        doc.add(_links(site, doc.src_uri, articles))
    _issues(site, doc, notes, "Contradictions", obj.get("contradictions", []) or [])
    _issues(site, doc, notes, "Open questions", obj.get("open_questions", []) or [])
    doc.add(notes.section())
    return doc.page(title)


def _community_note(site: Site, page: str, anchor: str) -> str:
    """Which community the topic's anchor is in on the graph page, in the graph's colour, so a topic
    and its community never contradict each other (V3)."""
    name = site.communities.get(anchor)
    if anchor not in site.objects or name is None:
        return ""
    swatch = f'<span class="wikigen-swatch" style="background: {esc(site.community_color(anchor))}"></span>'
    members = site.community_size(name)
    if members < 2:
        return f'<p class="wikigen-community">{swatch} In the semantic graph, {site.object_link(page, anchor)} is in no community.</p>'
    named = site.object_link(page, name) if name in site.objects else esc(name)
    return (
        f'<p class="wikigen-community" data-community="{esc(name)}">{swatch} In the semantic graph, '
        f"{site.object_link(page, anchor)} is in the community of {named} ({members} concepts).</p>"
    )
