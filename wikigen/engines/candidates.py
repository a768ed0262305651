"""Candidate terms of the changed sources and the sentence that best defines each (R20).

Candidates come from what authors do when they introduce a term: they emphasize its first use
(``_x_``, ``*x*``, ``**x**``), name it in a heading (``## Keyword lists``, ``## `case` ``), give
it a name ("… is called X", "known as X", "Erlang Term Storage (ETS)"), or define it ("X is a …",
"X lets you …"). Every mention of a candidate in the increment is then *read* from its sentence's
parse (:mod:`wikigen.engines.readings`), and the definition is the best reading: by its form first
(defines, describes, mentions; no forward reference; in the term's own section), then by the ONNX
model's similarity to the term. Precision first: a term without a marking must be defined in a
defining form and named more than once, or be a name (CamelCase, code, a glossary term).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from wikigen.engines.documents import Document, Scorer
from wikigen.engines.language import english, is_english, language
from wikigen.engines.parse import Parse, parse_sentences
from wikigen.engines.readings import DEFINES, DESCRIBES, MENTIONS, Reading, noun_phrase, read
from wikigen.engines.relations import Mentions
from wikigen.engines.terms import (
    STOP_TERMS,
    Definition,
    Vocabulary,
    head_variants,
    identifier_like,
    singular_forms,
    term_ok,
)
from wikigen.engines.text import CJK, Sentence, Visible, visible
from wikigen.ids import normalize_name

STRONG = frozenset({"marked", "heading", "called", "abbreviation", "known", "listed"})
# People and pronoun-like nouns are subjects of many sentences and the concept of none.
_GENERIC = frozenset(
    [
        "developer",
        "developers",
        "user",
        "users",
        "people",
        "programmer",
        "programmers",
        "author",
        "authors",
        "reader",
        "readers",
        "notice",
        "note",
        "example",
        "examples",
        "way",
        "ways",
        "left",
        "side",
        "right",
        "side",
        "part",
        "parts",
        "shape",
        "lot",
        "bit",
        "walk-through",
        "guide",
        "chapter",
        "chapters",
        "section",
        "sections",
        "snippet",
        "snippets",
        "code",
        "line",
        "lines",
        "word",
        "words",
        "operation",
        "operations",
        "functionality",
        "thing",
        "things",
    ]
)
HUB_SHARE = 0.6  # a name most of the increment's sources mention is a hub (the language, the product)
DEFINITION_POOL = 6  # sentences of the best form ranked by the model per term
_CODE_FORBIDDEN = re.compile(r"[\s{}\"';,()\[\]\\|*`$#!?&=]")
_PLAIN_WORD = re.compile(r"^[a-z]+$")
_PLACEHOLDER = re.compile(r"^(?:foo|bar|baz|qux|quux|my_?app|my-app|example|hello)(?:$|[.\-_/])", re.IGNORECASE)
_QUOTED = re.compile(r"(?<![\w\"])[\"“](?P<phrase>[A-Za-z][A-Za-z -]{1,40}[A-Za-z])[\"”](?![\w\"])")
_ABBREVIATION = re.compile(
    r"(?P<long>(?:[A-Z][\w-]*\s+){1,5}?(?:[A-Z][\w-]*))\s+\((?P<short>[A-Z][A-Za-z]{1,7})\)"
)
_HEADING_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+&\s+|\s+vs\.?\s+|\s+or\s+)\s*")
_HEADING_LEAD = re.compile(
    r"^(?:the|a|an|about|using|defining|creating|understanding|working with|introducing|writing|"
    r"spawning|sending and receiving|more on|on)\s+",
    re.IGNORECASE,
)
# Chapters use headings for structure as much as for terms.
_HEADING_STOP = re.compile(
    r"^(?:summing up|wrapping up|conclusion|summary|next steps|what's next|other .*|more .*|"
    r".*\b(?:options|tools|community|examples?|basics)|basic .*|getting .*|the .* module)$",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Candidate:
    term: str  # as first written
    code: bool
    signals: set[str] = field(default_factory=set)
    aliases: set[str] = field(default_factory=set)
    sections: set[str] = field(default_factory=set)  # normalized headings that name the term


@dataclass(frozen=True, slots=True)
class Found:
    """One mention of a candidate, read from its sentence."""

    key: str
    sentence: Sentence
    reading: Reading
    own_section: bool


def code_term_ok(term: str) -> bool:
    """A code span that names something: ``case``, ``@moduledoc``, ``Rc<T>``, ``String.Chars``,
    ``IO.inspect/2``; not a command line, an expression, a lower-case field path (``spec.replicas``)
    or a placeholder of examples (``foo``, ``MyApp.Hello``)."""
    if _PLACEHOLDER.match(term):
        return False
    if not 1 <= len(term) <= 40 or _CODE_FORBIDDEN.search(term) or not any(ch.isalpha() for ch in term):
        return False
    if "." in term.rstrip(".") and not term[0].isupper():
        return False
    bare = re.sub(r"/\d+$", "", term)
    return re.fullmatch(r"[@:~]?[A-Za-z_][\w.!?-]*(?:<[\w, ]+>)?|~[a-zA-Z]|[<>|&^=+*-]{1,3}", bare) is not None


def parses(documents: Sequence[Document]) -> dict[str, Parse]:
    """Every sentence's parse, by its verbatim text; one batched parser call for the increment.
    The parser is English: a document in another language is never parsed (issue 10, item 6)."""
    sentences = [s for d in english(documents) for s in d.sentences]
    parsed = parse_sentences([s.clean for s in sentences])
    return {s.text: p for s, p in zip(sentences, parsed, strict=True)}


def collect(
    documents: Sequence[Document], parsed: Mapping[str, Parse], vocabulary: Vocabulary
) -> dict[str, Candidate]:
    """Candidate terms by normalized key, with the signals that make them terms."""
    found: dict[str, Candidate] = {}

    def add(term: str, code: bool, signal: str, section: str = "") -> Candidate | None:
        term = term.strip()
        words = term.split()
        if len(words) > 1 and words[-1].casefold() in _KIND_WORDS and identifier_like(" ".join(words[:-1])):
            term = " ".join(words[:-1])  # "ConfigMap object" is the ConfigMap
        if not (code_term_ok(term) if code else _prose_term_ok(term)):
            return None
        key = _key(term, code)
        candidate = found.setdefault(key, Candidate(term, code))
        candidate.signals.add(signal)
        if section:
            candidate.sections.add(normalize_name(section))
        return candidate

    for document in documents:
        coded = {
            s.clean.text[m.start : m.end]
            for s in document.sentences
            for m in s.clean.marks
            if m.kind == "code"
        }
        for heading in document.headings:
            line = document.body[heading.start :].split("\n", 1)[0].lstrip("#").strip().rstrip("#").strip()
            for term, code in _heading_terms(line):
                # "## case" over a section that writes `case`: the heading names the construct
                add(term, code or term in coded, "heading", heading.text)
        foreign = not is_english(language(document))
        for sentence in document.sentences:
            if foreign:  # language-independent rules only: emphasized and definition-list terms
                for start, end, signal in _independent_spans(sentence):
                    add(sentence.clean.text[start:end], False, signal)
                continue
            parse = parsed[sentence.text]
            clean = sentence.clean
            for match in _ABBREVIATION.finditer(clean.text):
                words, short = match.group("long").split(), match.group("short")
                # "The Container Runtime Interface (CRI)": the name is the words the letters spell
                long = next(
                    (" ".join(words[i:]) for i in range(len(words)) if _initials(" ".join(words[i:]), short)),
                    None,
                )
                if long is not None:
                    candidate = add(long, False, "abbreviation")
                    if candidate is not None:
                        candidate.aliases.add(short)
            for match in _QUOTED.finditer(clean.text):
                # "tagged tuples", "let it crash": a phrase in quotes is a term being introduced
                head = parse.span_head(match.start("phrase"), match.end("phrase"))
                # a capitalized phrase in quotes is a title or an example's value ("Mary"), not a term
                titled = any(w[:1].isupper() for w in match.group("phrase").split())
                if head is not None and not titled and (head.pos in ("NOUN", "PROPN") or head.code):
                    add(match.group("phrase"), False, "quoted")
            for word in parse.words:
                if not (word.code or word.pos in ("NOUN", "PROPN")):
                    continue
                start, end = noun_phrase(parse, word)
                term = parse.text[start:end]
                marked = _marked(clean, start, end)
                reading = read(parse, word, marked=marked)
                if word.code:
                    if reading.pattern == "called" or (
                        reading.rank == DEFINES and reading.pattern != "emphasis"
                    ):
                        add(term, True, "called" if reading.pattern == "called" else "defined")
                    continue
                if marked and word.dep not in ("compound", "amod", "nmod", "poss", "npadvmod"):
                    add(term, False, "marked")
                elif reading.pattern == "called":
                    add(term, False, "called")
                elif reading.rank == DEFINES and reading.pattern in ("copula", "function", "appositive"):
                    add(term, False, "defined")
                if vocabulary.knows(term, strong=True) and normalize_name(term) in vocabulary.terms:
                    add(term, False, "known")
    return found


def definitions(
    documents: Sequence[Document],
    parsed: Mapping[str, Parse],
    candidates: Mapping[str, Candidate],
    vocabulary: Vocabulary,
    scorer: Scorer,
) -> list[Definition]:
    """The accepted candidates, each with the sentence that best defines it."""
    mentions = finder(candidates)
    readings: dict[str, list[Found]] = {}
    counts: dict[str, int] = {}
    for document in documents:
        foreign = not is_english(language(document))
        for sentence in document.sentences:
            if foreign:
                for ref, reading in _read_without_parse(sentence, candidates, mentions):
                    counts[ref] = counts.get(ref, 0) + 1
                    own = normalize_name(sentence.heading) in candidates[ref].sections or _names(
                        sentence.heading, candidates[ref].term
                    )
                    readings.setdefault(ref, []).append(Found(ref, sentence, reading, own))
                continue
            parse = parsed[sentence.text]
            for mention in mentions.find(sentence.clean.text):
                candidate = candidates[mention.ref]
                head = parse.span_head(mention.start, mention.end)
                if head is None:
                    continue
                if candidate.code and _PLAIN_WORD.match(candidate.term) and len(candidate.term) <= 4 and not head.code:
                    continue  # `case`, `if`, `use`: the word in prose is not the construct
                counts[mention.ref] = counts.get(mention.ref, 0) + 1
                marked = _marked(sentence.clean, mention.start, mention.end) or _quoted(
                    sentence.clean.text, mention.start, mention.end
                )
                reading = read(parse, head, marked=marked)
                own = normalize_name(sentence.heading) in candidate.sections or _names(
                    sentence.heading, candidate.term
                )
                readings.setdefault(mention.ref, []).append(Found(mention.ref, sentence, reading, own))
    spread: dict[str, set[str]] = {}
    for key, found in readings.items():
        spread[key] = {f.sentence.source for f in found}
    order = {d.source: i for i, d in enumerate(documents)}
    by_source = {d.source: d for d in documents}
    pools: list[tuple[str, Candidate, list[Found]]] = []
    for key in sorted(readings):
        candidate = candidates[key]
        best = _best_form(readings[key])
        hub = (
            len(documents) >= 3
            and len(spread[key]) >= HUB_SHARE * len(documents)
            and not candidate.code
            and candidate.term[:1].isupper()
            and vocabulary.is_proper(candidate.term)
        )
        if not best or not _accept(candidate, best[0], counts.get(key, 0), vocabulary, hub):
            continue
        pools.append((key, candidate, best[:DEFINITION_POOL]))
    # Only a choice needs the model: one embedding call for every query and sentence to rank.
    scorer.prepare(
        text for _, c, pool in pools if len(pool) > 1 for text in [_query(c), *(f.sentence.text for f in pool)]
    )
    accepted = []
    for _, candidate, pool in pools:
        ranked = (
            scorer.rank(
                _query(candidate),
                pool,
                lambda f: f.sentence.text,
                lambda f: (order[f.sentence.source], f.sentence.start),
            )
            if len(pool) > 1
            else pool
        )
        chosen = ranked[0]
        start, quote = _quote(chosen, by_source)
        pattern = "copula" if chosen.reading.rank == DEFINES else "described"
        accepted.append(
            Definition(
                candidate.term,
                chosen.sentence.source,
                start,
                quote,
                pattern,
                tuple(sorted(candidate.aliases)),
                candidate.code,
            )
        )
    return accepted


def finder(candidates: Mapping[str, Candidate]) -> Mentions:
    """Mentions of the candidates by term, alias and (prose) the other number; a form two
    candidates share names neither. Code names are found as written, stop words included."""
    owners: dict[str, set[str]] = {}
    for key, candidate in candidates.items():
        for form in [candidate.term, *candidate.aliases]:
            variants = [form] if candidate.code else [form, *head_variants(form)]
            for variant in variants:
                if candidate.code or term_ok(variant) or identifier_like(variant):
                    owners.setdefault(normalize_name(variant), set()).add(key)
    return Mentions({form: next(iter(keys)) for form, keys in owners.items() if len(keys) == 1})


def _best_form(found: list[Found]) -> list[Found]:
    """The readings of the best form, in text order: defines before describes before mentions; no
    forward reference; the term's own section first."""

    def form(f: Found) -> tuple[int, int]:
        return (f.reading.rank, int(not f.own_section))

    # Issue 10: a sentence that points elsewhere ("… Chapter 18 covers") never defines a term.
    found = [f for f in found if not f.reading.forward]
    if not found:
        return []
    best = min(form(f) for f in found)
    return [f for f in found if form(f) == best]


