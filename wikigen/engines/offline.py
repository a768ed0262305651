"""The offline engine (R20): deterministic, extractive, no network.

Rules, per stage:

- **analyze** — one article per changed source: its summary is the 3 passages (E1) that rank best
  against the title and headings, its sections follow the ``##``/``###`` headings with the 2 best
  passages under each (ranked by the heading). Concepts come from defined terms only: "X is a …"
  sentences whose subject is marked (bold, italic, code, link, glossary tooltip), looks like a name
  (CamelCase, ALLCAPS, ``kube-proxy``, Title Case) or is a term of a title, heading or tooltip;
  "… is called **X**"; definition lists (``Term`` / ``: definition``), ``- **Term**: …`` and
  ``Term — …`` lists; a title followed by a block quote (tldr pages). A heading alone is never
  evidence. Relations only where one sentence names two concepts with an explicit predicate of
  :data:`wikigen.engines.extract.PREDICATES` between them (subject first; a passive "… by" swaps
  them), that sentence being the evidence.
- **recheck** — the same relation rule over the changed sources *and* the fragments, with the
  concepts of analyze's delta and the anchors; nothing already in the delta or the request.
- **topics** — a topic per concept mentioned by at least :data:`TOPIC_MIN_ARTICLES` articles of this
  increment, titled by the concept's name, members = the concept and those articles (by id); the
  :data:`MAX_TOPICS` most mentioned, ties by name. Its summary is the concept's definition.

Every quote is a passage or a sentence cut from the provided text, so it is verbatim (R22); claims
keep the epistemic status of what they quote (R37). The pipeline refuses an analyze delta over
100,000 bytes, so a large increment cites fewer section passages (see :func:`_fit`).

Passages are embedded once per run in one batch per source (``Ranker.embed``, the same model and
pooling as ``Ranker.rank``); scores are rounded to 4 decimals and ties broken by offset, so the same
request gives byte-identical delta JSON.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from wikigen.engines import extract
from wikigen.engines.base import STAGES, Delta, canonical_bytes, empty_delta
from wikigen.engines.extract import Definition, Mentions, Sentence, display
from wikigen.errors import EngineError
from wikigen.evidence.passages import Passage, passages
from wikigen.evidence.rerank import DIGITS, Ranker
from wikigen.ids import article_id, concept_id, normalize_name, normalize_predicate

MODEL = "all-MiniLM-L6-v2-int8"
ROUTE = f"offline/{MODEL}"
SUMMARY_CLAIMS = 3
SECTION_CLAIMS = 2
EVIDENCE_QUOTES = 3
EVIDENCE_POOL = 8  # candidate sentences ranked per concept
RELATION_QUOTES = 3
TOPIC_MIN_ARTICLES = 3
HEADLINE_CHARS = 240
DELTA_BYTES = 90_000  # under the pipeline's 100,000-byte limit on analyze's delta
MAX_TOPICS = 10

T = TypeVar("T")
Json = dict[str, Any]


class OfflineEngine:
    """The embedded default engine: passages ranked by the local ONNX model, rules for the rest."""

    name = "offline"
    remote = False

    def route(self, stage: str) -> str:
        return ROUTE

    def run(self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event) -> Delta:
        if stage not in STAGES:
            raise EngineError(f"unknown stage {stage!r}; the offline engine runs {' and '.join(STAGES)}")
        guard = _Guard(deadline, cancel, stage)
        guard.check()
        data = analyze(request, guard) if stage == "analyze" else recheck(request, guard)
        return Delta(data=data, route=ROUTE, model=MODEL)


@dataclass(frozen=True, slots=True)
class _Guard:
    deadline: float
    cancel: threading.Event
    stage: str

    def check(self) -> None:
        if self.cancel.is_set():
            raise EngineError(f"the offline {self.stage} stage was cancelled; nothing was published")
        if time.monotonic() > self.deadline:
            raise EngineError(
                f"the offline {self.stage} stage ran past its deadline; split the change with --batch "
                "or raise engine.deadline_s (WIKIGEN_DEADLINE)"
            )


# ---------------------------------------------------------------------------------------------
# Documents: a changed source's body or a fragment's text, cut into passages and sentences.


@dataclass(frozen=True, slots=True)
class _Heading:
    start: int
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class _Document:
    source: str
    title: str
    body: str
    passages: tuple[Passage, ...]
    headings: tuple[_Heading, ...]
    sentences: tuple[Sentence, ...]


_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")


def _document(source: str, title: str, body: str) -> _Document:
    found = passages(body)
    cut = tuple(s for p in found for s in extract.sentences(source, p.text, p.start, p.heading))
    return _Document(source, title, body, found, _headings(body), cut)


def _headings(body: str) -> tuple[_Heading, ...]:
    found: list[_Heading] = []
    fenced = False
    offset = 0
    for line in body.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(line.rstrip("\r\n"))):
            text = extract.visible(match.group(2)).text
            if text:
                found.append(_Heading(offset, len(match.group(1)), text))
        offset += len(line)
    return tuple(found)


# ---------------------------------------------------------------------------------------------
# Ranking: one embedding per distinct text, batched; scores as Ranker.scores computes them.


class _Scorer:
    def __init__(self, ranker: Ranker) -> None:
        self._ranker = ranker
        self._vectors: dict[str, npt.NDArray[np.float32]] = {}

    def prepare(self, texts: Iterable[str]) -> None:
        """Embed the texts not seen yet in one call; by length, so that batches pad little."""
        missing = sorted({t for t in texts if t not in self._vectors}, key=lambda t: (len(t), t))
        if missing:
            for text, vector in zip(missing, self._ranker.embed(missing), strict=True):
                self._vectors[text] = vector

    def rank(
        self, query: str, items: Sequence[T], text: Callable[[T], str], offset: Callable[[T], Any]
    ) -> list[T]:
        """``items`` best first; equal (rounded) scores keep their order by offset, as Ranker.rank does."""
        self.prepare([query, *(text(item) for item in items)])
        vector = self._vectors[query]
        scored = [(round(float(self._vectors[text(item)] @ vector), DIGITS), item) for item in items]
        return [item for _, item in sorted(scored, key=lambda pair: (-pair[0], offset(pair[1])))]


# ---------------------------------------------------------------------------------------------
# analyze


def analyze(request: Mapping[str, Any], guard: _Guard) -> Json:
    """Articles, concepts, relations and topics of the changed sources (R20)."""
    scorer = _Scorer(Ranker.shared())
    documents = []
    for source in sorted(request.get("sources", ()), key=lambda s: s["id"]):
        guard.check()
        document = _document(source["id"], source.get("title") or source["id"], source["body"])
        scorer.prepare(p.text for p in document.passages)
        documents.append(document)
    fragments = _fragment_documents(request)
    anchors = _Anchors(request.get("anchors", ()))
    delta = empty_delta()
    scorer.prepare(query for document in documents for query in _queries(document))
    plans = []
    for document in documents:
        guard.check()
        plan = _article_plan(document, scorer)
        if plan is not None:
            plans.append(plan)
    concepts = _concepts(documents, fragments, anchors, request, scorer, guard)
    delta["concepts"] = [concept.as_json() for concept in concepts]
    mentions = _mentions(concepts, anchors)
    resolve = _resolver(anchors)
    existing = {_relation_key(r, resolve) for r in request.get("relations", ())}
    delta["relations"] = _relations(documents, mentions, existing, guard, resolve)
    delta["topics"] = _topics(documents, concepts, anchors, mentions)
    _fit(plans, delta)
    return delta


def _fragment_documents(request: Mapping[str, Any]) -> list[_Document]:
    """Fragments as documents; one too short for a passage (E1) is read as one passage anyway, since
    it is exactly what an object cited (R13)."""
    documents = []
    for fragment in sorted(request.get("fragments", ()), key=lambda f: (f["source"], f["lines"]["start"])):
        document = _document(fragment["source"], fragment.get("title", ""), fragment["text"])
        if not document.sentences:
            text = fragment["text"]
            start = len(text) - len(text.lstrip())
            cut = tuple(extract.sentences(fragment["source"], text.strip(), start))
            document = _Document(document.source, document.title, text, (), (), cut)
        documents.append(document)
    return documents


def _claim(source: str, quote: str) -> Json:
    """A claim citing ``quote`` verbatim; its text is the quote's first sentence, shown as read."""
    return {
        "text": _headline(quote),
        "status": extract.status(quote),
        "quotes": [{"source": source, "quote": quote}],
    }


