"""The name a sentence gives a term (R20): "… is called X", "X, known as …", "we call these X", and
whether what it names is the term itself, a symbol of the name's own kind or a name it had before.
Used by :mod:`wikigen.engines.offline.readings`.
"""

from __future__ import annotations

from wikigen.engines.offline.lexicon import (
    CALLING_VERBS,
    COUNT_WORDS,
    DEMONSTRATIVES,
    FORMERLY,
    NAMING_VERBS,
    ORDINALS,
)
from wikigen.engines.offline.parse import Parse, Word
from wikigen.engines.offline.subjects import determiner


def called(parse: Parse, head: Word) -> bool | None:
    """The term is the name a sentence gives: "… is called X", "X, known as …", "called X".

    Returns whether the subject that is named is anaphoric ("This set is called …"), or None.
    """
    words = parse.words
    governor = words[head.head]
    verb: Word | None = None
    if head.dep in ("oprd", "attr", "dobj") and governor.lemma in CALLING_VERBS:
        verb = governor
    elif head.dep == "pobj" and governor.lemma == "as" and words[governor.head].lemma in CALLING_VERBS - {"call"}:
        verb = words[governor.head]  # "known as X" names X; "call modules as scripts" runs them
    if verb is None or head.dep == "dobj":
        return None  # "Name the volume anything", "may be called multiple times": not the name
    if _is_bracketed_other_name(parse, verb):
        return None  # "… are universally unique identifiers (also known as UUIDs)": not what is defined
    if verb.tag == "VBG":
        return None  # "The directive allows referring to `Math.List` as `List`": an act of naming, in use
    if head.lemma.casefold() == "time" or any(
        w.dep in ("nummod", "amod") and w.lemma.casefold() in COUNT_WORDS for w in parse.children(head.i)
    ):
        return None  # "a hook may be called multiple times": how often, not a name
    if verb.dep == "acl" and words[verb.head].pos not in ("NOUN", "PROPN"):
        return None  # "For each named port, …": a port with a name, not a name given
    children = parse.children(verb.i)
    if (
        verb.tag in ("VBZ", "VBP", "VBD")
        and not any(w.dep in ("auxpass", "dobj") for w in children)
        and not any(w.dep == "nsubj" and w.lemma.casefold() in ("we", "you", "people") for w in children)
    ):
        return None  # "interpolation calls the `to_string` function": a call, not a name
    if verb.lemma == "name" and (
        head.code or (verb.dep == "acl" and determiner(parse, words[verb.head]) in ("a", "an"))
    ):
        # "a struct named `User`", "Services named `mydb`", "A custom resource named SampleDB": an
        # example's instance ("an agent called X" names a thing of its own)
        return None
    subject = next((w for w in children if w.dep in ("nsubjpass", "nsubj")), None)
    if subject is not None and subject.lemma.casefold() in ("we", "you", "people"):
        # "We call other cases *voluntary disruptions*": the cases are what is named
        subject = next((w for w in children if w.dep == "dobj"), None)
        if subject is not None and any(
            w.dep in ("amod", "det") and w.lemma.casefold() in ("other", "such")
            for w in parse.children(subject.i)
        ):
            return True  # the other ones than those the sentence before named
    if verb.dep in ("relcl", "acl") and (subject is None or subject.tag in ("WDT", "WP")):
        subject = words[verb.head]  # "Those conveniences, which we call here X": the noun named
    if subject is None:
        return False
    # "… while the second is referred to as _vertical scaling_", "The first approach is referred to
    # as …", "The remote service is called a *webhook backend*": one of those just named, or the one
    # the text spoke of (not "The first set of tools is called …", which says which)
    bare = not any(w.dep in ("prep", "relcl", "acl", "appos") for w in parse.children(subject.i))
    ordinal = subject.lemma.casefold() in ORDINALS or (
        bare and any(w.dep == "amod" and w.lemma.casefold() in ORDINALS for w in parse.children(subject.i))
    )
    # "the `=` operator is actually called …" names its subject itself
    named = any(w.dep == "compound" for w in parse.children(subject.i))
    the_named = bare and not named and subject.pos == "NOUN" and determiner(parse, subject) == "the"
    return (
        ordinal
        or the_named
        or subject.lemma.casefold() in DEMONSTRATIVES
        or determiner(parse, subject) in DEMONSTRATIVES
    )


def _is_bracketed_other_name(parse: Parse, verb: Word) -> bool:
    """ "Kubernetes UIDs are universally unique identifiers (also known as UUIDs)", "Part of
    `azure-cli` (also known as `az`)": a bracketed other name of the noun before it, which the
    sentence defines only when that noun is its subject ("An environment variable (also known as an
    env var) is …"); "generic servers (called `GenServer`)" names one of them, not another name."""
    words = parse.words
    if verb.lemma == "call":
        return False
    before = verb.i - 1
    while before >= 0 and words[before].dep == "advmod" and words[before].head == verb.i:
        before -= 1  # "(also known as …)", "(otherwise referred to as …)"
    if before < 0 or words[before].text != "(":
        return False
    named = words[verb.head]
    return named.pos not in ("NOUN", "PROPN") or named.dep not in ("nsubj", "nsubjpass")


