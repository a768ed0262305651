"""Whether a clause is asserted (R20): a relation holds only where the sentence states it as a fact —
not hedged ("may", "can"), supposed, tried, conditional, in a purpose clause, at one moment, or denied.
"""

from __future__ import annotations

import re

from wikigen.engines.offline import frames
from wikigen.engines.offline.lexicon import (
    CAUSING_VERBS,
    CONCESSIVE_ADVERBS,
    CONDITION_MARKERS,
    CONNECTIVE_NOUNS,
    ENABLING_VERBS,
    ENSURING_ADJECTIVES,
    ENSURING_VERBS,
    FRAME_NOUNS,
    MANNER_NOUNS,
    MOMENT_NOUNS,
    POINTING,
    READER_SUBJECTS,
    SEQUENCE_WORDS,
    SETTING_VERBS,
    SOME,
    SUPPOSING_VERBS,
    TIME_MARKERS,
    TRYING_VERBS,
    UNASSERTING_ADVERBS,
    UNASSERTING_MODALS,
)
from wikigen.engines.offline.parse import Parse, Word


def is_bare_participle(parse: Parse, verb: Word) -> bool:
    """ "credentials provided to the kubelet": a past participle without an auxiliary."""
    return verb.tag == "VBN" and not any(w.dep in ("aux", "auxpass") for w in parse.children(verb.i))


def is_denied(parse: Parse, subject: Word, named: frozenset[int] = frozenset()) -> bool:
    """ "not every binary is …": the subject itself is negated; "many functions …" speaks of some;
    "these plugins …" of the ones just named."""
    # "Some Kubernetes objects …", parsed with "Some" on "Kubernetes": a modifier before the subject
    before = [g for w in parse.children(subject.i) if w.i < subject.i for g in parse.children(w.i)]
    return (
        any(
            w.dep == "neg"
            or w.lemma.casefold() == "no"
            or (w.dep in ("det", "amod") and w.lemma.casefold() in SOME)
            for w in parse.children(subject.i)
        )
        or is_pointed(parse, subject, named)
        or any(w.dep == "det" and w.lemma.casefold() in SOME for w in before)
        or _is_narrowed(parse, subject)
        # "The `Deployment` is used to oversee the pods …": a kind's code name with "the" and no
        # classifier after it is the example's one
        or (subject.code and subject.text[:1].isupper() and any(
            w.dep == "det" and w.lemma.casefold() == "the" for w in parse.children(subject.i)
        ))
    )


def _is_narrowed(parse: Parse, subject: Word) -> bool:
    """ "The controller managing that finalizer notices …", "a controller for Jobs tracks …", "All
    modules defined in Elixir are …": a participle or a "for" right after the subject picks some of
    its kind, so what follows is said of those (not "The control plane, using the node controller,
    …", an aside set off by a comma)."""
    return any(
        w.i > subject.i
        and not parse.text[subject.end : w.start].strip()
        and ((w.dep == "acl" and w.tag in ("VBN", "VBG")) or (w.dep == "prep" and w.text.casefold() == "for"))
        for w in parse.children(subject.i)
    )


def is_pointed(parse: Parse, word: Word, named: frozenset[int]) -> bool:
    """ "These plugins …", "… to run this pod": the ones just named, or one of an example (not a
    pointing word inside a name: "This command" on a command's page)."""
    return any(
        w.dep == "det" and w.text.casefold() in POINTING and w.i not in named for w in parse.children(word.i)
    )


def _is_moment(parse: Parse, noun: Word) -> bool:
    """ "the scenario", "the point", "the same time": a moment or case, not a thing that has one
    ("an extension point that allows …" names a thing)."""
    return noun.lemma.casefold() in MOMENT_NOUNS and not any(
        w.dep in ("compound", "nmod") for w in parse.children(noun.i)
    )


def _is_manner(parse: Parse, clause: Word) -> bool:
    """ "The way Kubernetes processes taints …": a relative clause with a subject of its own and no
    relative pronoun on a noun of manner tells which way; "a way that lets you …" says what the way
    does, and "a flexible way to keep sheep …" what it is a way to do."""
    noun = parse.words[clause.head]
    return (
        noun.lemma.casefold() in MANNER_NOUNS
        and any(w.dep in ("nsubj", "nsubjpass") and w.tag not in ("WDT", "WP") for w in parse.children(clause.i))
        and not any(w.tag in ("WDT", "WP", "WRB") for w in parse.subtree(clause.i) if w.i < clause.i)
    )


