"""The compiler's topic rule: topics derived from the snapshot's objects, never from an increment. Pure.

A topic is anchored on one live concept with at least :data:`TOPIC_MIN_RELATIONS` evidenced
relations to distinct concepts. Its title is the anchor's name (concept names are unique, so topic
titles are too); its members are the anchor, its neighbours and the articles of both; its summary is
the definition claims of the anchor and of its :data:`SUMMARY_NEIGHBOURS` most related neighbours,
with their already-verified citations copied exactly. Everything but the summary comes from the
object index, so the set of topics, their ids and which of them need rebuilding are known without
reading a file (:func:`plan_topics`); only a topic whose inputs changed reads the few concept files
its summary quotes (:func:`build_topic`).

Because a topic is a function of the objects alone, the same objects give the same topic ids and
bytes whatever the increments they came in (R25), and a topic whose inputs did not change is never
rewritten (R24).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from wikigen.model.hashing import json_sha256
from wikigen.model.ids import kind_of, normalize_name, topic_id

TOPIC_ROUTE = "derived/topics"  # R32: the provenance route of a derived topic, not an engine's
TOPIC_MIN_RELATIONS = 3  # distinct related concepts an anchor needs
MAX_NEIGHBOURS = 24  # members: the most related neighbours, then by name
MAX_ARTICLES = 24  # members: the anchor's articles first, then its neighbours' in neighbour order
SUMMARY_NEIGHBOURS = 4  # the summary: the anchor's definition and up to this many neighbours'


@dataclass(frozen=True, slots=True)
class TopicPlan:
    """What the index alone says of a topic: its id, members and the concepts its summary quotes."""

    id: str
    anchor: str
    title: str
    members: tuple[str, ...]  # sorted
    summary: tuple[str, ...]  # concept ids, anchor first, then neighbours most related first
    inputs: str  # a hash of everything the topic's file depends on


def is_derived(entry: Mapping[str, Any]) -> bool:
    """A topic made by this rule (its provenance says so), as opposed to one an engine returned."""
    return entry.get("kind") == "topic" and entry.get("provenance", {}).get("route") == TOPIC_ROUTE


def plan_topics(
    index: Mapping[str, Mapping[str, Any]], exists: Callable[[str], bool] | None = None
) -> dict[str, TopicPlan]:
    """Topic id → plan, for every anchor of the snapshot's object index (no file is read). ``index``
    may hold only the concepts and relations (:func:`wikigen.compiler.lookup.graph_entry`); ``exists`` then
    says whether an article is in the snapshot."""
    exists = exists if exists is not None else index.__contains__
    concepts = {oid: e for oid, e in index.items() if e.get("kind") == "concept"}
    weights: dict[str, dict[str, int]] = {}
    for entry in index.values():
        if entry.get("kind") != "relation":
            continue
        subject, obj = entry.get("subject"), entry.get("object")
        if subject in concepts and obj in concepts and subject != obj:
            assert isinstance(subject, str) and isinstance(obj, str)
            weights.setdefault(subject, {}).setdefault(obj, 0)
            weights.setdefault(obj, {}).setdefault(subject, 0)
            weights[subject][obj] += 1
            weights[obj][subject] += 1

    plans: dict[str, TopicPlan] = {}
    for anchor in sorted(weights):
        related = weights[anchor]
        if len(related) < TOPIC_MIN_RELATIONS:
            continue
        neighbours = ranked(related, lambda n: str(concepts[n].get("label", n)))
        articles: list[str] = []
        for concept in (anchor, *neighbours):
            for article in sorted(concepts[concept].get("deps", [])):
                if len(articles) == MAX_ARTICLES:
                    break  # the rest are not members: a hub's thousands of articles are never looked up
                if kind_of(article) == "article" and article not in articles and exists(article):
                    articles.append(article)
        members = tuple(sorted({anchor, *neighbours, *articles}))
        defined = [n for n in neighbours if _defined(concepts[n])]
        summary = (anchor, *defined[:SUMMARY_NEIGHBOURS])
        title = str(concepts[anchor].get("label", anchor))
        tid = topic_id(title, members)
        # The file depends on the id (title and members) and on the summary concepts' files only.
        inputs = json_sha256([tid, anchor, [[c, concepts[c].get("sha")] for c in summary]])[:16]
        plans[tid] = TopicPlan(tid, anchor, title, members, summary, inputs)
    return plans


def ranked(related: Mapping[str, int], label_of: Callable[[str], str]) -> list[str]:
    """An anchor's member neighbours: the :data:`MAX_NEIGHBOURS` most related (``related``: concept →
    relations with the anchor), then by name (``label_of``) and id. Only their entries, and the
    anchor's, are read beyond the labels."""
    return sorted(related, key=lambda n: (-related[n], normalize_name(label_of(n)), n))[:MAX_NEIGHBOURS]


def _defined(entry: Mapping[str, Any]) -> bool:
    """A concept whose definition cites something: its index entry, or its graph entry."""
    return bool(entry["defined"] if "defined" in entry else entry.get("definitionCitations"))


def build_topic(plan: TopicPlan, concepts: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """The topic object from its plan and the summary concepts' objects; None when nothing is cited.

    Each summary claim is a concept's definition claim as compiled: same text, status (R37) and
    citations — the citation objects are copied from the concept, so they verify as the concept's do.
    """
    summary: list[dict[str, Any]] = []
    cited: dict[str, Mapping[str, Any]] = {}
    for concept_id in plan.summary:
        obj = concepts[concept_id]
        definition = obj.get("definition") or {}
        by_id = {c["citation_id"]: c for c in obj.get("citations", [])}
        ids = [cid for cid in definition.get("citations", []) if cid in by_id]
        if not ids or not str(definition.get("text", "")).strip():
            continue
        summary.append({"text": definition["text"], "status": definition.get("status", "stated"), "citations": ids})
        for cid in ids:
            cited.setdefault(cid, by_id[cid])
    if not summary:
        return None  # no topic without a summary
    return {
        "id": plan.id,
        "kind": "topic",
        "title": plan.title,
        "anchor": plan.anchor,
        "members": list(plan.members),
        "summary": summary,
        "contradictions": [],
        "open_questions": [],
        "citations": [
            dict(c)
            for c in sorted(
                cited.values(), key=lambda c: (c["source"], c["source_span"]["start"], c["source_span"]["end"])
            )
        ],
    }