def _headline(quote: str) -> str:
    """The claim's text: the quote's first sentence, shortcodes rendered, cut at a word near 240."""
    shown = display(quote)
    first = extract.sentences("", shown)
    text = " ".join((first[0].text if first else shown).split())
    if len(text) > HEADLINE_CHARS:
        cut = text.rfind(" ", 0, HEADLINE_CHARS)
        text = text[: cut if cut > 0 else HEADLINE_CHARS] + " …"
    return text


@dataclass(frozen=True, slots=True)
class _Plan:
    """What an article may cite, best first: summary passages and (heading, passages) sections."""

    document: _Document
    summary: tuple[str, ...]
    sections: tuple[tuple[str, tuple[str, ...]], ...]


def _queries(document: _Document) -> list[str]:
    """The article query (title and headings) and one query per ``##``/``###`` heading."""
    headings = [h.text for h in document.headings if h.level in (2, 3)]
    return [". ".join([document.title, *headings]), *headings]


def _article_plan(document: _Document, scorer: _Scorer) -> _Plan | None:
    """One article per changed source: ranked summary, sections by heading (R20)."""
    prose = [p for p in document.passages if not p.text.startswith("|")] or list(document.passages)
    if not prose:
        quote = _fallback_quote(document.body)
        return None if quote is None else _Plan(document, (quote,), ())  # an empty body cites nothing
    headings = [h for h in document.headings if h.level in (2, 3)]
    best = scorer.rank(_queries(document)[0], prose, lambda p: p.text, lambda p: p.start)[:SUMMARY_CLAIMS]
    sections = []
    for index, heading in enumerate(headings):
        end = headings[index + 1].start if index + 1 < len(headings) else len(document.body)
        # A section cites its own best passages, even one the summary cites too.
        under = [p for p in prose if heading.start < p.start < end]
        top = scorer.rank(heading.text, under, lambda p: p.text, lambda p: p.start)[:SECTION_CLAIMS]
        if top:
            sections.append((heading.text, tuple(p.text for p in sorted(top, key=lambda p: p.start))))
    ordered = tuple(p.text for p in sorted(best, key=lambda p: p.start))
    return _Plan(document, ordered, tuple(sections))


