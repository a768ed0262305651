"""Relations a sentence states between two concepts it names, read from its parse (R20, R23).

Subject and object come from the dependency parse, not from word order: the subject of a verb and
its direct or prepositional object ("The kubelet registers the node *with* the API server"), the
agent of a passive ("… is managed *by* X"), a copula with a class ("Every binary is a bitstring")
or a relational noun ("`Arc<T>` is the thread-safe counterpart *of* `Rc<T>`", "… are extensions
built on top of maps"), a copula whose subject picks one member of a kind ("The simplest kind of
queue is a ring buffer": the ring buffer is a queue), an apposition ("a deque, a queue that …") and
a class with its listed members ("two associative data structures: keyword lists and maps"). The
verb phrase is the predicate; the sentence, verbatim, is the evidence (``basis: explicit``).
Questions, negated and hypothetical statements state nothing, nor do denied objects ("takes no
arguments") and clauses under "when", "if", "until" or "as long as". A hub (a name most sources
mention, such as the language or the product) is an endpoint only as the subject the sentence is
about, never where it modifies something ("a test in Rust").

This module decides which relations a sentence states; beside it, :mod:`~wikigen.engines.offline.endpoints`
finds a verb's subjects and the concepts its phrases name, :mod:`~wikigen.engines.offline.predicates` what
the verb states of each object and with which predicate, :mod:`~wikigen.engines.offline.members` which
member of a kind a copula picks out, and :mod:`~wikigen.engines.offline.modality` whether the clause
is asserted at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wikigen.engines.offline import endpoints, frames, modality, predicates
from wikigen.engines.offline.frames import WHAT_FOLLOWS, is_imperative
from wikigen.engines.offline.lexicon import (
    CLASSIFIERS,
    DOCUMENTING_VERBS,
    GIVING_VERBS,
    LIST_CONDITIONS,
    NAMING_VERBS,
    PLATFORM_VERBS,
    alternation,
)
from wikigen.engines.offline.members import kind_members, kind_named
from wikigen.engines.offline.parse import Parse, Word
from wikigen.engines.offline.relations import Mention

_CONDITIONAL_START = re.compile(
    r"\s*(?:if|unless|since|suppose|supposing|assuming|in case|in (?:that|this|such a|which) case|"
    r"for (?:an? |the )?\w+ to|"  # "For a Pod to be given a QoS class of `Guaranteed`: …"
    r"in (?:that|this|these|those|such an?|which|most|many|some|either|each|both|all)(?: of (?:these|those|the))? "
    r"(?:cases?|situations?|configurations?|scenarios?|setups?|modes?|circumstances?))\b",
    re.IGNORECASE,
)  # "In either of those situations the Node will return …" (parsed with "In" as the root)
# "A Pod is given a QoS class of `Burstable` if:" holds only under the conditions the list after it states
_CONDITIONS_FOLLOW = re.compile(r"\b(?:" + alternation(LIST_CONDITIONS) + r")\s*:\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Stated:
    subject: str
    predicate: str
    object: str


def stated(
    parse: Parse,
    mentions: Sequence[Mention],
    hubs: frozenset[str] = frozenset(),
    kinds: frozenset[str] = frozenset(),
    products: frozenset[str] = frozenset(),
) -> list[Stated]:
    """The relations ``parse``'s sentence states between the concepts ``mentions`` name; ``kinds``
    are concepts named as common nouns ("strings"), whose code-named module is another sense;
    ``products`` the product or language the increment's sources are about, the subject only of what
    it offers its users."""
    if (
        parse.text.rstrip().endswith("?")
        or not mentions
        or _CONDITIONAL_START.match(parse.text)
        or _CONDITIONS_FOLLOW.search(parse.text)
        or WHAT_FOLLOWS.search(parse.text.strip())
    ):
        # a question, "If the claim is not allocated, then the kubelet will fail to run …", or "The
        # kubelet ranks pods for eviction based on the following factors:": what follows says it
        return []
    if is_imperative(parse) and not any(
        w.dep == "ROOT" and w.lemma.casefold() in ("use", "let") for w in parse.words
    ):
        # "Write code … that uses the API to read a ConfigMap", "Take the example, and the Pods
        # specified in …": what the reader is to do ("Use X to V Y" still says what X is for)
        return []
    refs: dict[int, str] = {}
    heads: list[tuple[Word, Mention]] = []
    for mention in mentions:
        head = parse.span_head(mention.start, mention.end)
        if head is not None:
            refs.setdefault(head.i, mention.ref)
            heads.append((head, mention))
    if len(set(refs.values())) < 2:
        return []  # one concept relates to nothing (most sentences: nothing more to do)
    # words inside a name: "This command" on a command's page names the page's own concept
    named = frozenset(w.i for w in parse.words for m in mentions if m.start <= w.start and w.end <= m.end)
    found = _stated(parse, refs, hubs, named, kinds, products)
    # "the snapshot controller handles …" says nothing of controllers; "UTF-8 is a character
    # encoding" still makes UTF-8 an encoding: a narrowed name is its concept only in "is a"
    narrowed = {
        head.i
        for head, mention in heads
        if refs[head.i] == mention.ref and endpoints.is_one_of_a_kind(parse, head, mention, refs, hubs)
    }
    if narrowed:
        general = {i: ref for i, ref in refs.items() if i not in narrowed}
        # "Alibaba Cloud MSE Ingress is an ingress controller": "ingress" there only qualifies another
        # concept's name, and speaks of no Ingress in general
        spoken = {
            ref
            for i, ref in general.items()
            if not (parse.words[i].dep in ("compound", "amod") and parse.words[i].head in refs)
        }
        only_narrowed = {refs[i] for i in narrowed} - spoken
        kinds_named = {refs[h.i] for h, m in heads if h.i in narrowed and endpoints.is_named_kind(parse, h, m)}
        classes = {
            s for s in found if s.predicate == "is a" and s.subject not in only_narrowed and s.object not in kinds_named
        }
        found = classes | _stated(parse, general, hubs, named, kinds, products)
    return sorted(
        (s for s in found if s.subject != s.object), key=lambda s: (s.subject, s.predicate, s.object)
    )


def _stated(
    parse: Parse,
    refs: Mapping[int, str],
    hubs: frozenset[str],
    named: frozenset[int] = frozenset(),
    kinds: frozenset[str] = frozenset(),
    products: frozenset[str] = frozenset(),
) -> set[Stated]:
    if len(set(refs.values())) < 2:
        return set()
    found: set[Stated] = set()
    # "… to run this pod", "… causes the API server to terminate that Pod": the one of an example;
    # "adds a label, `node.kubernetes.io/windows-build`, …": the one it names
    objects = {
        i: ref
        for i, ref in refs.items()
        if not modality.is_pointed(parse, parse.words[i], named)
        and not endpoints.is_named_after(parse, parse.words[i])
        # R20: "takes no arguments", "queues, not stacks": what the sentence denies is no object
        and not frames.is_none_of(parse, parse.words[i])
    }
    for verb in parse.words:
        if (
            verb.pos not in ("VERB", "AUX")
            or modality.is_unasserted(parse, verb)
            or verb.lemma in DOCUMENTING_VERBS | NAMING_VERBS
            # R20: "… when a reader holds a lock", "Handlers rarely take …": no fact of its own
            or frames.is_circumstance(parse, verb)
            or frames.is_scarce(parse, verb)
            or frames.is_on_condition(parse, verb)
        ):
            continue
        if verb.lemma == "refer" and any(w.text.casefold() == "as" for w in parse.subtree(verb.i)):
            continue  # "… are referred to as a 'scheduling context'": a name, like "are called"
        subjects = endpoints.with_conjuncts(parse, endpoints.verb_subjects(parse, verb))
        # "the credentials provided to the kubelet are …": a bare participle with a subject is passive
        # "is managed by X and contains Y": a subject shared with a passive verb is no passive of its own
        # "… exist in the cluster and are defined in the API": a coordinated verb's own auxiliary
        passive = (
            any(w.dep == "nsubjpass" and (w.head == verb.i or verb.tag == "VBN") for w in subjects)
            or modality.is_bare_participle(parse, verb)
            or (verb.tag == "VBN" and any(w.dep == "auxpass" for w in parse.children(verb.i)))
        )
        subjects = endpoints.stand_ins(parse, endpoints.resolved(parse, subjects), refs)
        subject_refs = [
            (refs[w.i], w)
            for w in subjects
            if w.i in refs
            and not modality.is_denied(parse, w, named)
            # "the simplest type of queue" is one queue, not what "type" names
            and not kind_named(parse, w, refs)
        ]
        # R20: of a product (or a language) the text says what it offers its users ("Kubernetes
        # supports …"); what else it does is one step of one case ("Kubernetes restarts containers
        # that fail", "… deletes objects that no longer have owner references")
        offers = verb.lemma.casefold() in PLATFORM_VERBS
        for obj_ref, predicate, agent in predicates.verb_objects(parse, verb, objects, passive):
            if agent:  # "Y is managed by X": X manages Y
                found.update(
                    Stated(obj_ref, predicate, ref) for ref, _ in subject_refs if offers or obj_ref not in products
                )
            else:
                found.update(
                    Stated(ref, predicate, obj_ref)
                    for ref, _ in subject_refs
                    if obj_ref not in hubs and (offers or ref not in products)
                )
        # R20: "The simplest kind of queue is a ring buffer": the ring buffer is the queue
        found.update(
            Stated(member, "is a", kind) for member, kind in kind_members(parse, verb, objects)
        )
        found.update(_used_for(parse, verb, refs, objects))
        found.update(_alternative(parse, verb, refs))
    found.update(_listed(parse, refs, hubs))
    found.update(_appositive(parse, refs, hubs))
    found.update(_classified(parse, refs, hubs | kinds))
    found.update(_entry_class(parse, refs))
    return found


def _entry_class(parse: Parse, refs: Mapping[int, str]) -> set[Stated]:
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
    return {Stated(refs[term.i], "is a", refs[noun.i])} if attached else set()


def _used_for(parse: Parse, verb: Word, refs: Mapping[int, str], objects: Mapping[int, str]) -> set[Stated]:
    """ "use tuples and atoms to create tagged tuples": what is used is used to do it (to one of
    ``objects``, the refs an object may be)."""
    if verb.lemma != "use":
        return set()
    children = parse.children(verb.i)
    used = [
        w for w in endpoints.stand_ins(parse, [o for o in children if o.dep == "dobj"], refs) if w.i in refs
    ]
    found: set[Stated] = set()
    users = [
        w
        for w in endpoints.stand_ins(parse, [s for s in children if s.dep == "nsubjpass"], refs)
        if w.i in refs
    ]
    for prep in (w for w in children if w.dep == "prep" and w.text.casefold() == "for") if users else ():
        # "Bootstrap tokens are used for joining nodes to clusters": what it is used to do
        for ref, task in predicates.tasks(parse, prep, refs):
            if task and not task.endswith(" of"):
                found.update(Stated(refs[u.i], f"is used for {task}", ref) for u in users)
    for purpose in (w for w in children if w.dep in ("xcomp", "advcl") and w.pos == "VERB"):
        if modality.is_unasserted(parse, purpose) or not all(purpose.i > u.i for u in used):
            continue  # "To use the old version, use `powershell`": advice, not what it is used for
        if not modality.is_infinitive(parse, purpose):
            continue  # "accounts created using an IAM service": a means, not a purpose
        if purpose.lemma.casefold() in GIVING_VERBS:
            continue  # "to give the control plane … the opportunity": the object is who receives
        for obj in (w for w in parse.children(purpose.i) if w.dep == "dobj"):
            for word in endpoints.with_conjuncts(parse, [endpoints.called_name(parse, obj)]):
                if word.i in objects:
                    predicate = f"is used to {purpose.lemma.casefold()}"
                    found.update(Stated(refs[u.i], predicate, objects[word.i]) for u in used)
    return found


def _alternative(parse: Parse, verb: Word, refs: Mapping[int, str]) -> set[Stated]:
    """ "As an alternative to `Enum`, Elixir provides the `Stream` module": what the clause offers is
    the alternative."""
    preps = [w for w in parse.children(verb.i) if w.dep == "prep" and w.text.casefold() == "as"]
    if not preps or modality.is_unasserted(parse, verb):
        return set()
    alternatives = [
        w
        for p in preps
        for w in parse.children(p.i)
        if w.dep == "pobj" and w.lemma.casefold() == "alternative"
    ]
    to = [
        p for a in alternatives for p in parse.children(a.i) if p.dep == "prep" and p.text.casefold() == "to"
    ]
    others = endpoints.stand_ins(parse, [w for t in to for w in parse.children(t.i) if w.dep == "pobj"], refs)
    offered = endpoints.stand_ins(parse, [w for w in parse.children(verb.i) if w.dep == "dobj"], refs)
    return {
        Stated(refs[o.i], "is alternative to", refs[x.i])
        for o in offered
        if o.i in refs
        for x in others
        if x.i in refs
    }


def _listed(parse: Parse, refs: Mapping[int, str], hubs: frozenset[str]) -> set[Stated]:
    """ "two data structures: keyword lists and maps", "collections such as lists": members are a
    kind of the class they are listed under."""
    found: set[Stated] = set()
    for word in parse.words:
        if word.i not in refs or word.pos not in ("NOUN", "PROPN"):
            continue
        members: list[Word] = []
        named = endpoints.called_name(parse, word)
        if named.i != word.i and endpoints.determiner_of(parse, word) in ("a", "an", "another"):
            members.append(named)  # "a macro called `use`": use is a macro; "another file called X" too
        for child in parse.children(word.i):
            between = parse.text[word.end : child.start]
            plural = word.tag in ("NNS", "NNPS")
            listed = endpoints.with_conjuncts(parse, [child])
            # "two data structures: keyword lists and maps" lists members; "init containers: containers
            # that run …" glosses the term with its class
            if (
                child.dep == "appos"
                and plural
                and ("(" in between or (":" in between and len(listed) > 1))
                and not _narrowed_by_members(parse, word, listed)
            ):
                members.extend(listed)
            elif (
                child.dep == "prep"
                and child.text.casefold() == "as"
                and plural  # "objects in that namespace, such as Pods": the list is under "objects"
                and any(w.text.casefold() == "such" for w in parse.children(child.i))
                and not _is_in_subordinate_clause(parse, word)
            ):
                members.extend(
                    endpoints.with_conjuncts(parse, [w for w in parse.children(child.i) if w.dep == "pobj"])
                )
        for member in members:
            if member.i in refs and refs[member.i] not in hubs:
                found.add(Stated(refs[member.i], "is a", refs[word.i]))
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


def _appositive(parse: Parse, refs: Mapping[int, str], hubs: frozenset[str]) -> set[Stated]:
    """ "A deque, a queue that opens at both ends, …", "the deque, a kind of queue, …": a noun set off
    by a comma with an indefinite noun phrase of its class is one of that class (not a list, "three
    inputs, a queue, a stack and a map", nor a counted noun, "one input, a queue")."""
    found: set[Stated] = set()
    for word in parse.words:
        if word.i not in refs or word.pos not in ("NOUN", "PROPN") or word.dep == "appos":
            continue
        children = parse.children(word.i)
        if any(w.dep in ("nummod", "conj") for w in children):
            continue
        for child in children:
            if (
                child.dep != "appos"
                or child.i < word.i
                or parse.text[word.end : parse.subtree(child.i)[0].start].strip() != ","
                or endpoints.determiner_of(parse, child) not in ("a", "an")
                or any(w.dep == "conj" for w in parse.children(child.i))
                or frames.is_none_of(parse, child)
            ):
                continue
            classes = kind_named(parse, child, refs) or ([child] if child.i in refs else [])
            found.update(Stated(refs[word.i], "is a", refs[c.i]) for c in classes if refs[c.i] not in hubs)
    return found


def _classified(parse: Parse, refs: Mapping[int, str], hubs: frozenset[str]) -> set[Stated]:
    """ "the `String.Chars` protocol", "the `Enum` module": a code name before a classifier noun that
    is a concept itself is one of that kind (not a concept named as a common noun, ``hubs`` holds
    those too: "the `String` module" is not what "strings" are)."""
    found: set[Stated] = set()
    for word in parse.words:
        if word.i not in refs or word.pos != "NOUN" or word.lemma.casefold() not in CLASSIFIERS:
            continue
        for child in parse.children(word.i):
            if (
                child.dep in ("compound", "nmod")
                and child.code
                and child.i == word.i - 1
                and child.i in refs
                and refs[child.i] not in hubs
                and not endpoints.is_other_case(child, refs[child.i])
            ):
                found.add(Stated(refs[child.i], "is a", refs[word.i]))
    return found
