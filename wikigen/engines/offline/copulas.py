"""What a copula says of its subject term (R20): "A **trait** is a …" defines it, "The form is …"
describes one form, "X is different from Y", "X can either be `A` or `B`", "`if` is a useful
alternative" or "Labels without a prefix are private" only mention it, "The node controller is
responsible for …" says what it does. :func:`~wikigen.engines.offline.readings.read` asks this of
a term that is the subject of "be" in a main clause, alone or as a later conjunct of that subject
(:func:`subject_copula`: "iodata and chardata are lists of …").
"""

from __future__ import annotations

from wikigen.engines.offline import complements, frames, subjects, uses
from wikigen.engines.offline.findings import Rank, Reading
from wikigen.engines.offline.parse import Parse, Word


def copula_reading(parse: Parse, head: Word, governor: Word, *, marked: bool, forward: bool) -> Reading:
    """The reading of ``head``, the subject of the copula ``governor``; ``forward``: the sentence
    points elsewhere."""
    attr = next((w for w in parse.children(governor.i) if w.dep in ("attr", "acomp")), None)
    if attr is not None and attr.dep == "attr" and attr.code:
        # "`intro` is an optional `str`", "The possible classes are `Guaranteed`, `Burstable` …":
        # a value, a type or members written as code, not what the term is
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if (
        attr is not None
        and attr.dep == "attr"
        and complements.is_defining_attr(parse, attr)
        and not frames.is_hedged(parse, governor)
        # "A policy can be a rule …": what it may be, not what it is
        and not frames.is_possibility(parse, governor)
    ):
        # "The form is …" speaks of one form; "A form is …", "Forms are …" of the kind
        # "The _scheduling framework_ is a …": a term the author marks where it says what it is
        # is the one thing it names, not one of a kind
        restricted = subjects.is_restricted(parse, head)
        # "The head is the first element of a list": the one of any list, a kind after all
        definite = (
            subjects.is_definite(parse, head) and not marked and not complements.is_of_any(parse, attr)
        )
        # "For example, a Set is …"; "X is a fundamental Y": how much it matters, then a class
        weak = restricted or definite or frames.is_example_frame(parse) or complements.is_weighed_class(parse, attr)
        return Reading(
            "copula",
            Rank.DESCRIBES if weak else Rank.DEFINES,
            # "This boundary is an authorization rule …" says it of what the sentence before set up
            anaphoric=uses.points_back(parse, governor) or uses.has_pointed_subject(parse, governor),
            forward=forward,
            of_the_one=weak and not restricted,
        )
    if frames.is_comparison(parse, governor):
        return Reading(
            "mention", Rank.MENTIONS, forward=forward
        )  # "X is different from Y", "… is faster than"
    if complements.is_choice_of_values(parse, governor):
        # "X can either be `A` or `B`": its values
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if attr is not None and attr.dep == "attr" and complements.is_verdict(parse, attr):
        # "`if` is a useful alternative", "Bundles are the most common answer to …": a verdict on
        # it, or how it ranks
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if attr is not None and attr.dep == "acomp" and complements.is_capability(parse, attr):
        # "Associative data structures are able to associate a key …", "The node controller is
        # responsible for updating …": what it does, said with an adjective
        # "Any process that knows the `pid` above will be able to …": some processes
        restricted = subjects.is_restricted(parse, head) or subjects.is_narrowed(parse, head)
        weak = (
            restricted
            or subjects.is_definite(parse, head)
            or frames.is_example_frame(parse)
            or frames.is_hedged(parse, governor)
            or frames.is_possibility(parse, governor)
        )
        return Reading(
            "function",
            Rank.DESCRIBES if weak else Rank.DEFINES,
            forward=forward,
            of_the_one=weak and not restricted,
        )
    if attr is not None and attr.dep == "acomp":
        # "Public functions are globally available", "Labels without a prefix are private": a property
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if frames.is_part_of(parse, governor):
        # "Kubernetes volume health monitoring is part of how Kubernetes implements …": where it
        # belongs, not what it is or does
        return Reading("mention", Rank.MENTIONS, forward=forward)
    # "A policy can be a rule for …": what it may be describes it
    return Reading("subject", Rank.DESCRIBES, forward=forward)


def subject_copula(parse: Parse, head: Word) -> Word | None:
    """The main clause's "be" whose subject ``head`` is, alone or as a later conjunct joined by "and"
    when the complement is a plural class each conjunct is one of ("iodata and chardata are lists of
    binaries and integers"); None otherwise: a collective complement ("are a pair") or another verb
    ("HNS and HCS work together to …" is what both do at once) says nothing of each."""
    words = parse.words
    first = head
    while first.dep == "conj":
        first = words[first.head]
    verb = words[first.head]
    if first.dep != "nsubj" or verb.lemma != "be" or verb.i == first.i:
        return None
    if not frames.is_main_clause(parse, verb):
        return None
    if first is head:
        return verb
    joined = any(w.dep == "cc" and w.lemma.casefold() == "and" for w in parse.children(first.i))
    attr = next((w for w in parse.children(verb.i) if w.dep == "attr"), None)
    return verb if joined and attr is not None and attr.tag in ("NNS", "NNPS") else None