def _article(plan: _Plan, level: int) -> Json:
    """The article of ``plan`` at a compaction level (0: as planned; see _fit)."""
    source = plan.document.source
    article: Json = {
        "title": plan.document.title,
        "sources": [source],
        "summary": [_claim(source, quote) for quote in plan.summary],
    }
    sections = []
    for heading, quotes in plan.sections:
        kept = quotes[:1] if level >= 1 else quotes
        if level >= 2:  # the passage's first sentence instead of the whole passage
            kept = tuple(_first_sentence(q) for q in kept)
        sections.append({"heading": heading, "claims": [_claim(source, q) for q in kept]})
    if sections and level < 4:
        article["sections"] = sections
    return article


def _first_sentence(quote: str) -> str:
    found = extract.sentences("", quote)
    return found[0].text if found else quote


def _fit(plans: Sequence[_Plan], delta: Json) -> None:
    """Articles at the least compaction that keeps the delta under DELTA_BYTES.

    The pipeline refuses an analyze delta over 100,000 bytes (it travels on to recheck), so a large
    increment cites fewer passages per heading, then sentences, then no sections, then one piece of
    evidence per concept and no topic summaries, rather than fail.
    """
    for level in range(5):
        delta["articles"] = [_article(plan, level) for plan in plans]
        if len(canonical_bytes(delta)) <= DELTA_BYTES:
            return
    for concept in delta["concepts"]:
        concept["evidence"] = concept["evidence"][:1]
    for topic in delta["topics"]:
        topic.pop("summary", None)


