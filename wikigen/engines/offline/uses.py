"""What a sentence's verb does with a term (R20): the purpose it serves, what it is used for, what
offers, groups or puts it to use, and the text that covers it. The relative clause that says what it
does ("a tool that …") is read by :mod:`~wikigen.engines.offline.relatives`.
"""

from __future__ import annotations

import re

from wikigen.engines.offline import endpoints, frames, namings, subjects
from wikigen.engines.offline.lexicon import (
    CALLING_VERBS,
    DEMONSTRATING_VERBS,
    DEMONSTRATIVES,
    EACH,
    GROUPING_VERBS,
    HAVING_VERBS,
    MEANS_PREPOSITIONS,
    NAMING_VERBS,
    OFFERING_VERBS,
    OVERVIEW_VERBS,
    PLACED_VERBS,
    POINTING,
    PURPOSE_NOUNS,
    READER_SUBJECTS,
    SETTING_NOUNS,
    SPEAKING_VERBS,
    TEXT_ITSELF,
    USERS,
    USING_VERBS,
)
from wikigen.engines.offline.parse import Parse, Word


def has_stated_purpose(parse: Parse, head: Word) -> bool:
    """ "A ReplicaSet's purpose is to maintain …", "The role of a gate is to …": the sentence says
    what the term is for."""
    words = parse.words
    if head.dep == "poss":
        noun = words[head.head]
    elif head.dep == "pobj" and words[head.head].text.casefold() == "of":
        noun = words[words[head.head].head]
    else:
        return False
    if noun.lemma.casefold() not in PURPOSE_NOUNS or noun.dep != "nsubj":
        return False
    verb = words[noun.head]
    if (
        verb.lemma != "be"
        or not frames.is_main_clause(parse, verb)
        or frames.is_hedged(parse, verb)
        or frames.is_negated(parse, noun)
    ):
        return False
    return any(w.dep in ("xcomp", "attr", "ccomp", "acomp") for w in parse.children(verb.i))


def is_for_this(parse: Parse, verb: Word) -> bool:
    """The purpose clause of ``verb`` acts on something named before: "… to set this field"."""
    return any(
        subjects.determiner(parse, w) in DEMONSTRATIVES
        for clause in parse.children(verb.i)
        if clause.dep in ("advcl", "xcomp")
        for w in parse.children(clause.i)
        if w.dep in ("dobj", "nsubjpass")
    )


def is_use_for_purpose(parse: Parse, verb: Word) -> bool:
    """ "We use X whenever we want to …", "Use X to …": what the object is for."""
    if verb.lemma != "use" or frames.is_hedged(parse, verb) or frames.is_negated(parse, verb):
        return False
    children = parse.children(verb.i)
    if verb.tag == "VBD" or any(w.dep == "aux" and w.lemma == "have" for w in children):
        return False  # "Here we have used recursion to traverse a list": what an example did
    subject = next((w for w in children if w.dep in ("nsubj", "nsubjpass")), None)
    # "You use X to …", "Elixir developers use the `Mix` build tool to compile code": the people who
    # use it tell what it is for (not "Most developers …": some of them)
    if subject is not None and not (
        subject.lemma.casefold() in USERS
        and not subjects.is_some_of(parse, subject)
        and subjects.determiner(parse, subject) not in EACH
    ):
        return False
    objects = [w.i for w in children if w.dep == "dobj"]
    return any(
        w.dep in ("advcl", "xcomp")
        and w.pos in ("VERB", "AUX")
        and w.lemma not in DEMONSTRATING_VERBS
        and all(w.i > i for i in objects)  # "To set the location, use the `--x` arguments" is advice
        # "You use ephemeral containers to inspect services …", "Elixir developers use the `Mix`
        # build tool to compile code": one job people do with it; "We use X whenever we want to …"
        # says when it is the thing to use, and "We'll use *X* to refer to …" what X names
        and not (subject is not None and w.dep == "xcomp" and w.lemma not in CALLING_VERBS)
        for w in children
    )


