"""Drawing an increment's relations (R20, R23): the named concepts' mentions in each sentence of
the English sources (as code where a plain word names a construct, the page's own concept where "This
command …" names it), what each sentence states between them
(:func:`wikigen.engines.offline.statements.stated`), one relation per (subject, predicate, object)
evidenced by the sentences stating it, where the fitted decision keeps it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from wikigen.engines.offline.acceptance import HUB_SHARE, HUB_SOURCES, is_spread
from wikigen.engines.offline.candidates import is_mentioned_only_as_code
from wikigen.engines.offline.decision import Decision
from wikigen.engines.offline.discourse import lists_events
from wikigen.engines.offline.documents import Document, Guard, Json
from wikigen.engines.offline.features import RelationView
from wikigen.engines.offline.language import is_english, language
from wikigen.engines.offline.lexicon import CLASSIFIERS, PAGE_SUBJECT_KINDS, alternation
from wikigen.engines.offline.parse import Parse
from wikigen.engines.offline.relations import Mention, Mentions
from wikigen.engines.offline.statements import stated
from wikigen.engines.offline.text import Sentence, visible
from wikigen.model.ids import normalize_name, normalize_predicate

RELATION_QUOTES = 3
# a name the sentences write with its capital in this share of its mentions after a sentence's first
# word (and at least this many), "a Job", "the Job controller", is a proper kind: in lower case
# ("performs a job") the word is the common noun
PROPER_SHARE = 0.85
PROPER_MENTIONS = 5


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
THIS_PAGE = re.compile(r"^(this (?:" + alternation(PAGE_SUBJECT_KINDS) + r"))\b", re.IGNORECASE)


_LEAD = re.compile(r"\s*#[ \t]+[^\n]+\n\s*(?P<quote>(?:>[^\n]*\n?)+)")


def lead_lines(document: Document, parsed: Mapping[str, Parse]) -> list[Sentence]:
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


def draw_relations(
    documents: Sequence[Document],
    parsed: Mapping[str, Parse],
    named: Sequence[tuple[str, Sequence[str]]],
    existing: set[tuple[str, str, str]],
    guard: Guard,
    resolve: Callable[[str], str],
    decision: Decision,
    sources: int | None = None,
) -> list[Json]:
    """R20/R23: one relation per (subject, predicate, object), evidenced by the sentences stating it,
    where the fitted decision keeps it. The first ``sources`` documents (all, by default) are the
    increment's sources; the rest are fragments, the lines the anchors' definitions cite."""
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
    found_in: dict[str, Counter[str]] = {}  # the sentences of each source that name a concept
    proper: dict[str, list[bool]] = {}
    written: dict[str, set[str]] = {}  # each concept's mentions as the sentences write them
    mentioned = []
    capitalized_inside: set[str] = set()  # refs some sentence writes capitalized after its first word
    by_name = {normalize_name(form): ref for ref, forms in named for form in forms}
    for document in documents:
        if not is_english(language(document)):
            continue  # no parse, so no relation from a document in another language
        if lists_events(document.source, document.title):
            continue  # a release-notes page lists events, not what things are
        own = by_name.get(normalize_name(document.title))
        for sentence in [*document.sentences, *lead_lines(document, parsed)]:
            if document.is_step(sentence):
                # "1. The kubelet tells the API server to remove the `Pod` resource.": one step of a
                # procedure happens to one object at one time; it states no general fact
                continue
            found = [
                m
                for m in mentions.find(sentence.clean.text)
                if _is_named_as_written(
                    m, sentence, code_only, parsed.get(sentence.text), bare_keys.get(m.ref, set())
                )
            ]
            itself = THIS_PAGE.match(sentence.clean.text)
            if own is not None and itself is not None:
                # "This command is an alias of `tar`" on the page of `gtar`: the page's own concept
                found = sorted([*found, Mention(itself.start(1), itself.end(1), own)], key=lambda m: m.start)
            mentioned.append((sentence, found))
            for ref in {mention.ref for mention in found}:
                found_in.setdefault(ref, Counter())[document.source] += 1
            for mention in found:
                written.setdefault(mention.ref, set()).add(sentence.clean.text[mention.start : mention.end])
                if _is_capitalized_inside(mention, sentence):
                    capitalized_inside.add(mention.ref)
                if mention.start > 0:
                    proper.setdefault(mention.ref, []).append(sentence.clean.text[mention.start].isupper())
    # A hub (the language, the product) is a proper name most of the increment's sources mention.
    hubs = frozenset(
        ref
        for ref, counts in found_in.items()
        if len(documents) >= HUB_SOURCES
        and len(counts) >= HUB_SHARE * len(documents)
        and proper.get(ref)
        and sum(proper[ref]) >= 0.8 * len(proper[ref])
    )
    # A product (or a language) is a name most of the increment's sources mention (a fragment is no
    # source of it), as acceptance.is_spread counts them, always written one way, every word
    # capitalized: "Kubernetes", "Elixir"; not a kind, written "Pods" too, nor "the Job controller"
    increment = sorted({d.source for d in documents[: len(documents) if sources is None else sources]})
    products = frozenset(
        ref
        for ref, counts in found_in.items()
        if is_spread([counts[source] for source in increment])
        and len(written[ref]) == 1
        and all(word[:1].isupper() for word in next(iter(written[ref])).split())
    )
    # A field or a label written as lower-case code ("two labels: `namespace` and …",
    # "the `map` computation") is another sense than the capitalized name of a concept
    capitalized = {ref for ref, forms in named if forms and forms[0][:1].isupper()}
    # … and a capitalized word inside a sentence ("as Typer allows …", the library) another sense than
    # a concept named in lower case (`typer`, the command); where the sources write it so, the
    # capital that opens a sentence is that sense too ("Typer installs Rich"), while "Kube-scheduler
    # selects …" is `kube-scheduler`, written in lower case everywhere else
    lowered = {ref for ref, forms in named if forms and forms[0][:1].islower()}
    # … and where the sentences write a name with its capital nearly everywhere ("a Job", "the Job
    # controller"), the name in lower case is the common noun of another sense ("performs a job")
    singular = {ref: forms[0].casefold() for ref, forms in named if forms}
    proper_kinds = {
        ref
        for ref, flags in proper.items()
        if len(flags) >= PROPER_MENTIONS and sum(flags) >= PROPER_SHARE * len(flags)
    }
    for sentence, found in mentioned:
        guard.check()
        text = sentence.clean.text
        found = [
            m
            for m in found
            if not (text[m.start].islower() and m.ref in capitalized and _is_written_as_code(m, sentence))
            and not (
                m.ref in proper_kinds
                and text[m.start : m.end].casefold() == singular.get(m.ref)
                and text[m.start].islower()
                and not _is_written_as_code(m, sentence)
            )
            and not (
                m.ref in lowered
                and (
                    _is_capitalized_inside(m, sentence)
                    or (m.ref in capitalized_inside and text[m.start].isupper() and not _is_written_as_code(m, sentence))
                )
            )
        ]
        for relation in stated(parsed[sentence.text], found, hubs, kinds, products):
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
        if decision.weighs:
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


_OPENERS = " \t\n\"'*_([`>-"  # what may stand before a sentence's first word


def _is_capitalized_inside(mention: Mention, sentence: Sentence) -> bool:
    """The sentence writes the mention with a capital after its first word, not as code."""
    text = sentence.clean.text
    return (
        text[mention.start].isupper()
        and bool(text[: mention.start].strip(_OPENERS))
        and not _is_written_as_code(mention, sentence)
    )


def _is_written_as_code(mention: Mention, sentence: Sentence) -> bool:
    return any(m.kind == "code" and m.start <= mention.start and mention.end <= m.end for m in sentence.clean.marks)

