"""Baseline index + resolved delta → the new object index and the file changes (R24, R25, R28, R38).

Pure but for ``read_file`` (an object file of the baseline commit, read only for a concept that a
delta extends); the parent's communities record is given as a value. Unaffected objects are never rewritten: their files stay byte-identical.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wikigen.compiler.communities import record_communities, updated_record
from wikigen.compiler.community_record import Record
from wikigen.compiler.index_entries import index_entry
from wikigen.compiler.lookup import (
    TOPIC_REACH,
    IndexLookup,
    Lookup,
    MergedRelations,
    anchors_neighbourhood,
    graph_entry,
    overlay_graph,
    topic_neighbourhood,
)
from wikigen.compiler.publish_checks import changed_problems
from wikigen.compiler.resolve import Resolved
from wikigen.compiler.topics import TOPIC_ROUTE, build_topic, is_derived, plan_topics
from wikigen.evidence.citations import Citation
from wikigen.model.hashing import sha256_hex
from wikigen.model.ids import kind_of, normalize_name
from wikigen.model.objects import (
    dump_relations,
    object_citations,
    object_path,
    parse_object,
    parse_relations,
    relation_line,
    render_object,
)
from wikigen.model.shards import Overlay

MAX_OBJECT_BYTES = 1_000_000


@dataclass
class Merged:
    index: Overlay[Mapping[str, Any]]  # the baseline's index with this increment's changes
    files: dict[str, bytes | None]
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # added/updated/removed per kind
    problems: list[str] = field(default_factory=list)


def _same_but_provenance(entry: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    return {**entry, "provenance": None} == {**before, "provenance": None}


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
    topics_complete: bool = False,
    lookup: Lookup | None = None,
    recompiled: Iterable[str] = (),
) -> Merged:
    """The new snapshot's objects; ``compiled`` maps every compiled source to its compiled version;
    ``communities`` is the baseline commit's communities record (the partition's warm start);
    ``recompiled``: the sources whose compiled version this increment changes (compiled anew or
    withdrawn). ``lookup`` answers who depends on what in the baseline (default: computed from the
    whole ``baseline_index``), so that the cost follows the change.

    With ``derive_topics`` the topics are the compiler's (:mod:`wikigen.compiler.topics`), not the delta's;
    ``topics_complete``: the baseline's topics are the rule's whole output (the rule made the
    baseline), so that only those near the change are planned again.
    """
    lookup = lookup if lookup is not None else IndexLookup(baseline_index)
    index: Overlay[Mapping[str, Any]] = Overlay(baseline_index)
    for oid in revoked:
        index.pop(oid)
    files: dict[str, bytes | None] = {}
    problems: list[str] = []
    counts = {
        k: {"added": 0, "updated": 0, "removed": 0} for k in ("article", "concept", "relation", "topic")
    }

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
    new_articles: dict[str, set[str]] = {}
    for oid, obj in objects.items():
        if obj["kind"] == "article":
            for sid in obj["sources"]:
                new_articles.setdefault(sid, set()).add(oid)
    articles_of: dict[str, set[str]] = {}

    def articles_covering(sid: str) -> set[str]:
        if sid not in articles_of:
            kept = {a for a in lookup.dependents(f"source:{sid}") if kind_of(a) == "article" and a not in revoked}
            articles_of[sid] = kept | new_articles.get(sid, set())
        return articles_of[sid]

    # Relations live in shards: only the shards of relations that changed are read and written.
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
            obj["articles"] = sorted(set().union(*(articles_covering(s) for s in sorted(sources))))
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
            if oid not in baseline_index and read_file(path) is not None:
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
            # R24: an object a delta repeats (or rebuilds) unchanged keeps its entry and its provenance, so
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
    # Concepts and relations (and topics, for the topic rule): what the partition and the rule read.
    # Both run only when the increment changed what they read, and both read only the neighbourhood of
    # the change (the whole graph where there is no record or topic to update yet).
    touched = {oid for oid in index.touched() if kind_of(oid) in ("concept", "relation", "topic")}
    moved = any(kind_of(oid) != "topic" and (oid in index) != (oid in baseline_index) for oid in touched)
    topics = derive_topics and bool(touched)
    # R24: when no concept or relation came or went, the parent's partition stands and nothing is
    # rewritten (a record still in one file, or none yet, is written whatever the change).
    partition = moved or not communities.sharded or communities.whole
    record: dict[str, bytes | None] | None = None
    if partition and communities.sharded and not communities.whole:
        # V3: local moves from the concepts whose relations changed, reading only their part of
        # the graph and of the record (None: so much came or went that a fresh partition is due).
        record = updated_record(lookup, _relation_ends(index, touched), communities)
        partition = record is None
    if topics:
        # Only the topics whose anchor's neighbourhood the increment touched are planned again, from
        # that neighbourhood. Where the parent's topics are not the rule's whole output (the rule did
        # not make its snapshot, or an engine's topic is there), or the change reaches too far, every
        # anchor is planned, a few thousand at a time, each from its neighbourhood.
        near = topic_neighbourhood(index, lookup, touched) if topics_complete and not lookup.engine_topics() else None
        if near is not None:
            local, anchors, anchored = near
            counts["topic"], topic_problems = _derive_topics(
                index, local, files, anchored, read_file, provenance, anchors
            )
        else:
            counts["topic"], topic_problems = _derive_every_topic(index, lookup, touched, files, read_file, provenance)
        problems.extend(topic_problems)
    if partition:
        graph = lookup.graph(full=False)
        overlay_graph(index, graph, full=False)
        files.update(record_communities(graph, communities))  # V3: stable names and colours, sharded
    files.update(record or {})
    problems.extend(changed_problems(index, lookup, compiled, recompiled))
    return Merged(index=index, files=files, counts=counts, problems=problems)


def _relation_ends(
    index: Overlay[Mapping[str, Any]], touched: Iterable[str]
) -> dict[str, tuple[tuple[str, str] | None, tuple[str, str] | None]]:
    """Each relation the increment touched → its (subject, object) in the baseline and in the merged
    index (``None`` where it is not there)."""
    def ends(entry: Mapping[str, Any] | None) -> tuple[str, str] | None:
        return None if entry is None else (str(entry.get("subject")), str(entry.get("object")))

    return {
        oid: (ends(index.base.get(oid)), ends(index.get(oid)))
        for oid in sorted(touched)
        if kind_of(oid) == "relation"
    }


def _derive_every_topic(
    index: Overlay[Mapping[str, Any]],
    lookup: Lookup,
    touched: Iterable[str],
    files: dict[str, bytes | None],
    read_file: Callable[[str], bytes | None],
    provenance: Mapping[str, Any],
) -> tuple[dict[str, int], list[str]]:
    """The topic rule over every anchor of the merged objects, :data:`wikigen.compiler.lookup.TOPIC_REACH` of
    them at a time, each group planned from its neighbourhood (the whole graph is never held at once);
    then the parent's topics no group planned or reconsidered are removed."""
    merged = MergedRelations(index, lookup, touched)
    linked = sorted(n for n in merged.linked() if n not in index.removed)  # (a gone concept plans nothing)
    counts = {"added": 0, "updated": 0, "removed": 0}
    problems: list[str] = []
    seen: set[str] = set()
    for at in range(0, len(linked), TOPIC_REACH):
        graph, anchors, before = anchors_neighbourhood(index, lookup, merged, set(linked[at : at + TOPIC_REACH]))
        found, more = _derive_topics(index, graph, files, before - seen, read_file, provenance, anchors)
        seen |= before
        problems.extend(more)
        counts = {k: counts[k] + found[k] for k in counts}
    left = [tid for tid in lookup.topic_ids() if tid not in seen]
    if left:
        graph = {tid: graph_entry(index[tid]) for tid in left if tid in index}
        found, more = _derive_topics(index, graph, files, set(left), read_file, provenance, set())
        problems.extend(more)
        counts = {k: counts[k] + found[k] for k in counts}
    return counts, problems


