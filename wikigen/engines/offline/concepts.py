"""Concepts (R20): defined terms of the changed sources, merged with the anchors they name again (R14).

A concept comes from a definition only (a heading alone is never evidence); its name is the term as
written or made singular, its aliases never collide with another concept's or anchor's (R26), a
revoked concept comes back where a changed source or fragment still names it (R12/R13), and its
evidence is the defining sentences and those naming it, ranked against name and definition.

A concept's type is read by :mod:`~wikigen.engines.offline.concept_types`; whether a name or an
alias occurs in the changed sources by :mod:`~wikigen.engines.offline.occurrences`; a page's lead
(tldr) defines its title by :mod:`~wikigen.engines.offline.leads`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikigen.engines.offline import candidates, definitions
from wikigen.engines.offline.asides import evaluations
from wikigen.engines.offline.concept_types import concept_type, has_command_lines
from wikigen.engines.offline.decision import Decision
from wikigen.engines.offline.discourse import lists_events
from wikigen.engines.offline.documents import Document, Guard, Json, Scorer, claim
from wikigen.engines.offline.features import DefinitionView
from wikigen.engines.offline.leads import lead_definition
from wikigen.engines.offline.occurrences import phrase_finder, spoken
from wikigen.engines.offline.parse import Parse, parse_sentences
from wikigen.engines.offline.relations import Mentions
from wikigen.engines.offline.terms import (
    Definition,
    Vocabulary,
    canonical_name,
    head_variants,
    is_acceptable_term,
    is_identifier_like,
    list_definitions,
)
from wikigen.engines.offline.text import visible
from wikigen.model.ids import normalize_name

EVIDENCE_QUOTES = 3
EVIDENCE_POOL = 8  # candidate sentences ranked per concept


def joined(name: str) -> str:
    """A name with its spaces, hyphens and underscores dropped, as a key: "Pod disruption budget" and
    "PodDisruptionBudget" are one name ("#" marks the key apart from any name)."""
    return "#" + re.sub(r"[\s_-]+", "", normalize_name(name))


class Anchors:
    """The request's anchors (R14) by every normalized name, alias and their plural/singular."""

    def __init__(self, anchors: Iterable[Mapping[str, Any]]) -> None:
        self.items = sorted(anchors, key=lambda a: a["id"])
        self.by_key: dict[str, Mapping[str, Any]] = {}
        self.exact: dict[str, str] = {}  # normalized name or alias → anchor id (no variants)
        for anchor in self.items:
            for form in (anchor["name"], *anchor.get("aliases", ())):
                self.exact.setdefault(normalize_name(form), anchor["id"])
                for variant in (form, *head_variants(form)):
                    self.by_key.setdefault(normalize_name(variant), anchor)
                    self.by_key.setdefault(joined(variant), anchor)

    def find(self, keys: Iterable[str]) -> Mapping[str, Any] | None:
        for key in keys:
            if key in self.by_key:
                return self.by_key[key]
        return None


@dataclass(slots=True)
class Concept:
    name: str
    type: str
    definitions: list[Definition]
    aliases: list[str] = field(default_factory=list)
    anchor: str | None = None  # the anchor's id when this concept is an anchor found again
    candidates: list[str] = field(default_factory=list)  # alias candidates before collision checks
    vouched: set[str] = field(default_factory=set)  # candidates a definition grants past the stop list
    evidence: list[tuple[str, str]] = field(default_factory=list)

    @property
    def key(self) -> str:
        return normalize_name(self.name)

    @property
    def ref(self) -> str:
        return self.anchor or self.name

    def as_json(self) -> Json:
        first = self.definitions[0]
        return {
            "name": self.name,
            "aliases": sorted(self.aliases, key=normalize_name),
            "type": self.type,
            "definition": claim(first.source, first.quote, whole=first.whole),
            "evidence": [{"source": s, "quote": q} for s, q in self.evidence],
        }


