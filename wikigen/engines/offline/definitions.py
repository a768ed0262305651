"""Which sentence defines each candidate term, and which candidates become concepts (R20).

Every mention of a candidate (:mod:`wikigen.engines.offline.candidates`) in the increment is *read* from its
sentence's parse (:mod:`wikigen.engines.offline.readings`); the definition is the best reading by its form
first (defines, describes, mentions; in the term's own section first; never a sentence that points
elsewhere or a conditional one), then by the ONNX model's similarity to the term. Precision first:
a plain noun needs a defining sentence and a second mention, a described term needs a heading, a
naming or an abbreviation, and a hub (a proper name most sources mention) is defined only by what
it is.

The values read live in :mod:`~wikigen.engines.offline.findings`; the best form and the acceptance
rules in :mod:`~wikigen.engines.offline.acceptance`; a list entry's label in
:mod:`~wikigen.engines.offline.labels`; a candidate's own section in
:mod:`~wikigen.engines.offline.sections`; what a text says on the side or weighs up (which defines
nothing) in :mod:`~wikigen.engines.offline.asides`; the span a definition quotes in
:mod:`~wikigen.engines.offline.quotes`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from wikigen.engines.offline import frames
from wikigen.engines.offline.acceptance import best_form, is_accepted, is_everywhere
from wikigen.engines.offline.asides import EVALUATION, admonitions, evaluations
from wikigen.engines.offline.candidates import Candidate, is_mentioned_only_as_code, term_key
from wikigen.engines.offline.discourse import leaning, points_back_by_noun, points_back_by_pronoun
from wikigen.engines.offline.documents import Document, Scorer
from wikigen.engines.offline.findings import Found, Rank, Reading
from wikigen.engines.offline.labels import ENTRY, LABEL, LISTED_LABEL, has_own_subject
from wikigen.engines.offline.language import is_english, language
from wikigen.engines.offline.leads import AMBIGUOUS_NAME
from wikigen.engines.offline.lexicon import NAMING_NOUNS
from wikigen.engines.offline.markings import independent_spans, is_emphasized, is_quoted
from wikigen.engines.offline.parse import Parse, Word
from wikigen.engines.offline.quotes import introducing, joined, quote_span
from wikigen.engines.offline.readings import read
from wikigen.engines.offline.relations import Mentions
from wikigen.engines.offline.sections import is_own_section
from wikigen.engines.offline.subjects import is_hyphened
from wikigen.engines.offline.terms import (
    Definition,
    Vocabulary,
    head_variants,
    is_acceptable_term,
    is_identifier_like,
    unqualified_names,
)
from wikigen.engines.offline.text import CJK, Sentence, visible
from wikigen.model.ids import normalize_name

DEFINITION_POOL = 6  # sentences of the best form ranked by the model per term


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
        asides = admonitions(document.body)
        weighed = evaluations(document.body)
        previous: Sentence | None = None
        for sentence in document.sentences:
            before, previous = previous, sentence
            if foreign:
                for ref, reading in _read_without_parse(sentence, candidates, mentions):
                    counts[ref] = counts.get(ref, 0) + 1
                    own = is_own_section(sentence.heading, candidates[ref])
                    readings.setdefault(ref, []).append(Found(ref, sentence, reading, own))
                continue
            # a sentence that weighs the term up (a pro or con): nothing there defines it
            weighing = EVALUATION.match(sentence.heading) is not None or any(
                a <= sentence.start < b for a, b in weighed
            )
            parse = parsed[sentence.text]
            prior = parsed[before.text] if before is not None else None
            ambiguous = AMBIGUOUS_NAME.match(sentence.clean.text) is not None  # "`open` can refer to multiple …"
            for mention in mentions.find(sentence.clean.text):
                candidate = candidates[mention.ref]
                head = parse.span_head(mention.start, mention.end)
                if head is None:
                    continue
                if candidate.code and is_mentioned_only_as_code(candidate.term) and not head.code:
                    continue  # `case`, `if`, `use`: the word in prose is not the construct
                counts[mention.ref] = counts.get(mention.ref, 0) + 1
                if mention.start == 0 and _is_instruction(sentence, candidate):
                    continue
                marked = is_emphasized(sentence.clean, mention.start, mention.end) or is_quoted(
                    sentence.clean.text, mention.start, mention.end
                )
                reading = read(parse, head, marked=marked)
                if _is_other_case(candidate, sentence, mention.start, mention.end):
                    # "`ready` is a condition …" for the term `Ready`, "a function called `size`" for
                    # the protocol `Size`: code written with other capitals names another identifier
                    reading = Reading("mention", Rank.MENTIONS)
                if candidate.code and _has_other_arity(candidate.term, sentence.clean.text):
                    # "`trunc/1` identifies the function … whereas `trunc/2` identifies …": a sentence
                    # on how a name and an arity name a function, with one function as its example
                    reading = Reading("mention", Rank.MENTIONS)
                if reading.introduced and not introducing(document, sentence, [candidate.term, *head_variants(candidate.term)]):
                    # "Elixir brings the concept of module attributes from Erlang." alone says nothing of them
                    reading = Reading("mention", Rank.MENTIONS)
                if ambiguous:
                    reading = Reading("mention", Rank.MENTIONS)
                if reading.rank != Rank.DEFINES and any(
                    start <= sentence.start < end for start, end in asides
                ):
                    # "{{< note >}} SSH tunnels are currently deprecated, …": what a note says on the
                    # side describes nothing (a note may still name a term: "… is called a *kubeconfig file*")
                    reading = replace(reading, forward=True)
                if reading.rank == Rank.DEFINES and reading.anaphoric and (
                    joined(document, before, sentence) is None
                    or (prior is not None and (points_back_by_noun(prior) or points_back_by_pronoun(prior)))
                ):
                    # "_Ephemeral volumes_ are designed for these use cases." opening a paragraph: what
                    # "these" points to is not in the block, nor in "Kubernetes does this classification
                    # …" before "This is known as X"; alone it leans on what it does not quote
                    reading = replace(reading, rank=Rank.MENTIONS, anaphoric=False)
                if reading.rank in (Rank.DEFINES, Rank.DESCRIBES) and weighing:
                    # "Advantages compared to imperative commands: - Object configuration provides a
                    # template …": a pro or a con of the term, weighed against another, not what it is
                    reading = replace(reading, rank=Rank.MENTIONS, of_the_one=False)
                lean = leaning(sentence.clean.text, parse, head)
                if reading.rank < Rank.MODIFIES and (
                    lean in _LEANING_ANY or (lean is not None and reading.pattern in (*_WEAK, "mention"))
                ):
                    # "Then you can call the tool …", "You can keep a *gizmo* in a cache …": a step,
                    # or a use the author only emphasized, says nothing of what the term is, not
                    # even under the term's own heading
                    reading = replace(reading, rank=Rank.MODIFIES, of_the_one=False)
                label = LABEL.match(sentence.text) or LISTED_LABEL.match(sentence.text)
                if label is not None and mention.start >= len(visible(label.group("label")).text):
                    # "**SELinux**: Privileged containers run as …" is an entry about SELinux
                    reading = Reading("labelled", Rank.MODIFIES)
                elif label is not None and reading.pattern == "emphasis":
                    # "**DNS**: Create a headless service …": a bold label names an entry, and the entry
                    # defines it only as a list definition does (terms.list_definitions)
                    reading = Reading("label", Rank.MENTIONS)
                elif (entry := ENTRY.match(sentence.text)) is not None and (
                    mention.end <= len(visible(entry.group(0)).text.strip()) and has_own_subject(parse, head)
                ):
                    # "**Lightweight:** Service accounts exist …", "**Usernames:** requests from …
                    # are ignored": the entry says something of its own subject, not what its label is
                    reading = Reading("label", Rank.MENTIONS)
                own = is_own_section(sentence.heading, candidate)
                opens = sentence.clean.text[: mention.start].strip().casefold() in ("", "the", "a", "an")
                narrowed_by = _kind_of(parse, head, mention.start) if reading.rank in (Rank.DEFINES, Rank.DESCRIBES) else ""
                readings.setdefault(mention.ref, []).append(
                    Found(mention.ref, sentence, reading, own, opens, narrowed_by)
                )
    order = {d.source: i for i, d in enumerate(documents)}
    by_source = {d.source: d for d in documents}
    pools: list[tuple[str, Candidate, list[Found]]] = []
    hubs = {
        key
        for key, candidate in candidates.items()
        if is_everywhere(readings.get(key, ()), documents)
        and not candidate.code
        and candidate.term[:1].isupper()
        and vocabulary.is_proper(candidate.term)
    }
    hub_terms = {candidates[key].term.casefold() for key in hubs}
    example_names = frozenset().union(*(d.example_names for d in documents))
    _fold_product_names(readings, counts, candidates, hub_terms)
    for key in sorted(readings):
        candidate = candidates[key]
        # "Container Storage Interface (CSI) plugins provide …" is about CSI plugins, not plugins;
        # "Kubernetes Pods are …" about Pods (the product's name narrows nothing)
        found = [
            replace(f, reading=Reading("mention", Rank.MENTIONS))
            if f.narrowed_by not in ("", *hub_terms)
            else f
            for f in readings[key]
        ]
        best = best_form(found)
        hub = key in hubs
        example = candidate.code and candidate.term.partition("/")[0] in example_names
        if not best or not is_accepted(candidate, best[0], counts.get(key, 0), vocabulary, hub, example):
            continue
        pools.append((key, candidate, best[:DEFINITION_POOL]))
    # Only a choice needs the model: one embedding call for every query and sentence to rank.
    scorer.prepare(
        text
        for _, c, pool in pools
        if len(pool) > 1
        for text in [_query(c), *(f.sentence.text for f in pool)]
    )
    accepted = []
    texts = [d.body for d in documents]
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
        start, quote = quote_span(chosen, by_source, [candidate.term, *head_variants(candidate.term)])
        pattern = "copula" if chosen.reading.rank == Rank.DEFINES else "described"
        unqualified = unqualified_names(candidate.term, candidate.code, "marked" in candidate.signals, hub_terms, texts)
        accepted.append(
            Definition(
                candidate.term,
                chosen.sentence.source,
                start,
                quote,
                pattern,
                tuple(sorted({*candidate.aliases, *unqualified})),
                candidate.code,
                whole=quote != chosen.sentence.text,
                vouched=tuple(alias for alias in unqualified if not is_acceptable_term(alias)),
                form=chosen.reading.pattern,
            )
        )
    return accepted


def _is_instruction(sentence: Sentence, candidate: Candidate) -> bool:
    """A one-word prose candidate read from the verb of a step ("Clone an existing repository:")."""
    return not candidate.code and " " not in candidate.term and frames.is_step_lead_in(sentence.clean.text)


def _fold_product_names(
    readings: dict[str, list[Found]],
    counts: dict[str, int],
    candidates: Mapping[str, Candidate],
    hubs: AbstractSet[str],
) -> None:
    """ "Kubernetes UIDs are universally unique identifiers" under "## UIDs": in the section its
    heading gives a term, the product's name (a hub, casefolded in ``hubs``) before the term says
    only whose it is, so what the sentence says of "Kubernetes UIDs" it says of the UIDs. Elsewhere
    ("The ngrok Kubernetes Ingress Controller is …", "CSI ephemeral volumes allow …") the longer
    name stays a name of its own."""
    for key in sorted(readings):
        long = candidates[key]
        head, _, rest = long.term.partition(" ")
        if long.code or head.casefold() not in hubs or not rest:
            continue
        short_key = term_key(rest, False)
        short = candidates.get(short_key)
        if short is None or short_key == key or short.code:
            continue
        moved = [f for f in readings[key] if is_own_section(f.sentence.heading, short) and f.opens]
        if not moved:
            continue
        readings[key] = [f for f in readings[key] if f not in moved]
        readings.setdefault(short_key, []).extend(replace(f, key=short_key, own_section=True) for f in moved)
        counts[short_key] = counts.get(short_key, 0) + len(moved)
        counts[key] = counts.get(key, 0) - len(moved)
        if not readings[key]:
            del readings[key]


def _kind_of(parse: Parse, head: Word, start: int) -> str:
    """The noun right before a subject term, outside it, that names a kind of it ("CSI plugins",
    "Windows nodes"), or the one a "for" after it names ("plugins for kubectl"), lower-cased; ""
    when there is none (or it is code, a name of its own)."""
    if head.dep not in ("nsubj", "nsubjpass"):
        return ""
    inside = {head.i, *(w.i for w in parse.children(head.i) if w.start >= start)}
    for w in parse.words:
        if w.end <= start and w.head in inside and is_hyphened(parse, w):
            return w.text.casefold()  # "Container-specific operating systems help …": a subkind
    for w in parse.children(head.i):
        if (
            w.dep in ("compound", "nmod")
            and w.pos in ("NOUN", "PROPN")
            and w.end <= start
            and not w.code
            and w.lemma.casefold() not in NAMING_NOUNS  # "the term “webhook” refers to …" names it
        ):
            return w.text.casefold()
    for prep in parse.children(head.i):
        # "Plugins for kubectl are separate binaries …": what a kind for one thing is, not the kind
        if prep.dep == "prep" and prep.text.casefold() == "for" and prep.start > head.start:
            for w in parse.children(prep.i):
                if w.dep == "pobj" and w.pos in ("NOUN", "PROPN"):
                    return w.text.casefold()
    return ""


def _is_other_case(candidate: Candidate, sentence: Sentence, start: int, end: int) -> bool:
    """The mention at ``[start, end)`` is code written with other capitals than every form of the
    candidate (its term, its aliases, their other numbers)."""
    clean = sentence.clean
    if not any(m.kind == "code" and m.start <= start and end <= m.end for m in clean.marks):
        return False
    forms = {candidate.term, *candidate.aliases}
    return clean.text[start:end] not in forms | {v for form in forms for v in head_variants(form)}


def _has_other_arity(term: str, text: str) -> bool:
    """The text names the function ``term`` (``name/arity``) with another arity too."""
    named = re.fullmatch(r"(?P<name>.+)/(?P<arity>\d+)", term)
    if named is None:
        return False
    arities = re.findall(re.escape(named.group("name")) + r"/(\d+)", text)
    return any(arity != named.group("arity") for arity in arities)


def finder(candidates: Mapping[str, Candidate]) -> Mentions:
    """Mentions of the candidates by term, alias and (prose) the other number; a form two
    candidates share names neither. Code names are found as written, stop words included, and so is
    a common word its section made a term ("## Extensions" / "Extensions are …")."""
    owners: dict[str, set[str]] = {}
    for key, candidate in candidates.items():
        for form in [candidate.term, *candidate.aliases]:
            variants = [form] if candidate.code else [form, *head_variants(form)]
            for variant in variants:
                if (
                    candidate.code
                    or form == candidate.term
                    or is_acceptable_term(variant)
                    or is_identifier_like(variant)
                ):
                    owners.setdefault(normalize_name(variant), set()).add(key)
    return Mentions({form: next(iter(keys)) for form, keys in owners.items() if len(keys) == 1})


# Readings whose only sign is the author's emphasis, or what the reader does with the term
_WEAK = ("emphasis", "use")
# Forms of leaning that no reading survives: the sentence is about what the text before named, or
# leads into what comes after it
_LEANING_ANY = ("connective", "back_pointer", "continues", "pronoun_subject", "lead_in", "counted_lead_in")

def _query(candidate: Candidate) -> str:
    return f"What is {candidate.term}?"


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
    for start, end, signal in independent_spans(sentence):
        key = term_key(clean.text[start:end], False)
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
            found.append((ref, Reading(defining[(start, end)], Rank.DEFINES)))
        elif is_emphasized(clean, start, end):
            found.append((ref, Reading("emphasis", Rank.DEFINES)))
        else:
            found.append((ref, Reading("mention", Rank.MENTIONS)))
    return found
