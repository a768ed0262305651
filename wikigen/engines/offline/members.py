"""A member picked out of a kind (R20): "The simplest kind of queue is a ring buffer", "One of the
queues is the ring buffer", "the simplest queue" name one member of the kind, and the copula's
predicate nominal is it.
"""

from __future__ import annotations

from collections.abc import Mapping

from wikigen.engines.offline import endpoints
from wikigen.engines.offline.lexicon import CLASS_NOUNS, EXAMPLE_NOUNS, ONE_OF
from wikigen.engines.offline.parse import Parse, Word


def kind_named(parse: Parse, noun: Word, refs: Mapping[int, str]) -> list[Word]:
    """The words in ``refs`` that name the kind ``noun`` picks one member of: "the simplest kind of
    queue", "another type of queues", "an example of a queue", "one of the queues" (none where the
    phrase names an attribute, "the type of a queue", or every member, "each kind of queue")."""
    lemma = noun.lemma.casefold()
    det = endpoints.determiner_of(parse, noun)
    children = parse.children(noun.i)
    if lemma == "one" and noun.pos == "NUM":
        plural = True  # "one of the queues"
    elif lemma in CLASS_NOUNS:
        one = det in ONE_OF or any(w.dep == "nummod" and w.lemma.casefold() == "one" for w in children)
        modified = any(w.dep == "amod" for w in children)
        if not one or (det == "the" and not modified and lemma not in EXAMPLE_NOUNS):
            return []
        plural = False
    else:
        return []
    found: list[Word] = []
    for prep in (w for w in children if w.dep == "prep" and w.text.casefold() == "of"):
        for pobj in (w for w in parse.children(prep.i) if w.dep == "pobj"):
            if plural and pobj.tag not in ("NNS", "NNPS"):
                continue
            if lemma not in EXAMPLE_NOUNS and not plural and endpoints.determiner_of(parse, pobj):
                continue  # "the type of a queue": what the queue has, not a kind of queue
            found.extend(w for w in endpoints.stand_ins(parse, [pobj], refs) if w.i in refs)
    return found


def kind_members(parse: Parse, verb: Word, refs: Mapping[int, str]) -> list[tuple[str, str]]:
    """(member, kind) for "The simplest kind of queue is a ring buffer", "One of the queues is the
    ring buffer": the copula's subject picks one member of a kind, the predicate nominal is it."""
    if verb.lemma != "be":
        return []
    children = parse.children(verb.i)
    kinds = [k for w in children if w.dep == "nsubj" for k in kind_named(parse, w, refs)]
    if not kinds:
        return []
    attrs = endpoints.with_conjuncts(parse, [w for w in children if w.dep == "attr"])
    members = [w for w in endpoints.stand_ins(parse, attrs, refs) if w.i in refs]
    return [(refs[m.i], refs[k.i]) for m in members for k in kinds]


def is_superlative(parse: Parse, noun: Word) -> bool:
    """ "the simplest queue", "the most common queue": one member picked out of the kind ("most
    queues", without "the", speaks of many)."""
    if endpoints.determiner_of(parse, noun) != "the":
        return False
    return any(
        w.dep == "amod"
        and (
            (w.tag == "JJS" and w.lemma.casefold() not in ("most", "least"))
            or any(a.dep == "advmod" and a.lemma.casefold() in ("most", "least") for a in parse.children(w.i))
        )
        for w in parse.children(noun.i)
        if w.i < noun.i
    )
