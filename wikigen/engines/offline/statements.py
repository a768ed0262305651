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
member of a kind a copula picks out or a noun phrase names without a verb, and :mod:`~wikigen.engines.offline.modality` whether the clause
is asserted at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wikigen.engines.offline import endpoints, frames, members, modality, predicates
from wikigen.engines.offline.frames import WHAT_FOLLOWS, is_imperative
from wikigen.engines.offline.lexicon import (
    DOCUMENTING_VERBS,
    GIVING_VERBS,
    LIST_CONDITIONS,
    NAMING_VERBS,
    PLATFORM_VERBS,
    alternation,
)
from wikigen.engines.offline.parse import Parse, Word
from wikigen.engines.offline.relations import Mention
from wikigen.engines.offline.subjects import is_code_of_classifier

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
    # "Elixir provides the `Stream` module …", "the `String` module" name the module, another sense
    # than streams or strings, concepts named as common nouns (``kinds``), in every relation
    refs = {
        i: ref for i, ref in refs.items() if not (ref in kinds and is_code_of_classifier(parse, parse.words[i]))
    }
    heads = [(head, mention) for head, mention in heads if head.i in refs]
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
            and not members.kind_named(parse, w, refs)
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
            Stated(member, "is a", kind) for member, kind in members.kind_members(parse, verb, objects)
        )
        found.update(_used_for(parse, verb, refs, objects))
        found.update(_alternative(parse, verb, refs))
    # R20: members of a kind named without a verb: listed under it, set off beside it, written
    # before its classifier noun, or glossed by it in a definition list
    found.update(
        Stated(member, "is a", kind)
        for member, kind in (
            members.listed(parse, refs, hubs)
            | members.appositive(parse, refs, hubs)
            | members.classified(parse, refs, hubs)
            | members.entry_class(parse, refs)
            | members.named_to_refer(parse, refs)
        )
    )
    # "Together, A and B are referred to as X": X consists of A and of B
    found.update(Stated(whole, "consists of", part) for whole, part in members.named_whole(parse, refs))
    return found


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