def _accept(candidate: Candidate, best: Found, count: int, vocabulary: Vocabulary, hub: bool) -> bool:
    """R20, precision first: how much of a term the candidate must be for the form of its best
    definition. A hub (a name most sources mention) is defined only by what it *is*."""
    # `spec`, `effect`, `driverName`: field names and values, unless a heading or a naming sentence
    # makes the word a term (`case`, `alias`, `iodata`)
    if (
        candidate.code
        and re.fullmatch(r"[a-z][a-zA-Z0-9_]*", candidate.term)
        and not candidate.signals & {"heading", "called", "marked"}
    ):
        return False
    strong = bool(candidate.signals & STRONG) or ("quoted" in candidate.signals and count >= 2)
    named = candidate.code or identifier_like(candidate.term) or vocabulary.is_proper(candidate.term)
    rank = best.reading.rank
    if hub:
        return best.reading.pattern in ("copula", "called") and (strong or named)
    if rank == DEFINES and best.reading.pattern == "emphasis":
        # emphasis also stresses ("a variable's *existing value*"): a term is named again
        return count >= 2 or "heading" in candidate.signals
    if rank == DEFINES:
        if best.reading.pattern in ("copula", "called", "appositive"):
            return strong or named or count >= 2
        return strong or named or count >= 3
    if rank == DESCRIBES:
        # a described term needs the author's marking, and a plain common noun ("test",
        # "connection", "scaling") more than a description
        named_by_author = bool(candidate.signals & {"heading", "called", "abbreviation"})
        return (named_by_author and not _common_noun(candidate)) or (named and count >= 3 and best.own_section)
    # A mere mention defines nothing, except in the section its heading gives the term.
    return "heading" in candidate.signals and best.own_section and count >= 2


