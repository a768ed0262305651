"""What a verb states between its subject and its objects (R20): each object it reaches — direct,
prepositional, through a relational adjective or what it enables — with the verb phrase that becomes
the relation's predicate, in the third person. A member a copula picks out of a kind ("The simplest
kind of queue is a ring buffer") is told by :mod:`~wikigen.engines.offline.members`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wikigen.engines.offline import endpoints, frames, modality
from wikigen.engines.offline.lexicon import (
    CLASS_NOUNS,
    DECIDING_VERBS,
    DOUBLE_OBJECT_VERBS,
    ENABLING_VERBS,
    GIVING_VERBS,
    LIGHT_VERBS,
    OBJECT_PHRASE_PREPOSITIONS,
    PLACING_PREPOSITIONS,
    PROCESS_NOUNS,
    PROVIDING_VERBS,
    READER_OBJECTS,
    RELATING_PREPOSITIONS,
    RELATIONAL_ADJECTIVES,
    SUCCESSION_WORDS,
)
from wikigen.engines.offline.members import is_superlative
from wikigen.engines.offline.parse import Parse, Word

MAX_PREDICATE_WORDS = 5


def verb_objects(
    parse: Parse, verb: Word, refs: Mapping[int, str], passive: bool
) -> list[tuple[str, str, bool]]:
    """(object ref, predicate, whether the object is the agent of a passive) for ``verb``."""
    out: list[tuple[str, str, bool]] = []
    children = parse.children(verb.i)
    particle = " ".join(w.text.casefold() for w in children if w.dep == "prt")
    if verb.lemma == "take" and any(  # "takes taints and tolerations into account"
        w.dep == "prep"
        and w.text.casefold() == "into"
        and any(p.lemma == "account" for p in parse.children(w.i))
        for w in children
    ):
        particle = "into account"
    base = _verb_phrase(verb, particle, passive)
    if (
        passive
        and verb.tag == "VBN"
        and any(w.dep == "auxpass" for w in children)
        # "were given names": a true object
        and verb.lemma.casefold() not in GIVING_VERBS | DOUBLE_OBJECT_VERBS
    ):
        # "its edges are evidenced relations": a participle right before the noun it qualifies,
        # read as a passive verb with an object (a passive takes none); the sentence says what they are
        noun = next((w for w in children if w.dep == "dobj" and w.i == verb.i + 1), None)
        if noun is not None:
            return [
                (refs[w.i], "is a", False) for w in endpoints.with_conjuncts(parse, [noun]) if w.i in refs
            ]
    if verb.lemma == "be":
        for quality in (
            w for w in children if w.dep == "acomp" and w.lemma.casefold() in RELATIONAL_ADJECTIVES
        ):
            # "`dbg` is similar to `IO.inspect/2`": an adjective that relates the subject to its object
            for prep in (w for w in parse.children(quality.i) if w.dep == "prep"):
                for pobj in endpoints.stand_ins(
                    parse, [w for w in parse.children(prep.i) if w.dep == "pobj"], refs
                ):
                    if pobj.i in refs:
                        out.append(
                            (refs[pobj.i], f"is {quality.lemma.casefold()} {prep.text.casefold()}", False)
                        )
        for duty in (w for w in children if w.dep == "acomp" and w.lemma.casefold() == "responsible"):
            # "The Job is responsible for the management of the Pods", "… for creating Jobs"
            for prep in (w for w in parse.children(duty.i) if w.dep == "prep" and w.text.casefold() == "for"):
                out.extend(
                    (ref, f"is responsible for {task}".rstrip(), False)
                    for ref, task in tasks(parse, prep, refs)
                )
        subjects = [w for w in children if w.dep in endpoints.SUBJECT_DEPS]
        definite = any(endpoints.determiner_of(parse, w) == "the" for w in subjects)
        # R20: "The simplest queue is a ring buffer": the predicate nominal is the member picked out
        chosen = any(is_superlative(parse, w) for w in subjects)
        attrs = [w for w in children if w.dep == "attr"]
        for attr in attrs:
            if attr is not attrs[0] and any(w.text == ":" for w in parse.words[attrs[0].i : attr.i]):
                # "is one version of the knowledge: the manifest plus every article …": after the
                # colon, what that one thing is made of, not more classes of the subject
                continue
            for word in endpoints.with_conjuncts(parse, [attr]):
                if word.i not in refs or _is_successor(parse, word):
                    continue
                if (word.code or word.pos == "PROPN") and not endpoints.determiner_of(parse, word):
                    # "The most common sigil is `~r`": the name is one of the subject's kind; "a Pod
                    # that is `Burstable`" gives the Pod a value, not a kind
                    if definite:
                        out.append((refs[word.i], "is a", True))
                    continue
                out.append((refs[word.i], "is a", chosen))
            # "is the regular way to represent Y": the clause that qualifies the class ("Taints and
            # tolerations are a flexible way to steer pods …": the pair is one way, neither alone)
            joint = attr.tag == "NN" and any(
                c.dep == "conj" for w in subjects for c in parse.children(w.i)
            )
            for clause in (
                w
                for w in parse.children(attr.i)
                if w.dep in ("relcl", "acl") and w.pos == "VERB" and not joint
            ):
                if modality.is_unasserted(parse, clause):
                    continue
                infinitive = modality.is_infinitive(parse, clause)
                for obj in (w for w in parse.children(clause.i) if w.dep == "dobj"):
                    for word in endpoints.with_conjuncts(parse, [obj]):
                        if word.i in refs and infinitive:
                            out.append(
                                (
                                    refs[word.i],
                                    f"is {attr.lemma.casefold()} to {clause.lemma.casefold()}",
                                    False,
                                )
                            )
            # "is the process of terminating Y": what the process does
            if attr.lemma.casefold() in PROCESS_NOUNS:
                for prep in (
                    w for w in parse.children(attr.i) if w.dep == "prep" and w.text.casefold() == "of"
                ):
                    out.extend(
                        (ref, f"is {attr.lemma.casefold()} of {task}", False)
                        for ref, task in tasks(parse, prep, refs)
                        if task
                    )
            # "is the counterpart of Y", "are extensions built on top of Y", "is a kind of Y"
            for ref, path in endpoints.reached(parse, attr, refs):
                if attr.lemma.casefold() in CLASS_NOUNS and path == ["of"]:
                    out.append((ref, "is a", False))
                else:
                    # "are extensions built on top of maps": the participle carries the relation
                    participles = {w.text.casefold() for w in parse.children(attr.i) if w.dep == "acl"}
                    participle = bool(path) and path[0] in participles
                    words = ["is", *path] if participle else ["is", *nominal(parse, attr).split(), *path]
                    if len(words) <= MAX_PREDICATE_WORDS:
                        out.append((ref, " ".join(words), False))
        return out
    objects = [w for w in children if w.dep in ("dobj", "obj", "oprd")]
    if any(frames.is_none_of(parse, w) for w in objects):
        return out  # R20: "applies no labels to Pods", "takes no arguments": nothing done, nothing stated
    bare = verb.lemma.casefold() in ("let", "help")  # "lets you manage …": an infinitive without "to"
    enabled = [
        w
        for w in children
        if w.dep in ("xcomp", "ccomp") and w.pos == "VERB" and (bare or modality.is_infinitive(parse, w))
    ]
    if verb.lemma.casefold() in ENABLING_VERBS and enabled:
        return _enabled(parse, verb, enabled[0], objects, refs)
    if verb.lemma.casefold() in DECIDING_VERBS:
        # "Liveness probes determine when to restart a container": what the subject decides for Y
        for clause in (
            w for w in children if w.dep in ("advcl", "xcomp", "ccomp") and modality.is_infinitive(parse, w)
        ):
            wh = next(
                (
                    w
                    for w in parse.children(clause.i)
                    if (w.dep == "advmod" and w.tag == "WRB")
                    or (w.dep == "mark" and w.text.casefold() == "whether")
                ),
                None,
            )
            if wh is None:
                continue
            done = endpoints.stand_ins(parse, [w for w in parse.children(clause.i) if w.dep == "dobj"], refs)
            predicate = f"{_active(verb, '')} {wh.text.casefold()} to {clause.lemma.casefold()}"
            out.extend((refs[w.i], predicate, False) for w in done if w.i in refs)
        if out:
            return out
    if verb.lemma.casefold() in LIGHT_VERBS and not particle and not passive:
        return out
    if len(objects) > 1 and not any(w.dep == "cc" for w in children):
        objects = objects[-1:]  # "changing the pod logs directory": "pod" is no object of its own
    # "Kubernetes provides Containers with lifecycle hooks": the object is who receives; what is
    # provided is the "with" phrase's
    giving = verb.lemma.casefold() in PROVIDING_VERBS and any(
        w.dep == "prep" and w.text.casefold() == "with" for w in children
    )
    if giving:
        objects = []
    if not objects and verb.tag in ("VBZ", "VBP"):
        # "A Deployment manages ReplicaSets and every ReplicaSet creates Pods": the parser took the
        # object for the subject of the next clause; it follows the verb directly.
        for clause in (
            w for w in children if w.dep == "ccomp" and w.i > verb.i and not modality.is_infinitive(parse, w)
        ):
            subject = next((w for w in parse.children(clause.i) if w.dep == "nsubj"), None)
            between = parse.words[verb.i + 1 : subject.i] if subject is not None else []
            if subject is not None and all(w.pos == "DET" for w in between):
                objects.append(subject)
    for obj in objects:
        out.extend(
            (refs[w.i], base, False)
            for w in endpoints.stand_ins(parse, [endpoints.called_name(parse, obj)], refs)
            if w.i in refs
        )
    # What the verb did to something else comes along: "applies labels to Pods"; so does an object
    # that is a concept of its own: "assigns pods to nodes" does not assign the scheduler to nodes
    plain = next((w for w in objects if w.i not in refs and w.pos == "NOUN" and not w.code), None) or next(
        (w for w in objects if w.i in refs and w.pos in ("NOUN", "PROPN")), None
    )
    first_subject = min((w.i for w in children if w.dep in endpoints.SUBJECT_DEPS), default=verb.i)
    for prep in (w for w in children if w.dep in ("prep", "agent")):
        if prep.i < first_subject:
            continue  # "In Kubernetes, a VolumeSnapshot represents …": a frame, not an argument
        preposition = prep.text.casefold()
        agent = prep.dep == "agent" or (passive and preposition == "by")
        if not agent and preposition not in RELATING_PREPOSITIONS:
            continue  # "by default", "after the phase", "in case of": circumstances, not relations
        if preposition == "as" and objects and not passive:
            continue  # "provides `==` and `!=` as comparison operators": the kind of the object
        if preposition in PLACING_PREPOSITIONS and endpoints.is_after_quantified(parse, prep, children):
            continue  # "captures logs from each container in a running Pod": where each container is
        pobjs = [w for w in parse.children(prep.i) if w.dep == "pobj"]
        if any(c.dep == "preconj" for p in pobjs for c in parse.children(p.i)):
            continue  # "… as either Events or Node conditions": one or the other, neither is stated
        # "builds on pattern matching and guards": the parser hung the second noun on the verb
        later = [w.i for w in children if w.dep in ("prep", "agent") and w.i > prep.i]
        # (not after a comma: "stay in history, and the manifest inside the commit notes …" opens
        # a clause the parser did not build)
        coordinated = any(
            w.dep == "cc" and prep.i < w.i and parse.words[w.i - 1].text != "," for w in children
        )
        pobjs += [
            w
            for w in children
            if coordinated
            and w.dep == "conj"
            and w.pos in ("NOUN", "PROPN")
            and w.i > prep.i
            and not any(i < w.i for i in later)
        ]
        for pobj in endpoints.stand_ins(parse, pobjs, refs):
            if pobj.i not in refs:
                continue
            if agent:
                out.append((refs[pobj.i], _active(verb, particle), True))
            elif objects and plain is None:
                # "sets an immutable label `x/y` on all namespaces": an object that is no plain noun
                # (a name, code) cannot stand in the predicate, and "sets on" without it says nothing
                continue
            else:
                middle = plain.text.casefold() if plain is not None else ""
                # "behave differently from Linux containers": the manner is the relation
                manner = " ".join(
                    w.text.casefold()
                    for w in children
                    if w.dep == "advmod" and verb.i < w.i < prep.i and w.text.casefold().endswith("ly")
                )
                said = "" if giving and preposition == "with" else preposition
                words = " ".join(filter(None, [base, middle, manner, said])).split()
                if len(words) <= MAX_PREDICATE_WORDS:
                    out.append((refs[pobj.i], " ".join(words), False))
    for obj in (w for w in children if w.dep == "dobj" and w.i not in refs):
        # "Structs take the name of the module": the object names a part of a concept; "provides
        # access to the queue" is no "provides the queue": the object phrase is the predicate's
        for ref, path in endpoints.reached(parse, obj, refs):
            words = [base, obj.lemma.casefold(), *path]
            if (
                len(path) == 1
                and path[0] in OBJECT_PHRASE_PREPOSITIONS
                and len(" ".join(words).split()) <= MAX_PREDICATE_WORDS
            ):
                out.append((ref, " ".join(words), False))
    for xcomp in (w for w in children if w.dep == "xcomp" and w.pos == "VERB"):
        # "X is used to create Y": the purpose is the predicate
        if any(w.i in refs for w in objects):
            continue  # "requires nodes to run pods": the nodes run them, not what requires them
        inner = parse.children(xcomp.i)
        if modality.is_unasserted(parse, xcomp) or not modality.is_infinitive(parse, xcomp):
            continue  # "contains hashing functions": a gerund is no purpose
        if xcomp.lemma.casefold() in GIVING_VERBS:
            continue  # "uses owner references to give the control plane … the opportunity": who receives
        # "uses square brackets to specify a list": what it uses is part of the predicate
        middle = plain.text.casefold() if plain is not None else ""
        dobjs = [w for w in inner if w.dep == "dobj"]
        if len(dobjs) > 1 and not any(w.dep == "cc" for w in inner):
            dobjs = dobjs[-1:]  # a misparse: the last is the head of the object
        for obj in dobjs:
            for word in endpoints.with_conjuncts(parse, [obj]):
                if word.i in refs:
                    words = " ".join(filter(None, [base, middle, "to", xcomp.lemma.casefold()])).split()
                    if len(words) <= MAX_PREDICATE_WORDS:
                        out.append((refs[word.i], " ".join(words), False))
    return out


def tasks(parse: Parse, prep: Word, refs: Mapping[int, str]) -> list[tuple[str, str]]:
    """What a preposition ("for", "of") names as a task, with the concept it is done to: a concept
    itself ("for Pods", task ""), a gerund's object ("for creating Jobs": "creating") or a noun's
    ("for the management of Pods": "management of")."""
    found: list[tuple[str, str]] = []
    for word in parse.children(prep.i):
        if word.dep == "pcomp" and word.tag == "VBG" and not modality.is_unasserted(parse, word):
            for obj in (w for w in parse.children(word.i) if w.dep == "dobj"):
                found.extend(
                    (refs[w.i], word.text.casefold())
                    for w in endpoints.stand_ins(parse, [obj], refs)
                    if w.i in refs
                )
        elif word.dep == "pobj":
            for noun in endpoints.with_conjuncts(parse, [word]):
                if noun.i in refs:
                    found.append((refs[noun.i], ""))
                    continue
                for of in (
                    w for w in parse.children(noun.i) if w.dep == "prep" and w.text.casefold() == "of"
                ):
                    for obj in endpoints.stand_ins(
                        parse, [w for w in parse.children(of.i) if w.dep == "pobj"], refs
                    ):
                        if obj.i in refs and noun.pos == "NOUN":
                            found.append((refs[obj.i], f"{noun.lemma.casefold()} of"))
    return found


def _enabled(
    parse: Parse, verb: Word, action: Word, objects: Sequence[Word], refs: Mapping[int, str]
) -> list[tuple[str, str, bool]]:
    """What it lets the reader do ("A StatefulSet lets you manage Pods") is what it is for: the
    concept done to is the object ("lets you manage"). What it lets something else do states no
    relation: "Links allow processes to establish a relationship" makes processes no object of
    "allows", and "allows to establish relationship" no predicate a reader agrees with."""
    inner = parse.children(action.i)
    allowed = [*objects, *(w for w in inner if w.dep == "nsubj")]
    if modality.is_unasserted(parse, verb):
        return []
    readers = [w for w in allowed if w.text.casefold() in READER_OBJECTS]
    if readers and len(readers) == len(allowed):
        # "A StatefulSet lets you manage Pods": what it lets the reader do is what it is for
        to = "" if verb.lemma.casefold() in ("let", "help") else " to"
        predicate = f"{_active(verb, '')} {readers[0].text.casefold()}{to} {action.lemma.casefold()}"
        done = endpoints.stand_ins(parse, [w for w in inner if w.dep == "dobj"], refs)
        return [(refs[w.i], predicate, False) for w in done if w.i in refs]
    # "Links allow processes to establish a relationship": who is allowed is no object of "allows",
    # and "allows to establish relationship" no predicate a reader agrees with
    return []


def nominal(parse: Parse, noun: Word) -> str:
    """The noun with the words it is built from: "plug-in" (three tokens), "building block" (a
    compound), in lower case, the noun itself as its lemma ("building blocks" → "building block")."""
    first = noun.i
    while first > 0:
        before, word = parse.words[first - 1], parse.words[first]
        joined = before.end == word.start and "-" in (before.text, word.text)
        if joined or (before.dep == "compound" and before.head in range(first, noun.i + 1)):
            first -= 1
            continue
        break
    return (parse.text[parse.words[first].start : noun.start] + noun.lemma).casefold()


def _verb_phrase(verb: Word, particle: str, passive: bool) -> str:
    if passive:
        return " ".join(filter(None, ["is", verb.text.casefold(), particle]))
    return _active(verb, particle)


def _active(verb: Word, particle: str) -> str:
    return " ".join(filter(None, [third_person(verb.lemma.casefold()), particle]))


def third_person(lemma: str) -> str:
    """ "use" → "uses", "watch" → "watches", "carry" → "carries", "be" → "is"."""
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if lemma in irregular:
        return irregular[lemma]
    if lemma.endswith(("s", "x", "z", "ch", "sh", "o")):
        return lemma + "es"
    if lemma.endswith("y") and len(lemma) > 2 and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ies"
    return lemma + "s"


def _is_successor(parse: Parse, noun: Word) -> bool:
    """ "ReplicaSet is the next-generation ReplicationController": the one that replaces it, not one
    of its kind."""
    return any(
        w.lemma.casefold() in SUCCESSION_WORDS and w.i < noun.i for w in parse.subtree(noun.i)
    )