def is_kind_of_offered_members(parse: Parse, head: Word) -> bool:
    """ "supports `true` and `false` as booleans": the kind (a bare plural) that the named members
    are offered as."""
    verb = parse.words[parse.words[head.head].head]
    if (
        verb.lemma not in OFFERING_VERBS
        or head.tag != "NNS"
        or subjects.determiner(parse, head)
        or frames.is_hedged(parse, verb)
    ):
        return False
    members = [w for w in parse.children(verb.i) if w.dep == "dobj"]
    members += [w for m in members for w in parse.children(m.i) if w.dep == "conj"]
    return len(members) >= 2 and all(w.code for w in members)


def grouped_into(parse: Parse, head: Word) -> Word | None:
    """ "we group several functions into modules", "Containers are bundled into Pods": the verb that
    gathers things into the kind ``head`` (a bare plural), said in a main clause, not of one case."""
    verb = parse.words[parse.words[head.head].head]
    if verb.dep == "dobj":  # "group several widgets into panels", "into" attached to the object
        verb = parse.words[verb.head]
    if (
        verb.lemma not in GROUPING_VERBS
        or verb.dep != "ROOT"
        or head.tag != "NNS"
        or subjects.determiner(parse, head)
    ):
        return None
    if (
        frames.is_hedged(parse, verb)
        or frames.is_negated(parse, verb)
        or verb.tag == "VBD"
        or frames.is_present_perfect(parse, verb)
    ):
        return None
    children = parse.children(verb.i)
    subject = next((w for w in children if w.dep in ("nsubj", "nsubjpass")), None)
    gathered = next((w for w in children if w.dep in ("dobj", "nsubjpass")), None)
    # what is gathered is many ("several functions"), not one thing divided ("Gateway API is organized
    # into different API kinds")
    many = gathered is not None and gathered.tag in ("NNS", "NNPS")
    told = subject is None or subject.dep == "nsubjpass" or subject.lemma.casefold() in ("we", "you")
    return verb if many and told else None


def is_offered_as(parse: Parse, verb: Word) -> bool:
    """ "… provides macros *as a mechanism for* …": the verb's "as" names the kind of its object."""
    for prep in parse.children(verb.i):
        if prep.dep == "prep" and prep.text.casefold() == "as":
            kind = next((w for w in parse.children(prep.i) if w.dep == "pobj"), None)
            if kind is not None and kind.pos == "NOUN" and subjects.determiner(parse, kind) in ("a", "an"):
                return not frames.is_hedged(parse, verb) and not frames.is_negated(parse, kind)
    return False


def has_pointed_subject(parse: Parse, verb: Word) -> bool:
    """The subject of ``verb``'s clause points back ("these operators", "this set"; not "this
    document", the text itself)."""
    return any(
        w.dep in ("nsubj", "nsubjpass")
        and subjects.determiner(parse, w) in POINTING
        and w.lemma.casefold() not in TEXT_ITSELF
        for w in parse.children(verb.i)
    )


def points_back(parse: Parse, verb: Word) -> bool:
    """What ``verb`` says, it says of something the sentence before named: "_Ephemeral volumes_ are
    designed for *these* use cases", "… are syntactic sugar for *such* constructs"."""
    nouns: list[Word] = []
    for w in parse.children(verb.i):
        if w.dep in ("dobj", "attr", "oprd", "prep", "agent"):
            # the complement and what its prepositions name, down through a gerund ("provides
            # facilities for working with *such* paths"), not into a clause of its own
            nouns += [n for n in _phrase(parse, w) if n.pos in ("NOUN", "PROPN")]
    return any(
        w.lemma.casefold() not in TEXT_ITSELF
        and any(d.dep in ("det", "predet", "amod") and d.text.casefold() in POINTING for d in parse.children(w.i))
        for w in nouns
    )


def _phrase(parse: Parse, word: Word) -> list[Word]:
    """``word`` and the words under it, leaving out clauses of their own (relative, adverbial)."""
    found = [word]
    for child in parse.children(word.i):
        if child.dep not in ("relcl", "advcl", "ccomp", "acl", "conj", "appos", "parataxis"):
            found += _phrase(parse, child)
    return found