def _fallback_quote(body: str) -> str | None:
    """A source without passages is still covered: its trimmed body if short, else its longest line."""
    trimmed = body.strip()
    if not trimmed:
        return None
    if len(trimmed) <= 300:
        return trimmed
    return max((line.strip() for line in trimmed.splitlines()), key=len)


# ---------------------------------------------------------------------------------------------
# Concepts


class _Anchors:
    """The request's anchors (R14) by every normalized name, alias and their plural/singular."""

    def __init__(self, anchors: Iterable[Mapping[str, Any]]) -> None:
        self.items = sorted(anchors, key=lambda a: a["id"])
        self.by_key: dict[str, Mapping[str, Any]] = {}
        self.exact: dict[str, str] = {}  # normalized name or alias → anchor id (no variants)
        for anchor in self.items:
            for form in (anchor["name"], *anchor.get("aliases", ())):
                self.exact.setdefault(normalize_name(form), anchor["id"])
                for variant in (form, *extract.head_variants(form)):
                    self.by_key.setdefault(normalize_name(variant), anchor)

    def find(self, keys: Iterable[str]) -> Mapping[str, Any] | None:
        for key in keys:
            if key in self.by_key:
                return self.by_key[key]
        return None


@dataclass(slots=True)
class _Concept:
    name: str
    type: str
    definitions: list[Definition]
    aliases: list[str] = field(default_factory=list)
    anchor: str | None = None  # the anchor's id when this concept is an anchor found again
    candidates: list[str] = field(default_factory=list)  # alias candidates before collision checks
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
            "definition": _claim(first.source, first.quote),
            "evidence": [{"source": s, "quote": q} for s, q in self.evidence],
        }


_PATTERN_RANK = {"copula": 0, "called": 0, "glossary": 0, "lead": 0, "list": 1, "revoked": 2}
_WORD = re.compile(r"[A-Za-z][\w-]*")
_MID_CAPITAL = re.compile(r"(?<=[a-z,;] )[A-Z][\w-]*")


def _concepts(
    documents: Sequence[_Document],
    fragments: Sequence[_Document],
    anchors: _Anchors,
    request: Mapping[str, Any],
    scorer: _Scorer,
    guard: _Guard,
) -> list[_Concept]:
    vocabulary = _vocabulary(documents, anchors)
    found: list[Definition] = []
    for document in documents:
        guard.check()
        found.extend(_lead_definition(document))
        for passage in document.passages:
            listed = extract.list_definitions(document.source, passage.text, passage.start, vocabulary)
            found.extend(d for d in listed if d.pattern == "glossary" or _named_again(document, d))
        topics = frozenset(
            normalize_name(t) for t in [*_title_terms(document.title), *(h.text for h in document.headings)]
        )
        for sentence in document.sentences:
            found.extend(extract.definitions(sentence, vocabulary, topics))
    order = {d.source: i for i, d in enumerate(documents)}
    found.sort(key=lambda d: (_PATTERN_RANK[d.pattern], order[d.source], d.start))
    commands = {d.source for d in documents if _has_command_lines(d)}
    used = _phrase_finder(d.body for d in documents)
    concepts: dict[str, _Concept] = {}
    index: dict[str, str] = {}  # every normalized form → concept key
    for definition in found:
        name = _canonical(definition.term, definition.code, vocabulary.words)
        forms = [normalize_name(f) for f in (definition.term, name, *extract.head_variants(name))]
        anchor = anchors.find(forms)
        if anchor is not None:
            name = anchor["name"]
        existing = next((index[f] for f in [normalize_name(name), *forms] if f in index), None)
        if existing is None:
            kind = anchor["type"] if anchor is not None else _type(definition, name, commands)
            concept = _Concept(name, kind, [], anchor=anchor["id"] if anchor is not None else None)
            concepts[concept.key] = concept
            existing = concept.key
        concept = concepts[existing]
        concept.definitions.append(definition)
        concept.candidates.extend([definition.term, *definition.aliases])
        if not definition.code:  # Pod/Pods: the other number, where the changed sources use it
            concept.candidates.extend(v for v in extract.head_variants(concept.name) if used(v))
        for form in [normalize_name(concept.name), *forms]:
            index.setdefault(form, existing)
    _rebuild_revoked(request, documents, fragments, anchors, concepts, index)
    ordered = sorted(concepts.values(), key=lambda c: c.key)
    _assign_aliases(ordered, anchors)
    _rank_evidence(ordered, documents, scorer, guard)
    return ordered


