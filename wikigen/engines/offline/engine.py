"""The offline engine (R20): deterministic, extractive, no network.

Rules, per stage:

- **analyze** — one article per changed source (:mod:`wikigen.engines.offline.articles`: the source's lead
  and the passages that best cover the rest, sections by heading). Concepts are the terms the
  author marks as terms (emphasis, quotes, headings, namings, abbreviations, glossary lists) or
  defines, each with the sentence that best defines it, read from the sentence's parse
  (:mod:`wikigen.engines.offline.candidates`, :mod:`wikigen.engines.offline.readings`). Relations are what one
  sentence states between two concepts, read from its dependency parse
  (:mod:`wikigen.engines.offline.statements`), that sentence being the evidence; they are drawn
  from the sources by :mod:`wikigen.engines.offline.drawing`. Sources in another
  language than English are never parsed: language-independent rules only, and no relations.
- **recheck** — the same relation rule over the changed sources *and* the fragments, with the
  concepts of analyze's delta and the anchors; nothing already in the delta or the request. It
  reads only what ``wikigen.compiler.context.recheck_request`` sends: sources, fragments, anchors and
  existing relations as analyze got them, and analyze's concepts and relations.
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

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wikigen.engines.contract import STAGES, Delta, empty_delta
from wikigen.engines.offline.articles import article_plan, fit, queries
from wikigen.engines.offline.candidates import parses
from wikigen.engines.offline.concepts import Anchors, Concept, build_concepts
from wikigen.engines.offline.decision import Decision
from wikigen.engines.offline.documents import (
    Document,
    Guard,
    Json,
    Scorer,
    fragment_documents,
    read_document,
)
from wikigen.engines.offline.drawing import draw_relations, lead_lines
from wikigen.engines.offline.language import is_english, language, notes, with_language
from wikigen.engines.offline.parse import Parser, parse_sentences
from wikigen.engines.route import OFFLINE_MODEL
from wikigen.evidence.rerank import Ranker
from wikigen.model.errors import EngineError
from wikigen.model.ids import concept_id, normalize_name, normalize_predicate

MODEL = OFFLINE_MODEL  # the name `plan` reports as the route, without loading this module
ROUTE = f"offline/{MODEL}"


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
    leads = [line for d in documents if is_english(language(d)) for line in lead_lines(d, {})]
    parsed |= dict(zip([s.text for s in leads], parse_sentences([s.clean for s in leads]), strict=True))
    concepts = build_concepts(documents, fragments, anchors, request, scorer, guard, parsed, decision)
    # An anchor named again stays as it is (R25): returning it would add this increment's sources to
    # its citations, and a hub cited by every source would be revoked, with all its relations, by
    # an edit of any of them (R12). Relations reach it by its id.
    delta["concepts"] = [concept.as_json() for concept in concepts if concept.anchor is None]
    resolve = _resolver(anchors)
    existing = {_relation_key(r, resolve) for r in request.get("relations", ())}
    delta["relations"] = draw_relations(
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
    sources = len(documents)
    documents.extend(fragment_documents(request))
    result = empty_delta()
    result["relations"] = draw_relations(
        documents, parses(documents), named, existing, guard, resolve, decision, sources
    )
    return result
