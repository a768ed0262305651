"""What a compile asks of the object index besides "the entry of this id": who depends on a source or
an object, which names start with a word, which concept holds a name, and the graph of concepts and
relations. Pure.

:class:`IndexLookup` answers from an index held whole (a schema-1 snapshot, the tests);
:class:`wikigen.store.lookup_cache.Mirror` answers the same questions from a local SQLite copy of a sharded
index, so that a compile reads the shards it needs and never the whole knowledge base. The merged
index of an increment is an :class:`wikigen.model.shards.Overlay` over the baseline's, never a copy;
:class:`Dependents` and :func:`overlay_graph` answer the same questions of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from functools import lru_cache
from typing import Any, Protocol

from wikigen.compiler.topics import TOPIC_ROUTE, ranked
from wikigen.model.ids import kind_of, normalize_name
from wikigen.model.shards import Overlay

MAX_NAME_WORDS = 8  # a name of more words never counts as a hit (R14)
_TOKEN = re.compile(r"\w(?:[\w+#.\-]*[\w+#])?", flags=re.UNICODE)

# The fields of an entry that the graph questions need (topics, communities), nothing else.
GRAPH_KINDS = ("concept", "relation", "topic")
GRAPH_FIELDS = ("kind", "label", "deps", "sha", "subject", "object", "inputs", "provenance")
EDGE_KINDS = ("concept", "relation")  # what the partition reads (wikigen.compiler.communities)
EDGE_FIELDS = ("kind", "subject", "object")


def name_tokens(text: str) -> tuple[str, ...]:
    """A text's words as names are matched: normalized, word characters joined by ``+#.-``."""
    # "_rotation pair_" (emphasis) names "rotation pair": underscores at a token's ends are markup
    return tuple(t for t in (m.strip("_") for m in _TOKEN.findall(normalize_name(text))) if t)


# The index's names are tokenized again by every increment of a --batch run; bodies are not cached.
name_words = lru_cache(maxsize=1 << 16)(name_tokens)


def dependency_keys(entry: Mapping[str, Any]) -> list[str]:
    """What an entry depends on: ``source:<id>`` for each source it cites, and its ``deps``."""
    return [f"source:{sid}" for sid in entry.get("sources", {})] + list(entry.get("deps", []))


def graph_entry(entry: Mapping[str, Any], full: bool = True) -> dict[str, Any]:
    """The part of a concept, relation or topic entry the graph questions read; ``defined`` says
    whether a concept's definition cites anything (a topic's summary quotes only those). Not
    ``full``: only kind, subject and object."""
    compact = {k: entry[k] for k in (GRAPH_FIELDS if full else EDGE_FIELDS) if k in entry}
    if not full:
        return compact
    if entry.get("kind") == "concept":
        compact["defined"] = bool(entry.get("definitionCitations"))
    return compact