def _phrase_finder(bodies: Iterable[str]) -> Callable[[str], bool]:
    """Whether a phrase occurs as whole words in the changed sources, where R14's index would see it:
    an alias no changed source uses could collide with a live concept the request does not carry."""
    text = " ".join(" ".join(body.split()) for body in bodies).casefold()

    def used(phrase: str) -> bool:
        words = " ".join(phrase.split()).casefold()
        return re.search(r"(?<![\w-])" + re.escape(words) + r"(?![\w-])", text) is not None

    return used


def _vocabulary(documents: Sequence[_Document], anchors: _Anchors) -> extract.Vocabulary:
    """What the changed sources and anchors say about which phrases are terms (R20)."""
    terms: set[str] = set(anchors.by_key)
    marked: set[str] = set()
    proper: set[str] = set()
    words: set[str] = set()
    for document in documents:
        for term in [*_title_terms(document.title), *(h.text for h in document.headings)]:
            if extract.term_ok(term):
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
        words.update(normalize_name(w) for w in _WORD.findall(document.body))
    return extract.Vocabulary(frozenset(terms), frozenset(marked), frozenset(proper), frozenset(words))


def _named_again(document: _Document, definition: Definition) -> bool:
    """A ``- **Term**: …`` entry defines a concept only when the source names the term elsewhere too;
    use-case lists ("**Dedicated Nodes**: If you want …") name theirs once."""
    finder = Mentions.build([(definition.term, [definition.term])])
    return any(
        finder.find(s.clean.text)
        for s in document.sentences
        if not definition.start <= s.start < definition.start + len(definition.quote)
    )


def _title_terms(title: str) -> list[str]:
    """ "Labels and Selectors" → Labels, Selectors; "Managing Workloads" names no term."""
    first = title.split()[0].casefold() if title.split() else ""
    if first.endswith("ing") or first in {"how", "what", "why", "when", "about", "using", "introduction"}:
        return []
    return [part.strip() for part in re.split(r"\s+(?:and|&|or|vs\.?)\s+|,\s*", title) if part.strip()]


def _lead_definition(document: _Document) -> list[Definition]:
    """A title heading followed by a block quote (tldr pages): the quote's first sentence defines it."""
    match = re.match(r"\s*#[ \t]+[^\n]+\n\s*>[ \t]*(?P<line>[^\n]+)", document.body)
    if match is None or not extract.term_ok(document.title, code=False):
        return []
    line = match.group("line")
    cut = re.match(r".+?[.!?](?=\s|$)", line)
    quote = (cut.group() if cut else line).strip()
    start = match.start("line") + line.find(quote)
    if len(quote) < 8:
        return []
    return [Definition(document.title, document.source, start, quote, "lead", (), True)]


def _has_command_lines(document: _Document) -> bool:
    """tldr-style pages: examples are lines that are one code span each."""
    return re.search(r"(?m)^`[^`\n]+`[ \t]*$", document.body) is not None


def _canonical(term: str, code: bool, words: frozenset[str]) -> str:
    """The display name: a code form or identifier as written, else singular and capitalized."""
    if code or (extract.identifier_like(term) and "-" in term):
        return term
    parts = term.split()
    singular = next((f for f in extract.singular_forms(parts[-1]) if normalize_name(f) in words), None)
    if singular is not None and not (len(parts) == 1 and parts[0].isupper()):
        parts[-1] = singular
    name = " ".join(parts)
    if name[0].islower() and not re.search(r"[\d_.]", name):
        name = name[0].upper() + name[1:]
    return name