def _derive_topics(
    index: Overlay[Mapping[str, Any]],
    graph: Mapping[str, Mapping[str, Any]],
    files: dict[str, bytes | None],
    before: set[str],
    read_file: Callable[[str], bytes | None],
    provenance: Mapping[str, Any],
    anchors: set[str] | None = None,
) -> tuple[dict[str, int], list[str]]:
    """The topic rule over the merged objects (``graph``: their concepts, relations and topics), in
    place: a topic whose inputs did not change keeps its file and index entry (R24), even if R12's
    cascade revoked it; a topic no longer derived is removed; only a new or changed topic reads the
    concept files its summary quotes. ``anchors``: only these concepts' topics are planned (``graph``
    is their neighbourhood, :func:`wikigen.compiler.lookup.topic_neighbourhood`, and its topics theirs)."""
    problems: list[str] = []
    baseline_index = index.base
    # An article a concept depends on is in the snapshot unless this increment removed it (R28 fails
    # a dangling one anyway): asked of the overlay's removals, never of the stored index's shards
    # (a first topic compile would otherwise look up every article of the knowledge base).
    plans = plan_topics(graph, exists=lambda oid: oid not in index.removed)
    if anchors is not None:
        plans = {tid: plan for tid, plan in plans.items() if plan.anchor in anchors}
    for oid in sorted(k for k, e in graph.items() if e.get("kind") == "topic" and k not in plans):
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
        # A stored topic of these anchors is among those ``before`` (their neighbourhood's, revoked or
        # not) or in ``graph``: any other is new, and no shard is read for it.
        old = baseline_index.get(tid) if tid in before or tid in graph else None
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
        if old is None and read_file(path) is not None:
            # R38: a file a person put in the generated folders is never overwritten.
            problems.append(f"{path} exists but is not the compiler's; move it away so {tid} can be written")
            continue
        files[path] = data
        index[tid] = {**index_entry(obj, data, list(plan.members), derived), "inputs": plan.inputs}

    candidates = before | {k for k, e in graph.items() if e.get("kind") == "topic"} | set(plans)
    after = {k for k in candidates if k in index}
    updated = sum(1 for k in before & after if index[k].get("sha") != baseline_index[k].get("sha"))
    return {"added": len(after - before), "updated": updated, "removed": len(before - after)}, problems


def citations_of(obj: Mapping[str, Any]) -> list[Citation]:
    return [Citation.from_json(c) for c in object_citations(obj)]
