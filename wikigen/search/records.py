"""What an agent reads besides search results (E6): one object with its citations, a concept's
relations with their evidence, a span of a source at a version, one citation re-checked.

Everything is read from the index of the committed snapshot and from git: never the work tree, never
an engine. Sources private at HEAD (R39) and the objects that cite them are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wikigen.evidence.citations import Citation, check_citation, make_citation
from wikigen.model.agent_record import READABLE, cites_private, object_record
from wikigen.model.errors import NotFoundError, PrivacyError, UsageError
from wikigen.model.hashing import citation_id
from wikigen.model.objects import label_of
from wikigen.model.snapshot import SNAPSHOT_PATH
from wikigen.model.sources import Source
from wikigen.search.ranking import Searcher
from wikigen.store.snapshot import load_snapshot
from wikigen.store.sourceset import read_recorded

MAX_EXCERPT = 20_000  # characters one excerpt call returns


def get_object(searcher: Searcher, key: str, *, at: str | None = None) -> dict[str, Any]:
    """An article, concept or topic by id (``concept/pod``) or by name, title or alias."""
    if not key.strip():
        raise UsageError("give an object id (e.g. concept/pod) or a name")
    searcher.at(at)
    index = searcher.index
    ids = [key] if index.object(key) is not None else index.objects_by_name(key)
    ids = [i for i in ids if i.split("/", 1)[0] in READABLE]
    if not ids:
        raise NotFoundError(
            f"no article, concept or topic has the id or name {key!r} in snapshot {index.snapshot_version}; "
            "use the `search` tool to find one"
        )
    if len(ids) > 1:
        raise NotFoundError(f"{key!r} names {len(ids)} objects ({', '.join(ids[:10])}); ask for one by id")
    obj = index.object(ids[0]) or {}
    _refuse_private(searcher, obj)
    return {**object_record(obj), "snapshot": index.snapshot_version}


def neighbors(searcher: Searcher, concept: str, *, at: str | None = None) -> dict[str, Any]:
    """A concept's relations, both directions, each with its predicate, the other end and its evidence."""
    found = get_object(searcher, concept, at=at)
    if found.get("kind") != "concept":
        raise NotFoundError(f"{found['id']} is a {found.get('kind')}, not a concept; relations join concepts")
    private = _private_sources(searcher)
    relations = []
    for relation in searcher.index.relations_of(found["id"]):
        if cites_private(relation, private):
            continue
        outgoing = relation.get("subject") == found["id"]
        other = str(relation.get("object") if outgoing else relation.get("subject"))
        other_obj = searcher.index.object(other) or {}
        relations.append({
            "id": relation["id"],
            "direction": "out" if outgoing else "in",
            "predicate": relation.get("predicate"),
            "subject": relation.get("subject"),
            "object": relation.get("object"),
            "other": {"id": other, "name": label_of(other_obj) if other_obj else other},
            "basis": relation.get("basis"),
            "uncertainty": relation.get("uncertainty"),
            "evidence": list(relation.get("evidence") or []),
        })
    return {"concept": {"id": found["id"], "name": found["title"]}, "relations": relations,
            "snapshot": searcher.index.snapshot_version}


def excerpt(
    searcher: Searcher, source: str, start: int, end: int, *, version: str | None = None, at: str | None = None
) -> dict[str, Any]:
    """``body[start:end]`` of ``source`` at ``version`` (default: the compiled one), read from git."""
    searcher.at(at)
    body_source, found_version = _body(searcher, source, version)
    body = body_source.body
    if not 0 <= start < end <= len(body):
        raise UsageError(
            f"the span [{start}:{end}] is outside the body of {source}@{found_version} "
            f"(0 to {len(body)} characters; start < end)"
        )
    if end - start > MAX_EXCERPT:
        raise UsageError(f"an excerpt is at most {MAX_EXCERPT:,} characters; ask for a shorter span")
    citation = make_citation(source, found_version, body, start, end)
    return {**citation.as_json(), "title": body_source.title}