# The type is a hint for readers, taken from the defining sentence; an anchor keeps its own (R26).
_COMPONENT = re.compile(r"\b(?:component|daemon|agent|binary|controller manager)\b", re.I)
_RESOURCE = re.compile(r"\b(?:an?|the)\s+(?:[\w-]+\s+)?(?:API\s+)?(?:object|resource|kind)\b", re.I)
_ENTITY = re.compile(
    r"\b(?:add-on|tool|project|solution|provider|framework|library|driver|server|proxy|gateway|"
    r"controller|plugin|platform|operating system)\b",
    re.I,
)


def _type(definition: Definition, name: str, commands: set[str]) -> str:
    if definition.pattern == "lead":
        return "command" if definition.source in commands else "term"
    # What the sentence says besides the term's own name ("the node controller is …" is no entity).
    text = re.sub(re.escape(definition.term), " ", extract.visible(definition.quote).text, flags=re.I)
    if _COMPONENT.search(text):
        return "component"
    if _RESOURCE.search(text):
        return "resource"
    if _ENTITY.search(text):
        return "entity"
    if extract.identifier_like(name) and not name.isupper() and "-" not in name:
        return "resource"  # ReplicaSet, ConfigMap: API kinds are written in CamelCase
    if definition.pattern in ("glossary", "list"):
        return "term"
    return "concept"


def _rebuild_revoked(
    request: Mapping[str, Any],
    documents: Sequence[_Document],
    fragments: Sequence[_Document],
    anchors: _Anchors,
    concepts: dict[str, _Concept],
    index: dict[str, str],
) -> None:
    """R12/R13: a revoked concept comes back when a changed source or a fragment still names it."""
    for revoked in sorted(request.get("revoked", ()), key=lambda r: r["id"]):
        label = revoked.get("label", "")
        if revoked.get("kind") != "concept" or not label:
            continue
        forms = [label, *revoked.get("aliases", ())]
        keys = [normalize_name(v) for f in forms for v in (f, *extract.head_variants(f))]
        if any(k in index for k in keys) or anchors.find(keys) is not None:
            continue
        finder = Mentions.build([(label, forms)])
        hit = next(
            (s for d in [*fragments, *documents] for s in d.sentences if finder.find(s.clean.text)), None
        )
        if hit is None:
            continue
        definition = Definition(label, hit.source, hit.start, hit.text, "revoked")
        concept = _Concept(label, revoked.get("type") or "concept", [definition], candidates=list(forms[1:]))
        concepts[concept.key] = concept
        for key in keys:
            index.setdefault(key, concept.key)


def _assign_aliases(concepts: Sequence[_Concept], anchors: _Anchors) -> None:
    """R26: an alias never equals the name or alias of another concept or anchor."""
    owner: dict[str, str] = dict(anchors.exact)
    for concept in concepts:
        owner.setdefault(concept.key, concept.anchor or concept.key)
    for concept in concepts:
        me = concept.anchor or concept.key
        for candidate in sorted(set(concept.candidates), key=lambda c: (normalize_name(c), c)):
            key = normalize_name(candidate)
            if key == concept.key or owner.get(key, me) != me:
                continue
            if not (extract.term_ok(candidate) or extract.identifier_like(candidate)):
                continue
            if key in owner:  # the anchor's own alias: nothing to add
                continue
            owner[key] = me
            concept.aliases.append(candidate)


def _rank_evidence(
    concepts: Sequence[_Concept], documents: Sequence[_Document], scorer: _Scorer, guard: _Guard
) -> None:
    """Up to 3 defining sentences (and sentences that name the concept), ranked by name + definition."""
    by_source = {d.source: d for d in documents}
    pools: list[tuple[str, list[tuple[tuple[str, str], tuple[str, int]]]]] = []
    for concept in concepts:
        guard.check()
        query = f"{concept.name}: {extract.visible(concept.definitions[0].quote).text}"
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
    # One embedding call for every query and candidate of the increment.
    scorer.prepare(text for query, items in pools for text in [query, *(pair[1] for pair, _ in items)])
    for concept, (query, items) in zip(concepts, pools, strict=True):
        ranked = scorer.rank(query, items, lambda item: item[0][1], lambda item: item[1])
        concept.evidence = [pair for pair, _ in ranked[:EVIDENCE_QUOTES]]


