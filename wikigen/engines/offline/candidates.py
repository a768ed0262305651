"""Candidate terms of the changed sources and the sentence that best defines each (R20).

Candidates come from what authors do when they introduce a term: they emphasize its first use
(``_x_``, ``*x*``, ``**x**``), name it in a heading (``## Keyword lists``, ``## `case` ``), give
it a name ("… is called X", "known as X", "Erlang Term Storage (ETS)"), or define it ("X is a …",
"X lets you …"). Every mention of a candidate in the increment is then *read* from its sentence's
parse (:mod:`wikigen.engines.offline.readings`), and the definition is the best reading: by its form first
(defines, describes, mentions; no forward reference; in the term's own section), then by the ONNX
model's similarity to the term. Precision first: a term without a marking must be defined in a
defining form and named more than once, or be a name (CamelCase, code, a glossary term).

How an author marks a term (emphasis, quotation marks, a definition list, a link to its page) is
told by :mod:`~wikigen.engines.offline.markings`; the terms a heading names by
:mod:`~wikigen.engines.offline.headings`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from wikigen.engines.offline.documents import HEADING_ATTRIBUTES, Document
from wikigen.engines.offline.findings import Rank, Reading
from wikigen.engines.offline.headings import heading_terms
from wikigen.engines.offline.initials import has_initials, is_spelled_out
from wikigen.engines.offline.language import english, is_english, language
from wikigen.engines.offline.lexicon import (
    GENERIC_NOUNS,
    KIND_WORDS,
    NAMING_PHRASES,
    QUANTIFIERS,
    STOP_TERMS,
    alternation,
)
from wikigen.engines.offline.markings import (
    QUOTED_ANY,
    VALUES,
    independent_spans,
    is_emphasized,
    links_its_page,
)
from wikigen.engines.offline.parse import Parse, Word, parse_sentences
from wikigen.engines.offline.readings import read
from wikigen.engines.offline.subjects import is_classified, noun_phrase
from wikigen.engines.offline.terms import (
    Vocabulary,
    is_acceptable_term,
    is_identifier_like,
)
from wikigen.engines.offline.text import CJK
from wikigen.model.ids import normalize_name
from wikigen.model.inflection import singular_forms

_CODE_FORBIDDEN = re.compile(r"[\s{}\"';,()\[\]\\|*`$#!?&=]")
PLAIN_WORD = re.compile(r"^[a-z]+$")
# `pod-a`, `web-0`, `mydb`: the name of one instance in an example, not a kind of thing
# `DATABASE_HOST`: an example's environment variable
_INSTANCE = re.compile(
    r"^(?:my[a-z0-9_-]*|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*[-_][a-z0-9]|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$"
)
_PLACEHOLDER = re.compile(
    r"^(?:foo|bar|baz|qux|quux|my_?app|my-app|example|hello)(?:$|[.\-_/])", re.IGNORECASE
)
_QUOTED = re.compile(r"(?<![\w\"])[\"“](?P<phrase>[A-Za-z][A-Za-z -]{1,40}[A-Za-z])[\"”](?![\w\"])")
# "Erlang Term Storage (ETS)", "Quality of Service (QoS)": capitalized words, joined by small ones;
# "HorizontalPodAutoscaler (HPA)": one word whose capitals spell the letters
_ABBREVIATION = re.compile(
    r"(?P<long>(?:[A-Z][\w-]*\s+(?:(?:of|and|for|to|on|in)\s+)?){0,5}?(?:[A-Z][\w-]*))\s+\((?P<short>[A-Z][A-Za-z]{1,7})\)"
)
# "Quality of Service": a called name that goes on past its noun phrase (fewer small words than
# _ABBREVIATION joins: "known as X in Kubernetes" ends at X)
_NAME_GOES_ON = re.compile(r"\s+(?:of|and|for)\s+[A-Z]")
# "a PID (process identifier)", "TTL (time to live)": the letters first, the words they spell after
_ABBREVIATION_FIRST = re.compile(
    r"\b(?P<short>[A-Z]{2,7}s?)\s+\((?P<long>[A-Za-z][\w-]*(?:\s+[\w-]+){1,5})\)"
)
# "An environment variable (also known as an env var)", "`azure-cli` (also known as `az`)": another
# name of the noun before the parenthesis ("generic servers (called `GenServer`)" names one of them)
_OTHER_NAME = re.compile(
    rf"\s*\((?:also |otherwise )?(?:{alternation(NAMING_PHRASES - {'called'})})\s+(?P<names>[^()]{{1,60}})\)"
)
_NAME_SEPARATOR = re.compile(r"\s*(?:,|\bor\b)\s*")
_LEADING_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)


@dataclass(slots=True)
class Candidate:
    term: str  # as first written
    code: bool
    signals: set[str] = field(default_factory=set)
    aliases: set[str] = field(default_factory=set)
    sections: set[str] = field(default_factory=set)  # normalized headings that name the term


def is_mentioned_only_as_code(name: str) -> bool:
    """A construct named by a short plain word (`case`, `if`, `use`) is mentioned only where the text
    writes it as code: the English word ("in this case") is not the construct."""
    return PLAIN_WORD.match(name) is not None and len(name) <= 4


def is_code_term(term: str) -> bool:
    """A code span that names something: ``case``, ``@moduledoc``, ``Rc<T>``, ``String.Chars``,
    ``IO.inspect/2``; not a command line, an expression, a lower-case field path (``spec.replicas``)
    or a placeholder of examples (``foo``, ``MyApp.Hello``)."""
    if _PLACEHOLDER.match(term) or _INSTANCE.match(term):
        return False
    if not 1 <= len(term) <= 40 or _CODE_FORBIDDEN.search(term) or not any(ch.isalpha() for ch in term):
        return False
    if "." in term.rstrip(".") and not term[0].isupper():
        return False
    bare = re.sub(r"/\d+$", "", term)
    return (
        re.fullmatch(r"[@:~]?[A-Za-z_][\w.!?-]*(?:<[\w, ]+>)?|~[a-zA-Z]|[<>|&^=+*-]{1,3}", bare) is not None
    )


def parses(documents: Sequence[Document]) -> dict[str, Parse]:
    """Every sentence's parse, by its verbatim text; one batched parser call for the increment.
    The parser is English: a document in another language is never parsed."""
    sentences = [s for d in english(documents) for s in d.sentences]
    parsed = parse_sentences([s.clean for s in sentences])
    return {s.text: p for s, p in zip(sentences, parsed, strict=True)}


def collect(
    documents: Sequence[Document], parsed: Mapping[str, Parse], vocabulary: Vocabulary
) -> dict[str, Candidate]:
    """Candidate terms by normalized key, with the signals that make them terms."""
    found: dict[str, Candidate] = {}

    def add(term: str, code: bool, signal: str, section: str = "", generic: bool = False) -> Candidate | None:
        term = term.strip()
        words = term.split()
        if (
            len(words) > 1
            and words[-1].casefold() in KIND_WORDS
            and is_identifier_like(" ".join(words[:-1]))
        ):
            term = " ".join(words[:-1])  # "ConfigMap object" is the ConfigMap
        if not (is_code_term(term) if code else _is_prose_term(term) or (generic and _is_generic_term(term))):
            return None
        key = term_key(term, code)
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
            for term, code in heading_terms(line):
                # "## case" over a section that writes `case`: the heading names the construct
                add(term, code or term in coded, "heading", heading.text)
        foreign = not is_english(language(document))
        section: str | None = None
        for sentence in document.sentences:
            opens_section, section = sentence.heading != section, sentence.heading
            if foreign:  # language-independent rules only: emphasized and definition-list terms
                for start, end, signal in independent_spans(sentence):
                    add(sentence.clean.text[start:end], False, signal)
                continue
            parse = parsed[sentence.text]
            clean = sentence.clean
            for match in _ABBREVIATION.finditer(clean.text):
                words, short = match.group("long").split(), match.group("short")
                # "The Container Runtime Interface (CRI)": the name is the words the letters spell
                long = next(
                    (
                        " ".join(words[i:])
                        for i in range(len(words))
                        if has_initials(" ".join(words[i:]), short)
                    ),
                    None,
                )
                if long is not None:
                    candidate = add(long, False, "abbreviation")
                    if candidate is not None:
                        candidate.aliases.add(short)
            for match in _ABBREVIATION_FIRST.finditer(clean.text):
                long, short = match.group("long"), match.group("short")
                if is_spelled_out(long, short):
                    candidate = add(long, False, "abbreviation")
                    if candidate is not None:
                        candidate.aliases.add(short)
            for mark in clean.marks:
                if mark.kind == "link" and links_its_page(clean.text[mark.start : mark.end], mark.ref):
                    # "[Ingress](/docs/concepts/services-networking/ingress/)", "[tail
                    # call](https://en.wikipedia.org/wiki/Tail_call)": the author links the phrase to
                    # the page about it, as a glossary does
                    label = clean.text[mark.start : mark.end]
                    code = any(m.kind == "code" and m.start == mark.start for m in clean.marks)
                    add(label, code, "linked")
            quotes = _QUOTED.finditer(clean.text) if len(QUOTED_ANY.findall(clean.text)) < VALUES else ()
            for match in quotes:
                # "tagged tuples", "let it crash": a phrase in quotes is a term being introduced
                head = parse.span_head(match.start("phrase"), match.end("phrase"))
                # a capitalized phrase in quotes is a title or an example's value ("Mary"), not a term
                titled = any(w[:1].isupper() for w in match.group("phrase").split())
                # 'the "classes" of storage they offer': quotes that hedge a word, not a term
                hedged = clean.text.startswith(" of ", match.end())
                if head is not None and not titled and not hedged and (head.pos in ("NOUN", "PROPN") or head.code):
                    add(match.group("phrase"), False, "quoted")
            for word in parse.words:
                if not (word.code or word.pos in ("NOUN", "PROPN")):
                    continue
                start, end = noun_phrase(parse, word)
                term = parse.text[start:end]
                marked = is_emphasized(clean, start, end)
                reading = read(parse, word, marked=marked)
                if word.code:
                    if reading.pattern == "called" or (
                        reading.rank == Rank.DEFINES and reading.pattern != "emphasis"
                    ):
                        add(term, True, "called" if reading.pattern == "called" else "defined")
                    if (
                        reading.rank in (Rank.DEFINES, Rank.DESCRIBES)
                        and not reading.forward
                        and reading.pattern in ("subject", "function", "purpose", "copula")
                        and is_classified(parse, word)
                    ):
                        # "The `kubectl` command-line tool supports …": the author says what it is
                        add(term, True, "classified")
                    continue
                if opens_section and _opens_its_section(reading, word, term, sentence.heading):
                    # "## Extensions" / "Extensions are software components that …": a word too
                    # common to be a term alone ("extension", "object") is one where a heading names
                    # it and its section opens by saying what it is
                    add(term, False, "heading", sentence.heading, generic=True)
                if marked and word.dep not in ("compound", "amod", "nmod", "poss", "npadvmod"):
                    add(term, False, "marked")
                elif (
                    reading.pattern == "called"
                    and not _NAME_GOES_ON.match(parse.text, end)
                    and not parse.text[:start].endswith(('" ', "” "))
                ):
                    # "… is known as Quality of Service (QoS) class": "Quality" alone is no name, nor
                    # "model" in 'is called the "IP-per-pod" model'
                    add(term, False, "called")
                elif reading.rank == Rank.DEFINES and reading.pattern in ("copula", "function", "purpose", "appositive"):
                    # "the `Enum` module provides …" defines `Enum`, a name written as code
                    add(term, any(w.code and w.start == start for w in parse.words), "defined")
                if vocabulary.is_known(term, strong=True) and normalize_name(term) in vocabulary.terms:
                    add(term, False, "known")
    _bare_names(found, documents)
    _letters_of_names(found)
    _other_names(found, documents)
    return found


def _letters_of_names(found: dict[str, Candidate]) -> None:
    """ "Host Compute Service (HCS)" and then "HCS is responsible for …": the letters are the long
    name's alias, and what is said of them is said of it (two candidates sharing a form would leave
    it to neither)."""
    for key, candidate in list(found.items()):
        if "abbreviation" not in candidate.signals or key not in found:
            continue
        for alias in sorted(candidate.aliases):
            short = found.get(term_key(alias, False))
            if short is not None and short is not candidate and not short.code:
                candidate.signals |= short.signals
                candidate.sections |= short.sections
                del found[term_key(alias, False)]


def _other_names(found: dict[str, Candidate], documents: Sequence[Document]) -> None:
    """ "An environment variable (also known as an env var) is …": the name in the parenthesis is
    another name of the candidate right before it, its alias (R25), and what is said of it is said
    of that candidate; a candidate of its own would make two concepts of one thing."""
    for document in documents:
        for sentence in document.sentences:
            text = sentence.clean.text
            for match in _OTHER_NAME.finditer(text):
                before = text[: match.start()].split()
                named = next(
                    (
                        c
                        for c in sorted(found.values(), key=lambda c: (-len(c.term), c.term))
                        if _ends_with(before, c)
                    ),
                    None,
                )
                if named is None:
                    continue
                for name in _NAME_SEPARATOR.split(match.group("names")):
                    name = _LEADING_ARTICLE.sub("", name.strip().strip("\"'“”")).strip()
                    if not name or term_key(name, False) == term_key(named.term, named.code):
                        continue
                    named.aliases.add(name)
                    key = next((k for k in (term_key(name, False), normalize_name(name)) if k in found), None)
                    if key is not None and found[key] is not named:
                        other = found.pop(key)
                        named.signals |= other.signals
                        named.sections |= other.sections
                        named.aliases |= other.aliases - {named.term}


def _ends_with(words: Sequence[str], candidate: Candidate) -> bool:
    """The words end with the candidate's name as a whole noun phrase, in either number: "An
    environment variable (also known as …)" under the title "Environment Variables", not "a literal
    `--size` parameter (also known as "flag")", a kind of parameter."""
    size = len(candidate.term.split())
    tail, before = " ".join(words[-size:]), (words[-size - 1].casefold() if len(words) > size else "")
    same = len(words) >= size and term_key(tail, candidate.code) == term_key(candidate.term, candidate.code)
    return same and (before in ("", "a", "an", "the", *QUANTIFIERS) or not before[-1].isalnum())


