"""Delta → resolved objects, or every problem (R18, R22, R23, R25–R26, R37). Pure.

Quotes are located verbatim in the text the request provided and the compiler computes each span
itself; ids are computed here from names and source ids, never taken from the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wikigen.compiler.context import Context
from wikigen.compiler.lookup import IndexLookup, Lookup
from wikigen.evidence.citations import Citation, locate, make_citation
from wikigen.model.ids import article_id, concept_id, kind_of, normalize_name, relation_id, topic_id
from wikigen.schemas import schema_problems

# R37: words that mark a hypothesis or a not-yet-done suggestion in the cited text.
_HEDGES = (
    "hypothesis",
    "hypothesize",
    "unconfirmed",
    "not yet done",
    "not implemented",
    "not yet implemented",
    "suggested improvement",
)


@dataclass
class Resolved:
    """Objects built from a delta, by id, with the citations they carry."""

    objects: dict[str, dict[str, Any]] = field(default_factory=dict)
    merged_concepts: dict[str, dict[str, Any]] = field(default_factory=dict)  # R25: live concept → additions
    problems: list[str] = field(default_factory=list)


class _Citer:
    def __init__(self, ctx: Context, problems: list[str]) -> None:
        self.ctx = ctx
        self.problems = problems

    def cite(self, quotes: Iterable[Mapping[str, Any]], where: str) -> list[Citation]:
        citations = []
        for quote in quotes:
            source = quote.get("source", "")
            text = quote.get("quote", "")
            provided = self.ctx.provided.bodies.get(source)
            if provided is None:
                self.problems.append(
                    f"{where}: cites source {source!r}, which the request did not provide"
                )
                continue
            version, body = provided
            span = locate(text, body, self.ctx.provided.ranges[source])
            if span is None:
                short = " ".join(text.split())[:80]
                self.problems.append(
                    f"{where}: quote not found verbatim in the provided text of {source}: {short!r}"
                )
                continue
            citations.append(make_citation(source, version, body, span[0], span[1]))
        return citations


def _claim(
    raw: Mapping[str, Any], citer: _Citer, where: str, bag: dict[str, Citation], problems: list[str]
) -> dict[str, Any]:
    cites = citer.cite(raw.get("quotes", []), where)
    status = raw.get("status", "stated")
    if status == "stated":
        for c in cites:
            lowered = c.quote.casefold()
            if any(h in lowered for h in _HEDGES):
                problems.append(
                    f"{where}: presents a hypothesis or suggestion as a stated fact: {c.quote[:60]!r}"
                )
                break
    for c in cites:
        bag.setdefault(c.citation_id, c)
    return {
        "text": " ".join(str(raw["text"]).split()),
        "status": status,
        "citations": [c.citation_id for c in cites],
    }


def _issues(
    items: Iterable[Mapping[str, Any]], citer: _Citer, where: str, bag: dict[str, Citation]
) -> list[dict[str, Any]]:
    out = []
    for i, raw in enumerate(items):
        cites = citer.cite(raw.get("quotes", []), f"{where}[{i}]")
        for c in cites:
            bag.setdefault(c.citation_id, c)
        issue: dict[str, Any] = {"text": " ".join(str(raw["text"]).split())}
        if raw.get("scope"):
            issue["scope"] = raw["scope"]
        if raw.get("uncertainty"):
            issue["uncertainty"] = raw["uncertainty"]
        # R27: versions are kept with the issue, so coexisting versions stay visible.
        issue["versions"] = sorted({f"{c.source}@{c.version}" for c in cites})
        issue["citations"] = [c.citation_id for c in cites]
        out.append(issue)
    return out


def _citation_list(bag: Mapping[str, Citation]) -> list[dict[str, Any]]:
    return [c.as_json() for c in sorted(bag.values(), key=lambda c: (c.source, c.start, c.end))]


def resolve(
    deltas: Iterable[tuple[str, Mapping[str, Any]]],
    ctx: Context,
    index: Mapping[str, Mapping[str, Any]],
    live: Callable[[str], bool],
    lookup: Lookup | None = None,
) -> Resolved:
    """Build objects from the stage deltas; collect every problem instead of stopping at the first.
    ``lookup`` finds the concept holding a name (default: computed from the whole ``index``)."""
    out = Resolved()
    problems = out.problems
    citer = _Citer(ctx, problems)
    provided_ids = set(ctx.anchors) | set(ctx.articles) | set(ctx.relations)

    lookup = lookup if lookup is not None else IndexLookup(index)

    def live_name(key: str) -> str | None:
        """The live concept holding a normalized name or alias (R25/R26)."""
        held = sorted(oid for oid in lookup.concepts_named(key) if live(oid))
        return held[-1] if held else None

    raw_articles: list[tuple[str, Mapping[str, Any]]] = []
    raw_concepts: list[tuple[str, Mapping[str, Any]]] = []
    raw_relations: list[tuple[str, Mapping[str, Any]]] = []
    raw_topics: list[tuple[str, Mapping[str, Any]]] = []
    for stage, delta in deltas:
        problems.extend(schema_problems(delta, stage))
        raw_articles += [(f"{stage}: article[{i}]", a) for i, a in enumerate(delta.get("articles", []))]
        raw_concepts += [(f"{stage}: concept[{i}]", c) for i, c in enumerate(delta.get("concepts", []))]
        raw_relations += [(f"{stage}: relation[{i}]", r) for i, r in enumerate(delta.get("relations", []))]
        raw_topics += [(f"{stage}: topic[{i}]", t) for i, t in enumerate(delta.get("topics", []))]
    if problems:
        return out

    # Articles.
    article_by_title: dict[str, str] = {}
    for where, raw in raw_articles:
        sources = sorted(set(raw["sources"]))
        for source in sources:
            if source not in ctx.provided.bodies:
                problems.append(f"{where}: source {source!r} is not in the request")
        oid = article_id(sources, raw["title"])
        if oid in out.objects:
            problems.append(f"{where}: duplicate article {oid}")
            continue
        if oid in index and live(oid):
            problems.append(f"{where}: {oid} would replace an unchanged article")
            continue
        bag: dict[str, Citation] = {}
        summary = [
            _claim(c, citer, f"{where}.summary[{i}]", bag, problems) for i, c in enumerate(raw["summary"])
        ]
        sections = [
            {
                "heading": " ".join(s["heading"].split()),
                "claims": [
                    _claim(c, citer, f"{where}.sections[{j}][{i}]", bag, problems)
                    for i, c in enumerate(s["claims"])
                ],
            }
            for j, s in enumerate(raw.get("sections", []))
        ]
        obj: dict[str, Any] = {
            "id": oid,
            "kind": "article",
            "title": " ".join(raw["title"].split()),
            "status": "candidate",
            "sources": sources,
            "summary": summary,
            "sections": sections,
            "contradictions": _issues(raw.get("contradictions", []), citer, f"{where}.contradictions", bag),
            "open_questions": _issues(raw.get("open_questions", []), citer, f"{where}.open_questions", bag),
        }
        if raw.get("notes"):  # how it was compiled; absent where there is none
            obj["notes"] = [" ".join(str(note).split()) for note in raw["notes"]]
        cited = {c.source for c in bag.values()}
        for source in sources:
            if source not in cited:
                problems.append(f"{where}: names source {source!r} but cites nothing from it")
        obj["citations"] = _citation_list(bag)
        out.objects[oid] = obj
        article_by_title.setdefault(normalize_name(str(obj["title"])), oid)

    # Concepts (R25: a known name or alias keeps its identity; R26: ambiguity and type conflicts fail).
    delta_names: dict[str, str] = {}
    for where, raw in raw_concepts:
        name = " ".join(raw["name"].split())
        aliases = sorted({" ".join(a.split()) for a in raw.get("aliases", [])} - {name}, key=normalize_name)
        keys = [normalize_name(name)] + [normalize_name(a) for a in aliases]
        targets = {t for t in map(live_name, keys) if t is not None}
        if len(targets) > 1:
            problems.append(
                f"{where}: {name!r} is ambiguous: its name and aliases match {', '.join(sorted(targets))}"
            )
            continue
        existing = next(iter(targets)) if targets else None
        oid = existing or concept_id(name)
        if existing is None and oid in index and live(oid):
            problems.append(f"{where}: {oid} would replace an unchanged concept with another name")
            continue
        clash = [k for k in keys if k in delta_names and delta_names[k] != oid]
        if clash or oid in out.objects:
            problems.append(f"{where}: duplicate or ambiguous concept name/alias {name!r} in the delta")
            continue
        for k in keys:
            delta_names[k] = oid
        bag = {}
        definition = _claim(raw["definition"], citer, f"{where}.definition", bag, problems)
        evidence = citer.cite(raw.get("evidence", []), f"{where}.evidence")
        for c in evidence:
            bag.setdefault(c.citation_id, c)
        if existing is not None:
            if existing not in provided_ids:
                problems.append(f"{where}: names concept {existing}, which the request did not provide")
                continue
            if index[existing].get("type") != raw["type"]:
                problems.append(
                    f"{where}: type conflict for {existing}: {index[existing].get('type')!r} vs {raw['type']!r}"
                )
                continue
            # R25: the old definition and evidence stay; only new evidenced links are added.
            out.merged_concepts[existing] = {
                "aliases": aliases,
                "evidence": [c.citation_id for c in evidence] + definition["citations"],
                "citations": _citation_list(bag),
            }
            continue
        out.objects[oid] = {
            "id": oid,
            "kind": "concept",
            "name": name,
            "aliases": aliases,
            "type": raw["type"],
            "definition": definition,
            "evidence": sorted({c.citation_id for c in evidence} - set(definition["citations"])),
            "citations": _citation_list(bag),
        }

    def concept_ref(ref: str) -> str | None:
        if kind_of(ref) == "concept" and "/" in ref:
            if ref in out.objects or ref in out.merged_concepts or (ref in set(ctx.anchors) and live(ref)):
                return ref
            return None
        key = normalize_name(ref)
        if key in delta_names:
            return delta_names[key]
        target = live_name(key)
        if target is not None and target in set(ctx.anchors):
            return target
        return None

    # Relations (R23, R26).
    for where, raw in raw_relations:
        subject, obj_ref = concept_ref(raw["subject"]), concept_ref(raw["object"])
        if subject is None or obj_ref is None:
            missing = raw["subject"] if subject is None else raw["object"]
            problems.append(
                f"{where}: unknown concept {missing!r}: not in the delta and not an anchor of the request"
            )
            continue
        if subject == obj_ref:
            problems.append(f"{where}: self-loop on {subject}")
            continue
        predicate = " ".join(raw["predicate"].split())
        rid = relation_id(subject, predicate, obj_ref)
        if rid in out.objects:
            problems.append(f"{where}: duplicate relation {subject} —{predicate}→ {obj_ref}")
            continue
        if rid in index and live(rid):
            problems.append(
                f"{where}: relation {subject} —{predicate}→ {obj_ref} already exists as {rid}"
            )
            continue
        if raw["basis"] == "inferred" and not raw.get("uncertainty"):
            problems.append(f"{where}: an inferred relation needs its uncertainty")
            continue
        evidence = citer.cite(raw["evidence"], f"{where}.evidence")
        if not evidence:
            continue
        relation: dict[str, Any] = {
            "id": rid,
            "kind": "relation",
            "subject": subject,
            "predicate": predicate,
            "object": obj_ref,
            "basis": raw["basis"],
            "evidence": [c.as_json() for c in sorted(evidence, key=lambda c: (c.source, c.start))],
        }
        if raw.get("uncertainty"):
            relation["uncertainty"] = raw["uncertainty"]
        out.objects[rid] = relation

    # Topics.
    for where, raw in raw_topics:
        members = []
        for ref in raw["members"]:
            resolved = concept_ref(ref)
            if resolved is None:
                key = normalize_name(ref)
                if ref in out.objects or (ref in set(ctx.articles) and live(ref)):
                    resolved = ref
                elif key in article_by_title:
                    resolved = article_by_title[key]
            if resolved is None:
                problems.append(f"{where}: unknown member {ref!r}")
            else:
                members.append(resolved)
        members = sorted(set(members))
        if len(members) < 2:
            continue
        oid = topic_id(raw["title"], members)
        if oid in out.objects or (oid in index and live(oid)):
            problems.append(f"{where}: duplicate topic {oid}")
            continue
        bag = {}
        out.objects[oid] = {
            "id": oid,
            "kind": "topic",
            "title": " ".join(raw["title"].split()),
            "members": members,
            "summary": [
                _claim(c, citer, f"{where}.summary[{i}]", bag, problems)
                for i, c in enumerate(raw.get("summary", []))
            ],
            "contradictions": _issues(raw.get("contradictions", []), citer, f"{where}.contradictions", bag),
            "open_questions": _issues(raw.get("open_questions", []), citer, f"{where}.open_questions", bag),
            "citations": _citation_list(bag),
        }
    return out