def _common_noun(candidate: Candidate) -> bool:
    """One plain word ("test", "Preference") that only an emphasis, quotes or a tooltip marked."""
    words = candidate.term.split()
    return (
        not candidate.code
        and len(words) == 1
        and words[0][1:].islower()
        and not candidate.signals & {"heading", "called", "abbreviation"}
    )


def _quote(found: Found, documents: Mapping[str, Document]) -> tuple[int, str]:
    """The sentence, or with the sentence before it when it refers back ("This set is called …")."""
    sentence = found.sentence
    document = documents.get(sentence.source)
    if found.reading.anaphoric and document is not None:
        before = [s for s in document.sentences if s.start < sentence.start]
        if before:
            previous = before[-1]
            gap = document.body[previous.start + len(previous.text) : sentence.start]
            if not gap.strip():
                end = sentence.start + len(sentence.text)
                return previous.start, document.body[previous.start : end]
    return sentence.start, sentence.text


def _query(candidate: Candidate) -> str:
    return f"What is {candidate.term}?"


_KIND_WORDS = frozenset({"object", "objects", "resource", "resources", "kind"})


def _key(term: str, code: bool) -> str:
    """One key for a term and its other number: "ConfigMaps" and "ConfigMap", "aliases" and "alias"."""
    if code:
        return normalize_name(term)
    words = term.split()
    singular = singular_forms(words[-1])
    if singular and not (len(words) == 1 and words[0].isupper()):
        words[-1] = singular[0]
    return normalize_name(" ".join(words))