def _bare_names(found: dict[str, Candidate], documents: Sequence[Document]) -> None:
    """ "## `dbg/2`" and then "`dbg` is similar to …": a function named with its arity is also
    written without it, as code; that name is its alias unless it is a candidate of its own."""
    coded = {
        s.clean.text[m.start : m.end]
        for d in documents
        for s in d.sentences
        for m in s.clean.marks
        if m.kind == "code"
    }
    for candidate in found.values():
        bare = re.sub(r"/\d+$", "", candidate.term)
        if candidate.code and bare != candidate.term and bare in coded and normalize_name(bare) not in found:
            candidate.aliases.add(bare)


def term_key(term: str, code: bool) -> str:
    """One key for a term and its other number: "ConfigMaps" and "ConfigMap", "aliases" and "alias"."""
    if code:
        return normalize_name(term)
    words = term.split()
    singular = singular_forms(words[-1])
    if singular and not (len(words) == 1 and words[0].isupper()):
        words[-1] = singular[0]
    return normalize_name(" ".join(words))


# "Pod Q", "Node N", "Zone A": one instance of an example, named by a letter
_LETTERED = re.compile(r"^\S+(?: \S+)* [A-Z]$")


def _opens_its_section(reading: Reading, word: Word, term: str, heading: str) -> bool:
    """The first sentence of a section says what the term its heading names is: "## Extensions" /
    "Extensions are …"."""
    return (
        reading.rank == Rank.DEFINES
        and reading.pattern == "copula"
        and not (reading.forward or reading.anaphoric)
        and word.dep == "nsubj"
        and word.pos == "NOUN"
        and bool(heading.strip())
        and term_key(term, False) == term_key(HEADING_ATTRIBUTES.sub("", heading).strip(), False)
    )


def _is_generic_term(term: str) -> bool:
    """A common word (``STOP_TERMS``, ``GENERIC_NOUNS``) that names something all the same: one or two
    plain words."""
    return 1 <= len(term.split()) <= 2 and re.fullmatch(r"[A-Za-z][a-z]+(?: [a-z]+)?", term) is not None


def _is_prose_term(term: str) -> bool:
    if (
        not is_acceptable_term(term)
        or normalize_name(term) in STOP_TERMS
        or normalize_name(term) in GENERIC_NOUNS
    ):
        return False
    if _LETTERED.match(term) or _PLACEHOLDER.match(term):
        return False
    words = term.split()
    return not (len(words) == 1 and len(term) < 3 and not CJK.match(term))  # 容器: two characters, a word