# ---------------------------------------------------------------------------------------------
# Relations and topics


def _mentions(concepts: Sequence[_Concept], anchors: _Anchors) -> Mentions:
    named: list[tuple[str, Sequence[str]]] = [(c.ref, [c.name, *c.aliases]) for c in concepts]
    found = {c.anchor for c in concepts if c.anchor}
    named.extend((a["id"], [a["name"], *a.get("aliases", ())]) for a in anchors.items if a["id"] not in found)
    return Mentions.build(named)


def _relations(
    documents: Sequence[_Document],
    mentions: Mentions,
    existing: set[tuple[str, str, str]],
    guard: _Guard,
    resolve: Callable[[str], str],
) -> list[Json]:
    """R20/R23: one relation per (subject, predicate, object), evidenced by the sentences stating it."""
    evidence: dict[tuple[str, str, str], list[tuple[str, int, str]]] = {}
    for document in documents:
        guard.check()
        for sentence in document.sentences:
            for found in extract.relations(sentence.clean.text, mentions.find(sentence.clean.text)):
                key = (found.subject, found.predicate, found.object)
                if (
                    resolve(found.subject),
                    normalize_predicate(found.predicate),
                    resolve(found.object),
                ) in existing:
                    continue
                evidence.setdefault(key, []).append((sentence.source, sentence.start, sentence.text))
    built = []
    for (subject, predicate, obj), quotes in sorted(evidence.items()):
        unique = sorted(set(quotes))[:RELATION_QUOTES]
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


def _topics(
    documents: Sequence[_Document], concepts: Sequence[_Concept], anchors: _Anchors, mentions: Mentions
) -> list[Json]:
    """A topic per concept that at least TOPIC_MIN_ARTICLES articles of this increment mention."""
    names = {c.ref: c for c in concepts}
    anchor_names = {a["id"]: a["name"] for a in anchors.items}
    articles: dict[str, set[str]] = {}
    for document in documents:
        identifier = article_id([document.source], document.title)
        for sentence in document.sentences:
            for mention in mentions.find(sentence.clean.text):
                articles.setdefault(mention.ref, set()).add(identifier)
    qualifying = [(ref, ids) for ref, ids in articles.items() if len(ids) >= TOPIC_MIN_ARTICLES]
    title = {ref: names[ref].name if ref in names else anchor_names.get(ref, ref) for ref, _ in qualifying}
    qualifying.sort(key=lambda pair: (-len(pair[1]), normalize_name(title[pair[0]]), pair[0]))
    topics = []
    for ref, ids in qualifying[:MAX_TOPICS]:
        topic: Json = {"title": title[ref], "members": [ref, *sorted(ids)]}
        if ref in names:
            first = names[ref].definitions[0]
            topic["summary"] = [_claim(first.source, first.quote)]
        topics.append(topic)
    return sorted(topics, key=lambda t: (normalize_name(t["title"]), t["members"]))


def _resolver(anchors: _Anchors) -> Callable[[str], str]:
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


def recheck(request: Mapping[str, Any], guard: _Guard) -> Json:
    """R19: explicit relations across the changed sources and fragments that analyze did not return."""
    anchors = _Anchors(request.get("anchors", ()))
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
    documents = [
        _document(s["id"], s.get("title") or s["id"], s["body"])
        for s in sorted(request.get("sources", ()), key=lambda s: s["id"])
    ]
    documents.extend(_fragment_documents(request))
    mentions = Mentions.build(named)
    result = empty_delta()
    result["relations"] = _relations(documents, mentions, existing, guard, resolve)
    return result