_PATTERN_RANK = {"copula": 0, "called": 0, "glossary": 0, "lead": 0, "list": 1, "described": 1, "revoked": 2}
_WORD = re.compile(r"[A-Za-z][\w-]*")
_MID_CAPITAL = re.compile(r"(?<=[a-z,;] )[A-Z][\w-]*")


def build_concepts(
    documents: Sequence[Document],
    fragments: Sequence[Document],
    anchors: Anchors,
    request: Mapping[str, Any],
    scorer: Scorer,
    guard: Guard,
    parsed: Mapping[str, Parse],
    decision: Decision,
) -> list[Concept]:
    vocabulary = _vocabulary(documents, anchors)
    found: list[Definition] = []
    for document in documents:
        guard.check()
        found.extend(lead_definition(document))
        weighed = evaluations(document.body)  # "… extra benefits, such as: - X: …" is a pro
        for passage in document.passages:
            listed = list_definitions(document.source, passage.text, passage.start, vocabulary)
            found.extend(
                d
                for d in listed
                if (d.pattern == "glossary" or (_is_named_again(document, d) and _is_noun_label(d)))
                and not any(a <= d.start < b for a, b in weighed)
            )
    guard.check()
    terms = candidates.collect(documents, parsed, vocabulary)
    found.extend(definitions.definitions(documents, parsed, terms, vocabulary, scorer))
    # a release-notes page lists events ("Fix support for …"): none of its items defines a term
    events = {d.source for d in documents if lists_events(d.source, d.title)}
    found = _decided([d for d in found if d.source not in events], documents, decision, vocabulary)
    order = {d.source: i for i, d in enumerate(documents)}
    found.sort(key=lambda d: (_PATTERN_RANK[d.pattern], order[d.source], d.start))
    commands = {d.source for d in documents if has_command_lines(d)}
    is_used = phrase_finder(d.body for d in documents)
    concepts: dict[str, Concept] = {}
    index: dict[str, str] = {}  # every normalized form → concept key
    for definition in found:
        name = canonical_name(definition.term, definition.code, vocabulary.words)
        variants = (definition.term, name, *head_variants(name))
        # "VolumeSnapshot" and "volume snapshot", "Add-on" and "Addon": one concept, however spaced
        forms = [normalize_name(f) for f in variants] + [joined(f) for f in variants]
        anchor = anchors.find(forms)
        if anchor is not None:
            name = anchor["name"]
        existing = next((index[f] for f in [normalize_name(name), *forms] if f in index), None)
        if existing is None:
            kind = anchor["type"] if anchor is not None else concept_type(definition, name, commands)
            concept = Concept(name, kind, [], anchor=anchor["id"] if anchor is not None else None)
            concepts[concept.key] = concept
            existing = concept.key
        concept = concepts[existing]
        concept.definitions.append(definition)
        concept.candidates.extend([definition.term, *definition.aliases])
        concept.vouched.update(definition.vouched)
        if not definition.code:  # Pod/Pods: the other number, where the changed sources use it
            concept.candidates.extend(v for v in head_variants(concept.name) if is_used(v))
        for form in [normalize_name(concept.name), *forms]:
            index.setdefault(form, existing)
    is_spoken = spoken(d.body for d in documents)
    for key, concept in list(concepts.items()):
        if concept.anchor is None and not is_spoken(concept.name):
            # R14/R18: the compiler finds live concepts by the names the changed sources use; a name
            # they do not use ("Current state" from "current states") could be a live concept the
            # request did not carry. Such a concept keeps a name as written, or is left out.
            written = next((t for t in concept.candidates if is_spoken(t)), None)
            del concepts[key]
            if written is not None and normalize_name(written) not in concepts:
                concept.name = (
                    written[0].upper() + written[1:] if not concept.definitions[0].code else written
                )
                concepts[concept.key] = concept
    _rebuild_revoked(request, documents, fragments, anchors, concepts, index)
    ordered = sorted(concepts.values(), key=lambda c: c.key)
    _assign_aliases(ordered, anchors, is_spoken)
    _rank_evidence(ordered, documents, scorer, guard)
    return ordered


