"""Which candidates become concepts (R20), precision first: the best form among a term's
readings (:func:`best_form`) and how much of a term the candidate must be for that form
(:func:`is_accepted`); a hub (a name most sources mention) is defined only by what it is.
:mod:`~wikigen.engines.offline.definitions` reads the mentions and picks the defining sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from wikigen.engines.offline.candidates import Candidate, term_key
from wikigen.engines.offline.discourse import points_back
from wikigen.engines.offline.documents import Document
from wikigen.engines.offline.findings import Found, Rank
from wikigen.engines.offline.labels import ENTRY, LABEL
from wikigen.engines.offline.lexicon import ADDITIVE_CONNECTIVES, DOCUMENTS, PEOPLE, alternation
from wikigen.engines.offline.markings import links_its_page
from wikigen.engines.offline.terms import Vocabulary, is_identifier_like

STRONG = frozenset({"marked", "heading", "called", "abbreviation", "known", "listed", "linked"})
HUB_SHARE = 0.6  # a name most of the increment's sources mention is a hub (the language, the product)
HUB_SOURCES = 3  # … where the increment holds at least this many sources; with fewer (two), a hub
HUB_SENTENCES = 3  # is a name each of them mentions in this many sentences, all through the text


def is_everywhere(found: Sequence[Found], documents: Sequence[Document]) -> bool:
    """A hub's spread over the increment's ``documents``, as :func:`is_spread` counts it ("Elixir" in
    two chapters of its guide; not "Unicode", named once in the second)."""
    sentences = Counter(source for source, _ in {(f.sentence.source, f.sentence.start) for f in found})
    return is_spread([sentences[d.source] for d in documents])


def is_spread(sentences: Sequence[int]) -> bool:
    """Given the sentences of each of the increment's sources that name a term: most of the sources
    name it (at least HUB_SOURCES of them), or, in an increment of two, both do, each in
    HUB_SENTENCES sentences, all through the text."""
    if len(sentences) >= HUB_SOURCES:
        return sum(1 for n in sentences if n) >= HUB_SHARE * len(sentences)
    return len(sentences) == 2 and all(n >= HUB_SENTENCES for n in sentences)


_IS = frozenset(["copula", "appositive", "purpose"])  # the forms that say what a term is (for)


# A remark on the side: a connective that adds to or refers back to what was said ("Note that …",
# "Furthermore, …", "As we have seen, …"), or "also"
_ASIDE_REMARK = re.compile(
    r"^(?:note that|keep in mind|remember|" + alternation(ADDITIVE_CONNECTIVES) + r"|"
    r"as (?:we (?:have )?(?:seen|said|saw|mentioned)|(?:already |previously )?mentioned|noted|said))\b"
    r"|\balso\b",
    re.IGNORECASE,
)


def best_form(found: list[Found]) -> list[Found]:
    """The readings of the best form, in text order: defines before describes before mentions; no
    forward reference; the term's own section first, and a sentence that stands alone before one that
    goes on from the sentence before it or leads into an example."""

    def form(f: Found) -> tuple[int, int, int, int, int, int, int, int]:
        # "Indexes start from zero:" leads into an example; a sentence that stands alone says more;
        # a sentence about the term opens with it, one that uses it names it on the way; of the
        # descriptions, what "the" one named is or does first, wherever it stands; of the
        # definitions, one that says what the term *is* ("Kubernetes is a portable … platform")
        # before one that says what it does ("Kubernetes provides the building blocks …")
        lead_in = f.sentence.text.rstrip().endswith(":")
        other = f.reading.rank == Rank.DESCRIBES and not f.reading.of_the_one
        # what it does before a sentence whose only sign is the author's emphasis ("_Tolerations_
        # are applied to pods" after "Tolerations allow the scheduler to …")
        does = 0 if f.reading.pattern in _IS else 2 if f.reading.pattern == "emphasis" else 1
        does = does if f.reading.rank == Rank.DEFINES else 0
        # a remark on the side ("Note that like the `alias` directive, `require` is also lexically
        # scoped", "`catch` can also be used within …") adds to what the text said of the term before
        aside = _ASIDE_REMARK.search(f.sentence.clean.text) is not None
        # of two that name the term, the one that stands alone before "And then … that virtual
        # file called X", which goes on from the sentence before it
        back = points_back(f.sentence.clean.text)
        return (
            f.reading.rank,
            does,
            int(aside),
            int(back),
            int(other),
            int(not f.own_section),
            int(lead_in),
            int(not f.opens),
        )

    # A sentence that points elsewhere ("… Chapter 18 covers") never defines a term.
    found = [f for f in found if not f.reading.forward]
    if not found:
        return []
    forms = [form(f) for f in found]  # each once: the sentence regexes are not free
    best = min(forms)
    return [f for f, shape in zip(found, forms, strict=True) if shape == best]


def is_accepted(
    candidate: Candidate, best: Found, count: int, vocabulary: Vocabulary, hub: bool, example: bool = False
) -> bool:
    """R20, precision first: how much of a term the candidate must be for the form of its best
    definition. A hub (a name most sources mention) is defined only by what it *is*, and so is a name
    the code of an example defines (``example``)."""
    if example and not (best.reading.rank == Rank.DEFINES and best.reading.pattern in _IS):
        # `Size` of "defprotocol Size do …": the example's own protocol is a concept only where the
        # text says what it is in general, not by what it expects or does in the example
        return False
    # `spec`, `effect`, `driverName`: field names and values, unless a heading or a naming sentence
    # makes the word a term (`case`, `alias`, `iodata`)
    if (
        candidate.code
        and re.fullmatch(r"[a-z][a-zA-Z0-9_]*", candidate.term)
        and not candidate.signals & {"heading", "called", "marked", "classified"}
    ):
        return False
    if (
        best.reading.pattern in ("function", "purpose", "subject")
        and candidate.term.split()[-1].casefold().rstrip("s") in PEOPLE
        and LABEL.match(best.sentence.text) is None
        and ENTRY.match(best.sentence.text) is None
    ):
        # "A cluster administrator creates …", "… deletes a VM by mistake" tell what a person does in a
        # procedure or a story; a list of roles ("**Application developer:** manages …") says what
        # each one does
        return False
    strong = bool(candidate.signals & STRONG) or ("quoted" in candidate.signals and count >= 2)
    named = candidate.code or is_identifier_like(candidate.term) or vocabulary.is_proper(candidate.term)
    rank = best.reading.rank
    if hub:
        return best.reading.pattern in ("copula", "called") and (strong or named)
    if rank == Rank.DEFINES and best.reading.pattern == "emphasis":
        # emphasis also stresses ("a variable's *existing value*"): a term is named again
        return count >= 2 or "heading" in candidate.signals
    if rank == Rank.DEFINES:
        if best.reading.pattern in ("copula", "called", "appositive"):
            return strong or named or count >= 2
        return strong or named or count >= 3
    if rank == Rank.DESCRIBES:
        # a described term needs the author's marking, and a plain common noun ("test",
        # "connection", "scaling") more than a description
        named_by_author = bool(candidate.signals & {"heading", "called", "abbreviation", "classified"})
        if best.reading.pattern == "use":
            # "You can use Storage Plugins to add …", "… scale a workload using a _HPA_": what the
            # reader can do with it says nothing of what it is, however the author named it
            return False
        if best.reading.pattern != "copula" and _opens_on_one(best, candidate):
            # "The middleware responds to …": what the one the text speaks of does, not the kind
            # ("The frobnicator is a device that …" still says what one is)
            return False
        return (
            (named_by_author and not _is_common_noun(candidate))
            or (named and count >= 3 and best.own_section)
            or (
                # "[Garbage collection](…/garbage-collection/) tidies up objects …": what a term does,
                # said in a sentence that opens with it where the author links it to its own page
                "linked" in candidate.signals
                and best.reading.pattern in ("function", "purpose", "subject")
                and best.opens
                and _is_linked_here(best, candidate)
                and not _is_common_noun(candidate)
                # "The [README](…) for the autoscaler lists …", "The [security checklist](…) has …":
                # a page of documentation the sentence points to
                and candidate.term.split()[-1].casefold() not in DOCUMENTS
            )
            or (
                # "The control plane manages the worker nodes …": what a term the author linked or
                # titled does, said of it as the subject, where the sources use it again and again
                "known" in candidate.signals
                and best.reading.pattern in ("function", "purpose", "copula")
                and count >= 3
            )
        )
    # A mere mention defines nothing, not even in the section its heading gives the term: under
    # "## `yield`", "The function can use `yield`, so …" only uses it
    return False


def _is_linked_here(found: Found, candidate: Candidate) -> bool:
    """The sentence opens with the term as a link to the page about it."""
    clean = found.sentence.clean
    return any(
        mark.kind == "link"
        and clean.text[: mark.start].strip().casefold() in ("", "the", "a", "an")
        and term_key(clean.text[mark.start : mark.end].strip("`"), candidate.code) == term_key(candidate.term, candidate.code)
        and links_its_page(clean.text[mark.start : mark.end], mark.ref)
        for mark in clean.marks
    )


def _opens_on_one(found: Found, candidate: Candidate) -> bool:
    """The sentence opens on "The" and the one-word term as a plain lower-case word ("The middleware
    responds …", "The gate opens …"; not "The `gate` …" nor "The cloud-controller-manager …")."""
    opening = re.match(r"the\s+([a-z]+)\b(?![-`])", found.sentence.text.strip(), re.IGNORECASE)
    return (
        opening is not None
        and opening.group(1).islower()
        and len(candidate.term.split()) == 1
        and term_key(opening.group(1), False) == term_key(candidate.term, False)
    )


def _is_common_noun(candidate: Candidate) -> bool:
    """One plain word ("test", "Preference") that only an emphasis, quotes or a tooltip marked."""
    words = candidate.term.split()
    return (
        not candidate.code
        and len(words) == 1
        and words[0][1:].islower()
        and not candidate.signals & {"heading", "called", "abbreviation"}
    )