def is_unasserted(parse: Parse, verb: Word) -> bool:
    """Negated, hedged or conditional: "does not", "may", "if …"; a step of a procedure ("After
    deleting the dependents, the controller deletes …", "… adds finalizers when you use …"); an
    embedded question ("… about how Kubernetes manages pods")."""
    if verb.dep in ("pobj", "pcomp") and frames.is_such_as(parse, parse.words[verb.head]):
        return True  # "…, such as when the Kubelet authenticates to the API Server": an example case
    for child in parse.children(verb.i):
        lemma = child.lemma.casefold()
        if child.dep == "neg" or (child.dep == "aux" and lemma in UNASSERTING_MODALS):
            return True
        if child.dep == "mark" and lemma in CONDITION_MARKERS | TIME_MARKERS - {"while"}:
            return True
        if child.dep == "mark" and lemma == "while" and verb.i < parse.words[verb.head].i:
            return True  # "While the kubelet is …, …" says when; "…, while Y runs …" contrasts
        if child.dep == "advmod" and child.tag == "WRB" and lemma in ("how", "why"):
            return True
        if child.dep == "advmod" and lemma in UNASSERTING_ADVERBS | CONCESSIVE_ADVERBS:
            return True
        if child.dep == "advmod" and lemma in SEQUENCE_WORDS:
            return True
        if child.dep == "advmod" and child.i == 0 and lemma in TIME_MARKERS - {"while"}:
            return True  # "Once both init containers complete, the Pod runs …", "Once" hung on "runs"
        if (
            child.dep == "advmod"
            and child.text.casefold() == "longer"
            and any(w.text.casefold() == "no" for w in parse.children(child.i))
        ):
            return True  # "controllers no longer consider the Pod …"
        if child.dep == "mark" and any(
            w.lemma.casefold() in ("instead", "rather") for w in parse.children(child.i)
        ):
            return True  # "Instead of X being implemented by Y, …": what is not the case
        if child.dep == "prep" and child.i < verb.i and _is_framed(parse, child):
            return True
        if child.dep in ("advcl", "pcomp", "prep") and _is_circumstance(parse, child, child.i < verb.i):
            return True
        if (
            child.dep == "prep"
            and lemma == "by"
            and any(w.dep == "pobj" and w.lemma.casefold() == "default" for w in parse.children(child.i))
        ):
            return True  # "By default, the kubelet assigns …": what holds until it is configured
    if verb.dep in ("relcl", "acl") and _is_moment(parse, parse.words[verb.head]):
        return True
    if verb.dep == "relcl" and _is_manner(parse, verb):
        return True
    if _is_in_purpose(parse, verb):
        return True
    if verb.dep == "pcomp" and any(  # "Instead of X being implemented by Y, …" (a prepositional clause)
        w.lemma.casefold() in ("instead", "rather") for w in parse.children(verb.head)
    ):
        return True
    # inside an if-clause, or a clause governed by a hedge
    head = parse.words[verb.head]
    if verb.dep in ("ccomp", "xcomp") and head.lemma.casefold() in CAUSING_VERBS:
        # "…, which causes the API server to terminate the Pod": a step that follows another; "… to
        # make the kube-apiserver recognise new kinds": what is brought about
        return True
    if verb.dep == "ccomp" and _is_ensuring(parse, head):
        return True  # "… ensures that Nodes run …", "… making sure that Pods are matched to Nodes"
    if verb.dep == "ROOT" and any(  # "X ensures that all (or some) Nodes run …", parsed as two roots
        w.dep == "ROOT" and w.i < verb.i and w.lemma.casefold() in ENSURING_VERBS for w in parse.words
    ):
        return True
    return (
        verb.dep == "advcl"
        and any(w.dep == "mark" and w.lemma.casefold() in CONDITION_MARKERS for w in parse.children(verb.i))
    ) or (
        head.i != verb.i
        and verb.dep in ("conj", "xcomp", "ccomp")
        and (
            is_unasserted(parse, head)
            or head.lemma.casefold() in SUPPOSING_VERBS | TRYING_VERBS
            or (head.lemma.casefold() in ENABLING_VERBS and is_infinitive(parse, verb))
        )
    )


