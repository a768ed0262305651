"""What every page needs to know about the whole snapshot (pure): who cites what, which object
belongs to which source, where each citation's anchor is, and how to draw links, badges and
citation markers.
"""

from __future__ import annotations

import functools
import posixpath
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from wikigen.compiler.communities import community_color
from wikigen.views.groups import communities
from wikigen.views.knowledge import Knowledge, SourceView
from wikigen.views.layout import Layout
from wikigen.views.markup import Anchor, LinkContext, esc, line_range, link_references, render_inline

DOCS_PREFIX = "content/"

CATEGORY_TITLES = {
    "knowledge": "Knowledge",
    "tasks": "Tasks",
    "retrospectives": "Retrospectives",
    "constraints": "Constraints",
}
CATEGORY_NOTES = {
    "knowledge": "Professional knowledge and explicit uploads.",
    "tasks": "Requirements, decisions, corrections, process, results and acceptance basis.",
    "retrospectives": "Failures, pending reviews, explicit preferences and capability evidence.",
    "constraints": "Environment, rules, authorization boundaries and conditions.",
}
VERIFICATION_NOTE = {
    "verified": "verified by a person",
    "unverified": "not verified",
    "rejected": "rejected",
}
STATUS_LABEL = {
    "hypothesis": "Hypothesis",
    "suggestion": "Suggestion (not done)",
    "question": "Open question",
}


