"""`wikigen verify` (E5): every citation of the committed snapshot (or those with the ids given),
re-checked against the body of the cited version read from git — the manifest's blob for that
version, its body hash checked — never from the work tree or from the object file.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from wikigen.evidence.citations import Citation, check_citation
from wikigen.model.errors import NotFoundError
from wikigen.model.hashing import sha256_hex
from wikigen.model.objects import object_citations, parse_object, relation_lines
from wikigen.model.shards import ShardMap, decode_shard, shard_of
from wikigen.model.snapshot import EMPTY_TREE, MANIFEST_LEVELS, Snapshot
from wikigen.store.drift import find_drift
from wikigen.store.sourceset import read_recorded
from wikigen.store.workspace import Workspace

BODIES_KEPT = 64  # source bodies held at once: objects are checked grouped by the source they cite


def verify_snapshot(ws: Workspace, citation_ids: Collection[str] = ()) -> dict[str, Any]:
    """{'citations': checked count, 'objects': count, 'problems': [...]} for the snapshot at HEAD.

    With ``citation_ids``, only the objects citing one of them are read and only those citations are
    checked; the result adds 'citation_ids' (each id → its citations checked and problems found), and
    files edited by hand elsewhere are not reported. An id no object cites raises NotFoundError.

    Memory follows the largest source, not the knowledge base: the index is streamed shard by shard
    and only what each object needs is kept (its file, sha and first cited source); objects are then
    checked in the order of the source they cite first, so each body is read about once and only the
    last few are held."""
    baseline = ws.baseline
    tree = ws.store.commit_tree(ws.head)
    found: dict[str, list[str]] = {}  # object id → its problems, reported in id order
    bodies: OrderedDict[str, str] = OrderedDict()
    unreadable: set[str] = set()

    def body_of(source_id: str, version: str, problems: list[str]) -> str | None:
        key = f"{source_id}@{version}"
        if key in bodies:
            bodies.move_to_end(key)
            return bodies[key]
        if key in unreadable:
            return None  # its problem is reported once
        entry = baseline.manifest.get(source_id)
        body: str | None = None
        if entry is None or entry.version is None:
            problems.append(f"{key}: the source is not compiled in the manifest")
        elif entry.version != version:
            problems.append(f"{key}: the manifest's compiled version is {entry.version} (stale citation)")
        else:
            parsed, why = read_recorded(
                ws.store, ws.config, entry.compiled_path or entry.path, entry.blob, entry.content_hash
            )
            if parsed is None:
                problems.append(f"{key}: {why}")
            else:
                body = parsed.body
        if body is None:
            unreadable.add(key)
            return None
        bodies[key] = body
        if len(bodies) > BODIES_KEPT:
            bodies.popitem(last=False)
        return body

    # A generated file committed by hand (or brought by a merge) is named with its fix.
    drift = find_drift(ws.store, ws.head, baseline)
    explained = set(drift.edited) | set(drift.merged)
    wanted = {cid.strip(): [0, 0] for cid in citation_ids}  # id → [citations checked, problems]
    cited_ids: set[str] = set()
    work: list[tuple[str, str, str, str, str]] = []  # (group of the first cited source, id, kind, file, sha)
    for object_id, entry in _entries(ws, baseline):
        cited = entry.get("citations") or [["", "", ""]]
        if wanted:
            cited = [c for c in cited if c[0] in wanted]
            if not cited:
                continue
            cited_ids.update(c[0] for c in cited)
        # Grouped by the manifest shard of the source, then by the source: each shard and each body is
        # read about once, and both can be let go as soon as the next group starts.
        group = f"{shard_of(cited[0][1], MANIFEST_LEVELS)}|{cited[0][1]}@{cited[0][2]}"
        work.append((group, object_id, str(entry.get("kind")), str(entry.get("file")), str(entry.get("sha"))))
    if wanted:
        unknown = sorted(set(wanted) - cited_ids)
        if unknown:
            raise NotFoundError(
                f"no object of snapshot {baseline.version} cites {', '.join(map(repr, unknown))}: a citation_id is the "
                "12 hexadecimal digits of an object's citation (`wikigen search` or `get` shows them)"
            )
    work.sort()
    relations = relation_lines(
        lambda path: ws.store.read_file(tree, path),
        ((oid, {"kind": kind, "file": file}) for _, oid, kind, file, _ in work),
    )
    checked = 0

    def check(object_id: str, kind: str, file: str, sha: str, problems: list[str]) -> int:
        """The object's problems, appended; the number of citations it has."""
        if kind == "relation":
            line = relations.get(object_id)
            if line is None:
                problems.append(f"{object_id}: missing from {file}")
                return 0
            data = line.encode("utf-8")
            obj = json.loads(line)
            obj["kind"] = "relation"
        else:
            raw = ws.store.read_file(tree, file)
            if raw is None:
                problems.append(f"{object_id}: its file {file} is missing")
                return 0
            data = raw
            try:
                obj = parse_object(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                problems.append(f"{file}: cannot be read ({exc})")
                return 0
        if sha256_hex(data) != sha and file not in explained:
            problems.append(f"{file}: {object_id} differs from what the compiler wrote (edited by hand?)")
        citations = object_citations(obj)
        if wanted:
            citations = [c for c in citations if isinstance(c, dict) and c.get("citation_id") in wanted]
        for raw_citation in citations:
            try:
                citation = Citation.from_json(raw_citation)
            except (KeyError, TypeError, ValueError):
                problems.append(f"{object_id}: a citation is malformed: {raw_citation!r}")
                continue
            before = len(problems)
            body = body_of(citation.source, citation.version, problems)
            if body is None:
                problems.append(f"{object_id}: citation {citation.citation_id} cannot be checked")
            elif problem := check_citation(citation, body):
                problems.append(f"{object_id}: {problem}")
            if citation.citation_id in wanted:
                wanted[citation.citation_id][0] += 1
                wanted[citation.citation_id][1] += len(problems) - before
        return len(citations)

    shard = None
    for group, object_id, kind, file, sha in work:
        if group.split("|")[0] != shard and isinstance(baseline.manifest, ShardMap):
            shard = group.split("|")[0]
            baseline.manifest.forget()  # the manifest shards of the groups done are not needed again
        problems: list[str] = []
        checked += check(object_id, kind, file, sha, problems)
        if problems:
            found[object_id] = problems
    reported = ([] if wanted else drift.problems()) + [p for oid in sorted(found) for p in found[oid]]
    result: dict[str, Any] = {"objects": len(work), "citations": checked, "problems": reported}
    if wanted:
        result["citation_ids"] = {
            cid: {"citations": counts[0], "problems": counts[1], "ok": counts[0] > 0 and counts[1] == 0}
            for cid, counts in sorted(wanted.items())
        }
    return result


def _entries(ws: Workspace, baseline: Snapshot) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The index entries of the snapshot, read one shard at a time and not kept (schema 2), or from
    the index held whole (older schemas)."""
    stored = baseline.stored
    if stored is None:
        yield from sorted(baseline.objects.items())
        return
    if stored.index_tree == EMPTY_TREE:
        return
    for _, data in ws.store.generated_files(stored.index_tree):
        yield from sorted(decode_shard(data).items())
