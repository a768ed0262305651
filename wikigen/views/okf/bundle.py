"""The whole bundle of one snapshot: every document and index, as bytes by bundle path.

:func:`okf_bundle` is pure over the loaded snapshot; :func:`load_bundle` is the I/O edge that reads
it from git (HEAD's snapshot, each cited version's blob, the time of the snapshot's commit). Private
sources (R39) are already gone from what :func:`wikigen.views.knowledge.load_knowledge` returns;
an object that still cites one is left out here as well, and so is a link to a left-out object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wikigen.model.agent_record import READABLE, cites_private
from wikigen.model.ids import kind_of
from wikigen.model.objects import label_of, object_citations
from wikigen.store.git import GitStore
from wikigen.store.snapshot_commit import SnapshotCommit, snapshot_commit
from wikigen.views.knowledge import Knowledge, load_knowledge
from wikigen.views.okf.body import Link, Neighbours
from wikigen.views.okf.documents import Document, SourceInfo, make_document
from wikigen.views.okf.indexes import EXPORT_MARK, FOLDER_TITLES, folder_index, root_index
from wikigen.views.okf.paths import document_paths
from wikigen.views.okf.verification import citation_holds

TITLE = "Knowledge bundle"
ROUTE_UNKNOWN = "wikigen/unknown"  # an object whose provenance names no route (an old snapshot)


@dataclass(frozen=True, slots=True)
class Bundle:
    files: Mapping[str, bytes]  # bundle path → bytes, every document and index.md
    snapshot: int
    commit: str | None
    documents: Mapping[str, str]  # object id → bundle path
    verified: frozenset[str]  # object ids whose document carries `verified`

    def counts(self) -> dict[str, int]:
        found = {kind: 0 for kind in READABLE}
        for object_id in self.documents:
            found[kind_of(object_id)] += 1
        return found


def load_bundle(root: Path | str) -> Bundle:
    """The bundle of the snapshot committed at HEAD of the repo at ``root``."""
    knowledge = load_knowledge(root)
    return okf_bundle(knowledge, snapshot_commit(GitStore(root), knowledge.head))


def okf_bundle(knowledge: Knowledge, made: SnapshotCommit) -> Bundle:
    private = {sid for sid, view in knowledge.sources.items() if view.private}
    objects = {
        oid: obj
        for oid, obj in sorted(knowledge.objects.items())
        if kind_of(oid) in READABLE and not cites_private(obj, private)
    }
    paths = document_paths(objects)
    relations = [
        obj
        for oid, obj in sorted(knowledge.objects.items())
        if kind_of(oid) == "relation" and obj.get("subject") in paths and obj.get("object") in paths
        and not cites_private(obj, private)
    ]
    sources = {
        sid: SourceInfo(path=view.path, title=view.title, blob=view.blob, category=view.category)
        for sid, view in knowledge.sources.items()
    }
    neighbours = _neighbours(objects, relations, paths)
    documents: list[Document] = []
    verified: set[str] = set()
    for object_id, obj in objects.items():
        around = neighbours[object_id]
        shown = [*object_citations(obj), *around.extra_citations]
        holds = bool(shown) and all(citation_holds(c, knowledge.sources) for c in shown)
        if holds:
            verified.add(object_id)
        documents.append(
            make_document(
                obj,
                path=paths[object_id],
                neighbours=around,
                sources=sources,
                generated={"by": _route(knowledge.provenance.get(object_id, {})), "at": made.time},
                verified_at=made.time if holds else None,
                snapshot=knowledge.version,
            )
        )
    files: dict[str, bytes] = {doc.path: doc.text.encode("utf-8") for doc in documents}
    counts: dict[str, int] = {}
    for folder in FOLDER_TITLES:
        inside = [d for d in documents if d.path.startswith(folder + "/")]
        if inside:
            counts[folder] = len(inside)
            files[f"{folder}/index.md"] = folder_index(folder, inside).encode("utf-8")
    facts = [
        f"Snapshot {knowledge.version}, {EXPORT_MARK} from commit {made.commit or '(none)'} of {made.time}.",
        "`sources` lists every citation of a document: the cited file (a path from the knowledge repo's root), "
        "its version and git blob, the span of the body it quotes, its lines, and the verbatim quote; each "
        "footnote's label is the id of one of them.",
        f"`verified` ({len(verified)} of {len(documents)} documents) means every citation of the document was "
        "checked against the body of its git blob when the bundle was made.",
        "Relations are links between documents, their predicate said in the sentence around the link.",
        "Private sources, and everything that cites one, are left out.",
    ]
    files["index.md"] = root_index(TITLE, counts, facts).encode("utf-8")
    return Bundle(
        files=dict(sorted(files.items())),
        snapshot=knowledge.version,
        commit=made.commit,
        documents=paths,
        verified=frozenset(verified),
    )


def _route(provenance: Mapping[str, Any]) -> str:
    """The engine route that wrote the object (or last extended it), as an OKF actor."""
    extended = provenance.get("extended")
    route = (extended.get("route") if isinstance(extended, Mapping) else None) or provenance.get("route")
    return str(route) if route else ROUTE_UNKNOWN


def _neighbours(
    objects: Mapping[str, Mapping[str, Any]], relations: list[Mapping[str, Any]], paths: Mapping[str, str]
) -> dict[str, Neighbours]:
    """What each document links to: a concept its relations (both ways), articles and topics; an
    article its concepts and topics; a topic its anchor and members."""
    names = {oid: " ".join(label_of(obj).split()) for oid, obj in objects.items()}
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
                        before=f"{names[oid]} *{_words(rel['predicate'])}* ",
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
                    link(str(rel["subject"]), after=f" *{_words(rel['predicate'])}* {names[oid]}")
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


def _words(text: Any) -> str:
    return " ".join(str(text).split()).replace("*", "\\*")