def _prose_term_ok(term: str) -> bool:
    if not term_ok(term) or normalize_name(term) in STOP_TERMS or normalize_name(term) in _GENERIC:
        return False
    words = term.split()
    return not (len(words) == 1 and len(term) < 3 and not CJK.match(term))  # 容器: two characters, a word


def _marked(clean: Visible, start: int, end: int) -> bool:
    """The words [start, end) are emphasized by the author, as a whole (not a whole sentence)."""
    for mark in clean.marks:
        if mark.kind in ("bold", "italic") and mark.start <= start and end <= mark.end:
            inner = clean.text[mark.start : mark.end]
            if len(inner.split()) <= 4 and (mark.end - mark.start) - (end - start) <= 4:
                return True
    return False


def _quoted(text: str, start: int, end: int) -> bool:
    """The words [start, end) stand in quotation marks of their own: "tagged tuples"."""
    return start > 0 and end < len(text) and text[start - 1] in "\"“" and text[end] in "\"”"


def _independent_spans(sentence: Sentence) -> list[tuple[int, int, str]]:
    """Terms a sentence marks in any language (issue 10, item 6): its emphasized words (at most 4
    words, 40 characters) and a definition list's term (``Term`` / ``: definition``), as spans of
    its visible text with the signal each gives."""
    clean = sentence.clean
    spans = []
    listed = _LISTED_TERM.match(sentence.text)
    if listed is not None:
        term = visible(listed.group("term")).text.strip()
        if term and clean.text.startswith(term):
            spans.append((0, len(term), "listed"))
    for mark in clean.marks:
        inner = clean.text[mark.start : mark.end]
        if mark.kind in ("bold", "italic") and len(inner.split()) <= 4 and len(inner) <= 40:
            spans.append((mark.start, mark.end, "marked"))
    return spans