def _decided(
    found: Sequence[Definition], documents: Sequence[Document], decision: Decision, vocabulary: Vocabulary
) -> list[Definition]:
    """R20, precision first: the definitions the fitted decision keeps (a term whose every
    definition it drops is no concept)."""
    if not decision.weighs:
        return list(found)  # nothing fitted: no view to build
    by_source = {d.source: d for d in documents}
    folded = {d.source: d.body.casefold() for d in documents}
    kept = []
    for definition in found:
        document = by_source[definition.source]
        term = definition.term.casefold()
        spread = (
            sum(term in body for body in folded.values()) / len(documents) if len(documents) > 1 else 0.0
        )
        view = DefinitionView(
            definition.term,
            visible(definition.quote).text,
            definition.pattern,
            definition.code,
            definition.source,
            document.title,
            any(term in h.text.casefold() for h in document.headings),
            folded[definition.source].count(term),
            spread,
        )
        item = {
            "term": definition.term,
            "name": canonical_name(definition.term, definition.code, vocabulary.words),
            "source": definition.source,
            "quote": definition.quote,
            "pattern": definition.pattern,
            "form": definition.form or definition.pattern,
        }
        if decision.keeps_definition(view, item):
            kept.append(definition)
    return kept


def _vocabulary(documents: Sequence[Document], anchors: Anchors) -> Vocabulary:
    """What the changed sources and anchors say about which phrases are terms (R20)."""
    terms: set[str] = set(anchors.by_key)
    marked: set[str] = set()
    proper: set[str] = set()
    words: set[str] = set()
    for document in documents:
        for term in [*_title_terms(document.title), *(h.text for h in document.headings)]:
            if is_acceptable_term(term):
                terms.add(normalize_name(term))
        for sentence in document.sentences:
            clean = sentence.clean
            for mark in clean.marks:
                text = normalize_name(clean.text[mark.start : mark.end])
                if mark.kind == "tooltip":
                    terms.update([text, normalize_name(mark.ref.replace("-", " "))])
                elif mark.kind in ("bold", "italic"):
                    marked.add(text)
            proper.update(normalize_name(w) for w in _MID_CAPITAL.findall(clean.text))
        # "_map algorithm_": the underscores of emphasis are Markdown, not the word's
        words.update(normalize_name(w.rstrip("_")) for w in _WORD.findall(document.body))
    return Vocabulary(frozenset(terms), frozenset(marked), frozenset(proper), frozenset(words))


def _is_named_again(document: Document, definition: Definition) -> bool:
    """A ``- **Term**: …`` entry defines a concept only when the source names the term elsewhere too;
    use-case lists ("**Dedicated Nodes**: If you want …") name theirs once."""
    finder = Mentions.build([(definition.term, [definition.term])])
    return any(
        finder.find(s.clean.text)
        for s in document.sentences
        if not definition.start <= s.start < definition.start + len(definition.quote)
    )


def _is_noun_label(definition: Definition) -> bool:
    """A list entry names a thing where its label is a noun phrase or code; "**Easy to use**: …" and
    "**Run scripts**: …" label what a product offers (a quality, a task), not a term."""
    if definition.code:
        return True
    parse = parse_sentences([visible(definition.term)])[0]
    root = next((w for w in parse.words if w.dep == "ROOT"), None)
    return root is not None and root.pos in ("NOUN", "PROPN")


def _title_terms(title: str) -> list[str]:
    """ "Labels and Selectors" → Labels, Selectors; "Managing Workloads" names no term."""
    first = title.split()[0].casefold() if title.split() else ""
    if first.endswith("ing") or first in {"how", "what", "why", "when", "about", "using", "introduction"}:
        return []
    return [part.strip() for part in re.split(r"\s+(?:and|&|or|vs\.?)\s+|,\s*", title) if part.strip()]


