"""Sentences that lean on the text around them, and pages whose items are events (R20).

A definition must stand on its own: a sentence that continues the one before ("Then the tool …",
"That way our function …") or tells the reader a step ("You can run the tests with …") does not say
what its term is, however the author marked the term. Each form is a row with the sentence it must
fire on and one it must not (``tests/test_discourse.py``). A sentence that *names* the term ("… is
called X", "known as X", "we call these X") is never leaning: the engine quotes it with the sentence
it points back to.

Release notes and changelogs list events ("Fix support for …", "Upgrade …"): their items define
nothing and state no relation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from wikigen.engines.offline.lexicon import (
    BACK_POINTING_OPENERS,
    COUNT_WORDS,
    DOCUMENTS,
    NAMING_PHRASES,
    OPENING_CONNECTIVES,
    PLURAL_PRONOUNS,
    POINTING,
    POINTING_PRONOUNS,
    READER_PRONOUNS,
    SELF_REFERENCES,
    TEXT_ITSELF,
    alternation,
)
from wikigen.engines.offline.parse import Parse, Word

# "Then …", "And then …", "That way …", "With that, …": the sentence goes on from the one before
_CONNECTIVE = re.compile(
    rf"^(?:{alternation(OPENING_CONNECTIVES)}|as you (?:can )?see|as we (?:saw|have seen))\b(?!-)",
    re.IGNORECASE,
)
# "… is called X", "known as", "we call these X", "refers to": a naming sentence
# "Also known as X.", "Or called X.": a naming participle with no subject of its own
_NAMING_FRAGMENT = re.compile(rf"^(?:also |or |and )?(?:{alternation(NAMING_PHRASES)})\b", re.IGNORECASE)
_NAMING = re.compile(
    rf"\b(?:{alternation(NAMING_PHRASES)}|refers? to|we (?:call|say|name)|is named|are named)\b", re.I
)
# Pages of events, not of things: their file name or title
_EVENTS = re.compile(r"(?:^|[/ _-])(?:release[-_ ]?notes|change[-_ ]?log|what'?s[-_ ]new)$", re.IGNORECASE)


# "These two functions …", "Similarly, …", "In the example above, …": a passage that opens by pointing
# at text before it; "This page explains …", "this overview", "this project" point at the text itself
_POINTING_WORD = re.compile(
    rf"^(?:{alternation(POINTING)})\b(?!\s+(?:{alternation(TEXT_ITSELF | DOCUMENTS | SELF_REFERENCES)})s?\b)",
    re.IGNORECASE,
)
_BACK_POINTER = re.compile(rf"^(?:{alternation(BACK_POINTING_OPENERS)})\b", re.IGNORECASE)


def points_back(text: str) -> bool:
    """The visible ``text`` opens by pointing at what a reader saw before it — a connective ("Here we
    have …", "Then …") or a pointing phrase ("These two functions …", "In the example above, …") —
    not at the page itself ("This page explains …"). Text alone, no parse: a summary pick must stand
    without the passage before it."""
    opening = text.lstrip("*_> ")
    return opens_on_connective(opening) or _POINTING_WORD.match(opening) is not None or opens_pointing_back(opening)


def points_back_by_noun(parse: Parse) -> bool:
    """A pointing word on a noun, anywhere in the sentence ("Kubernetes does this classification based
    on …", "Most commonly, those paths will be …"): the noun is what the text before named; "this page"
    is the page itself."""
    return any(
        w.dep in ("det", "amod", "predet")
        and w.lemma.casefold() in POINTING
        and parse.words[w.head].pos == "NOUN"
        and parse.words[w.head].lemma.casefold() not in TEXT_ITSELF | DOCUMENTS | SELF_REFERENCES
        for w in parse.words
    )


def points_back_by_pronoun(parse: Parse) -> bool:
    """A plural pronoun with no plural noun before it in the sentence ("We are going to explore them
    in detail now."): what it stands for is in the text before."""
    for word in parse.words:
        if word.pos in ("NOUN", "PROPN") and word.tag in ("NNS", "NNPS"):
            return False
        if word.pos == "PRON" and word.text.casefold() in PLURAL_PRONOUNS:
            return True
    return False


def opens_on_connective(text: str, parse: Parse | None = None, term: Word | None = None) -> bool:
    """The visible ``text`` opens on a connective that goes on from the sentence before."""
    return _CONNECTIVE.match(text.lstrip("*_> ")) is not None


def opens_pointing_back(text: str, parse: Parse | None = None, term: Word | None = None) -> bool:
    """The visible ``text`` opens on a phrase that points at what came before it ("In the examples
    above, …", "Likewise …", "The above code …")."""
    return _BACK_POINTER.match(text.lstrip("*_> ")) is not None


def _reader_is_subject(text: str, parse: Parse | None, term: Word | None = None) -> bool:
    """The main clause's subject is the reader or the writers: a step, a use, a plan."""
    if parse is None:
        return False
    return any(
        root.dep == "ROOT"
        and any(w.dep in ("nsubj", "nsubjpass") and w.text.casefold() in READER_PRONOUNS for w in parse.children(root.i))
        for root in parse.words
    )


def _pronoun_is_subject(text: str, parse: Parse | None, term: Word | None = None) -> bool:
    """The sentence opens on its main clause's subject, a bare pronoun pointing back ("That's a …",
    "It provides …"); not the "it" of "It is possible to …", which stands for the clause that
    follows."""
    if parse is None:
        return False
    for root in parse.words:
        if root.dep != "ROOT":
            continue
        children = parse.children(root.i)
        extraposed = any(w.dep in ("ccomp", "xcomp", "acomp", "csubj") for w in children)
        for w in children:
            pointing = w.i == 0 and w.dep in ("nsubj", "nsubjpass") and w.text.casefold() in POINTING_PRONOUNS
            if pointing and not parse.children(w.i) and not (w.text.casefold() == "it" and extraposed):
                return True
    return False


def continues(text: str, parse: Parse | None, term: Word | None = None) -> bool:
    """The sentence goes on from text the reader saw before it, cut by a code block: it opens on an
    ellipsis, or on a lower-case verb, preposition or conjunction ("is considered an …")."""
    if text.startswith(("...", "…")):
        return True
    if parse is None or not parse.words:
        return False
    first = parse.words[0]
    return first.text[:1].islower() and not first.code and first.pos in ("AUX", "VERB", "ADP", "PART", "CCONJ", "SCONJ")


def _leads_in(text: str, parse: Parse | None, term: Word | None = None) -> bool:
    """The sentence ends on a colon, leading into what follows it, and its term stands somewhere
    other than its opening: "Elixir supports `true` and `false` as booleans:" is about what comes
    next; "The `~U` sigil allows developers to create a DateTime in the UTC timezone:" opens on the
    term and says what it does."""
    if not text.rstrip().endswith(":") or parse is None or term is None:
        return False
    before = [w.start for w in parse.children(term.i) if w.dep in ("det", "compound", "amod", "poss") and w.start < term.start]
    return text[: min(before, default=term.start)].strip(" *_`[\"'“”").casefold() not in ("", "the", "a", "an")


def _counts_what_follows(text: str, parse: Parse | None, term: Word | None = None) -> bool:
    """The sentence ends on a colon right after a counted plural object of its main verb ("Module
    attributes serve three purposes:", "X provides several resources to Y:"): what the term does is
    the list that follows, which the quote leaves out."""
    if not text.rstrip().endswith(":") or parse is None:
        return False
    words = parse.words
    for noun in words:
        if noun.dep not in ("dobj", "pobj") or noun.tag != "NNS":
            continue
        counted = any(
            w.dep == "nummod" or (w.dep in ("amod", "det") and w.lemma.casefold() in COUNT_WORDS)
            for w in parse.children(noun.i)
        )
        verb = words[noun.head]
        for _ in range(3):  # "… due to several reasons:": up through the prepositions to the verb
            if verb.pos in ("VERB", "AUX") or verb.head == verb.i:
                break
            verb = words[verb.head]
        main = verb.dep == "ROOT" or (verb.dep == "conj" and words[verb.head].dep == "ROOT")
        if counted and main and not any(w.pos in ("VERB", "AUX") for w in words[noun.i + 1 :]):
            return True
    return False


@dataclass(frozen=True, slots=True)
class Lean:
    """One way a sentence leans on its surroundings, with a sentence it must fire on and one it must not."""

    name: str
    what: str
    test: Callable[[str, Parse | None, Word | None], bool]
    fires_on: str
    not_on: str
    term: str = ""  # the word of both examples read as the term, for a form that depends on where it stands


LEANS: tuple[Lean, ...] = (
    Lean(
        "continues",
        "goes on from text before it, cut by a code block (an ellipsis, a lower-case verb first)",
        continues,
        "is considered a gizmo by the scheduler.",
        "Gizmos are considered by the scheduler.",
    ),
    Lean(
        "pronoun_subject",
        "its main clause's subject is a pronoun pointing back (that, it, this, they)",
        _pronoun_is_subject,
        "That is a gizmo in a function.",
        "It is possible to store a gizmo in a cache.",
    ),
    Lean(
        "connective",
        "opens on a connective that goes on from the sentence before",
        opens_on_connective,
        "Then the scheduler picks a node for the new gizmo.",
        "The scheduler picks a node for every new gizmo.",
    ),
    Lean(
        "back_pointer",
        "opens on a phrase that points at the text before it (the above, in the example above, likewise)",
        opens_pointing_back,
        "In the example above, every gizmo returned a list.",
        "The example gizmo returns a list.",
    ),
    Lean(
        "reader_subject",
        "its main clause's subject is the reader or the writers (you, we): a step or a use",
        _reader_is_subject,
        "You can store the gizmo in a cache to read it faster.",
        "A gizmo is a small cache that stores recent reads.",
    ),
    Lean(
        "lead_in",
        "ends on a colon, leading into the list or code that follows, and does not open on the term",
        _leads_in,
        "By default, the scheduler keeps one gizmo for every node:",
        "The gizmo keeps one entry for every node:",
        "gizmo",
    ),
    Lean(
        "counted_lead_in",
        "ends on a colon right after a counted object of its main verb: what it does is the list that follows",
        _counts_what_follows,
        "The gizmo serves three purposes:",
        "The gizmo compares a value against many patterns until it finds one:",
    ),
)


def leaning(text: str, parse: Parse | None, term: Word | None = None) -> str | None:
    """The name of the first form by which ``text`` (visible) leans on its surroundings; None where
    it stands on its own, names its term, or says in a clause of the term's own what the term is or
    does ("… you can use *seed trays* that hold one seedling each": ``term`` is that word)."""
    if _NAMING.search(text) and not _NAMING_FRAGMENT.match(text):
        return None  # "These are called X" names X; "Also known as X." alone names nothing
    if parse is not None and term is not None and any(
        w.dep in ("relcl", "acl") for w in parse.children(term.i)
    ):
        return None
    return next((lean.name for lean in LEANS if lean.test(text, parse, term)), None)


def lists_events(source: str, title: str) -> bool:
    """A release-notes or changelog page: by its file name or its title, or by a folder it is in
    ("change_log/release-2.6", "about/releases/9.0", "changelog/index")."""
    *folders, name = source.split("/")
    return (
        _EVENTS.search(name) is not None
        or _EVENTS.search(title.strip()) is not None
        or any(_EVENTS.search(folder) or folder.casefold() in ("release", "releases") for folder in folders)
    )
