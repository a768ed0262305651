"""The endpoints of a stated relation (R20): the verb's subjects, resolved through "which" and stand-ins
("the `IO` module" for IO), their conjuncts, the concept a noun phrase names or reaches, whether a
subject is restricted to some members of its kind, and whether a name is narrowed to one kind or
instance ("the snapshot controller") or a noun names one instance ("a label, `x/y`").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from wikigen.engines.offline import modality
from wikigen.engines.offline.frames import EXAMPLE_START
from wikigen.engines.offline.lexicon import (
    ADJECTIVE_ENDINGS,
    ANY_NUMBER,
    CALLING_VERBS,
    EXAMPLE_PREPOSITIONS,
    NAMING_NOUNS,
    ORDINALS,
    PICKING_PREPOSITIONS,
    PLAIN_ADJECTIVES,
    POINTING,
    QUANTIFIERS,
    STAND_IN_CLASSIFIERS,
)
from wikigen.engines.offline.parse import Parse, Word
from wikigen.engines.offline.relations import Mention
from wikigen.engines.offline.subjects import is_hyphened

SUBJECT_DEPS = ("nsubj", "nsubjpass")


def is_noun_as_adjective(parse: Parse, word: Word) -> bool:
    """ "the snapshot controller", with "snapshot" tagged an adjective: a modifier that is no
    adjective by its form (no comparison, no adjective ending) and sits right before a noun names a
    kind of that noun."""
    text = word.text.casefold()
    return (
        word.dep == "amod"
        and word.pos == "ADJ"
        and word.tag == "JJ"
        and word.head == word.i + 1
        and text.isalpha()
        and text not in PLAIN_ADJECTIVES
        and not text.endswith(ADJECTIVE_ENDINGS)
    )


def is_restricted(parse: Parse, head: Word, mention: Mention, refs: Mapping[int, str]) -> bool:
    """What the sentence says of some members of a kind, not of the kind — a clause right
    after the name that picks them by what befalls them or what they are not ("Pods that are
    deleted", "nodes that don't meet …", "controllers that are specific to …"), "any" with a
    participle ("Any Container exceeding a limit"), an ordinal ("the first manifest"), an example's
    made-up one ("For example, a pod runs …", not "For example, `MapSet`s are …"), or a phrase
    that picks them with a pointing word ("Gateways of this class") or, for a subject, by another
    concept ("a controller for Jobs tracks …"). What members do ("functions that open files") still
    speaks of the kind: the gold lists count it."""
    children = parse.children(head.i)
    if EXAMPLE_START.match(parse.text) and determiner_of(parse, head) in ("a", "an", "one"):
        return True  # "For example, a pod runs a single container", "For instance, when a Job …": made up
    anyone = any(w.dep == "det" and w.lemma.casefold() == "any" for w in children)
    subject = head.dep in ("nsubj", "nsubjpass")
    argument = subject or head.dep in ("dobj", "obj")
    for child in children:
        if child.i < head.i:
            if child.dep == "amod" and child.lemma.casefold() in ORDINALS:
                return True
            if child.dep == "nummod" and child.lemma.casefold() not in ANY_NUMBER:
                return True  # "Kubernetes starts with four initial namespaces": those four
            continue
        # "Pods, which are …" adds to the name; "Pods that are deleted" picks some of them
        between = parse.text[mention.end : child.start]
        if any(mark in between for mark in ",;:()—–"):
            continue
        if argument and child.dep == "relcl" and _is_picking_clause(parse, child):
            return True
        if argument and anyone and child.dep == "acl" and child.tag == "VBG":
            return True
        if argument and child.dep == "acl" and child.tag == "VBN" and child.i == head.i + 1:
            return True  # "Pods created by the other ReplicaSet": "Pods that are created by …"
        if child.dep == "prep" and child.text.casefold() in PICKING_PREPOSITIONS and not between.strip():
            by_concept = subject and child.text.casefold() in ("for", "of")
            for pobj in (w for w in parse.children(child.i) if w.dep == "pobj"):
                if by_concept and refs.get(pobj.i, mention.ref) != mention.ref:
                    return True
                if any(w.dep == "det" and w.text.casefold() in POINTING for w in parse.children(pobj.i)):
                    return True
    return False


def is_one_of_a_kind(
    parse: Parse, head: Word, mention: Mention, refs: Mapping[int, str], hubs: frozenset[str]
) -> bool:
    """ "the snapshot controller", "the Reserve interface", "the priority admission controller": a
    word before the name (or before a word of it) that narrows it to one kind or instance (or names
    another concept: "the Job controller") makes the phrase something other than the general
    concept ("the Kubernetes scheduler", a hub's, is the scheduler); "the `IO` module" stands for
    `IO` (:func:`stand_ins`), and a code name is itself ("Notice `spawn/1` returns …" is a
    misparse)."""
    if head.code:
        return False
    if is_restricted(parse, head, mention, refs):
        return True
    # the modifier may hang on any word of the name ("the priority admission controller")
    inside = {w.i for w in parse.words if mention.start <= w.start and w.end <= mention.end} | {head.i}
    return any(
        w.dep in ("compound", "amod", "nmod")
        and w.head in inside
        # "the snapshot controller", tagged ADJ; "set-based label selectors", "API-initiated
        # evictions": a hyphened word names a subkind
        and (
            w.pos in ("NOUN", "PROPN")
            or w.i in refs
            or is_hyphened(parse, w)
            or is_noun_as_adjective(parse, w)
            # "ignores unready nodes", the adjective hung on the noun as a part of its name: the
            # parser's sign of a word that picks some of the kind
            or (w.pos == "ADJ" and w.dep == "compound")
        )
        and w.end <= mention.start
        # on an inner word, a lower-case word ("the priority admission controller"), not a name of
        # its own ("Static Pods: Control plane components are …", a definition list's term run in)
        and (w.head == head.i or w.text[:1].islower())
        and refs.get(w.i) != mention.ref  # "the Job controller": a Job's, not any controller
        and refs.get(w.i) not in hubs
        and not w.code
        and w.lemma.casefold() not in NAMING_NOUNS  # "the term _deque_" names the deque
        for w in parse.words
    )


def is_named_kind(parse: Parse, head: Word, mention: Mention) -> bool:
    """ "an API gateway", "an Ingress controller", "CNI plugins": a capitalized name right before the
    mention's head narrows it to a kind of its own, named after another thing, not a subclass the
    concept stands for ("a character encoding", "software extensions" still are encodings and
    extensions)."""
    return any(  # "a UTF-8 encoded binary" is still a binary: a name of letters only
        w.dep in ("compound", "amod")
        and w.i > 0
        and w.end <= mention.start
        and w.text[:1].isupper()
        and w.text.isalpha()
        and not w.code
        for w in parse.children(head.i)
    )


def is_named_after(parse: Parse, word: Word) -> bool:
    """A common noun followed by a code name, "a label, `x/y`", "an immutable label `x` on …": one
    instance, named."""
    words = parse.words
    after = words[word.i + 1 : word.i + 3]
    if word.code or not after:
        return False
    return after[0].code or (after[0].text == "," and len(after) > 1 and after[1].code)


def is_after_quantified(parse: Parse, prep: Word, siblings: Sequence[Word]) -> bool:
    """``prep`` follows right after an earlier prepositional phrase of the same verb whose noun is
    quantified ("from each container | in a running Pod")."""
    for earlier in siblings:
        if earlier.dep != "prep" or earlier.i >= prep.i:
            continue
        for noun in parse.children(earlier.i):
            quantified = noun.dep == "pobj" and any(
                w.dep == "det" and w.lemma.casefold() in QUANTIFIERS for w in parse.children(noun.i)
            )
            if quantified and any(w.i == prep.i - 1 for w in parse.subtree(noun.i)):
                return True
    return False


def _is_picking_clause(parse: Parse, clause: Word) -> bool:
    """A relative clause that picks members by what befalls them ("that are deleted"), by what they
    are ("that are specific to …") or by what they do not do ("that don't meet …")."""
    inner = parse.children(clause.i)
    return clause.lemma == "be" or any(w.dep in ("nsubjpass", "auxpass", "neg") for w in inner)


def verb_subjects(parse: Parse, verb: Word) -> list[Word]:
    """The verb's subjects; a coordinated verb without one shares its head verb's ("Charlists are
    lists of integers, and therefore are chardata")."""
    own = [w for w in parse.children(verb.i) if w.dep in SUBJECT_DEPS]
    head = parse.words[verb.head]
    if (
        not own
        and verb.dep == "acl"
        and verb.tag == "VBN"
        and head.dep == "ROOT"
        and parse.text[head.end : verb.start].strip() == ":"
    ):
        return [head]  # a definition list's entry, "ResourceSlice : Used with structured parameters …"
    if verb.tag == "VBZ" and any(_is_joined_by_and(parse, w) for w in own):
        # "… defines a Pod template and a controller … creates Pods": two nouns joined by "and" take
        # no singular verb; the parser joined the object of one clause to the subject of the next
        return []
    if own or verb.dep != "conj":
        return own
    if head.i == verb.i or head.pos not in ("VERB", "AUX") or modality.is_unasserted(parse, head):
        return []
    if verb.tag == "VBG" and head.tag in ("VBZ", "VBP", "VBD"):
        return []  # "X detects this and tries … by triggering A and/or reserving B": "reserving" is no "X reserves"
    if (
        verb.tag == "VBN"
        and head.tag in ("VBZ", "VBP")
        and not any(w.dep in ("aux", "auxpass") for w in parse.children(verb.i))
    ):
        return []  # "X: Defines a set of gateways … and managed by a controller": the bare participle qualifies the gateways
    return [w for w in parse.children(head.i) if w.dep in SUBJECT_DEPS]


def resolved(parse: Parse, subjects: list[Word]) -> list[Word]:
    """ "the kubelet, which runs on …": the subject of a relative clause is the noun it qualifies;
    "X is a component that runs on …": X, the copula's subject, runs on it (not "component")."""
    out: list[Word] = []
    for word in subjects:
        if word.lemma.casefold() not in ("which", "that", "who") or word.dep not in SUBJECT_DEPS:
            out.append(word)
            continue
        clause = parse.words[word.head]
        if clause.dep != "relcl":
            continue
        antecedent = parse.words[clause.head]
        between = parse.text[antecedent.end : word.start]
        if between.count(")") > between.count("("):
            # "components (e.g. `kube-scheduler`, `kubectl`) which add labels …": the clause follows
            # the brackets, and qualifies the noun before them, not an example inside
            continue
        if antecedent.dep != "attr" and "," not in between:
            continue  # "components which add labels must …" picks some components: it states nothing
        copula = parse.words[antecedent.head]
        of_class = antecedent.dep == "attr" and copula.lemma == "be"
        # "Job is a Kubernetes resource that runs a Pod": Job runs it, not "resource" (nor the
        # Kubernetes that would stand in for it); "… is `~r`, which is used to …": `~r` is too
        if not (of_class and "," not in parse.text[antecedent.end : word.start]):
            out.append(antecedent)
        if of_class and not modality.is_unasserted(parse, copula):
            out.extend(w for w in parse.children(copula.i) if w.dep == "nsubj")
    return with_conjuncts(parse, out)


_SET_OFF = re.compile(r"[,(:;–—]")


def stand_ins(parse: Parse, words: Sequence[Word], refs: Mapping[int, str]) -> list[Word]:
    """The words that name a concept for each of ``words`` and its conjuncts: the word itself, or
    what it introduces — "Elixir's test framework (ExUnit)", "the `IO` module", "three parts:
    generators, filters …", "on top of the maps"."""
    out: list[Word] = []
    for word in with_conjuncts(parse, words):
        children = parse.children(word.i)
        # "the `IO` module" is IO and "the `etcd` service" is one service, even where "module" or
        # "service" names a concept too: the code name is the thing, a concept or nothing
        coded = [w for w in children if w.dep in ("compound", "nmod") and w.code]
        pointed = any(w.dep == "det" and w.text.casefold() in POINTING for w in children)
        if coded and word.pos == "NOUN":
            # … but "This `kubectl` command selects …" is one command line, not the tool
            out.extend(w for w in coded if w.i in refs and not pointed)
            continue
        if word.i in refs or any(w.dep == "det" and w.text.casefold() in POINTING for w in children):
            out.append(word)  # "This page …: specialized containers that …" stands for no container
            continue
        # an apposition is set off ("framework (ExUnit)", "the agent, ExUnit"); "The default
        # Kubernetes scheduler", parsed as "default" with two, is one noun phrase: its last noun
        run = [
            w for w in children if w.dep == "appos" and not _SET_OFF.search(parse.text[word.end : w.start])
        ]
        if run and word.i not in refs:
            out.extend([run[-1]] if run[-1].i in refs else [])
            continue
        named = [w for w in children if w.dep == "appos" and w.i in refs and w not in run]
        if not named and word.lemma.casefold() in STAND_IN_CLASSIFIERS:
            # the name right before the classifier: "the Acme type", not "the Acme plough type"
            named = [
                w for w in children if w.dep in ("compound", "nmod") and w.i in refs and w.i == word.i - 1
            ]
        if not named and word.lemma.casefold() in ("top", "front", "part", "parts"):
            # "on top of the spawn functions": what the "of" names stands in for it in turn
            named = stand_ins(
                parse,
                [
                    p
                    for w in children
                    if w.dep == "prep" and w.text.casefold() == "of"
                    for p in parse.children(w.i)
                    if p.dep == "pobj"
                ],
                refs,
            )
        if not named:
            named = [w for w in children if w.dep == "appos" and ":" in parse.text[word.end : w.start]]
        out.extend(with_conjuncts(parse, named) if named else [word])
    return out


def called_name(parse: Parse, word: Word) -> Word:
    """ "a feature called doctests" stands for doctests."""
    for clause in parse.children(word.i):
        if (
            clause.dep == "appos"
            and clause.code
            and clause.i == word.i + 2
            and any(w.lemma == "call" and w.i == word.i + 1 for w in parse.children(clause.i))
        ):
            return clause  # "a macro called `use`", parsed as "macro" in apposition with "called `use`"
        if clause.dep == "acl" and clause.lemma in ("call", "know"):  # "a project named sample": an instance
            for child in parse.children(clause.i):
                if child.dep in ("oprd", "attr", "dobj"):
                    return child
                if child.dep == "prep" and child.text.casefold() == "as":
                    pobj = next((w for w in parse.children(child.i) if w.dep == "pobj"), None)
                    if pobj is not None:
                        return pobj
    return word


def _modifies_next(parse: Parse, word: Word) -> bool:
    """ "for the Kubernetes scheduler" read with "Kubernetes" as the object and "scheduler" hung on
    the verb as a clause: the noun right after the word is what it qualifies."""
    after = parse.words[word.i + 1] if word.i + 1 < len(parse.words) else None
    return (
        after is not None
        and after.pos == "NOUN"
        and after.dep in ("advcl", "ccomp", "xcomp", "dep", "npadvmod")
        and not parse.text[word.end : after.start].strip()
    )


def reached(parse: Parse, noun: Word, refs: Mapping[int, str]) -> list[tuple[str, list[str]]]:
    """Concepts reached from ``noun`` through "of"/"on"/"for" phrases or a participle: the words of
    the path ("of"; "built on top of"), two steps at most."""
    found: list[tuple[str, list[str]]] = []

    def walk(word: Word, path: list[str], depth: int) -> None:
        if depth > 3:
            return
        for child in parse.children(word.i):
            if child.dep == "prep" and _in_parentheses(parse, word.i, child.i):
                continue  # "the building block of Typer (through Typer or …)": an aside, not the relation
            if child.dep == "prep" and child.text.casefold() not in EXAMPLE_PREPOSITIONS:
                for pobj in with_conjuncts(parse, [w for w in parse.children(child.i) if w.dep == "pobj"]):
                    step = [*path, child.text.casefold()]
                    if pobj.i in refs and not _modifies_next(parse, pobj):
                        found.append((refs[pobj.i], step))
                    elif pobj.lemma.casefold() in ("top", "front", "part", "set", "list", "kind", "type"):
                        walk(pobj, [*step, pobj.text.casefold()], depth + 1)
            elif (
                child.dep == "acl"
                and child.pos == "VERB"
                and depth == 0
                and child.tag == "VBN"
                and child.lemma.casefold() not in CALLING_VERBS  # "identifiers (also known as UUIDs)"
            ):
                walk(child, [*path, child.text.casefold()], depth + 1)

    walk(noun, [], 0)
    return found


def _in_parentheses(parse: Parse, head: int, word: int) -> bool:
    """A bracket opens between ``head`` and ``word`` and is still open at ``word``."""
    depth = 0
    for between in parse.words[min(head, word) + 1 : max(head, word)]:
        depth += {"(": 1, ")": -1}.get(between.text, 0)
    return depth > 0 if head < word else depth < 0


def is_other_case(word: Word, ref: str) -> bool:
    """The code name is the concept's name in other letters: the `ets` module is not ETS."""
    written = word.text.strip("`")
    return not ref.startswith("concept/") and written != ref and written.casefold() == ref.casefold()


def determiner_of(parse: Parse, word: Word) -> str:
    return next((w.text.casefold() for w in parse.children(word.i) if w.dep == "det"), "")


def _is_joined_by_and(parse: Parse, word: Word) -> bool:
    """ "a Pod template and a controller": ``word`` with a noun coordinated by "and"."""
    children = parse.children(word.i)
    return any(w.dep == "conj" for w in children) and any(
        w.dep == "cc" and w.lemma.casefold() == "and" for w in children
    )


def with_conjuncts(parse: Parse, words: Sequence[Word]) -> list[Word]:
    """The words and those coordinated with them ("keyword lists and maps")."""
    out = list(words)
    index = 0
    while index < len(out):
        out.extend(w for w in parse.children(out[index].i) if w.dep == "conj" and w not in out)
        index += 1
    return out