def verify_citation(searcher: Searcher, cid: str, *, at: str | None = None) -> dict[str, Any]:
    """Re-check one citation id against the body of the cited version read from git (as `wikigen verify`).

    The id is looked for among the citations of the snapshot's objects and the passages of its sources
    (what `search` returns)."""
    cid = cid.strip()
    if not cid:
        raise UsageError("give a citation_id (12 hexadecimal digits, from `search` or an object's citations)")
    searcher.at(at)
    claims = searcher.index.citation(cid) + _passage_citations(searcher, cid)
    if not claims:
        raise NotFoundError(
            f"no citation with id {cid!r} in snapshot {searcher.index.snapshot_version}, neither in an "
            "object nor in a passage of a compiled source"
        )
    checked = []
    seen = set()
    for claim in claims:
        key = (claim["source"], claim["version"], claim["source_span"]["start"], claim["source_span"]["end"])
        if key in seen:
            continue
        seen.add(key)
        citation = Citation.from_json(claim)
        try:
            body = _body(searcher, citation.source, citation.version)[0].body
            problem = check_citation(citation, body)
        except NotFoundError as exc:
            problem = exc.message
        checked.append({"citation": citation.as_json(), "ok": problem is None, "problem": problem})
    return {"citation_id": cid, "ok": all(c["ok"] for c in checked), "checked": checked,
            "snapshot": searcher.index.snapshot_version}


def _passage_citations(searcher: Searcher, cid: str) -> list[dict[str, Any]]:
    found = []
    sources = searcher.index.sources()
    db = searcher.index.db
    for sid, meta in sorted(sources.items()):
        if meta["private"]:
            continue
        for start, end, line_start, line_end, text in db.execute(
            'SELECT start, "end", line_start, line_end, text FROM passages WHERE content_hash = ?',
            (meta["content_hash"],),
        ):
            if citation_id(sid, start) == cid:
                found.append({
                    "citation_id": cid, "source": sid, "version": meta["version"],
                    "source_span": {"start": start, "end": end}, "lines": {"start": line_start, "end": line_end},
                    "quote": text,
                })
    return found


def _body(searcher: Searcher, source: str, version: str | None) -> tuple[Source, str]:
    """The source at ``version`` (default: compiled), its body checked against the manifest's hash (E5)."""
    meta = searcher.index.sources().get(source)
    if meta is None:
        raise NotFoundError(
            f"{source!r} is not a compiled source of snapshot {searcher.index.snapshot_version}; "
            f"source ids are paths below {searcher.index.config.sources_dir}/ without .md (or the frontmatter id)"
        )
    if meta["private"]:
        raise PrivacyError(
            f"{source} is private (`private: true` in its frontmatter or a glob of `private` in wikigen.yml); "
            "private sources are never served to agents or search"
        )
    entry: tuple[str, str, str | None]
    if version is None or version == meta["version"]:
        entry = (str(meta["path"]), str(meta["blob"]), str(meta["content_hash"]))
        version = str(meta["version"])
    else:
        entry = _older_version(searcher, source, version)
    parsed, why = read_recorded(searcher.store, searcher.index.config, entry[0], entry[1], entry[2])
    if parsed is None:
        raise NotFoundError(f"{source}@{version}: {why}")
    if parsed.version != version:
        raise NotFoundError(f"{source}@{version}: the recorded blob holds version {parsed.version}")
    return parsed, version


def _older_version(searcher: Searcher, source: str, version: str, limit: int = 1000) -> tuple[str, str, str | None]:
    """(path, blob, body hash) of an older compiled version, from the snapshots in HEAD's history."""
    store = searcher.store
    commit = store.head_commit()
    seen = None
    for _ in range(limit):
        if commit is None:
            break
        blob = store.blob_at(commit, SNAPSHOT_PATH)
        if blob is None:
            break
        if blob != seen:
            seen = blob
            entry = load_snapshot(store.read_blob(blob), store).manifest.get(source)
            if entry is not None and entry.version == version and entry.blob:
                return entry.compiled_path or entry.path, entry.blob, entry.content_hash
        parents = store.commit_info(commit)[2]
        commit = parents[0] if parents else None
    raise NotFoundError(f"no snapshot in the history of HEAD compiled {source} at version {version}")


def _private_sources(searcher: Searcher) -> set[str]:
    return {sid for sid, meta in searcher.index.sources().items() if meta["private"]}


def _refuse_private(searcher: Searcher, obj: Mapping[str, Any]) -> None:
    if cites_private(obj, _private_sources(searcher)):
        raise PrivacyError(
            f"{obj.get('id')} cites a private source (`private: true` or a glob of `private` in wikigen.yml); "
            "it is withdrawn at the next `wikigen compile` and never served"
        )
