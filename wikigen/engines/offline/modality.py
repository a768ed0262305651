"""Whether a clause is asserted (R20): a relation holds only where the sentence states it as a fact —
not hedged ("may", "can"), supposed, tried, conditional, in a purpose clause, at one moment, or denied.
"""

from __future__ import annotations

import re

from wikigen.engines.offline.parse import Parse, Word
from wikigen.engines.offline.subjects import POINTING, SOME

# "can" too: "X can be used in Y", "EnRoute can run as a controller" say what is possible, not what is
_HEDGES = frozenset(["may", "might", "could", "would", "should", "can", "must"])  # "must": a requirement
_SUPPOSING = frozenset(["suppose", "imagine", "assume", "pretend"])  # "suppose a plugin ranks Nodes"
_TRYING = frozenset(["try", "attempt", "seek"])  # "X tries to make the Pod runnable": only tried
# "Tolerations allow the scheduler to schedule pods …": what is allowed is a possibility, not a fact
ENABLING = frozenset(["allow", "let", "enable", "permit", "help"])
_CONDITIONS = frozenset(["if", "unless", "whether", "suppose", "assuming", "although", "though"])
# "The operating system usually includes …": what holds most of the time, not always
_FREQUENCY = frozenset(
    [
        "usually",
        "often",
        "sometimes",
        "typically",
        "generally",
        "normally",
        "mostly",
        "probably",
        "possibly",
        "perhaps",
    ]
)
# "A DaemonSet ensures that all Nodes run a copy of a Pod": the clause is what the subject brings about
_ENSURING = frozenset(["ensure", "guarantee"])
_WHEN = frozenset(["when", "whenever", "while", "after", "before", "once", "until"])
# "the scenario where a Pod gets scheduled onto one node", "the point that the scheduler preempts Pods":
# a clause that tells which moment or case the sentence speaks of states nothing
_CIRCUMSTANCE_NOUNS = frozenset(
    ["scenario", "situation", "case", "point", "time", "moment", "instant", "period"]
)


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
    return noun.lemma.casefold() in _CIRCUMSTANCE_NOUNS and not any(
        w.dep in ("compound", "nmod") for w in parse.children(noun.i)
    )


def is_unasserted(parse: Parse, verb: Word) -> bool:
    """Negated, hedged or conditional: "does not", "may", "if …"; a step of a procedure ("After
    deleting the dependents, the controller deletes …", "… adds finalizers when you use …"); an
    embedded question ("… about how Kubernetes manages pods")."""
    for child in parse.children(verb.i):
        lemma = child.lemma.casefold()
        if child.dep == "neg" or (child.dep == "aux" and lemma in _HEDGES):
            return True
        if child.dep == "mark" and lemma in _CONDITIONS | _WHEN - {"while"}:
            return True
        if child.dep == "mark" and lemma == "while" and verb.i < parse.words[verb.head].i:
            return True  # "While the kubelet is …, …" says when; "…, while Y runs …" contrasts
        if child.dep == "advmod" and child.tag == "WRB" and lemma in ("how", "why"):
            return True
        if child.dep == "advmod" and lemma in _FREQUENCY:
            return True
        if child.dep == "advmod" and lemma in _SEQUENCE:
            return True
        if child.dep == "advmod" and child.i == 0 and lemma in _WHEN - {"while"}:
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
    if _is_in_purpose(parse, verb):
        return True
    if verb.dep == "pcomp" and any(  # "Instead of X being implemented by Y, …" (a prepositional clause)
        w.lemma.casefold() in ("instead", "rather") for w in parse.children(verb.head)
    ):
        return True
    # inside an if-clause, or a clause governed by a hedge
    head = parse.words[verb.head]
    if verb.dep in ("ccomp", "xcomp") and head.lemma.casefold() == "cause":
        return True  # "…, which causes the API server to terminate the Pod": a step that follows another
    if verb.dep == "ccomp" and head.lemma.casefold() in _ENSURING:
        return True
    if verb.dep == "ROOT" and any(  # "X ensures that all (or some) Nodes run …", parsed as two roots
        w.dep == "ROOT" and w.i < verb.i and w.lemma.casefold() in _ENSURING for w in parse.words
    ):
        return True
    return (
        verb.dep == "advcl"
        and any(w.dep == "mark" and w.lemma.casefold() in _CONDITIONS for w in parse.children(verb.i))
    ) or (
        head.i != verb.i
        and verb.dep in ("conj", "xcomp", "ccomp")
        and (
            is_unasserted(parse, head)
            or head.lemma.casefold() in _SUPPOSING | _TRYING
            or (head.lemma.casefold() in ENABLING and is_infinitive(parse, verb))
        )
    )


# "In most cases, …", "In this configuration, …", "In either of those situations …": where it holds
_FRAMES = frozenset(
    ["case", "situation", "configuration", "scenario", "setup", "mode", "circumstance", "event", "example"]
)
# "Finally, kube-scheduler assigns …", "Kubernetes then provides …": a step of a procedure
_SEQUENCE = frozenset(["finally", "then", "next", "afterwards", "subsequently", "lastly"])


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
        if lemma in _FRAMES or lemma in ("either", "each", "both"):
            return True
        if pobj.tag == "NNS" and any(w.dep in ("prep", "relcl", "acl") for w in parse.children(pobj.i)):
            return True  # "In clusters with less than 100 feasible nodes, …"
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


_READER = frozenset(["you", "we", "i", "user", "users", "administrator", "operator", "one"])


def _is_circumstance(parse: Parse, clause: Word, before: bool) -> bool:
    """ "when you use …", "after deleting …", "While the kubelet is …": a clause that says when (a
    "while" after the main clause contrasts: "X runs serially, while Y …")."""
    when = _WHEN | (_CONDITIONS - {"although", "though"})
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
    # adds finalizers when you use …" is a step the reader takes
    return (
        before
        or marker.lemma.casefold() not in ("when", "whenever")
        or any(w.dep in ("nsubj", "nsubjpass") and w.lemma.casefold() in _READER for w in children)
    )


def is_infinitive(parse: Parse, verb: Word) -> bool:
    return any(w.dep == "aux" and w.text.casefold() == "to" for w in parse.children(verb.i))
