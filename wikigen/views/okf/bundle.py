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
from wikigen.model.objects import object_citations
from wikigen.store.git import GitStore
from wikigen.store.snapshot_commit import SnapshotCommit, snapshot_commit
from wikigen.views.knowledge import Knowledge, load_knowledge
from wikigen.views.okf.documents import Document, SourceInfo, make_document
from wikigen.views.okf.indexes import EXPORT_MARK, FOLDER_TITLES, folder_index, root_index
from wikigen.views.okf.neighbours import neighbours_of
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
    neighbours = neighbours_of(objects, relations, paths)
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
