"""The offline engine (R20): deterministic, extractive, no network.

Rules, per stage:

- **analyze** — one article per changed source (:mod:`wikigen.engines.offline.articles`: the source's lead
  and the passages that best cover the rest, sections by heading). Concepts are the terms the
  author marks as terms (emphasis, quotes, headings, namings, abbreviations, glossary lists) or
  defines, each with the sentence that best defines it, read from the sentence's parse
  (:mod:`wikigen.engines.offline.candidates`, :mod:`wikigen.engines.offline.readings`). Relations are what one
  sentence states between two concepts, read from its dependency parse
  (:mod:`wikigen.engines.offline.statements`), that sentence being the evidence. Sources in another
  language than English are never parsed: language-independent rules only, and no relations.
- **recheck** — the same relation rule over the changed sources *and* the fragments, with the
  concepts of analyze's delta and the anchors; nothing already in the delta or the request. It
  reads only what ``wikigen.compiler.context.recheck_request`` sends: sources, fragments, the anchors' ids,
  names and aliases, and the relations (existing and analyze's) as subject, predicate, object.
- **topics** — none: the compiler derives topics from the merged objects (:mod:`wikigen.compiler.topics`),
  so a topic never depends on which increment its concepts came in.

Every quote is a passage or a sentence cut from the provided text, so it is verbatim (R22); claims
keep the epistemic status of what they quote (R37). The pipeline refuses an analyze delta over
100,000 bytes, so a large increment cites fewer section passages
(see :func:`wikigen.engines.offline.articles.fit`).

Passages are embedded once per run in one batch per source (``Ranker.embed``, the same model and
pooling as ``Ranker.rank``); scores are rounded to 4 decimals and ties broken by offset, so the same
request gives byte-identical delta JSON.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wikigen.engines.contract import STAGES, Delta, empty_delta
from wikigen.engines.offline.articles import article_plan, fit, queries
from wikigen.engines.offline.candidates import is_mentioned_only_as_code, parses
from wikigen.engines.offline.concepts import Anchors, Concept, build_concepts
from wikigen.engines.offline.decision import Decision
from wikigen.engines.offline.discourse import lists_events
from wikigen.engines.offline.documents import (
    Document,
    Guard,
    Json,
    Scorer,
    fragment_documents,
    read_document,
)
from wikigen.engines.offline.features import RelationView
from wikigen.engines.offline.language import is_english, language, notes, with_language
from wikigen.engines.offline.lexicon import CLASSIFIERS, PAGE_SUBJECT_KINDS, alternation
from wikigen.engines.offline.parse import Parse, Parser, parse_sentences
from wikigen.engines.offline.relations import Mention, Mentions
from wikigen.engines.offline.statements import stated
from wikigen.engines.offline.text import Sentence, visible
from wikigen.engines.route import OFFLINE_MODEL
from wikigen.evidence.rerank import Ranker
from wikigen.model.errors import EngineError
from wikigen.model.ids import concept_id, normalize_name, normalize_predicate

MODEL = OFFLINE_MODEL  # the name `plan` reports as the route, without loading this module
ROUTE = f"offline/{MODEL}"
RELATION_QUOTES = 3


class OfflineEngine:
    """The embedded default engine: passages ranked by the local ONNX model, rules for the rest."""

    name = "offline"
    remote = False
    derives_topics = True  # the compiler derives topics from the objects (wikigen.compiler.topics)

    def route(self, stage: str) -> str:
        return ROUTE

    def __init__(self, decision: Decision | None = None) -> None:
        self.seconds = 0.0  # spent in run(), parsing and embedding included
        self.decision = decision if decision is not None else Decision.load()

    @property
    def timings(self) -> dict[str, float]:
        """Seconds per stage of the work, for benchmarks: parse, embed and the rest of run()."""
        parse = Parser.shared().seconds if Parser._shared is not None else 0.0
        embed = Ranker._shared.seconds if Ranker._shared is not None else 0.0
        return {"parse": parse, "embed": embed, "other": max(0.0, self.seconds - parse - embed)}

    def run(self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event) -> Delta:
        started = time.perf_counter()
        try:
            return self._run(stage, request, deadline, cancel)
        finally:
            self.seconds += time.perf_counter() - started

    def _run(self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event) -> Delta:
        if stage not in STAGES:
            raise EngineError(f"unknown stage {stage!r}; the offline engine runs {' and '.join(STAGES)}")
        guard = Guard(deadline, cancel, stage)
        guard.check()
        if stage == "analyze":
            data = analyze(request, guard, self.decision)
        else:
            data = recheck(request, guard, self.decision)
        return Delta(data=data, route=ROUTE, model=MODEL)


# ---------------------------------------------------------------------------------------------
# analyze


def analyze(request: Mapping[str, Any], guard: Guard, decision: Decision | None = None) -> Json:
    """Articles, concepts, relations and topics of the changed sources (R20)."""
    decision = decision if decision is not None else Decision.load()
    scorer = Scorer(Ranker.shared())
    documents = []
    for source in sorted(request.get("sources", ()), key=lambda s: s["id"]):
        guard.check()
        document = read_document(source["id"], source.get("title") or source["id"], source["body"])
        document = with_language(document, source.get("lang"))  # declared, else detected
        scorer.prepare(p.text for p in document.passages)
        documents.append(document)
    fragments = fragment_documents(request)
    anchors = Anchors(request.get("anchors", ()))
    delta = empty_delta()
    scorer.prepare(query for document in documents for query in queries(document))
    plans = []
    for document in documents:
        guard.check()
        plan = article_plan(document, scorer)
        if plan is not None:
            plans.append(plan)
    parsed = parses(documents)  # every sentence parsed once for concepts and relations
    leads = [line for d in documents if is_english(language(d)) for line in _lead_lines(d, {})]
    parsed |= dict(zip([s.text for s in leads], parse_sentences([s.clean for s in leads]), strict=True))
    concepts = build_concepts(documents, fragments, anchors, request, scorer, guard, parsed, decision)
    # An anchor named again stays as it is (R25): returning it would add this increment's sources to
    # its citations, and a hub cited by every source would be revoked, with all its relations, by
    # an edit of any of them (R12). Relations reach it by its id.
    delta["concepts"] = [concept.as_json() for concept in concepts if concept.anchor is None]
    resolve = _resolver(anchors)
    existing = {_relation_key(r, resolve) for r in request.get("relations", ())}
    delta["relations"] = _relations(
        documents, parsed, _named(concepts, anchors), existing, guard, resolve, decision
    )
    delta["topics"] = []  # topics are derived by the compiler from the merged objects (wikigen.compiler.topics)
    fit(plans, delta)
    languages = {d.source: language(d) for d in documents}
    for article in delta["articles"]:
        # An article of a source in another language says which rules compiled it.
        said = [note for source in article["sources"] for note in notes(languages.get(source, "en"))]
        if said:
            article["notes"] = said
    return delta


# ---------------------------------------------------------------------------------------------
# Relations and topics


def _named(concepts: Sequence[Concept], anchors: Anchors) -> list[tuple[str, Sequence[str]]]:
    own = {a["id"]: a.get("aliases", ()) for a in anchors.items}
    named: list[tuple[str, Sequence[str]]] = []
    for c in concepts:
        # an anchor named again keeps its own aliases too ("Strings" of String), and is found by the
        # form this increment names it by ("Add-ons" of the anchor Addon)
        forms = [c.name, *c.aliases]
        forms += [a for a in own.get(c.ref, ()) if a not in forms]
        if c.anchor is not None:
            forms += [d.term for d in c.definitions if d.term not in forms]
        named.append((c.ref, forms))
    found = {c.anchor for c in concepts if c.anchor}
    named.extend((a["id"], [a["name"], *a.get("aliases", ())]) for a in anchors.items if a["id"] not in found)
    return named


_ARITY = re.compile(r"([A-Za-z_][\w.!?]*)/\d+")  # `spawn/1`, `String.split/3`


def _code_only(named: Sequence[tuple[str, Sequence[str]]]) -> frozenset[str]:
    """The refs of constructs named by a short plain word (`case`, `if`, `use`): anchors included,
    the same rule candidates apply (:func:`wikigen.engines.offline.candidates.is_mentioned_only_as_code`)."""
    return frozenset(ref for ref, forms in named if forms and is_mentioned_only_as_code(forms[0]))


def _kinds(named: Sequence[tuple[str, Sequence[str]]]) -> frozenset[str]:
    """The refs of concepts named as common nouns, with their plural ("String", "Strings"): the
    `String` module is another sense of the word."""
    kinds = set()
    for ref, forms in named:
        plurals = {forms[0].casefold() + "s", forms[0].casefold() + "es"} if forms else set()
        if any(form.casefold() in plurals for form in forms[1:]):
            kinds.add(ref)
    return frozenset(kinds)


def _is_named_as_written(
    mention: Mention,
    sentence: Sentence,
    code_only: frozenset[str],
    parse: Parse | None = None,
    bare: set[str] | frozenset[str] = frozenset(),
) -> bool:
    """Such a construct (or a function named without its arity, ``bare``) is mentioned where the
    sentence writes it as code, or names it by its kind ("the spawn functions"), not where the
    English word occurs ("in this case", "spawn a process")."""
    written = sentence.clean.text[mention.start : mention.end]
    if mention.ref not in code_only and normalize_name(written) not in bare:
        return True
    if any(m.kind == "code" and (m.start, m.end) == (mention.start, mention.end) for m in sentence.clean.marks):
        return True
    if parse is None:
        return False
    head = parse.span_head(mention.start, mention.end)
    return (
        head is not None
        and head.dep == "compound"
        and head.head == head.i + 1
        and parse.words[head.head].lemma.casefold() in CLASSIFIERS
    )


# A page that names its own subject in the first person of documentation: "This command is …" ("This
# page introduces X" is said of the text, not of its subject)
_THIS = re.compile(r"^(this (?:" + alternation(PAGE_SUBJECT_KINDS) + r"))\b", re.IGNORECASE)


_LEAD = re.compile(r"\s*#[ \t]+[^\n]+\n\s*(?P<quote>(?:>[^\n]*\n?)+)")


def _lead_lines(document: Document, parsed: Mapping[str, Parse]) -> list[Sentence]:
    """A title heading's block quote (tldr pages: "> This command is an alias of `tar`."): its lines
    are sentences too, however short; lines that are already sentences of the document, or (when
    ``parsed`` is given) have no parse, are left out."""
    match = _LEAD.match(document.body)
    if match is None:
        return []
    known = {s.start for s in document.sentences}
    lines = []
    at = match.start("quote")
    for raw in match.group("quote").splitlines(keepends=True):
        text = raw.lstrip(">").strip()
        start = document.body.index(text, at) if text else at
        at += len(raw)
        if len(text) >= 12 and start not in known and (not parsed or text in parsed):
            lines.append(Sentence(document.source, start, text, visible(text), ""))
    return lines


def _relations(
    documents: Sequence[Document],
    parsed: Mapping[str, Parse],
    named: Sequence[tuple[str, Sequence[str]]],
    existing: set[tuple[str, str, str]],
    guard: Guard,
    resolve: Callable[[str], str],
    decision: Decision,
) -> list[Json]:
    """R20/R23: one relation per (subject, predicate, object), evidenced by the sentences stating it,
    where the fitted decision keeps it."""
    evidence: dict[tuple[str, str, str], list[tuple[str, int, str]]] = {}
    code_only = _code_only(named)
    # `spawn/1` is also `spawn` and "the spawn functions": a function named without its arity, where
    # the sentence writes it as code or names it by its kind
    bare: dict[str, set[str]] = {}
    for ref, forms in named:
        for form in forms:
            without = _ARITY.fullmatch(form)
            if without is not None:
                bare.setdefault(ref, set()).add(without.group(1))
    named = [(ref, [*forms, *sorted(bare.get(ref, ()))]) for ref, forms in named]
    bare_keys = {ref: {normalize_name(f) for f in found} for ref, found in bare.items()}
    mentions = Mentions.build(named, known=True)
    kinds = _kinds(named)
    found_in: dict[str, set[str]] = {}
    proper: dict[str, list[bool]] = {}
    mentioned = []
    by_name = {normalize_name(form): ref for ref, forms in named for form in forms}
    for document in documents:
        if not is_english(language(document)):
            continue  # no parse, so no relation from a document in another language
        if lists_events(document.source, document.title):
            continue  # a release-notes page lists events, not what things are
        own = by_name.get(normalize_name(document.title))
        for sentence in [*document.sentences, *_lead_lines(document, parsed)]:
            found = [
                m
                for m in mentions.find(sentence.clean.text)
                if _is_named_as_written(
                    m, sentence, code_only, parsed.get(sentence.text), bare_keys.get(m.ref, set())
                )
            ]
            itself = _THIS.match(sentence.clean.text)
            if own is not None and itself is not None:
                # "This command is an alias of `tar`" on the page of `gtar`: the page's own concept
                found = sorted([*found, Mention(itself.start(1), itself.end(1), own)], key=lambda m: m.start)
            mentioned.append((sentence, found))
            for mention in found:
                found_in.setdefault(mention.ref, set()).add(document.source)
                if mention.start > 0:
                    proper.setdefault(mention.ref, []).append(sentence.clean.text[mention.start].isupper())
    # A hub (the language, the product) is a proper name most of the increment's sources mention.
    hubs = frozenset(
        ref
        for ref, sources in found_in.items()
        if len(documents) >= 3
        and len(sources) >= 0.6 * len(documents)
        and proper.get(ref)
        and sum(proper[ref]) >= 0.8 * len(proper[ref])
    )
    # A field or a label written as lower-case code ("two labels: `namespace` and …",
    # "the `map` computation") is another sense than the capitalized name of a concept
    capitalized = {ref for ref, forms in named if forms and forms[0][:1].isupper()}
    for sentence, found in mentioned:
        guard.check()
        text = sentence.clean.text
        found = [
            m
            for m in found
            if not (text[m.start].islower() and m.ref in capitalized and _is_written_as_code(m, sentence))
        ]
        for relation in stated(parsed[sentence.text], found, hubs, kinds):
            key = (relation.subject, relation.predicate, relation.object)
            if (
                resolve(relation.subject),
                normalize_predicate(relation.predicate),
                resolve(relation.object),
            ) in existing:
                continue
            evidence.setdefault(key, []).append((sentence.source, sentence.start, sentence.text))
    built = []
    for (subject, predicate, obj), quotes in sorted(evidence.items()):
        unique = sorted(set(quotes))[:RELATION_QUOTES]
        first = unique[0]
        view = RelationView(subject, predicate, obj, visible(first[2]).text, len(unique), first[0])
        item = {"subject": subject, "predicate": predicate, "object": obj, "source": first[0], "quote": first[2]}
        if not decision.keeps_relation(view, item):
            continue
        built.append(
            {
                "subject": subject,
                "predicate": predicate,
                "object": obj,
                "basis": "explicit",
                "evidence": [{"source": source, "quote": text} for source, _, text in unique],
            }
        )
    return built


def _is_written_as_code(mention: Mention, sentence: Sentence) -> bool:
    return any(m.kind == "code" and m.start <= mention.start and mention.end <= m.end for m in sentence.clean.marks)


def _resolver(anchors: Anchors) -> Callable[[str], str]:
    """A relation endpoint (concept id, anchor name or new name) → the concept id it will have."""

    def resolve(ref: str) -> str:
        if ref.startswith("concept/"):
            return ref
        return anchors.exact.get(normalize_name(ref)) or concept_id(ref)

    return resolve


def _relation_key(relation: Mapping[str, Any], resolve: Callable[[str], str]) -> tuple[str, str, str]:
    return (
        resolve(relation["subject"]),
        normalize_predicate(relation["predicate"]),
        resolve(relation["object"]),
    )


# ---------------------------------------------------------------------------------------------
# recheck


def recheck(request: Mapping[str, Any], guard: Guard, decision: Decision | None = None) -> Json:
    """R19: explicit relations across the changed sources and fragments that analyze did not return."""
    decision = decision if decision is not None else Decision.load()
    anchors = Anchors(request.get("anchors", ()))
    delta = request.get("delta") or empty_delta()
    named: list[tuple[str, Sequence[str]]] = []
    taken: set[str] = set()
    for concept in delta.get("concepts", ()):
        anchor = anchors.find([normalize_name(concept["name"])])
        ref = anchor["id"] if anchor is not None else concept["name"]
        taken.add(ref)
        named.append((ref, [concept["name"], *concept.get("aliases", ())]))
    named.extend((a["id"], [a["name"], *a.get("aliases", ())]) for a in anchors.items if a["id"] not in taken)

    resolve = _resolver(anchors)
    existing = {
        _relation_key(r, resolve) for r in [*request.get("relations", ()), *delta.get("relations", ())]
    }
    documents: list[Document] = [
        with_language(read_document(s["id"], s.get("title") or s["id"], s["body"]), s.get("lang"))
        for s in sorted(request.get("sources", ()), key=lambda s: s["id"])
    ]
    documents.extend(fragment_documents(request))
    result = empty_delta()
    result["relations"] = _relations(documents, parses(documents), named, existing, guard, resolve, decision)
    return result
