"""R28, a last check before publishing: the problems of an object index — citations at their sources'
compiled versions, names and aliases held once, every compiled source covered by an article, every
dependency present. :func:`final_problems` checks a whole snapshot; :func:`changed_problems` what an
increment could have broken in a baseline that passed. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wikigen.compiler.lookup import Dependents, Lookup, concept_keys
from wikigen.model.ids import kind_of, normalize_name
from wikigen.model.shards import Overlay


def changed_problems(
    index: Overlay[Mapping[str, Any]], lookup: Lookup, compiled: Mapping[str, str], recompiled: Iterable[str]
) -> list[str]:
    """R28 for a merged index whose baseline passed it: the same checks as :func:`final_problems`, of
    what the increment could have broken — its new and rewritten entries, the entries that cite a
    source compiled anew or withdrawn, the holders of a name a new entry takes, the sources of a
    changed or removed article, and whatever depended on a removed object."""
    problems: list[str] = []
    dependents = Dependents(index, lookup)
    changed = {oid: index.changes[oid] for oid in sorted(index.changes)}
    stale_check = set(changed)
    for sid in sorted(set(recompiled)):
        stale_check |= dependents(f"source:{sid}")
    for oid in sorted(stale_check):
        for cid, source, version, *_ in index[oid].get("citations", []):
            if compiled.get(source) != version:
                problems.append(
                    f"{oid}: citation {cid} names {source}@{version}, but the compiled version is {compiled.get(source)} (stale)"
                )
    # who among the changed entries holds each name, once (not once per name: an increment of a
    # baseline changes thousands of concepts)
    # What the changed entries depend on, asked of the overlay and then of the lookup, never of the
    # stored index's shards (a first topic compile's topics name members by the ten thousand).
    wanted = {dep for entry in changed.values() for dep in entry.get("deps", [])}
    stored = {dep for dep in wanted if dep not in index.changes and dep not in index.removed}
    absent = {dep for dep in wanted if dep in index.removed and dep not in index.changes}
    absent |= stored - lookup.present(stored)
    changed_holders: dict[str, set[str]] = {}
    for oid, entry in changed.items():
        for key in concept_keys(entry):
            changed_holders.setdefault(key, set()).add(oid)
    for oid, entry in changed.items():
        for key in concept_keys(entry):
            holders = {h for h in lookup.concepts_named(key) if h in index and h not in changed}
            holders |= changed_holders[key]
            for other in sorted(holders - {oid}):
                name = next(n for n in entry.get("names", []) if normalize_name(n) == key)
                problems.append(f"{oid}: name or alias {name!r} is also used by {other}")
        for dep in entry.get("deps", []):
            if dep in absent:
                problems.append(f"{oid}: depends on {dep}, which is not in the snapshot (dangling)")
    for gone in sorted(index.removed):
        for oid in sorted(dependents(gone)):
            if oid not in changed:
                problems.append(f"{oid}: depends on {gone}, which is not in the snapshot (dangling)")
    # Coverage: the sources compiled anew, and those of every article the increment changed or removed.
    to_cover = {sid for sid in recompiled if sid in compiled}
    for oid in index.removed | set(changed):
        before = index.base.get(oid)
        if kind_of(oid) == "article":
            to_cover |= set((before or {}).get("sources", {})) | set(index.get(oid, {}).get("sources", {}))
    for sid in sorted(to_cover):
        if sid in compiled and not any(
            kind_of(a) == "article" and sid in index[a].get("sources", {}) for a in dependents(f"source:{sid}")
        ):
            problems.append(f"source {sid} is compiled but no article covers it")
    return problems


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
