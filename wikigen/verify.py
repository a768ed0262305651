"""`wikigen verify` (E5): every citation of the committed snapshot, re-checked against the body of the
cited version read from git — the manifest's blob for that version, its body hash checked — never
from the work tree or from the object file.
"""

from __future__ import annotations

import json
from typing import Any

from wikigen.drift import find_drift
from wikigen.evidence.citations import Citation, check_citation
from wikigen.hashing import sha256_hex
from wikigen.objects import object_citations, parse_object, relation_lines
from wikigen.sourceset import read_recorded
from wikigen.workspace import Workspace


def verify_snapshot(ws: Workspace) -> dict[str, Any]:
    """{'citations': checked count, 'objects': count, 'problems': [...]} for the snapshot at HEAD."""
    baseline = ws.baseline
    tree = ws.store.commit_tree(ws.head)
    problems: list[str] = []
    bodies: dict[str, str | None] = {}

    def body_of(source_id: str, version: str) -> str | None:
        key = f"{source_id}@{version}"
        if key in bodies:
            return bodies[key]
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
        bodies[key] = body
        return body

    # Issue 15.7: a generated file committed by hand (or brought by a merge) is named with its fix.
    drift = find_drift(ws.store, ws.head, baseline)
    problems.extend(drift.problems())
    explained = set(drift.edited) | set(drift.merged)
    index = dict(sorted(baseline.objects.items()))
    relations = relation_lines(lambda path: ws.store.read_file(tree, path), index.items())
    checked = 0
    for object_id, entry in index.items():
        if entry.get("kind") == "relation":
            line = relations.get(object_id)
            if line is None:
                problems.append(f"{object_id}: missing from {entry.get('file')}")
                continue
            data = line.encode("utf-8")
            obj = json.loads(line)
            obj["kind"] = "relation"
        else:
            raw = ws.store.read_file(tree, entry["file"])
            if raw is None:
                problems.append(f"{object_id}: its file {entry['file']} is missing")
                continue
            data = raw
            try:
                obj = parse_object(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                problems.append(f"{entry['file']}: cannot be read ({exc})")
                continue
        if sha256_hex(data) != entry.get("sha") and entry["file"] not in explained:
            problems.append(
                f"{entry['file']}: {object_id} differs from what the compiler wrote (edited by hand?)"
            )
        for raw_citation in object_citations(obj):
            checked += 1
            try:
                citation = Citation.from_json(raw_citation)
            except (KeyError, TypeError, ValueError):
                problems.append(f"{object_id}: a citation is malformed: {raw_citation!r}")
                continue
            body = body_of(citation.source, citation.version)
            if body is None:
                problems.append(f"{object_id}: citation {citation.citation_id} cannot be checked")
                continue
            problem = check_citation(citation, body)
            if problem:
                problems.append(f"{object_id}: {problem}")
    return {"objects": len(index), "citations": checked, "problems": problems}