def _read_without_parse(
    sentence: Sentence, candidates: Mapping[str, Candidate], mentions: Mentions
) -> list[tuple[str, Reading]]:
    """Readings of a sentence in a language the parser does not read: where the term is emphasized
    (or is a definition list's term) it is defined, elsewhere mentioned. A term written without
    spaces between words (Chinese) is found wherever it occurs, since the finder needs word
    boundaries."""
    clean = sentence.clean
    spans = {(m.start, m.end): m.ref for m in mentions.find(clean.text)}
    for key, candidate in candidates.items():
        if CJK.match(candidate.term):  # no spaces between words: every occurrence is a mention
            at = clean.text.find(candidate.term)
            while at >= 0:
                spans.setdefault((at, at + len(candidate.term)), key)
                at = clean.text.find(candidate.term, at + len(candidate.term))
    defining: dict[tuple[int, int], str] = {}
    for start, end, signal in _independent_spans(sentence):
        key = _key(clean.text[start:end], False)
        if key in candidates:
            spans[(start, end)] = key
            defining[(start, end)] = "glossary" if signal == "listed" else "emphasis"
    found = []
    for (start, end), ref in sorted(spans.items()):
        if candidates[ref].code and not any(
            m.kind == "code" and m.start <= start and end <= m.end for m in clean.marks
        ):
            continue  # a code name in prose counts where it is written as code
        if (start, end) in defining:
            found.append((ref, Reading(defining[(start, end)], DEFINES)))
        elif _marked(clean, start, end):
            found.append((ref, Reading("emphasis", DEFINES)))
        else:
            found.append((ref, Reading("mention", MENTIONS)))
    return found


_LISTED_TERM = re.compile(r"^(?P<term>[^\n:]{2,80})\n[ \t]*:[ \t]+\S")


def _initials(long: str, short: str) -> bool:
    letters = "".join(word[0] for word in re.split(r"[\s-]+", long) if word).casefold()
    wanted = short.rstrip("s").casefold()
    return letters == wanted or (len(wanted) >= 2 and letters.startswith(wanted[:2]) and len(letters) == len(wanted))


def _names(heading: str, term: str) -> bool:
    key = normalize_name(term)
    return bool(key) and key in normalize_name(heading)


def _heading_terms(raw: str) -> list[tuple[str, bool]]:
    """The terms a heading names: its code spans, or its noun phrases when it is not a sentence."""
    shown = visible(raw)
    text = shown.text
    codes = [shown.text[m.start : m.end] for m in shown.marks if m.kind == "code"]
    if codes:
        return [(code, True) for code in codes]
    if len(text.split()) == 1 and text.islower():
        return [(text, False)]
    if len(text.split()) > 6 or text.rstrip().endswith(("?", "!", ".")) or _HEADING_STOP.match(text):
        return []
    terms = []
    for part in _HEADING_SPLIT.split(text):
        part = _HEADING_LEAD.sub("", part.strip())
        if part and not re.search(
            r"\b(?:is|are|does|do|can|how|what|why|when|to|with|in|for|of|as|by|from|on|into|using)\b",
            part,
            re.I,
        ):
            terms.append((part, False))
    return terms
