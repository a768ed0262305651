"""A member of a kind (R20), named with or without a verb: "The simplest kind of queue is a ring
buffer", "One of the queues is the ring buffer", "the simplest queue" name one member of the kind,
and the copula's predicate nominal is it; members listed under a kind ("two data structures:
keyword lists and maps", "collections such as lists"), a noun set off beside its class ("A deque, a
queue that …"), a code name before its classifier noun ("the `Enum` module") and a definition
list's entry glossed by a noun of its kind are each one of that kind, and so is a name the author
uses "to refer to those Ys that …"; a name given to parts together ("Together, A and B are
referred to as X") names the whole they make up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from wikigen.engines.offline import endpoints, frames, subjects
from wikigen.engines.offline.lexicon import (
    CALLING_VERBS,
    CLASS_NOUNS,
    CLASSIFIERS,
    EXAMPLE_NOUNS,
    ONE_OF,
    UNASSERTING_ADVERBS,
    WHOLE_NOUNS,
)
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


# A bracket that opens with "e.g." or "for example" gives examples of what the sentence says
_EXAMPLES_OPEN = re.compile(r"(?:e\.\s?g\.|for example|for instance)", re.IGNORECASE)


def listed(parse: Parse, refs: Mapping[int, str], hubs: frozenset[str]) -> set[tuple[str, str]]:
    """ "two data structures: keyword lists and maps", "collections such as lists": members are a
    kind of the class they are listed under."""
    found: set[tuple[str, str]] = set()
    for word in parse.words:
        if word.i not in refs or word.pos not in ("NOUN", "PROPN"):
            continue
        members: list[Word] = []
        named = endpoints.called_name(parse, word)
        if (
            named.i != word.i
            and endpoints.determiner_of(parse, word) in ("a", "an", "another")
            # "a literal `--size` parameter (also known as "flag")": another name of that one, no member
            and "(" not in parse.text[word.end : named.start]
        ):
            members.append(named)  # "a macro called `use`": use is a macro; "another file called X" too
        for child in parse.children(word.i):
            between = parse.text[word.end : child.start]
            # the bracket or colon that sets a list off follows the kind: the "(" of "policy APIs, such
            # as …, Access Control (RBAC), are built-in Kubernetes APIs" opens an aside of a member
            opener = between.lstrip()[:1]
            plural = word.tag in ("NNS", "NNPS")
            items = endpoints.with_conjuncts(parse, [child])
            # "two data structures: keyword lists and maps" lists members; "init containers: containers
            # that run …" glosses the term with its class
            if (
                child.dep == "appos"
                and plural
                and (opener == "(" or (opener == ":" and len(items) > 1))
                # "namespaced objects (e.g. Deployments, Services, etc.)": examples under another claim
                and not _EXAMPLES_OPEN.match(parse.text[word.end : child.start].lstrip(" ("))
                and not _narrowed_by_members(parse, word, items)
                # "run within pods (usually static Pods)": which ones as a rule, not a list of members
                and not any(
                    w.dep == "advmod" and w.lemma.casefold() in UNASSERTING_ADVERBS
                    for w in parse.children(child.i)
                )
            ):
                members.extend(items)
            elif (
                child.dep == "prep"
                and child.text.casefold() == "as"
                and plural  # "objects in that namespace, such as Pods": the list is under "objects"
                and frames.is_such_as(parse, child)
                and not _is_in_subordinate_clause(parse, word)
            ):
                members.extend(
                    endpoints.with_conjuncts(parse, [w for w in parse.children(child.i) if w.dep == "pobj"])
                )
        for member in members:
            if member.i in refs and refs[member.i] not in hubs:
                found.add((refs[member.i], refs[word.i]))
    return found


def _narrowed_by_members(parse: Parse, kind: Word, members: list[Word]) -> bool:
    """ "the types of parameters (*CLI arguments* and *CLI options*)": every member shares a modifier
    the kind lacks, so the list says which of the kind the sentence means ("CLI parameters", a
    narrower sense), not that the members are of the bare kind."""
    def modifiers(word: Word) -> set[str]:
        return {w.lemma.casefold() for w in parse.children(word.i) if w.dep in ("compound", "amod")}

    shared = set.intersection(*(modifiers(m) for m in members)) if len(members) > 1 else set()
    return bool(shared - modifiers(kind))


def _is_in_subordinate_clause(parse: Parse, word: Word) -> bool:
    """ "… because this method invalidates tokens that are bound to API objects such as Secrets": a
    noun inside a relative, adverbial or participial clause is named on the way to what the clause
    says of something else; the members listed under it are examples there, not a classification."""
    while word.head != word.i:
        if word.dep in ("relcl", "advcl", "acl"):
            return True
        word = parse.words[word.head]
    return False


def appositive(parse: Parse, refs: Mapping[int, str], hubs: frozenset[str]) -> set[tuple[str, str]]:
    """ "A deque, a queue that opens at both ends, …", "the deque, a kind of queue, …": a noun set off
    by a comma with an indefinite noun phrase of its class is one of that class (not a list, "three
    inputs, a queue, a stack and a map", nor a counted noun, "one input, a queue")."""
    found: set[tuple[str, str]] = set()
    for word in parse.words:
        if word.i not in refs or word.pos not in ("NOUN", "PROPN") or word.dep == "appos":
            continue
        children = parse.children(word.i)
        if any(w.dep in ("nummod", "conj") for w in children):
            continue
        for child in children:
            between = parse.text[word.end : parse.subtree(child.i)[0].start].strip()
            if (
                child.dep != "appos"
                or child.i < word.i
                or not (
                    (between == "," and endpoints.determiner_of(parse, child) in ("a", "an"))
                    or (between == ":" and _is_glossed_class(parse, child))
                )
                or any(w.dep == "conj" for w in parse.children(child.i))
                or frames.is_none_of(parse, child)
            ):
                continue
            classes = kind_named(parse, child, refs) or ([child] if child.i in refs else [])
            found.update((refs[word.i], refs[c.i]) for c in classes if refs[c.i] not in hubs)
    return found


def _is_glossed_class(parse: Parse, noun: Word) -> bool:
    """ "init containers: containers that run to completion …", "deques: a queue that opens at both
    ends": after a colon, an indefinite noun (a bare plural, or one with "a") that a clause or a
    phrase of its own narrows glosses the name before the colon with its class."""
    determiner = endpoints.determiner_of(parse, noun)
    indefinite = determiner in ("a", "an") or (not determiner and noun.tag == "NNS")
    return indefinite and _is_narrowed(parse, noun)


def classified(parse: Parse, refs: Mapping[int, str], hubs: frozenset[str]) -> set[tuple[str, str]]:
    """ "the `String.Chars` protocol", "the `Enum` module": a code name before a classifier noun that
    is a concept itself is one of that kind (not a hub; "the `String` module", a concept named as a
    common noun, never reaches here: :func:`~wikigen.engines.offline.statements.stated` drops it)."""
    found: set[tuple[str, str]] = set()
    for word in parse.words:
        if word.i not in refs or word.pos != "NOUN" or word.lemma.casefold() not in CLASSIFIERS:
            continue
        for child in parse.children(word.i):
            if (
                child.i == word.i - 1
                and subjects.is_code_of_classifier(parse, child)
                and child.i in refs
                and refs[child.i] not in hubs
                and not endpoints.is_other_case(child, refs[child.i])
            ):
                found.add((refs[child.i], refs[word.i]))
    return found


def entry_class(parse: Parse, refs: Mapping[int, str]) -> set[tuple[str, str]]:
    """A definition list's entry glossed by a noun of its kind: "`kube-system` : The namespace for
    objects created by …", "`kube-public` : This namespace is readable …" (the term is one)."""
    words = parse.words
    colon = next((w.i for w in words if w.text == ":"), None)
    if colon is None or colon == 0 or colon + 2 >= len(words) or colon - 1 not in refs:
        return set()
    term = words[colon - 1]
    if any(w.i != term.i and w.head != term.i for w in words[:colon]):
        return set()  # "… all of them: pods, …": the words before the colon are more than a name
    determiner = words[colon + 1].lemma.casefold()
    if determiner not in ("the", "a", "an", "this"):
        return set()
    noun = next((w for w in words[colon + 2 :] if w.pos not in ("ADJ", "ADV")), None)
    if noun is None or noun.i not in refs or noun.pos != "NOUN":
        return set()
    if noun.i + 1 < len(words) and words[noun.i + 1].pos in ("NOUN", "PROPN"):
        return set()  # "The namespace controller …" is no namespace
    # "This namespace …" right after the term is the term; "The namespace for …" where the parse
    # makes it the term's apposition
    attached = determiner == "this" or (noun.dep == "appos" and noun.head == term.i)
    return {(refs[term.i], refs[noun.i])} if attached else set()


def named_to_refer(parse: Parse, refs: Mapping[int, str]) -> set[tuple[str, str]]:
    """ "We'll use *X* to refer to those *Ys* that …", "This document uses the term _X_ to refer to
    Ys that …": the author names some of a kind, so X is a Y; "… use *X* to refer to both, *A* and *B*"
    names the two together, so each is an X."""
    found: set[tuple[str, str]] = set()
    for refer in (w for w in parse.words if w.lemma == "refer" and w.dep in ("xcomp", "relcl", "acl")):
        governor = parse.words[refer.head]
        user = governor if refer.dep == "xcomp" else parse.words[governor.head]
        if user.dep in ("dobj", "appos") and user.pos == "NOUN":
            user = parse.words[user.head]  # "use the word *X* to refer to …", X set beside "word"
        if user.lemma != "use":
            continue
        # the name: the noun "refer" hangs on, or the object of "use"
        named = [governor] if refer.dep != "xcomp" else [w for w in parse.children(user.i) if w.dep == "dobj"]
        names = [refs[n.i] for n in named if n.i in refs]
        for target in (p for w in parse.children(refer.i) if w.dep == "prep" for p in parse.children(w.i)):
            if target.dep != "pobj":
                continue
            if target.lemma.casefold() == "both" or endpoints.determiner_of(parse, target) == "both":
                # "… to refer to both, *A* and *B*" (the parser may read "both" as the object itself)
                first = next((w for w in parse.words if w.i >= target.i and w.i in refs), None)
                members = endpoints.with_conjuncts(parse, [first]) if first is not None else []
                found.update((refs[m.i], name) for m in members if m.i in refs for name in names)
            elif target.i in refs and target.tag == "NNS" and _is_narrowed(parse, target):
                found.update((name, refs[target.i]) for name in names)
    return found


def _is_narrowed(parse: Parse, noun: Word) -> bool:
    """A clause or a participle of the noun's own picks some of them ("queues that open …")."""
    return any(w.dep in ("relcl", "acl") for w in parse.children(noun.i))


def named_whole(parse: Parse, refs: Mapping[int, str]) -> set[tuple[str, str]]:
    """ "Together, a scheduling cycle and a binding cycle are referred to as a "scheduling context"",
    "A combination of a custom resource API and a control loop is called the controllers pattern":
    the name is given to the parts together, so the whole it names consists of each part."""
    found: set[tuple[str, str]] = set()
    for verb in (w for w in parse.words if w.dep == "ROOT" and w.lemma in CALLING_VERBS):
        children = parse.children(verb.i)
        as_ = [w for w in children if w.dep == "prep" and w.text.casefold() == "as"]
        named_as = [p for w in as_ for p in parse.children(w.i)]
        names = [w for w in [*children, *named_as] if w.dep in ("oprd", "attr", "pobj") and w.i in refs]
        subject = next((w for w in children if w.dep == "nsubjpass"), None)
        if subject is None or not names:
            continue
        together = any(w.dep == "advmod" and w.lemma.casefold() == "together" for w in children)
        if subject.lemma.casefold() in WHOLE_NOUNS:
            of = [w for w in parse.children(subject.i) if w.dep == "prep" and w.text.casefold() == "of"]
            parts = [p for w in of for p in parse.children(w.i) if p.dep == "pobj"]
        elif together:
            parts = [subject]
        else:
            continue
        parts = endpoints.with_conjuncts(parse, parts)
        if len(parts) < 2:
            continue  # a whole of parts: two or more
        found.update((refs[n.i], refs[p.i]) for n in names for p in parts if p.i in refs)
    return found
