"""Baseline index + resolved delta → the new object index and the file changes (R24, R25, R28, R38).

Pure but for ``read_file`` (an object file of the baseline commit, read only for a concept that a
delta extends); the parent's communities record is given as a value. Unaffected objects are never rewritten: their files stay byte-identical.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wikigen.communities import Record, record_communities
from wikigen.evidence.citations import Citation
from wikigen.hashing import sha256_hex
from wikigen.ids import kind_of, normalize_name
from wikigen.objects import (
    dump_relations,
    label_of,
    object_citations,
    object_path,
    parse_object,
    parse_relations,
    relation_line,
    render_object,
)
from wikigen.topics import TOPIC_ROUTE, build_topic, is_derived, plan_topics
from wikigen.validate import Resolved

MAX_OBJECT_BYTES = 1_000_000


@dataclass
class Merged:
    index: dict[str, dict[str, Any]]
    files: dict[str, bytes | None]
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # added/updated/removed per kind
    problems: list[str] = field(default_factory=list)


def compact_citation(c: Mapping[str, Any]) -> list[Any]:
    """The index keeps every citation as (id, source, version, start, end, lines, quote hash)."""
    return [
        c["citation_id"],
        c["source"],
        c["version"],
        c["source_span"]["start"],
        c["source_span"]["end"],
        c["lines"]["start"],
        c["lines"]["end"],
        sha256_hex(c["quote"])[:16],
    ]


def _same_but_provenance(entry: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    return {**entry, "provenance": None} == {**before, "provenance": None}


def index_entry(
    obj: Mapping[str, Any], data: bytes, deps: list[str], provenance: Mapping[str, Any]
) -> dict[str, Any]:
    citations = object_citations(obj)
    entry: dict[str, Any] = {
        "kind": obj["kind"],
        "file": object_path(obj["id"]),
        "label": label_of(obj),
        "sources": dict(sorted({c["source"]: c["version"] for c in citations}.items())),
        "deps": sorted(set(deps)),
        "citations": [
            compact_citation(c)
            for c in sorted(citations, key=lambda c: (c["source"], c["source_span"]["start"]))
        ],
        "sha": sha256_hex(data),
        "provenance": dict(provenance),
    }
    if obj["kind"] == "concept":
        entry["names"] = [obj["name"], *obj.get("aliases", [])]
        entry["aliases"] = list(obj.get("aliases", []))
        entry["type"] = obj["type"]
        entry["definition"] = obj["definition"]["text"][:280]
        entry["definitionCitations"] = list(obj["definition"].get("citations", []))
    elif obj["kind"] == "article":
        entry["names"] = [obj["title"]]
        entry["sourceIds"] = list(obj["sources"])
    elif obj["kind"] == "relation":
        entry.update({k: obj[k] for k in ("subject", "predicate", "object", "basis")})
    return entry


def merge(
    *,
    baseline_index: Mapping[str, Mapping[str, Any]],
    revoked: Mapping[str, str],
    resolved: Resolved,
    read_file: Callable[[str], bytes | None],
    compiled: Mapping[str, str],
    provenance: Mapping[str, Any],
    communities: Record,
    derive_topics: bool = False,
) -> Merged:
    """The new snapshot's objects; ``compiled`` maps every compiled source to its compiled version;
    ``communities`` is the baseline commit's communities record (the partition's warm start).

    With ``derive_topics`` the topics are the compiler's (:mod:`wikigen.topics`), not the delta's.
    """
    index: dict[str, dict[str, Any]] = {k: dict(v) for k, v in baseline_index.items() if k not in revoked}
    files: dict[str, bytes | None] = {}
    problems: list[str] = []
    counts = {
        k: {"added": 0, "updated": 0, "removed": 0} for k in ("article", "concept", "relation", "topic")
    }
    owned_files = {e.get("file") for e in baseline_index.values()}

    # Concepts a delta extends (R25): the old definition and evidence stay, new evidenced links are added.
    extended: dict[str, dict[str, Any]] = {}
    for oid, additions in sorted(resolved.merged_concepts.items()):
        data = read_file(object_path(oid))
        if data is None:
            problems.append(f"{oid}: its file {object_path(oid)} is missing from the baseline commit")
            continue
        obj = parse_object(data)
        known = {normalize_name(n) for n in [obj["name"], *obj.get("aliases", [])]}
        obj["aliases"] = obj.get("aliases", []) + [
            a for a in additions["aliases"] if normalize_name(a) not in known
        ]
        old_cids = {c["citation_id"] for c in obj.get("citations", [])}
        new_cites = [c for c in additions["citations"] if c["citation_id"] not in old_cids]
        obj["citations"] = sorted(
            obj.get("citations", []) + new_cites, key=lambda c: (c["source"], c["source_span"]["start"])
        )
        defined = set(obj["definition"].get("citations", []))
        obj["evidence"] = sorted((set(obj.get("evidence", [])) | set(additions["evidence"])) - defined)
        extended[oid] = obj

    objects: dict[str, dict[str, Any]] = {**resolved.objects, **extended}
    if derive_topics:
        # The topic rule owns the topics: whatever topics a delta carries are not the snapshot's.
        objects = {oid: obj for oid, obj in objects.items() if obj["kind"] != "topic"}

    # Which articles cover which sources, in the new snapshot (concepts depend on them).
    articles_of: dict[str, set[str]] = {}
    for oid, entry in index.items():
        if entry.get("kind") == "article":
            for sid in entry.get("sources", {}):
                articles_of.setdefault(sid, set()).add(oid)
    for oid, obj in objects.items():
        if obj["kind"] == "article":
            for sid in obj["sources"]:
                articles_of.setdefault(sid, set()).add(oid)

    # Relations live in shards (issue 14): only the shards of relations that changed are read and written.
    relation_files: dict[str, bytes] = {}
    relation_shards: dict[str, dict[str, str]] = {}

    def shard_lines(oid: str) -> dict[str, str]:
        path = object_path(oid)
        if path not in relation_shards:
            relation_files[path] = read_file(path) or b""
            relation_shards[path] = parse_relations(relation_files[path])
        return relation_shards[path]

    for oid in sorted(revoked):
        if oid not in objects:
            counts[kind_of(oid)]["removed"] += 1
            if kind_of(oid) == "relation":
                shard_lines(oid).pop(oid, None)
            else:
                files[object_path(oid)] = None

    for oid in sorted(objects):
        obj = objects[oid]
        kind = obj["kind"]
        if kind == "concept":
            sources = {c["source"] for c in obj["citations"]}
            obj["articles"] = sorted(set().union(*(articles_of.get(s, set()) for s in sources)))
            deps = list(obj["articles"])
        elif kind == "relation":
            deps = [obj["subject"], obj["object"]]
        elif kind == "topic":
            deps = list(obj["members"])
        else:
            deps = []
        if kind == "relation":
            line = relation_line({k: v for k, v in obj.items() if k != "kind"})
            data = line.encode("utf-8")
            shard_lines(oid)[oid] = line
        else:
            data = render_object(obj)
            path = object_path(oid)
            if path not in owned_files and read_file(path) is not None:
                # R38: a file a person put in the generated folders is never overwritten.
                problems.append(
                    f"{path} exists but is not the compiler's; move it away so {oid} can be written"
                )
                continue
            files[path] = data
        if len(data) > MAX_OBJECT_BYTES:
            problems.append(
                f"{oid}: {len(data):,} bytes, over the {MAX_OBJECT_BYTES:,}-byte object size limit"
            )
        prov = dict(provenance)
        if oid in extended:
            prov = {**baseline_index[oid].get("provenance", {}), "extended": dict(provenance)}
        entry = index_entry(obj, data, deps, prov)
        before = baseline_index.get(oid)
        if before is not None and _same_but_provenance(entry, before):
            # R24, issue 14: an object a delta repeats (or rebuilds) unchanged keeps its entry and its provenance, so
            # that its index shard is not rewritten for nothing (its file bytes are the same blob).
            index[oid] = dict(before)
            if kind != "relation":
                files.pop(object_path(oid), None)
            continue
        counts[kind]["updated" if oid in baseline_index else "added"] += 1
        index[oid] = entry

    for path, lines in sorted(relation_shards.items()):
        new_bytes = dump_relations(lines)
        if new_bytes != relation_files[path]:
            files[path] = new_bytes if lines else None
    if derive_topics:
        counts["topic"], topic_problems = _derive_topics(
            index, files, baseline_index, read_file, owned_files, provenance
        )
        problems.extend(topic_problems)
    files.update(record_communities(index, communities))  # V3, issue 13.3; sharded, issue 14.3
    problems.extend(final_problems(index, compiled))
    return Merged(index=index, files=files, counts=counts, problems=problems)


def _derive_topics(
    index: dict[str, dict[str, Any]],
    files: dict[str, bytes | None],
    baseline_index: Mapping[str, Mapping[str, Any]],
    read_file: Callable[[str], bytes | None],
    owned_files: set[Any],
    provenance: Mapping[str, Any],
) -> tuple[dict[str, int], list[str]]:
    """The topic rule over the merged objects, in place: a topic whose inputs did not change keeps its
    file and index entry (R24), even if R12's cascade revoked it; a topic no longer derived is removed;
    only a new or changed topic reads the concept files its summary quotes."""
    problems: list[str] = []
    plans = plan_topics(index)
    for oid in sorted(k for k, e in index.items() if e.get("kind") == "topic" and k not in plans):
        del index[oid]
        files[object_path(oid)] = None
    loaded: dict[str, dict[str, Any]] = {}

    def concept(oid: str) -> dict[str, Any] | None:
        if oid not in loaded:
            path = object_path(oid)
            data = files[path] if path in files else read_file(path)
            if data is None:
                return None
            loaded[oid] = parse_object(data)
        return loaded[oid]

    derived = {"snapshot": provenance.get("snapshot"), "route": TOPIC_ROUTE}
    for tid, plan in sorted(plans.items()):
        path = object_path(tid)
        old = baseline_index.get(tid)
        if old is not None and is_derived(old) and old.get("inputs") == plan.inputs:
            index[tid] = dict(old)
            files.pop(path, None)  # unchanged: not rewritten, also when the cascade revoked it
            continue
        concepts = {c: concept(c) for c in plan.summary}
        missing = sorted(c for c, obj in concepts.items() if obj is None)
        if missing:
            problems.append(f"{tid}: the file of {', '.join(missing)} is missing")
            continue
        obj = build_topic(plan, {c: o for c, o in concepts.items() if o is not None})
        if obj is None:  # nothing its summary could cite: no topic without a summary
            if index.pop(tid, None) is not None or tid in baseline_index:
                files[path] = None
            continue
        data = render_object(obj)
        if old is not None and is_derived(old) and old.get("sha") == sha256_hex(data):
            index[tid] = {**old, "inputs": plan.inputs}
            files.pop(path, None)
            continue
        if old is None and path not in owned_files and read_file(path) is not None:
            problems.append(f"{path} exists but is not the compiler's; move it away so {tid} can be written")
            continue
        files[path] = data
        index[tid] = {**index_entry(obj, data, list(plan.members), derived), "inputs": plan.inputs}

    before = {k for k, e in baseline_index.items() if e.get("kind") == "topic"}
    after = {k for k, e in index.items() if e.get("kind") == "topic"}
    updated = sum(1 for k in before & after if index[k].get("sha") != baseline_index[k].get("sha"))
    return {"added": len(after - before), "updated": updated, "removed": len(before - after)}, problems


def final_problems(index: Mapping[str, Mapping[str, Any]], compiled: Mapping[str, str]) -> list[str]:
    """R28: the whole snapshot before publish — citations at compiled versions, unique names,
    every compiled source covered by an article, graph endpoints and members present."""
    problems: list[str] = []
    names: dict[str, str] = {}
    covered: set[str] = set()
    for oid in sorted(index):
        entry = index[oid]
        for cid, source, version, *_ in entry.get("citations", []):
            if compiled.get(source) != version:
                problems.append(
                    f"{oid}: citation {cid} names {source}@{version}, but the compiled version is {compiled.get(source)} (stale)"
                )
        kind = entry.get("kind")
        if kind == "concept":
            for name in entry.get("names", []):
                key = normalize_name(name)
                if key in names and names[key] != oid:
                    problems.append(f"{oid}: name or alias {name!r} is also used by {names[key]}")
                names[key] = oid
        elif kind == "article":
            covered |= set(entry.get("sources", {}))
        for dep in entry.get("deps", []):
            if dep not in index:
                problems.append(f"{oid}: depends on {dep}, which is not in the snapshot (dangling)")
    for source in sorted(set(compiled) - covered):
        problems.append(f"source {source} is compiled but no article covers it")
    return problems


def citations_of(obj: Mapping[str, Any]) -> list[Citation]:
    return [Citation.from_json(c) for c in object_citations(obj)]