def is_symbol_named(parse: Parse, head: Word) -> bool:
    """ "In Elixir, the `=` operator is called the match operator": what is named is a symbol of the
    name's own kind (an operator named an operator), with nothing said of it but the symbol."""
    verb = parse.words[head.head]
    subject = next((w for w in parse.children(verb.i) if w.dep == "nsubjpass"), None)
    if subject is None or subject.lemma.casefold() != head.lemma.casefold():
        return False
    modifiers = parse.children(subject.i)
    return any(w.dep == "compound" and w.code for w in modifiers) and all(
        w.dep == "det" or (w.dep == "compound" and w.code) for w in modifiers
    )


def introduces_only(parse: Parse, head: Word) -> bool:
    """ "Elixir brings the concept of module attributes from Erlang.": the sentence only gives the
    notion ``head`` names, with no clause saying what it is for ("Elixir provides the concept of
    `nil`, to indicate the absence of a value" says it)."""
    words = parse.words
    notion = words[words[head.head].head]
    if notion.dep != "dobj":
        return False  # "The concept of X refers to …" says it
    return not any(
        w.dep in ("acl", "relcl", "advcl") and any(a.dep == "aux" or a.dep.startswith("nsubj") for a in parse.children(w.i))
        for clause in (words[notion.head], head)
        for w in parse.children(clause.i)
    )


def is_former_name(parse: Parse, head: Word) -> bool:
    """ "Prior to 1.27, this feature was known as _X_", "… formerly called X": the name it had."""
    words = parse.words
    governor = words[head.head]
    if head.dep == "pobj" and governor.lemma == "as":
        governor = words[governor.head]
    elif head.dep not in ("oprd", "attr"):
        return False
    children = parse.children(governor.i)
    return governor.lemma in CALLING_VERBS and (
        any(w.dep == "auxpass" and w.tag == "VBD" for w in children)
        or any(w.dep == "advmod" and w.lemma.casefold() in FORMERLY for w in children)
    )


_QUOTES = "\"'”’*`"


def naming_participle(parse: Parse, head: Word) -> Word | None:
    """The participle that gives ``head`` as a name to the noun it hangs on ("a file known as a
    _manifest_", "a process called _Binding_"), or None."""
    verb = parse.words[head.head]
    if head.dep == "pobj":  # "known as X"
        verb = parse.words[verb.head]
    return verb if verb.dep == "acl" and verb.lemma.casefold() in NAMING_VERBS else None


def is_named_on_the_way(parse: Parse, head: Word) -> bool:
    """ "… run Elixir's Interactive Shell, called IEx", "… an API for building generic servers
    (called `GenServer`)", "… in a process called _Binding_": a thing the sentence names on its way
    to something else: the named noun is an object, and nothing in the sentence says what it is or
    does. A relative clause does ("a set of worker machines, called nodes, that run …"), so does a
    copula or "have" ("Python packages have a standard format called a "wheel""), and a quoted noun
    is a term of its own whose member is named ("… to a "virtual file" called "standard output"")."""
    words = parse.words
    verb = naming_participle(parse, head)
    if verb is None:
        return False
    noun = words[verb.head]
    after = parse.text[noun.end : noun.end + 1]
    if noun.dep not in ("dobj", "pobj") or (after and after in _QUOTES):
        return False
    if any(w.dep in ("relcl", "acl") and w.i != verb.i for w in [*parse.children(noun.i), *parse.children(head.i)]):
        return False
    if any(w.dep == "relcl" for w in parse.children(verb.i)) or _is_followed_by_relative(parse, head):
        return False
    clause = noun
    while clause.pos not in ("VERB", "AUX") and clause.head != clause.i:
        clause = words[clause.head]
    return clause.lemma.casefold() not in ("be", "have") and not any(w.dep == "expl" for w in parse.children(clause.i))


def _is_followed_by_relative(parse: Parse, head: Word) -> bool:
    """ "…, called nodes, that run …": a relative clause opens right after the name, wherever the
    parser hung it."""
    return any(w.tag == "WDT" and w.dep in ("nsubj", "nsubjpass") and head.i < w.i <= head.i + 2 for w in parse.words)


def names_several(parse: Parse, head: Word) -> bool:
    """ "The two metrics are called `X` and `Y`.", "… two phases called Reserve and Unreserve,
    respectively": one naming gives several names at once, and which thing each one names is left
    to the reader ("… are also called a **flag** or a **switch**" gives one thing two names)."""
    children = parse.children(head.i)
    joined = any(w.dep == "conj" and w.pos in ("NOUN", "PROPN") for w in children) and any(
        w.dep == "cc" and w.lemma.casefold() == "and" for w in children
    )
    return joined or any(w.lemma.casefold() == "respectively" for w in parse.words)
