"""What each document links to (pure): a concept its relations — both ways, the predicate in the
sentence — and the articles and topics it belongs to; an article its concepts and topics; a topic its
anchor and members. Only documents in the bundle are linked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wikigen.model.ids import kind_of
from wikigen.model.objects import label_of
from wikigen.views.okf.body import Link, Neighbours, flat


def neighbours_of(
    objects: Mapping[str, Mapping[str, Any]], relations: list[Mapping[str, Any]], paths: Mapping[str, str]
) -> dict[str, Neighbours]:
    """What each document links to: a concept its relations (both ways), articles and topics; an
    article its concepts and topics; a topic its anchor and members."""
    names = {oid: flat(label_of(obj)) for oid, obj in objects.items()}
    outgoing: dict[str, list[Mapping[str, Any]]] = {}
    incoming: dict[str, list[Mapping[str, Any]]] = {}
    for rel in relations:
        outgoing.setdefault(str(rel["subject"]), []).append(rel)
        incoming.setdefault(str(rel["object"]), []).append(rel)
    concepts_of: dict[str, list[str]] = {}
    topics_of: dict[str, list[str]] = {}
    for oid, obj in objects.items():
        if kind_of(oid) == "concept":
            for article in obj.get("articles") or []:
                if article in paths:
                    concepts_of.setdefault(str(article), []).append(oid)
        if kind_of(oid) == "topic":
            for member in obj.get("members") or []:
                if member in paths:
                    topics_of.setdefault(str(member), []).append(oid)

    def link(oid: str, before: str = "", after: str = "", citations: tuple[str, ...] = ()) -> Link:
        return Link(paths[oid], names[oid], before, after, citations)

    found: dict[str, Neighbours] = {}
    for oid, obj in objects.items():
        kind = kind_of(oid)
        topics = tuple(link(t) for t in sorted(topics_of.get(oid, [])))
        groups: list[tuple[str, str, tuple[Link, ...]]] = []
        extra: list[Mapping[str, Any]] = []
        if kind == "concept":
            out = outgoing.get(oid, [])
            groups.append((
                "Relations",
                "",
                tuple(
                    link(
                        str(rel["object"]),
                        before=f"{_words(names[oid])} *{_words(rel['predicate'])}* ",
                        after=" (inferred)" if rel.get("basis") == "inferred" else "",
                        citations=tuple(str(c["citation_id"]) for c in rel.get("evidence", [])),
                    )
                    for rel in out
                ),
            ))
            extra += [c for rel in out for c in rel.get("evidence", [])]
            groups.append((
                "Related from",
                "",
                tuple(
                    link(str(rel["subject"]), after=f" *{_words(rel['predicate'])}* {_words(names[oid])}")
                    for rel in incoming.get(oid, [])
                ),
            ))
            articles = tuple(link(str(a)) for a in obj.get("articles") or [] if a in paths)
            groups.append(("Articles", "Articles compiled from the sources this concept cites:", articles))
        elif kind == "article":
            concepts = tuple(link(c) for c in sorted(concepts_of.get(oid, [])))
            groups.append(("Concepts", "Concepts drawn from the sources of this article:", concepts))
        elif kind == "topic":
            anchor = obj.get("anchor")
            if anchor in paths:
                groups.append(("Anchor", "The topic is built around:", (link(str(anchor)),)))
            members = tuple(
                link(str(m), after=f" ({kind_of(str(m))})") for m in obj.get("members") or [] if m in paths
            )
            groups.append(("Members", "This topic groups:", members))
        groups.append(("Topics", "Topics that include this document:", topics))
        found[oid] = Neighbours(groups=tuple(groups), extra_citations=tuple(extra))
    return found


def _words(value: Any) -> str:
    """Text set in the prose around a link, its Markdown marks taken literally."""
    text = " ".join(str(value).split())
    for mark in ("\\", "*", "_", "[", "]", "`"):
        text = text.replace(mark, "\\" + mark)
    return text