class Lookup(Protocol):
    def dependents(self, key: str) -> frozenset[str]:
        """The objects that cite ``source:<id>`` or depend on an object id."""
        ...

    def names_from(self, word: str) -> list[tuple[tuple[str, ...], str]]:
        """(name words, object id) of every concept or article name whose first word is ``word``."""
        ...

    def concepts_named(self, key: str) -> frozenset[str]:
        """The concepts holding the normalized name or alias ``key`` (one in a valid snapshot)."""
        ...

    def relations_at(self, concept: str) -> list[tuple[str, str, str]]:
        """(relation id, subject, object) of every relation with ``concept`` as an endpoint."""
        ...

    def relations_among(self, concepts: Collection[str]) -> list[tuple[str, str, str]]:
        """(relation id, subject, object) of every relation between two of ``concepts``, by id —
        without reading every relation of a hub among them."""
        ...

    def entries(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The :func:`graph_entry` of each of ``ids`` that is a concept, relation or topic."""
        ...

    def labels(self, ids: Iterable[str]) -> dict[str, str]:
        """The label of each of ``ids`` that is a concept (its id where it has none)."""
        ...

    def linked_concepts(self) -> list[str]:
        """Every concept an end of a relation, by id."""
        ...

    def present(self, ids: Iterable[str]) -> set[str]:
        """Those of ``ids`` that are objects of the index."""
        ...

    def topic_ids(self) -> list[str]:
        """Every topic, by id."""
        ...

    def engine_topics(self) -> bool:
        """Whether a topic is an engine's, not the compiler's topic rule's (:mod:`wikigen.compiler.topics`)."""
        ...

    def degrees(self, concepts: Iterable[str]) -> dict[str, int]:
        """Each concept's relations to another concept (its degree in the semantic graph)."""
        ...

    def relation_count(self) -> int:
        """The relations between two different concepts (the semantic graph's total weight)."""
        ...

    def graph(self, full: bool = True) -> dict[str, dict[str, Any]]:
        """Every concept, relation and topic as its :func:`graph_entry`, by id; not ``full``: only the
        concepts' kind and the relations' kind, subject and object (what the partition reads, which
        does not depend on their order), in no particular order."""
        ...

    def close(self) -> None: ...


# dependents by key, names by first word, concepts by normalized name
_Tables = tuple[dict[str, set[str]], dict[str, list[tuple[tuple[str, ...], str]]], dict[str, set[str]]]


class IndexLookup:
    """A :class:`Lookup` computed from an index held whole, its tables built in one pass on the first
    question."""

    def __init__(self, index: Mapping[str, Mapping[str, Any]]) -> None:
        self.index = index
        self._tables: _Tables | None = None

    def _built(self) -> _Tables:
        if self._tables is None:
            dependents: dict[str, set[str]] = {}
            names: dict[str, list[tuple[tuple[str, ...], str]]] = {}
            concepts: dict[str, set[str]] = {}
            for oid, entry in self.index.items():
                for dep in dependency_keys(entry):
                    dependents.setdefault(dep, set()).add(oid)
                for words in named_by(oid, entry):
                    names.setdefault(words[0], []).append((words, oid))
                for key in concept_keys(entry):
                    concepts.setdefault(key, set()).add(oid)
            self._tables = (dependents, names, concepts)
        return self._tables

    def dependents(self, key: str) -> frozenset[str]:
        return frozenset(self._built()[0].get(key, ()))

    def names_from(self, word: str) -> list[tuple[tuple[str, ...], str]]:
        return list(self._built()[1].get(word, ()))

    def concepts_named(self, key: str) -> frozenset[str]:
        return frozenset(self._built()[2].get(key, ()))

    def relations_at(self, concept: str) -> list[tuple[str, str, str]]:
        found = []
        for rid in sorted(self.dependents(concept)):
            entry = self.index[rid]
            if entry.get("kind") == "relation":
                found.append((rid, str(entry.get("subject")), str(entry.get("object"))))
        return found

    def relations_among(self, concepts: Collection[str]) -> list[tuple[str, str, str]]:
        return among(concepts, self.relations_at)

    def entries(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        found = {oid: self.index[oid] for oid in sorted(set(ids)) if oid in self.index}
        return {oid: graph_entry(e) for oid, e in found.items() if e.get("kind") in GRAPH_KINDS}

    def labels(self, ids: Iterable[str]) -> dict[str, str]:
        found = {oid: self.index[oid] for oid in sorted(set(ids)) if oid in self.index}
        return {oid: str(e.get("label", oid)) for oid, e in found.items() if e.get("kind") == "concept"}

    def present(self, ids: Iterable[str]) -> set[str]:
        return {oid for oid in ids if oid in self.index}

    def linked_concepts(self) -> list[str]:
        ends = {
            str(e.get(k)) for e in self.index.values() if e.get("kind") == "relation" for k in ("subject", "object")
        }
        return sorted(ends)

    def topic_ids(self) -> list[str]:
        return sorted(oid for oid, e in self.index.items() if e.get("kind") == "topic")

    def engine_topics(self) -> bool:
        return any(
            e.get("kind") == "topic" and e.get("provenance", {}).get("route") != TOPIC_ROUTE
            for e in self.index.values()
        )

    def degrees(self, concepts: Iterable[str]) -> dict[str, int]:
        return {c: sum(1 for _, s, o in self.relations_at(c) if s != o and c in (s, o)) for c in sorted(set(concepts))}

    def relation_count(self) -> int:
        return sum(
            1 for e in self.index.values() if e.get("kind") == "relation" and e.get("subject") != e.get("object")
        )

    def graph(self, full: bool = True) -> dict[str, dict[str, Any]]:
        kinds = GRAPH_KINDS if full else EDGE_KINDS
        return {oid: graph_entry(e, full) for oid, e in self.index.items() if e.get("kind") in kinds}

    def close(self) -> None:
        pass


def named_by(oid: str, entry: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The names (as words, at most :data:`MAX_NAME_WORDS`) a text may mention a concept or article by."""
    if entry.get("kind") not in ("concept", "article"):
        return []
    found = []
    for name in entry.get("names", []):
        words = name_words(name)
        if words and len(words) <= MAX_NAME_WORDS and words not in found:
            found.append(words)
    return found


def concept_keys(entry: Mapping[str, Any]) -> list[str]:
    """A concept's names and aliases, normalized (R25/R26: unique across live concepts)."""
    if entry.get("kind") != "concept":
        return []
    return sorted({normalize_name(n) for n in entry.get("names", [])})


def overlay_graph(
    index: Overlay[Mapping[str, Any]], graph: dict[str, dict[str, Any]], full: bool = True
) -> dict[str, dict[str, Any]]:
    """``graph`` (:meth:`Lookup.graph` of the overlay's base) brought to the overlay, in place: its
    removals and changes applied (an id's kind never changes)."""
    kinds = GRAPH_KINDS if full else EDGE_KINDS
    for oid in index.removed:
        graph.pop(oid, None)
    for oid, entry in index.changes.items():
        if entry.get("kind") in kinds:
            graph[oid] = graph_entry(entry, full)
        else:
            graph.pop(oid, None)
    return graph


TOPIC_REACH = 2000  # concepts whose topic an increment may change, at most, for the topic rule to read only them


def topic_neighbourhood(
    index: Overlay[Mapping[str, Any]], lookup: Lookup, touched: Iterable[str]
) -> tuple[dict[str, dict[str, Any]], set[str], set[str]] | None:
    """What the topic rule (:mod:`wikigen.compiler.topics`) needs to re-plan the topics an increment may have
    changed, read from the parent's lookup and the increment's entries, never the whole graph. A topic
    is a function of its anchor's relations and of its anchor's and neighbours' entries, so the
    anchors to re-plan are the touched concepts, the ends of the touched relations and the touched
    concepts' neighbours, before and after. Returns :func:`anchors_neighbourhood` of those anchors —
    or ``None`` when the increment reaches more than :data:`TOPIC_REACH` concepts (every anchor is
    planned then, :func:`linked_concepts`)."""
    touched = set(touched)
    merged = MergedRelations(index, lookup, touched)
    anchors = {oid for oid in touched if kind_of(oid) == "concept"}
    for rid in sorted(merged.relations):
        for entry in (index.base.get(rid), index.get(rid)):
            if entry is not None:
                anchors.update((str(entry.get("subject")), str(entry.get("object"))))
    for concept in sorted(oid for oid in touched if kind_of(oid) == "concept"):
        for _, subject, obj in [*lookup.relations_at(concept), *merged.at(concept)]:  # before and after
            anchors.update((subject, obj))
        if len(anchors) > TOPIC_REACH:
            return None
    if len(anchors) > TOPIC_REACH:
        return None
    return anchors_neighbourhood(index, lookup, merged, anchors)


class MergedRelations:
    """The relations at a concept in an overlay of the lookup's index: the base's, less those the
    overlay touched, with the touched ones it holds."""

    def __init__(self, index: Overlay[Mapping[str, Any]], lookup: Lookup, touched: Iterable[str]) -> None:
        self.lookup = lookup
        self.relations = {oid for oid in touched if kind_of(oid) == "relation"}
        self._at: dict[str, list[tuple[str, str, str]]] = {}
        for rid in sorted(self.relations):
            entry = index.get(rid)
            if entry is not None:
                ends = (rid, str(entry.get("subject")), str(entry.get("object")))
                for n in set(ends[1:]):
                    self._at.setdefault(n, []).append(ends)

    def at(self, concept: str) -> list[tuple[str, str, str]]:
        kept = [r for r in self.lookup.relations_at(concept) if r[0] not in self.relations]
        return sorted(kept + self._at.get(concept, []))

    def linked(self) -> set[str]:
        """Every concept with a relation in the overlay (the base's, and the touched relations' ends)."""
        found = set(self.lookup.linked_concepts())
        found.update(n for n, ends in self._at.items() if ends)
        return found


def anchors_neighbourhood(
    index: Overlay[Mapping[str, Any]], lookup: Lookup, merged: MergedRelations, anchors: set[str]
) -> tuple[dict[str, dict[str, Any]], set[str], set[str]]:
    """(the graph entries of ``anchors``, their relations and their neighbours — a neighbour by its
    label only where it ranks among no anchor's members; the anchors; the parent's topics whose title
    names one of them): what the topic rule plans those anchors' topics from."""
    graph: dict[str, dict[str, Any]] = {}
    at_anchor: dict[str, list[tuple[str, str, str]]] = {}
    for anchor in sorted(anchors):
        at_anchor[anchor] = merged.at(anchor)
        for rid, subject, obj in at_anchor[anchor]:
            graph[rid] = {"kind": "relation", "subject": subject, "object": obj}
    endpoints = {e[k] for e in graph.values() for k in ("subject", "object")}
    # A neighbour's label ranks it (a hub has thousands of neighbours); only the anchors and the
    # neighbours that rank among an anchor's members are read whole (topics.ranked).
    near = endpoints | anchors
    labels = lookup.labels(oid for oid in near if oid not in index.changes and oid not in index.removed)
    labels |= {
        oid: str(e.get("label", oid)) for oid, e in index.changes.items() if oid in near and e.get("kind") == "concept"
    }
    whole = set(anchors)
    for anchor, found in at_anchor.items():
        related: dict[str, int] = {}
        for _, subject, obj in found:
            if subject != obj and subject in labels and obj in labels:
                other = obj if subject == anchor else subject
                related[other] = related.get(other, 0) + 1
        whole.update(ranked(related, labels.__getitem__))
    stored = lookup.entries(oid for oid in whole if oid not in index.changes and oid not in index.removed)
    for oid in sorted(near):
        entry = index.changes.get(oid)
        if entry is not None:
            graph[oid] = graph_entry(entry)
        elif oid in stored and oid not in index.removed:
            graph[oid] = stored[oid]
        elif oid in labels and oid not in index.removed:
            graph[oid] = {"kind": "concept", "label": labels[oid]}  # ranks, is not a member
    before: set[str] = set()
    for anchor in sorted(anchors):
        for oid in lookup.dependents(anchor):
            if kind_of(oid) == "topic":
                before.add(oid)
    topics = lookup.entries(before)
    kept_before = set()
    for tid, entry in topics.items():
        holders = lookup.concepts_named(normalize_name(str(entry.get("label", ""))))
        if holders & anchors or not holders:
            kept_before.add(tid)
            if tid in index.changes:
                graph[tid] = graph_entry(index.changes[tid])
            elif tid not in index.removed:
                graph[tid] = entry
    return graph, anchors, kept_before


class Dependents:
    """Who depends on what in an overlay: its base's dependents still there, and its changed entries'."""

    def __init__(self, index: Overlay[Mapping[str, Any]], lookup: Lookup) -> None:
        self.index, self.lookup = index, lookup
        self._changed: dict[str, set[str]] = {}
        for oid, entry in index.changes.items():
            for key in dependency_keys(entry):
                self._changed.setdefault(key, set()).add(oid)

    def __call__(self, key: str) -> set[str]:
        index = self.index
        found = {o for o in self.lookup.dependents(key) if o not in index.removed and o not in index.changes}
        return found | self._changed.get(key, set())


def among(
    concepts: Collection[str], relations_at: Callable[[str], list[tuple[str, str, str]]]
) -> list[tuple[str, str, str]]:
    """The relations between two of ``concepts``, by id, from each one's ``relations_at``."""
    wanted = set(concepts)
    found = {r for c in sorted(wanted) for r in relations_at(c) if r[1] in wanted and r[2] in wanted}
    return sorted(found)