def _rebuild_revoked(
    request: Mapping[str, Any],
    documents: Sequence[Document],
    fragments: Sequence[Document],
    anchors: Anchors,
    concepts: dict[str, Concept],
    index: dict[str, str],
) -> None:
    """R12/R13: a revoked concept comes back when a changed source or a fragment still names it."""
    for revoked in sorted(request.get("revoked", ()), key=lambda r: r["id"]):
        label = revoked.get("label", "")
        if revoked.get("kind") != "concept" or not label:
            continue
        forms = [label, *revoked.get("aliases", ())]
        keys = [normalize_name(v) for f in forms for v in (f, *head_variants(f))]
        if any(k in index for k in keys) or anchors.find(keys) is not None:
            continue
        finder = Mentions.build([(label, forms)])
        hit = next(
            (s for d in [*fragments, *documents] for s in d.sentences if finder.find(s.clean.text)), None
        )
        if hit is None:
            continue
        definition = Definition(label, hit.source, hit.start, hit.text, "revoked")
        concept = Concept(label, revoked.get("type") or "concept", [definition], candidates=list(forms[1:]))
        concepts[concept.key] = concept
        for key in keys:
            index.setdefault(key, concept.key)


def _assign_aliases(concepts: Sequence[Concept], anchors: Anchors, is_spoken: Callable[[str], bool]) -> None:
    """R26: an alias never equals the name or alias of another concept or anchor, and is a name the
    changed sources use (R14 finds live concepts by those, so an unused alias could collide unseen)."""
    owner: dict[str, str] = dict(anchors.exact)
    for concept in concepts:
        owner.setdefault(concept.key, concept.anchor or concept.key)
    for concept in concepts:
        me = concept.anchor or concept.key
        rebuilt = concept.definitions[0].pattern == "revoked"  # R25: its own aliases come back
        for candidate in sorted(set(concept.candidates), key=lambda c: (normalize_name(c), c)):
            key = normalize_name(candidate)
            if key == concept.key or owner.get(key, me) != me:
                continue
            code = concept.definitions[0].code and candidates.is_code_term(candidate)  # `tally` of `tally/2`
            vouched = candidate in concept.vouched
            if not (
                is_acceptable_term(candidate) or is_identifier_like(candidate) or code or vouched
            ) or not (rebuilt or is_spoken(candidate)):
                continue
            if key in owner:  # the anchor's own alias: nothing to add
                continue
            owner[key] = me
            concept.aliases.append(candidate)


def _rank_evidence(
    concepts: Sequence[Concept], documents: Sequence[Document], scorer: Scorer, guard: Guard
) -> None:
    """Up to 3 defining sentences (and sentences that name the concept), ranked by name + definition."""
    by_source = {d.source: d for d in documents}
    pools: list[tuple[str, list[tuple[tuple[str, str], tuple[str, int]]]]] = []
    for concept in concepts:
        guard.check()
        query = f"{concept.name}: {visible(concept.definitions[0].quote).text}"
        pool: dict[tuple[str, str], tuple[str, int]] = {}
        for definition in concept.definitions:
            pool.setdefault((definition.source, definition.quote), (definition.source, definition.start))
        finder = Mentions.build([(concept.name, [concept.name, *concept.aliases])])
        for source in sorted({d.source for d in concept.definitions}):
            document = by_source.get(source)
            for sentence in document.sentences if document else ():
                if len(pool) >= EVIDENCE_POOL:
                    break
                if len(sentence.text) >= 40 and finder.find(sentence.clean.text):
                    pool.setdefault((sentence.source, sentence.text), (sentence.source, sentence.start))
        pools.append((query, sorted(pool.items(), key=lambda item: item[1])))
    # One embedding call for every query and candidate of the increment; a pool that fits whole needs
    # no ranking.
    scorer.prepare(
        text
        for query, items in pools
        if len(items) > EVIDENCE_QUOTES
        for text in [query, *(pair[1] for pair, _ in items)]
    )
    for concept, (query, items) in zip(concepts, pools, strict=True):
        if len(items) <= EVIDENCE_QUOTES:
            concept.evidence = [pair for pair, _ in items]
            continue
        ranked = scorer.rank(query, items, lambda item: item[0][1], lambda item: item[1])
        concept.evidence = [pair for pair, _ in ranked[:EVIDENCE_QUOTES]]