def has_parts_listed(parse: Parse, verb: Word) -> bool:
    """ "The service consists of two parts: the server … and the agents …", "Each context has three
    parameters: …", "… has two methods, namely …": a number of parts, then the parts — what it is
    made of, not what it is ("A Pod contains one or more containers" lists none)."""
    if verb.lemma.casefold() not in HAVING_VERBS:
        return False
    parts = [w for w in parse.children(verb.i) if w.dep == "dobj"]
    for prep in parse.children(verb.i):
        if prep.dep == "prep" and prep.text.casefold() == "of":  # "consists of two parts"
            parts += [w for w in parse.children(prep.i) if w.dep == "pobj"]
    return any(
        subjects.is_counted(parse, part)
        and re.match(r"\s*(?::|,\s*namely\b)", parse.text[part.end :]) is not None
        for part in parts
    )


def is_covered_by_text(parse: Parse, head: Word) -> bool:
    """ "This document describes _ephemeral volumes_", "This page gives an overview of X": the text
    says what it covers, which is no definition of what it covers (unless a gloss follows the term:
    "… an overview of X: a special type of container that …")."""
    words = parse.words
    verb = head
    while verb.pos not in ("VERB", "AUX") and verb.head != verb.i:
        verb = words[verb.head]
    if (
        verb.i == head.i
        or verb.lemma.casefold() not in OVERVIEW_VERBS
        or subjects.has_colon_gloss(parse, head)
    ):
        return False  # "This document uses the term X to refer to …", "… about X: containers that …"
    return any(
        w.dep == "nsubj"
        and w.lemma.casefold() in TEXT_ITSELF
        and subjects.determiner(parse, w) in POINTING
        for w in parse.children(verb.i)
    )


def is_put_to_use(parse: Parse, head: Word) -> bool:
    """ "… scale a workload using a _X_", "… is to run an *X* in Pods": the reader's use of a
    thing, where nothing says what it does ("use _workload resources_ that manage …", "uses
    *capabilities* to divide …" do)."""
    governor = parse.words[head.head]
    if (
        head.dep == "pobj"
        and governor.text.casefold() in MEANS_PREPOSITIONS
        and not frames.is_in_relative_clause(parse, governor)
    ):
        # "… resources handled by Kubernetes via _structured parameters_": the means of another thing
        return not any(  # "via a _sieve_ that sorts …" says what it does; "(introduced in 1.30)" is an aside
            w.dep in ("relcl", "acl") and "(" not in parse.text[head.end : w.start]
            for w in parse.children(head.i)
        )
    means = frames.is_by_means(parse, governor)
    if governor.lemma.casefold() not in USING_VERBS and not means:
        return False
    # "In case you need …, *throws* should be used": the passive of the reader's use, as advice
    used = head.dep == "nsubjpass" and frames.is_hedged(parse, governor)
    if (
        head.dep != "dobj" and not used and not (means and head.dep == "pobj")
    ):  # "by including" read as a preposition
        return False
    if any(
        w.dep in ("relcl", "acl") and w.lemma.casefold() not in PLACED_VERBS for w in parse.children(head.i)
    ):
        return False  # "… that manage a set of pods" says what they do; "… that run in your cluster" where
    return not any(  # "… to divide …", "… so that the new release can …": what it is used for
        w.dep in ("advcl", "xcomp")
        and any(
            (a.dep == "aux" and a.text.casefold() == "to")
            or (a.dep == "mark" and a.text.casefold() in ("so", "that"))
            for a in parse.children(w.i)
        )
        for w in parse.children(governor.i)
    )