def citations_of(obj: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every citation an object carries (a relation's are its evidence)."""
    key = "evidence" if obj.get("kind") == "relation" else "citations"
    return [c for c in obj.get(key, []) or [] if isinstance(c, Mapping) and "citation_id" in c]


def label_of(obj: Mapping[str, Any]) -> str:
    return str(obj.get("name") or obj.get("title") or obj.get("predicate") or obj.get("id"))


@dataclass(frozen=True, slots=True)
class Target:
    """Where a citation link lands: the raw view at its anchor, or why it cannot."""

    page: str | None
    anchor: str | None
    problem: str | None = None


class Site:
    """Indexes over one Knowledge, built once per build."""

    def __init__(self, knowledge: Knowledge, layout: Layout, *, graph_bundle: bool = True) -> None:
        self.knowledge = knowledge
        self.layout = layout
        self.graph_bundle = graph_bundle
        self.objects = knowledge.objects
        self.sources = knowledge.sources
        self.cited_by: dict[str, set[str]] = {}  # source id → ids of objects citing it
        self.relations_of: dict[str, list[str]] = {}  # concept id → relation ids touching it
        self.topics_of: dict[str, list[str]] = {}  # member id → topic ids
        self.articles_of: dict[str, list[str]] = {}  # source id → article ids built from it
        self.by_path = {  # docs path → source id, for the relative links sources write
            s.path[len(DOCS_PREFIX) :]: sid
            for sid, s in self.sources.items()
            if s.path.startswith(DOCS_PREFIX)
        }
        self._references: dict[str, Mapping[str, Any]] = {}
        self.concepts_of: dict[str, list[str]] = {}  # article id → concepts it evidences
        spans: dict[str, dict[str, set[int]]] = {}  # source id → citation id → ends
        for oid in sorted(self.objects):
            obj = self.objects[oid]
            kind = obj.get("kind")
            for c in citations_of(obj):
                self.cited_by.setdefault(str(c["source"]), set()).add(oid)
                source = self.sources.get(str(c["source"]))
                if source is not None and c.get("version") == source.compiled_version:
                    spans.setdefault(source.id, {}).setdefault(str(c["citation_id"]), set()).add(
                        int(c["source_span"]["end"])
                    )
            if kind == "relation":
                for end in (obj.get("subject"), obj.get("object")):
                    self.relations_of.setdefault(str(end), []).append(oid)
            elif kind == "topic":
                for member in obj.get("members", []):
                    self.topics_of.setdefault(str(member), []).append(oid)
            elif kind == "article":
                for sid in obj.get("sources", []):
                    self.articles_of.setdefault(str(sid), []).append(oid)
            elif kind == "concept":
                for article in obj.get("articles", []) or []:
                    self.concepts_of.setdefault(str(article), []).append(oid)
        # E3: one citation id names one start; quotes of different lengths from the same start share
        # it, so the longest span gets ``c-<id>`` and the others ``c-<id>-<end>``.
        self._anchor: dict[tuple[str, str, int], str] = {}
        for sid, by_id in spans.items():
            for cid, ends in by_id.items():
                for i, end in enumerate(sorted(ends, reverse=True)):
                    self._anchor[(sid, cid, end)] = f"c-{cid}" if i == 0 else f"c-{cid}-{end}"

    # -- anchors and citation targets ---------------------------------------------------------------

    def anchors(self, source: SourceView) -> list[Anchor]:
        """The anchors of the raw view of ``source``: every cited span that holds in its body."""
        if source.body is None:
            return []
        found: dict[str, Anchor] = {}
        for oid in sorted(self.cited_by.get(source.id, ())):
            for c in citations_of(self.objects[oid]):
                if c["source"] != source.id or c.get("version") != source.compiled_version:
                    continue
                start, end = int(c["source_span"]["start"]), int(c["source_span"]["end"])
                name = self._anchor.get((source.id, str(c["citation_id"]), end))
                if name and name not in found and source.body[start:end] == c.get("quote"):
                    found[name] = Anchor(name, start, end, str(c["citation_id"]))
        return sorted(found.values(), key=lambda a: (a.start, a.end))

    def target(self, citation: Mapping[str, Any]) -> Target:
        source = self.sources.get(str(citation.get("source")))
        if source is None:
            return Target(None, None, "the cited source is not in the snapshot")
        raw = self.layout.raw(source.id)
        if citation.get("version") != source.compiled_version:
            return Target(raw, None, f"cites version {citation.get('version')}, not the compiled one")
        if source.body is None:
            return Target(raw, None, source.reason or "the cited version cannot be read")
        start, end = int(citation["source_span"]["start"]), int(citation["source_span"]["end"])
        if source.body[start:end] != citation.get("quote"):
            return Target(raw, None, "the quote is not at its span in the cited version")
        return Target(raw, self._anchor.get((source.id, str(citation["citation_id"]), end)))

    # -- communities (V3) -----------------------------------------------------------------------------

    @functools.cached_property
    def communities(self) -> dict[str, str]:
        """Concept id → community name, exactly as the graph page colours them (the record, or the
        same cold partition), so a topic page and the graph never disagree."""
        concepts = self.knowledge.of_kind("concept")
        weights: dict[tuple[str, str], int] = {}
        for relation in self.knowledge.of_kind("relation").values():
            a, b = str(relation.get("subject")), str(relation.get("object"))
            if a in concepts and b in concepts and a != b and citations_of(relation):
                pair = (min(a, b), max(a, b))
                weights[pair] = weights.get(pair, 0) + 1
        weighted = [(a, b, w) for (a, b), w in weights.items()]
        return communities(concepts, weighted, recorded=self.knowledge.communities)

    def community_color(self, concept_id: str) -> str:
        name = self.communities.get(concept_id)
        return community_color(name, self.community_size(name) if name else 0)

    def community_size(self, name: str) -> int:
        return self._community_sizes[name]

    @functools.cached_property
    def _community_sizes(self) -> Counter[str]:
        return Counter(self.communities.values())

    # -- quoted text ---------------------------------------------------------------------------------

    def link_context(self, page: str, source: SourceView) -> LinkContext:
        """How the relative links of ``source`` resolve when shown on ``page``."""
        base = (
            posixpath.dirname(source.path[len(DOCS_PREFIX) :]) if source.path.startswith(DOCS_PREFIX) else ""
        )

        def resolve(path: str, fragment: str) -> str | None:
            target = self.layout.source(self.by_path[path]) if path in self.by_path else path
            return self.layout.href(page, target or path, fragment)

        return LinkContext(base, resolve)

    def references(self, source_id: str) -> Mapping[str, Any]:
        if source_id not in self._references:
            source = self.sources.get(source_id)
            body = source.body if source is not None else None
            self._references[source_id] = link_references(body) if body else {}
        return self._references[source_id]

    def inline(self, page: str, text: object, sources: Iterable[str] = ()) -> str:
        """Quoted or claimed text as safe inline HTML; its links resolve as in its first cited source
        (reference links from that source's own definitions, then the others')."""
        ordered = [sid for sid in dict.fromkeys(str(s) for s in sources) if sid in self.sources]
        references: dict[str, Any] = {}
        for sid in reversed(ordered):
            references.update(self.references(sid))
        links = self.link_context(page, self.sources[ordered[0]]) if ordered else None
        return render_inline(str(text), links, references)

    def quote(self, page: str, citation: Mapping[str, Any]) -> str:
        return self.inline(page, citation.get("quote", ""), [str(citation.get("source"))])

    # -- small pieces of HTML -----------------------------------------------------------------------

    def href(self, page: str, target: str | None, fragment: str = "") -> str | None:
        return None if target is None else self.layout.href(page, target, fragment)

    def link(self, page: str, target: str | None, text: str, *, cls: str = "") -> str:
        href = self.href(page, target)
        if href is None:
            return esc(text)
        attr = f' class="{cls}"' if cls else ""
        return f'<a href="{esc(href)}"{attr}>{esc(text)}</a>'

    def object_link(self, page: str, oid: str) -> str:
        obj = self.objects.get(oid)
        if obj is None:
            return f"<code>{esc(oid)}</code>"
        if obj.get("kind") == "relation":  # no page of its own: both ends and the predicate
            subject, target = str(obj.get("subject")), str(obj.get("object"))
            return (
                f"{self.object_link(page, subject)} —{esc(obj.get('predicate', ''))}→ "
                f"{self.object_link(page, target)}"
            )
        return self.link(page, self.layout.object(oid), label_of(obj))

    def source_link(self, page: str, sid: str) -> str:
        source = self.sources.get(sid)
        if source is None:
            return f"<code>{esc(sid)}</code>"
        return self.link(page, self.layout.source(sid), source.title)

    @staticmethod
    def badge(text: str, kind: str) -> str:
        return f'<span class="wikigen-badge wikigen-badge--{esc(kind)}">{esc(text)}</span>'

    def verification_badge(self, verification: str) -> str:
        note = VERIFICATION_NOTE.get(verification, verification)
        return (
            f'<span class="wikigen-badge wikigen-badge--{esc(verification)}" title="source {esc(note)}">'
            f"{esc(verification)}</span>"
        )

    def candidate_note(self, page: str, sources: Iterable[str]) -> str:
        """Compiled knowledge is a candidate; each source's verification status is shown beside it."""
        items = []
        for sid in sorted(set(sources)):
            source = self.sources.get(sid)
            status = self.verification_badge(source.verification) if source else ""
            items.append(f"{self.source_link(page, sid)} {status}")
        listed = ", ".join(items) if items else "none"
        return (
            '<p class="wikigen-candidate">'
            f"{self.badge('candidate', 'candidate')} Compiled knowledge: a candidate reading of its "
            f"sources, never more certain than they are. Sources: {listed}.</p>"
        )

    def relation_line(self, page: str, relation: Mapping[str, Any], notes: Notes) -> str:
        subject, obj = str(relation.get("subject")), str(relation.get("object"))
        basis = str(relation.get("basis", "explicit"))
        extra = self.badge(basis, basis)
        if relation.get("uncertainty"):
            extra += " " + self.badge(f"uncertainty: {relation['uncertainty']}", "uncertainty")
        return (
            f"{self.object_link(page, subject)} —{esc(relation.get('predicate', ''))}→ "
            f"{self.object_link(page, obj)} {extra} {notes.marks(c['citation_id'] for c in citations_of(relation))}"
        )


class Notes:
    """The citation markers of one page, numbered in order of first use, and their list."""

    def __init__(self, site: Site, page: str) -> None:
        self.site = site
        self.page = page
        self.pool: dict[str, Mapping[str, Any]] = {}
        self.order: list[str] = []
        self._uses = 0

    def add(self, citations: Iterable[Mapping[str, Any]]) -> Notes:
        for c in citations:
            self.pool.setdefault(str(c["citation_id"]), c)
        return self

    def sources_of(self, citation_ids: Iterable[str]) -> list[str]:
        """The sources of these citations, in order: where a claim's quoted links resolve."""
        return [str(self.pool[str(cid)]["source"]) for cid in citation_ids if str(cid) in self.pool]

    def _number(self, cid: str) -> int:
        if cid not in self.order:
            self.order.append(cid)
        return self.order.index(cid) + 1

    def _href(self, citation: Mapping[str, Any]) -> tuple[str | None, str | None]:
        target = self.site.target(citation)
        return self.site.href(self.page, target.page, target.anchor or ""), target.problem

    def card(self, citation: Mapping[str, Any], card_id: str) -> str:
        source = self.site.sources.get(str(citation["source"]))
        title = source.title if source else str(citation["source"])
        verification = source.verification if source else "unknown"
        lines = citation.get("lines") or {}
        return (
            f'<span class="wikigen-cite__card" role="tooltip" id="{esc(card_id)}">'
            f'<span class="wikigen-cite__quote">“{self.site.quote(self.page, citation)}”</span>'
            f'<span class="wikigen-cite__source">{esc(title)}</span>'
            f'<span class="wikigen-cite__meta">version <code>{esc(citation.get("version", ""))}</code> · '
            f"{self.site.verification_badge(verification)} · {esc(line_range(lines))}</span>"
            f'<span class="wikigen-cite__id">citation_id <code>{esc(citation["citation_id"])}</code></span>'
            "</span>"
        )

    def marks(self, citation_ids: Iterable[str]) -> str:
        out = []
        for cid in citation_ids:
            citation = self.pool.get(str(cid))
            if citation is None:
                out.append(f'<sup class="wikigen-cite wikigen-cite--missing">[{esc(cid)}?]</sup>')
                continue
            number = self._number(str(cid))
            self._uses += 1
            card_id = f"wikigen-card-{self._uses}"
            href, problem = self._href(citation)
            attrs = f' data-citation-id="{esc(cid)}" aria-describedby="{card_id}"'
            if problem:
                attrs += f' data-problem="{esc(problem)}"'
            mark = (
                f'<a class="wikigen-cite__mark" href="{esc(href)}"{attrs}>[{number}]</a>'
                if href
                else f'<span class="wikigen-cite__mark"{attrs}>[{number}]</span>'
            )
            out.append(f'<sup class="wikigen-cite">{mark}{self.card(citation, card_id)}</sup>')
        return "".join(out)

    def section(self) -> str:
        if not self.order:
            return ""
        items = []
        for cid in self.order:
            c = self.pool[cid]
            href, problem = self._href(c)
            source = self.site.sources.get(str(c["source"]))
            lines = c.get("lines") or {}
            where = esc(line_range(lines))
            where = f'<a href="{esc(href)}">{where}</a>' if href else where
            status = self.site.verification_badge(source.verification) if source else ""
            warn = f" {self.site.badge(problem, 'problem')}" if problem else ""
            items.append(
                f'<li id="wikigen-note-{esc(cid)}"><q>{self.site.quote(self.page, c)}</q> — '
                f"{self.site.source_link(self.page, str(c['source']))} {status}, {where}, version "
                f"<code>{esc(c.get('version', ''))}</code>, citation_id <code>{esc(cid)}</code>{warn}</li>"
            )
        return '<h2 id="citations">Citations</h2>\n<ol class="wikigen-notes">' + "".join(items) + "</ol>"
