"""What the complement of a copula says of its subject (R20): a class that defines it, or a status,
a verdict, a capability or a value that only describes it ("X is deprecated", "X is a good fit").
"""

from __future__ import annotations

from wikigen.engines.offline import subjects
from wikigen.engines.offline.lexicon import (
    MATURITY,
    NOT_DEFINING_ATTRIBUTES,
    RANKING_WORDS,
    VERDICT_NOUNS,
    WEIGHTY_ADJECTIVES,
)
from wikigen.engines.offline.parse import Parse, Word


def is_maturity(parse: Parse, attr: Word) -> bool:
    """ "an *alpha feature*", "a CNCF project at the Sandbox level": how far a thing is, not what it is."""
    children = parse.children(attr.i)
    if any(w.lemma.casefold() in MATURITY for w in children if w.dep in ("amod", "compound")):
        return True
    return any(
        w.dep == "prep"
        and w.text.casefold() == "at"
        and p.dep == "pobj"
        and p.lemma.casefold() in ("level", "stage")
        for w in children
        for p in parse.children(w.i)
    )


def is_defining_attr(parse: Parse, attr: Word) -> bool:
    """ "is a cache …", "are extensions built on …"; not "is the same", "is one of the most …"."""
    if attr.lemma.casefold() in NOT_DEFINING_ATTRIBUTES or not (
        attr.pos in ("NOUN", "PROPN") or _is_nominal(parse, attr)
    ):
        return False
    if is_maturity(parse, attr):
        return False  # "X is an alpha feature and only enabled when …": its status, not what it is
    if is_verdict(parse, attr):
        return False  # "`if` is a useful alternative", "Processes are the most common answer to …"
    determiner = subjects.determiner(parse, attr)
    if attr.lemma.casefold() == "part" and (
        determiner == ""
        or any(w.dep == "amod" and w.lemma.casefold() in WEIGHTY_ADJECTIVES for w in parse.children(attr.i))
    ):
        # "are part of the winter stock" says where it belongs, "is a central part of the farm" how
        # much it matters there; "is a reusable part of the line", "is a part that …" what it is
        return False
    if determiner in ("a", "an", "the", "any", "one"):
        return True
    return determiner == "" and attr.tag in ("NNS", "NNPS", "NN", "NNP")


def is_weighed_class(parse: Parse, attr: Word) -> bool:
    """ "PIDs are a fundamental resource on nodes", "A bitstring is a fundamental data type in Elixir,
    denoted with …": a class weighed by how much it matters, with no clause of its own that says
    what the thing is for ("a key security control to ensure that …" does)."""
    children = parse.children(attr.i)
    weighed = any(  # not "key/value pairs", where "key" is half of a pair of nouns
        w.dep == "amod"
        and w.lemma.casefold() in WEIGHTY_ADJECTIVES
        and parse.text[w.end : w.end + 1] not in ("/", "-")
        for w in children
    )
    return weighed and not any(
        w.dep == "relcl"
        or (
            w.dep in ("acl", "advcl", "xcomp")
            and any(c.dep == "aux" and c.text.casefold() == "to" for c in parse.children(w.i))
        )
        for w in [*children, *parse.children(attr.head)]  # the infinitive may hang on the copula
    )


def _is_nominal(parse: Parse, attr: Word) -> bool:
    """ "An atom is a constant whose value is …": a word the tagger took for an adjective is a noun
    where an article opens it and a clause or phrase qualifies it."""
    children = parse.children(attr.i)
    return (
        attr.pos == "ADJ"
        and subjects.determiner(parse, attr) in ("a", "an")
        and any(w.dep in ("relcl", "acl", "prep") and w.i > attr.i for w in children)
    )


def is_capability(parse: Parse, complement: Word) -> bool:
    """ "… is responsible for configuring routes", "… are able to associate …": what a thing does,
    said with an adjective."""
    lemma, children = complement.lemma.casefold(), parse.children(complement.i)
    if lemma == "responsible":
        # not "… are responsible for that": what "that" is, the sentence before says
        return any(
            w.dep == "prep"
            and w.text.casefold() == "for"
            and not any(o.dep == "pobj" and o.pos == "PRON" for o in parse.children(w.i))
            for w in children
        )
    return lemma == "able" and any(w.dep == "xcomp" for w in children)


def is_of_any(parse: Parse, attr: Word) -> bool:
    """ "the first element of a list", "the number of arguments of functions": the attribute says
    what it is of any one of a kind (an indefinite or bare plural object of "of")."""
    return any(
        w.dep == "prep"
        and w.text.casefold() == "of"
        and any(
            o.dep == "pobj"
            and (
                subjects.determiner(parse, o) in ("a", "an")
                or (not subjects.determiner(parse, o) and o.tag == "NNS")
            )
            for o in parse.children(w.i)
        )
        for w in parse.children(attr.i)
    )


def is_verdict(parse: Parse, attr: Word) -> bool:
    """The attribute judges the subject rather than say what it is: a verdict ("a useful
    alternative", "a good fit") or a ranking ("the most common answer", "the preferred method")."""
    children = parse.children(attr.i)
    if attr.lemma.casefold() in VERDICT_NOUNS:
        return True
    return any(
        w.tag == "JJS"
        or (w.dep == "advmod" and w.lemma.casefold() == "most")
        or (w.dep == "amod" and w.lemma.casefold() in RANKING_WORDS)
        for m in children
        for w in [m, *parse.children(m.i)]
    )


def defines_another(parse: Parse, head: Word) -> bool:
    """The sentence is "Y is a …" of a subject Y that is not ``head`` (nor holds it)."""
    root = next((w for w in parse.words if w.dep == "ROOT"), None)
    if root is None or root.lemma != "be":
        return False
    children = parse.children(root.i)
    subject = next((w for w in children if w.dep == "nsubj"), None)
    return (
        subject is not None
        and head.i not in {w.i for w in parse.subtree(subject.i)}
        and subject.pos in ("NOUN", "PROPN")
        and any(w.dep == "attr" and is_defining_attr(parse, w) for w in children)
    )


def is_choice_of_values(parse: Parse, copula: Word) -> bool:
    """ "The policy can either be `Retain` or `Delete`", "… is `true` or `false`": the values it
    takes, each a literal (a code span or a name), which say nothing of what it is."""
    attr = next((w for w in parse.children(copula.i) if w.dep == "attr"), None)
    if attr is None:
        return False
    alternatives = [attr, *(w for w in parse.children(attr.i) if w.dep == "conj")]
    return len(alternatives) >= 2 and all(w.code or w.pos == "PROPN" for w in alternatives)