def is_passed_through(parse: Parse, head: Word) -> bool:
    """An emphasized term the sentence only passes through: where, with what or as what a verb's
    event happens ("Sidecar containers run alongside _app containers_", "… built with **Typer**"),
    nothing said of the term itself, or a second conjunct ("iodata and "chardata" may …", "Errors
    (or *exceptions*) are used …") that what the sentence says of the first is only shared with.
    A noun's object ("support for _aggregated discovery_") is what that noun is about, and so is
    what people speak of or call ("speak of "crop rotation""); a means ("via _X_", "through _X_") is
    read by :func:`is_put_to_use`."""
    if head.dep == "conj":
        return True
    if head.dep != "pobj" or head.head == head.i:
        return False
    preposition = parse.words[head.head]
    owner = parse.words[preposition.head]
    return (
        preposition.dep == "prep"
        and preposition.i > 0  # "Via a _label selector_, the client can …": the sentence's frame
        and preposition.text.casefold() not in MEANS_PREPOSITIONS
        and owner.pos in ("VERB", "AUX", "ADJ")
        and owner.lemma.casefold() not in SPEAKING_VERBS | CALLING_VERBS
        and not any(w.dep in ("relcl", "acl", "appos") for w in parse.children(head.i))
    )


def names_one_of_its_kind(parse: Parse, head: Word) -> bool:
    """ "… to a "*virtual file*" called "*standard output*"", "that virtual file called …": the
    sentence names one thing of the term's kind and says what that one is, not what the term is
    ("An environment variable (also known as an env var) is …" gives the term another name)."""
    return any(
        clause.dep == "acl"
        and clause.tag == "VBN"
        and clause.lemma.casefold() in NAMING_VERBS - {"know"}
        and any(w.dep in ("oprd", "attr", "dobj") for w in parse.children(clause.i))
        for clause in parse.children(head.i)
    )


def is_named_in_passing(parse: Parse, head: Word) -> bool:
    """ "… you provide the information in a file known as a _manifest_", "It is possible to request
    ports … (called host ports)", "… allows you to create CLI programs with several commands (also
    known as subcommands)": the thing named is what the reader acts on, in passing — the sentence says
    what the reader does, not what the thing is ("Python packages have a standard format called a
    "wheel"" says it of the packages; a thing an owner has, "… run Elixir's Interactive Shell, called
    IEx", is :func:`~wikigen.engines.offline.namings.is_named_on_the_way`'s)."""
    words = parse.words
    verb = namings.naming_participle(parse, head)
    if verb is None:
        return False
    clause = words[verb.head]
    if any(w.dep == "poss" and w.pos != "PRON" for w in parse.children(clause.i)):
        return False  # "Elixir's unit test framework called `ExUnit`": the one the owner has
    # up to the clause the named noun sits in, through gerunds and participles ("an API for
    # building generic servers (called `GenServer`)" sits in "Elixir provides an API")
    while clause.pos not in ("VERB", "AUX") or clause.dep in ("pcomp", "acl", "amod"):
        if clause.head == clause.i:
            return False
        clause = words[clause.head]
    if any(w.dep == "expl" for w in parse.children(clause.i)):
        return False  # "there's another "virtual file" called …": what the sentence presents
    # the doers, a coordinated verb's those of the verb before it; none: "to request ports …", "look
    # no further than …", an act
    doers = endpoints.verb_subjects(parse, clause)
    if doers and clause.dep in ("xcomp", "ccomp") and clause.head != clause.i:
        # "we want it to create a program called X": what the reader wants done
        doers = [*doers, *endpoints.verb_subjects(parse, words[clause.head])]
    return not doers or any(w.lemma.casefold() in READER_SUBJECTS for w in doers)


def sets_an_option(parse: Parse, head: Word) -> bool:
    """ "The `String.split/3` function allows the `parts` option to be set to …", "The
    ReplicationController enables scaling … by updating the `replicas` field": the sentence tells how
    one of its settings, named by code, is used — a detail of using the term, not what it is or
    does. A setting that is the term itself ("the `abort` parameter …") is the term."""
    own = {w.i for w in parse.subtree(head.i)}
    for word in parse.words:
        if word.i in own or word.lemma.casefold() not in SETTING_NOUNS or word.pos != "NOUN":
            continue
        if any(w.dep in ("compound", "nmod", "appos") and w.code for w in parse.children(word.i)):
            return True
    return False
