"""What a compile asks of the object index besides "the entry of this id" (issue 14): who depends on
a source or an object, which names start with a word, which concept holds a name, and the graph of
concepts and relations. Pure.

:class:`IndexLookup` answers from an index held whole (a schema-1 snapshot, the tests);
:class:`wikigen.mirror.Mirror` answers the same questions from a local SQLite copy of a sharded
index, so that a compile reads the shards it needs and never the whole knowledge base. The merged
index of an increment is an :class:`wikigen.shards.Overlay` over the baseline's, never a copy;
:class:`Dependents` and :func:`overlay_graph` answer the same questions of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from typing import Any, Protocol

from wikigen.ids import normalize_name
from wikigen.shards import Overlay

MAX_NAME_WORDS = 8  # a name of more words never counts as a hit (R14)
_TOKEN = re.compile(r"\w(?:[\w+#.\-]*[\w+#])?", flags=re.UNICODE)

# The fields of an entry that the graph questions need (topics, communities), nothing else.
GRAPH_KINDS = ("concept", "relation", "topic")
GRAPH_FIELDS = ("kind", "label", "deps", "sha", "subject", "object", "inputs", "provenance")
EDGE_KINDS = ("concept", "relation")  # what the partition reads (wikigen.communities)
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