def _is_ensuring(parse: Parse, head: Word) -> bool:
    """ "ensure", "guarantee", or "make" with "sure"/"certain" (the clause hung on either word): what
    the clause under it says is what the subject brings about, not what holds."""
    lemma = head.lemma.casefold()
    if lemma in ENSURING_ADJECTIVES:
        return parse.words[head.head].lemma.casefold() == "make"
    return lemma in ENSURING_VERBS or (
        lemma == "make"
        and any(w.dep == "acomp" and w.lemma.casefold() in ENSURING_ADJECTIVES for w in parse.children(head.i))
    )


def _is_framed(parse: Parse, prep: Word) -> bool:
    """A fronted "in" phrase that limits the statement to some cases ("In most cases", "In this
    configuration", "In either of those situations") or some clusters ("In clusters with less than
    100 nodes"), or one that opens with "with"/"without" ("With immediate binding, …"); "In
    Kubernetes, …" limits nothing."""
    if prep.text.casefold() in ("with", "without") and prep.i == 0:
        return True  # "With immediate binding, the scheduler …": only in that case
    if prep.text.casefold() != "in":
        return False
    for pobj in (w for w in parse.children(prep.i) if w.dep == "pobj"):
        lemma = pobj.lemma.casefold()
        if lemma in FRAME_NOUNS or lemma in ("either", "each", "both"):
            return True
        if pobj.tag == "NNS" and any(w.dep in ("prep", "relcl", "acl") for w in parse.children(pobj.i)):
            return True  # "In clusters with less than 100 feasible nodes, …"
        if (
            prep.i == 0
            and pobj.pos == "NOUN"
            and lemma not in CONNECTIVE_NOUNS
            and not any(w.dep in ("det", "poss") for w in parse.children(pobj.i))
        ):
            return True  # "In background cascading deletion, …": within that mode or process
    return False


_FRONTED_PURPOSE = re.compile(r"To [a-z]+\b[^,.;:]*,")


def _is_in_purpose(parse: Parse, verb: Word) -> bool:
    """ "To ensure pods land on nodes supporting a RuntimeClass, …": a verb inside a fronted purpose
    clause states a goal (the parser may make its verb the root)."""
    fronted = _FRONTED_PURPOSE.match(parse.text)
    if fronted is not None and verb.start < fronted.end():
        return True
    word, seen = verb, 0
    while word.head != word.i and seen < 20:
        head = parse.words[word.head]
        if word.dep == "advcl" and word.i < head.i and is_infinitive(parse, word):
            return True
        word, seen = head, seen + 1
    return False


def _is_circumstance(parse: Parse, clause: Word, before: bool) -> bool:
    """ "when you use …", "after deleting …", "While the kubelet is …": a clause that says when (a
    "while" after the main clause contrasts: "X runs serially, while Y …")."""
    when = TIME_MARKERS | (CONDITION_MARKERS - {"although", "though"})
    if not before:
        when -= {"while"}
    children = parse.children(clause.i)
    if clause.dep == "prep":  # "After deleting all the dependent objects, …", "After the X phase, …"
        return clause.lemma.casefold() in when and (before or any(w.dep == "pcomp" for w in children))
    if is_infinitive(parse, clause):
        return False  # "… determine when to restart a container": what is decided, not when it holds
    marker = next((w for w in children if w.dep in ("mark", "advmod") and w.lemma.casefold() in when), None)
    if marker is None:
        return False
    # "The autoscaler adds nodes when there are unschedulable Pods": when it happens, always; "…
    # adds finalizers when you use …" is a step the reader takes, "… when the feature gate is
    # enabled" an option someone chose
    return (
        before
        or marker.lemma.casefold() not in ("when", "whenever")
        or any(w.dep in ("nsubj", "nsubjpass") and w.lemma.casefold() in READER_SUBJECTS for w in children)
        or (clause.lemma.casefold() in SETTING_VERBS and any(w.dep == "auxpass" for w in children))
    )


def is_infinitive(parse: Parse, verb: Word) -> bool:
    return any(w.dep == "aux" and w.text.casefold() == "to" for w in parse.children(verb.i))
