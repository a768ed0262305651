"""Relations a sentence states between two concepts it names, read from its parse (R20, R23).

Subject and object come from the dependency parse, not from word order: the subject of a verb and
its direct or prepositional object ("The kubelet registers the node *with* the API server"), the
agent of a passive ("… is managed *by* X"), a copula with a class ("Every binary is a bitstring")
or a relational noun ("`Arc<T>` is the thread-safe counterpart *of* `Rc<T>`", "… are extensions
built on top of maps"), and a class with its listed members ("two associative data structures:
keyword lists and maps"). The verb phrase is the predicate; the sentence, verbatim, is the evidence
(``basis: explicit``). Questions, negated and hypothetical statements state nothing. A hub (a name
most sources mention, such as the language or the product) is an endpoint only as the subject the
sentence is about, never where it modifies something ("a test in Rust").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wikigen.engines.frames import EXAMPLE_START, WHAT_FOLLOWS, imperative
from wikigen.engines.parse import Parse, Word
from wikigen.engines.relations import Mention
from wikigen.engines.subjects import CLASSIFIERS, ORDINALS, POINTING, SOME, hyphened

# "can" too: "X can be used in Y", "EnRoute can run as a controller" say what is possible, not what is
_HEDGES = frozenset(["may", "might", "could", "would", "should", "can", "must"])  # "must": a requirement
_SUPPOSING = frozenset(["suppose", "imagine", "assume", "pretend"])  # "suppose a plugin ranks Nodes"
_TRYING = frozenset(["try", "attempt", "seek"])  # "X tries to make the Pod runnable": only tried
# "Tolerations allow the scheduler to schedule pods …": what is allowed is a possibility, not a fact
_ENABLING = frozenset(["allow", "let", "enable", "permit", "help"])
_CONDITIONAL_START = re.compile(
    r"\s*(?:if|unless|since|suppose|supposing|assuming|in case|in (?:that|this|such a|which) case|"
    r"for (?:an? |the )?\w+ to|"  # "For a Pod to be given a QoS class of `Guaranteed`: …"
    r"in (?:that|this|these|those|such an?|which|most|many|some|either|each|both|all)(?: of (?:these|those|the))? "
    r"(?:cases?|situations?|configurations?|scenarios?|setups?|modes?|circumstances?))\b",
    re.IGNORECASE,
)  # "In either of those situations the Node will return …" (parsed with "In" as the root)
# "A Pod is given a QoS class of `Burstable` if:" holds only under the conditions the list after it states
_CONDITIONS_FOLLOW = re.compile(r"\b(?:if|unless|when|whenever|only if)\s*:\s*$", re.IGNORECASE)
_CONDITIONS = frozenset(["if", "unless", "whether", "suppose", "assuming", "although", "though"])
# "The operating system usually includes …": what holds most of the time, not always
_FREQUENCY = frozenset(
    ["usually", "often", "sometimes", "typically", "generally", "normally", "mostly", "probably", "possibly", "perhaps"]
)
# "A DaemonSet ensures that all Nodes run a copy of a Pod": the clause is what the subject brings about
_ENSURING = frozenset(["ensure", "guarantee"])
_GIVING = frozenset(["provide", "supply", "equip", "furnish"])
_WHEN = frozenset(["when", "whenever", "while", "after", "before", "once", "until"])
# "the scenario where a Pod gets scheduled onto one node", "the point that the scheduler preempts Pods":
# a clause that tells which moment or case the sentence speaks of states nothing
_CIRCUMSTANCE_NOUNS = frozenset(["scenario", "situation", "case", "point", "time", "moment", "instant", "period"])
_CLASS_NOUNS = frozenset(
    ["kind", "type", "form", "sort", "variant", "flavor", "flavour", "example", "instance"]
)
_VAGUE_VERBS = frozenset(
    [
        "be",
        "have",
        "do",
        "get",
        "make",
        "see",
        "say",
        "go",
        "come",
        "want",
        "need",
        "try",
        "let",
        "know",
        "think",
    ]
)
_SUBJECTS = ("nsubj", "nsubjpass")
# "… are described in [Admission Controllers](…)": where the documentation says it, not a relation
# "The two metrics are called `x` and `y`": a name is an alias, not a relation between two concepts
_NAMING = frozenset(["call", "name", "dub", "term", "know"])
_ABOUT_TEXT = frozenset(["describe", "document", "explain", "discuss", "cover", "mention", "list", "link"])
_RELATING_PREPOSITIONS = frozenset(
    [
        "on",
        "of",
        "in",
        "to",
        "with",
        "from",
        "into",
        "onto",
        "through",
        "across",
        "between",
        "within",
        "against",
        "as",
        "inside",
        "over",
    ]
)
MAX_PREDICATE_WORDS = 5
# a place right after a quantified noun ("each container in a Pod") says which ones, whatever the
# parser hung it on ("run alongside app containers in the same Pod" says where they run)
_PLACING = frozenset(["in", "on", "inside", "within", "of"])
_QUANTIFIERS = frozenset(["each", "every", "any", "all", "some"])
# Adjectives that state a relation between the subject and their prepositional object ("is similar
# to", "is equivalent to", "is compatible with"); "is available in", "is useful for" say where or
# how good, not how two things relate
_RELATIONAL_ADJECTIVES = frozenset(
    ["similar", "equivalent", "identical", "analogous", "comparable", "compatible", "interchangeable"]
)
# Classifier nouns a name introduces ("the `IO` module"), and the API words of resource docs
_CLASSIFIERS = CLASSIFIERS | {"construct", "object", "resource"}


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
) -> list[Stated]:
    """The relations ``parse``'s sentence states between the concepts ``mentions`` name; ``kinds``
    are concepts named as common nouns ("strings"), whose code-named module is another sense."""
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
    if imperative(parse) and not any(
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
    found = _stated(parse, refs, hubs, named, kinds)
    # "the snapshot controller handles …" says nothing of controllers; "UTF-8 is a character
    # encoding" still makes UTF-8 an encoding: a narrowed name is its concept only in "is a"
    narrowed = {
        head.i
        for head, mention in heads
        if refs[head.i] == mention.ref and _one_of_a_kind(parse, head, mention, refs, hubs)
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
        classes = {s for s in found if s.predicate == "is a" and s.subject not in only_narrowed}
        found = classes | _stated(parse, general, hubs, named, kinds)
    return sorted(
        (s for s in found if s.subject != s.object), key=lambda s: (s.subject, s.predicate, s.object)
    )


def _stated(
    parse: Parse,
    refs: Mapping[int, str],
    hubs: frozenset[str],
    named: frozenset[int] = frozenset(),
    kinds: frozenset[str] = frozenset(),
) -> set[Stated]:
    if len(set(refs.values())) < 2:
        return set()
    found: set[Stated] = set()
    # "… to run this pod", "… causes the API server to terminate that Pod": the one of an example;
    # "adds a label, `node.kubernetes.io/windows-build`, …": the one it names
    objects = {
        i: ref
        for i, ref in refs.items()
        if not _points(parse, parse.words[i], named) and not _named_after(parse, parse.words[i])
    }
    for verb in parse.words:
        if verb.pos not in ("VERB", "AUX") or _unsure(parse, verb) or verb.lemma in _ABOUT_TEXT | _NAMING:
            continue
        if verb.lemma == "refer" and any(w.text.casefold() == "as" for w in parse.subtree(verb.i)):
            continue  # "… are referred to as a 'scheduling context'": a name, like "are called"
        subjects = _with_conjuncts(parse, _subjects(parse, verb))
        # "the credentials provided to the kubelet are …": a bare participle with a subject is passive
        # "is managed by X and contains Y": a subject shared with a passive verb is no passive of its own
        # "… exist in the cluster and are defined in the API": a coordinated verb's own auxiliary
        passive = (
            any(w.dep == "nsubjpass" and (w.head == verb.i or verb.tag == "VBN") for w in subjects)
            or _bare_participle(parse, verb)
            or (verb.tag == "VBN" and any(w.dep == "auxpass" for w in parse.children(verb.i)))
        )
        subjects = _stand_ins(parse, _resolved(parse, subjects), refs)
        subject_refs = [(refs[w.i], w) for w in subjects if w.i in refs and not _denied(parse, w, named)]
        for obj_ref, predicate, agent in _objects(parse, verb, objects, passive):
            if agent:  # "Y is managed by X": X manages Y
                found.update(Stated(obj_ref, predicate, ref) for ref, _ in subject_refs)
            else:
                found.update(
                    Stated(ref, predicate, obj_ref) for ref, _ in subject_refs if obj_ref not in hubs
                )
        found.update(_used_for(parse, verb, refs, objects))
        found.update(_alternative(parse, verb, refs))
    found.update(_listed(parse, refs, hubs))
    found.update(_classified(parse, refs, hubs | kinds))
    found.update(_entry_class(parse, refs))
    return found


def _named_after(parse: Parse, word: Word) -> bool:
    """A common noun followed by a code name, "a label, `x/y`", "an immutable label `x` on …": one
    instance, named."""
    words = parse.words
    after = words[word.i + 1 : word.i + 3]
    if word.code or not after:
        return False
    return after[0].code or (after[0].text == "," and len(after) > 1 and after[1].code)


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


def _one_of_a_kind(
    parse: Parse, head: Word, mention: Mention, refs: Mapping[int, str], hubs: frozenset[str]
) -> bool:
    """ "the snapshot controller", "the Reserve interface", "the priority admission controller": a
    word before the name (or before a word of it) that narrows it to one kind or instance (or names
    another concept: "the Job controller") makes the phrase something other than the general
    concept ("the Kubernetes scheduler", a hub's, is the scheduler); "the `IO` module" stands for
    `IO` (:func:`_stand_ins`), and a code name is itself ("Notice `spawn/1` returns …" is a
    misparse)."""
    if head.code:
        return False
    if _restricted(parse, head, mention, refs):
        return True
    # the modifier may hang on any word of the name ("the priority admission controller")
    inside = {w.i for w in parse.words if mention.start <= w.start and w.end <= mention.end} | {head.i}
    return any(
        w.dep in ("compound", "amod", "nmod")
        and w.head in inside
        # "the snapshot controller", tagged ADJ; "set-based label selectors", "API-initiated
        # evictions": a hyphened word names a subkind
        and (w.pos in ("NOUN", "PROPN") or w.i in refs or hyphened(parse, w) or _noun_as_adjective(parse, w))
        and w.end <= mention.start
        # on an inner word, a lower-case word ("the priority admission controller"), not a name of
        # its own ("Static Pods: Control plane components are …", a definition list's term run in)
        and (w.head == head.i or w.text[:1].islower())
        and refs.get(w.i) != mention.ref  # "the Job controller": a Job's, not any controller
        and refs.get(w.i) not in hubs
        and not w.code
        for w in parse.words
    )


def _noun_as_adjective(parse: Parse, word: Word) -> bool:
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
        and text not in _PLAIN_ADJECTIVES
        and not text.endswith(_ADJECTIVE_ENDINGS)
    )


_ADJECTIVE_ENDINGS = (
    "al", "ic", "ive", "ous", "ful", "less", "able", "ible", "ed", "ing", "ant", "ent", "ary",
    "ory", "ish", "ile", "y", "ar", "ate",
)
# adjectives without an adjective ending ("multiple controllers" are any number of them)
_PLAIN_ADJECTIVES = frozenset(
    [
        "multiple", "several", "various", "numerous", "individual", "separate", "new", "old", "same",
        "other", "main", "own", "whole", "full", "single", "many", "few", "big", "small", "large",
        "long", "short", "high", "low", "good", "bad", "best", "last", "next", "first", "real", "true",
        "false", "top", "free", "open", "safe", "secure", "simple", "complex", "common", "proper",
        "certain", "due", "late", "early", "strict", "loose", "basic", "raw", "live", "dead", "clean",
        "fast", "slow", "hard", "soft", "wide", "deep", "rich", "able", "sure", "clear", "exact",
        "entire", "prime", "native", "extra", "minimum", "maximum",
    ]
)


# "one or more containers", "multiple Pods": any number of the kind
_ANY_NUMBER = frozenset(["one", "1", "multiple", "more", "many", "several", "zero", "0"])
# "a controller for Jobs", "Gateways of this class", "Pods with these labels": a phrase that picks some
_PICKING = frozenset(["for", "of", "with", "without"])


def _restricted(parse: Parse, head: Word, mention: Mention, refs: Mapping[int, str]) -> bool:
    """Issue 10: what the sentence says of some members of a kind, not of the kind — a clause right
    after the name that picks them by what befalls them or what they are not ("Pods that are
    deleted", "nodes that don't meet …", "controllers that are specific to …"), "any" with a
    participle ("Any Container exceeding a limit"), an ordinal ("the first manifest"), an example's
    made-up one ("For example, a pod runs …", not "For example, `MapSet`s are …"), or a phrase
    that picks them with a pointing word ("Gateways of this class") or, for a subject, by another
    concept ("a controller for Jobs tracks …"). What members do ("functions that open files") still
    speaks of the kind: the gold lists count it."""
    children = parse.children(head.i)
    if EXAMPLE_START.match(parse.text) and _determiner_of(parse, head) in ("a", "an", "one"):
        return True  # "For example, a pod runs a single container", "For instance, when a Job …": made up
    anyone = any(w.dep == "det" and w.lemma.casefold() == "any" for w in children)
    subject = head.dep in ("nsubj", "nsubjpass")
    argument = subject or head.dep in ("dobj", "obj")
    for child in children:
        if child.i < head.i:
            if child.dep == "amod" and child.lemma.casefold() in ORDINALS:
                return True
            if child.dep == "nummod" and child.lemma.casefold() not in _ANY_NUMBER:
                return True  # "Kubernetes starts with four initial namespaces": those four
            continue
        # "Pods, which are …" adds to the name; "Pods that are deleted" picks some of them
        between = parse.text[mention.end : child.start]
        if any(mark in between for mark in ",;:()—–"):
            continue
        if argument and child.dep == "relcl" and _picks(parse, child):
            return True
        if argument and anyone and child.dep == "acl" and child.tag == "VBG":
            return True
        if child.dep == "prep" and child.text.casefold() in _PICKING and not between.strip():
            by_concept = subject and child.text.casefold() in ("for", "of")
            for pobj in (w for w in parse.children(child.i) if w.dep == "pobj"):
                if by_concept and refs.get(pobj.i, mention.ref) != mention.ref:
                    return True
                if any(w.dep == "det" and w.text.casefold() in POINTING for w in parse.children(pobj.i)):
                    return True
    return False


def _after_quantified(parse: Parse, prep: Word, siblings: Sequence[Word]) -> bool:
    """``prep`` follows right after an earlier prepositional phrase of the same verb whose noun is
    quantified ("from each container | in a running Pod")."""
    for earlier in siblings:
        if earlier.dep != "prep" or earlier.i >= prep.i:
            continue
        for noun in parse.children(earlier.i):
            quantified = noun.dep == "pobj" and any(
                w.dep == "det" and w.lemma.casefold() in _QUANTIFIERS for w in parse.children(noun.i)
            )
            if quantified and any(w.i == prep.i - 1 for w in parse.subtree(noun.i)):
                return True
    return False


def _picks(parse: Parse, clause: Word) -> bool:
    """A relative clause that picks members by what befalls them ("that are deleted"), by what they
    are ("that are specific to …") or by what they do not do ("that don't meet …")."""
    inner = parse.children(clause.i)
    return clause.lemma == "be" or any(w.dep in ("nsubjpass", "auxpass", "neg") for w in inner)


def _subjects(parse: Parse, verb: Word) -> list[Word]:
    """The verb's subjects; a coordinated verb without one shares its head verb's ("Charlists are
    lists of integers, and therefore are chardata")."""
    own = [w for w in parse.children(verb.i) if w.dep in _SUBJECTS]
    head = parse.words[verb.head]
    if (
        not own
        and verb.dep == "acl"
        and verb.tag == "VBN"
        and head.dep == "ROOT"
        and parse.text[head.end : verb.start].strip() == ":"
    ):
        return [head]  # a definition list's entry, "ResourceSlice : Used with structured parameters …"
    if own or verb.dep != "conj":
        return own
    if head.i == verb.i or head.pos not in ("VERB", "AUX") or _unsure(parse, head):
        return []
    if verb.tag == "VBG" and head.tag in ("VBZ", "VBP", "VBD"):
        return []  # "X detects this and tries … by triggering A and/or reserving B": "reserving" is no "X reserves"
    return [w for w in parse.children(head.i) if w.dep in _SUBJECTS]


def _resolved(parse: Parse, subjects: list[Word]) -> list[Word]:
    """ "the kubelet, which runs on …": the subject of a relative clause is the noun it qualifies;
    "X is a component that runs on …": X, the copula's subject, runs on it (not "component")."""
    out: list[Word] = []
    for word in subjects:
        if word.lemma.casefold() not in ("which", "that", "who") or word.dep not in _SUBJECTS:
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
        if of_class and not _unsure(parse, copula):
            out.extend(w for w in parse.children(copula.i) if w.dep == "nsubj")
    return _with_conjuncts(parse, out)


_SET_OFF = re.compile(r"[,(:;–—]")


def _stand_ins(parse: Parse, words: Sequence[Word], refs: Mapping[int, str]) -> list[Word]:
    """The words that name a concept for each of ``words`` and its conjuncts: the word itself, or
    what it introduces — "Elixir's test framework (ExUnit)", "the `IO` module", "three parts:
    generators, filters …", "on top of the maps"."""
    out: list[Word] = []
    for word in _with_conjuncts(parse, words):
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
        run = [w for w in children if w.dep == "appos" and not _SET_OFF.search(parse.text[word.end : w.start])]
        if run and word.i not in refs:
            out.extend([run[-1]] if run[-1].i in refs else [])
            continue
        named = [w for w in children if w.dep == "appos" and w.i in refs and w not in run]
        if not named and word.lemma.casefold() in _CLASSIFIERS:
            # the name right before the classifier: "the Acme type", not "the Acme plough type"
            named = [w for w in children if w.dep in ("compound", "nmod") and w.i in refs and w.i == word.i - 1]
        if not named and word.lemma.casefold() in ("top", "front", "part", "parts"):
            # "on top of the spawn functions": what the "of" names stands in for it in turn
            named = _stand_ins(
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
        out.extend(_with_conjuncts(parse, named) if named else [word])
    return out


def _objects(parse: Parse, verb: Word, refs: Mapping[int, str], passive: bool) -> list[tuple[str, str, bool]]:
    """(object ref, predicate, whether the object is the agent of a passive) for ``verb``."""
    out: list[tuple[str, str, bool]] = []
    children = parse.children(verb.i)
    particle = " ".join(w.text.casefold() for w in children if w.dep == "prt")
    if verb.lemma == "take" and any(  # "takes taints and tolerations into account"
        w.dep == "prep" and w.text.casefold() == "into" and any(p.lemma == "account" for p in parse.children(w.i))
        for w in children
    ):
        particle = "into account"
    base = _verb_phrase(verb, particle, passive)
    if (
        passive
        and verb.tag == "VBN"
        and any(w.dep == "auxpass" for w in children)
        and verb.lemma.casefold() not in _GIVING_TO | _DOUBLE_OBJECT  # "were given names": a true object
    ):
        # "its edges are evidenced relations": a participle right before the noun it qualifies,
        # read as a passive verb with an object (a passive takes none); the sentence says what they are
        noun = next((w for w in children if w.dep == "dobj" and w.i == verb.i + 1), None)
        if noun is not None:
            return [(refs[w.i], "is a", False) for w in _with_conjuncts(parse, [noun]) if w.i in refs]
    if verb.lemma == "be":
        for quality in (w for w in children if w.dep == "acomp" and w.lemma.casefold() in _RELATIONAL_ADJECTIVES):
            # "`dbg` is similar to `IO.inspect/2`": an adjective that relates the subject to its object
            for prep in (w for w in parse.children(quality.i) if w.dep == "prep"):
                for pobj in _stand_ins(parse, [w for w in parse.children(prep.i) if w.dep == "pobj"], refs):
                    if pobj.i in refs:
                        out.append((refs[pobj.i], f"is {quality.lemma.casefold()} {prep.text.casefold()}", False))
        for duty in (w for w in children if w.dep == "acomp" and w.lemma.casefold() == "responsible"):
            # "The Job is responsible for the management of the Pods", "… for creating Jobs"
            for prep in (w for w in parse.children(duty.i) if w.dep == "prep" and w.text.casefold() == "for"):
                out.extend(
                    (ref, f"is responsible for {task}".rstrip(), False) for ref, task in _tasks(parse, prep, refs)
                )
        subjects = [w for w in children if w.dep in _SUBJECTS]
        definite = any(_determiner_of(parse, w) == "the" for w in subjects)
        attrs = [w for w in children if w.dep == "attr"]
        for attr in attrs:
            if attr is not attrs[0] and any(w.text == ":" for w in parse.words[attrs[0].i : attr.i]):
                # "is one version of the knowledge: the manifest plus every article …": after the
                # colon, what that one thing is made of, not more classes of the subject
                continue
            for word in _with_conjuncts(parse, [attr]):
                if word.i not in refs:
                    continue
                if (word.code or word.pos == "PROPN") and not _determiner_of(parse, word):
                    # "The most common sigil is `~r`": the name is one of the subject's kind; "a Pod
                    # that is `Burstable`" gives the Pod a value, not a kind
                    if definite:
                        out.append((refs[word.i], "is a", True))
                    continue
                out.append((refs[word.i], "is a", False))
            # "is the regular way to represent Y": the clause that qualifies the class
            for clause in (
                w for w in parse.children(attr.i) if w.dep in ("relcl", "acl") and w.pos == "VERB"
            ):
                if _unsure(parse, clause):
                    continue
                infinitive = _infinitive(parse, clause)
                for obj in (w for w in parse.children(clause.i) if w.dep == "dobj"):
                    for word in _with_conjuncts(parse, [obj]):
                        if word.i in refs and infinitive:
                            out.append(
                                (
                                    refs[word.i],
                                    f"is {attr.lemma.casefold()} to {clause.lemma.casefold()}",
                                    False,
                                )
                            )
            # "is the process of terminating Y": what the process does
            if attr.lemma.casefold() in _PROCESS_NOUNS:
                for prep in (w for w in parse.children(attr.i) if w.dep == "prep" and w.text.casefold() == "of"):
                    out.extend(
                        (ref, f"is {attr.lemma.casefold()} of {task}", False)
                        for ref, task in _tasks(parse, prep, refs)
                        if task
                    )
            # "is the counterpart of Y", "are extensions built on top of Y", "is a kind of Y"
            for ref, path in _reached(parse, attr, refs):
                if attr.lemma.casefold() in _CLASS_NOUNS and path == ["of"]:
                    out.append((ref, "is a", False))
                else:
                    # "are extensions built on top of maps": the participle carries the relation
                    participles = {w.text.casefold() for w in parse.children(attr.i) if w.dep == "acl"}
                    participle = bool(path) and path[0] in participles
                    words = ["is", *path] if participle else ["is", attr.lemma.casefold(), *path]
                    if len(words) <= MAX_PREDICATE_WORDS:
                        out.append((ref, " ".join(words), False))
        return out
    objects = [w for w in children if w.dep in ("dobj", "obj", "oprd")]
    bare = verb.lemma.casefold() in ("let", "help")  # "lets you manage …": an infinitive without "to"
    enabled = [
        w for w in children if w.dep in ("xcomp", "ccomp") and w.pos == "VERB" and (bare or _infinitive(parse, w))
    ]
    if verb.lemma.casefold() in _ENABLING and enabled:
        return _enabled(parse, verb, enabled[0], objects, refs)
    if verb.lemma.casefold() in _DECIDING:
        # "Liveness probes determine when to restart a container": what the subject decides for Y
        for clause in (w for w in children if w.dep in ("advcl", "xcomp", "ccomp") and _infinitive(parse, w)):
            wh = next(
                (
                    w
                    for w in parse.children(clause.i)
                    if (w.dep == "advmod" and w.tag == "WRB") or (w.dep == "mark" and w.text.casefold() == "whether")
                ),
                None,
            )
            if wh is None:
                continue
            done = _stand_ins(parse, [w for w in parse.children(clause.i) if w.dep == "dobj"], refs)
            predicate = f"{_active(verb, '')} {wh.text.casefold()} to {clause.lemma.casefold()}"
            out.extend((refs[w.i], predicate, False) for w in done if w.i in refs)
        if out:
            return out
    if verb.lemma.casefold() in _VAGUE_VERBS and not particle and not passive:
        return out
    if len(objects) > 1 and not any(w.dep == "cc" for w in children):
        objects = objects[-1:]  # "changing the pod logs directory": "pod" is no object of its own
    # "Kubernetes provides Containers with lifecycle hooks": the object is who receives; what is
    # provided is the "with" phrase's
    giving = verb.lemma.casefold() in _GIVING and any(
        w.dep == "prep" and w.text.casefold() == "with" for w in children
    )
    if giving:
        objects = []
    if not objects and verb.tag in ("VBZ", "VBP"):
        # "A Deployment manages ReplicaSets and every ReplicaSet creates Pods": the parser took the
        # object for the subject of the next clause; it follows the verb directly.
        for clause in (w for w in children if w.dep == "ccomp" and w.i > verb.i and not _infinitive(parse, w)):
            subject = next((w for w in parse.children(clause.i) if w.dep == "nsubj"), None)
            between = parse.words[verb.i + 1 : subject.i] if subject is not None else []
            if subject is not None and all(w.pos == "DET" for w in between):
                objects.append(subject)
    for obj in objects:
        out.extend(
            (refs[w.i], base, False) for w in _stand_ins(parse, [_named(parse, obj)], refs) if w.i in refs
        )
    # What the verb did to something else comes along: "applies labels to Pods"; so does an object
    # that is a concept of its own: "assigns pods to nodes" does not assign the scheduler to nodes
    plain = next((w for w in objects if w.i not in refs and w.pos == "NOUN"), None) or next(
        (w for w in objects if w.i in refs and w.pos in ("NOUN", "PROPN")), None
    )
    first_subject = min((w.i for w in children if w.dep in _SUBJECTS), default=verb.i)
    for prep in (w for w in children if w.dep in ("prep", "agent")):
        if prep.i < first_subject:
            continue  # "In Kubernetes, a VolumeSnapshot represents …": a frame, not an argument
        preposition = prep.text.casefold()
        agent = prep.dep == "agent" or (passive and preposition == "by")
        if not agent and preposition not in _RELATING_PREPOSITIONS:
            continue  # "by default", "after the phase", "in case of": circumstances, not relations
        if preposition == "as" and objects and not passive:
            continue  # "provides `==` and `!=` as comparison operators": the kind of the object
        if preposition in _PLACING and _after_quantified(parse, prep, children):
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
        for pobj in _stand_ins(parse, pobjs, refs):
            if pobj.i not in refs:
                continue
            if agent:
                out.append((refs[pobj.i], _active(verb, particle), True))
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
        # "Structs take the name of the module": the object names a part of a concept
        for ref, path in _reached(parse, obj, refs):
            words = [base, obj.lemma.casefold(), *path]
            if path == ["of"] and len(" ".join(words).split()) <= MAX_PREDICATE_WORDS:
                out.append((ref, " ".join(words), False))
    for xcomp in (w for w in children if w.dep == "xcomp" and w.pos == "VERB"):
        # "X is used to create Y": the purpose is the predicate
        if any(w.i in refs for w in objects):
            continue  # "requires nodes to run pods": the nodes run them, not what requires them
        inner = parse.children(xcomp.i)
        if _unsure(parse, xcomp) or not _infinitive(parse, xcomp):
            continue  # "contains hashing functions": a gerund is no purpose
        # "uses square brackets to specify a list": what it uses is part of the predicate
        middle = plain.text.casefold() if plain is not None else ""
        dobjs = [w for w in inner if w.dep == "dobj"]
        if len(dobjs) > 1 and not any(w.dep == "cc" for w in inner):
            dobjs = dobjs[-1:]  # a misparse: the last is the head of the object
        for obj in dobjs:
            for word in _with_conjuncts(parse, [obj]):
                if word.i in refs:
                    words = " ".join(filter(None, [base, middle, "to", xcomp.lemma.casefold()])).split()
                    if len(words) <= MAX_PREDICATE_WORDS:
                        out.append((refs[word.i], " ".join(words), False))
    return out


def _used_for(parse: Parse, verb: Word, refs: Mapping[int, str], objects: Mapping[int, str]) -> set[Stated]:
    """ "use tuples and atoms to create tagged tuples": what is used is used to do it (to one of
    ``objects``, the refs an object may be)."""
    if verb.lemma != "use":
        return set()
    children = parse.children(verb.i)
    used = [w for w in _stand_ins(parse, [o for o in children if o.dep == "dobj"], refs) if w.i in refs]
    found: set[Stated] = set()
    users = [w for w in _stand_ins(parse, [s for s in children if s.dep == "nsubjpass"], refs) if w.i in refs]
    for prep in (w for w in children if w.dep == "prep" and w.text.casefold() == "for") if users else ():
        # "Bootstrap tokens are used for joining nodes to clusters": what it is used to do
        for ref, task in _tasks(parse, prep, refs):
            if task and not task.endswith(" of"):
                found.update(Stated(refs[u.i], f"is used for {task}", ref) for u in users)
    for purpose in (w for w in children if w.dep in ("xcomp", "advcl") and w.pos == "VERB"):
        if _unsure(parse, purpose) or not all(purpose.i > u.i for u in used):
            continue  # "To use the old version, use `powershell`": advice, not what it is used for
        if not _infinitive(parse, purpose):
            continue  # "accounts created using an IAM service": a means, not a purpose
        if purpose.lemma.casefold() in _GIVING_TO:
            continue  # "to give the control plane … the opportunity": the object is who receives
        for obj in (w for w in parse.children(purpose.i) if w.dep == "dobj"):
            for word in _with_conjuncts(parse, [_named(parse, obj)]):
                if word.i in objects:
                    predicate = f"is used to {purpose.lemma.casefold()}"
                    found.update(Stated(refs[u.i], predicate, objects[word.i]) for u in used)
    return found


def _tasks(parse: Parse, prep: Word, refs: Mapping[int, str]) -> list[tuple[str, str]]:
    """What a preposition ("for", "of") names as a task, with the concept it is done to: a concept
    itself ("for Pods", task ""), a gerund's object ("for creating Jobs": "creating") or a noun's
    ("for the management of Pods": "management of")."""
    found: list[tuple[str, str]] = []
    for word in parse.children(prep.i):
        if word.dep == "pcomp" and word.tag == "VBG" and not _unsure(parse, word):
            for obj in (w for w in parse.children(word.i) if w.dep == "dobj"):
                found.extend((refs[w.i], word.text.casefold()) for w in _stand_ins(parse, [obj], refs) if w.i in refs)
        elif word.dep == "pobj":
            for noun in _with_conjuncts(parse, [word]):
                if noun.i in refs:
                    found.append((refs[noun.i], ""))
                    continue
                for of in (w for w in parse.children(noun.i) if w.dep == "prep" and w.text.casefold() == "of"):
                    for obj in _stand_ins(parse, [w for w in parse.children(of.i) if w.dep == "pobj"], refs):
                        if obj.i in refs and noun.pos == "NOUN":
                            found.append((refs[obj.i], f"{noun.lemma.casefold()} of"))
    return found


# "Eviction is the process of terminating Pods": the noun names what the subject does
_PROCESS_NOUNS = frozenset(["process", "act", "practice", "task"])


def _enabled(
    parse: Parse, verb: Word, action: Word, objects: Sequence[Word], refs: Mapping[int, str]
) -> list[tuple[str, str, bool]]:
    """ "Links allow processes to establish a relationship": what is allowed is in the predicate
    ("allows to establish relationship"), and only where it names no concept itself ("allow a node
    to discover Node resources", "allow the scheduler to schedule pods" are garbled as a triple).
    What it lets the reader do ("A StatefulSet lets you manage Pods") is what it is for: the
    concept done to is the object ("lets you manage")."""
    inner = parse.children(action.i)
    allowed = [*objects, *(w for w in inner if w.dep == "nsubj")]
    things = [w for w in inner if w.dep in ("dobj", "prep", "xcomp", "ccomp")]
    if _unsure(parse, verb):
        return []
    readers = [w for w in allowed if w.text.casefold() in _READERS]
    if readers and len(readers) == len(allowed):
        # "A StatefulSet lets you manage Pods": what it lets the reader do is what it is for
        to = "" if verb.lemma.casefold() in ("let", "help") else " to"
        predicate = f"{_active(verb, '')} {readers[0].text.casefold()}{to} {action.lemma.casefold()}"
        done = _stand_ins(parse, [w for w in inner if w.dep == "dobj"], refs)
        return [(refs[w.i], predicate, False) for w in done if w.i in refs]
    if len(things) != 1 or things[0].dep != "dobj":
        return []
    thing = things[0]
    if (
        thing.pos != "NOUN"
        or any(w.i in refs for w in parse.subtree(thing.i))
        or any(w.dep == "prep" and w.text.casefold() == "of" for w in parse.children(thing.i))
    ):
        return []  # "to use a wide variety of runtimes": the thing is further down
    predicate = f"{_active(verb, '')} to {action.lemma.casefold()} {thing.lemma.casefold()}"
    if len(predicate.split()) > MAX_PREDICATE_WORDS:
        return []
    return [(refs[w.i], predicate, False) for w in _stand_ins(parse, allowed, refs) if w.i in refs]


_GIVING_TO = frozenset(["give", "grant", "offer", "send", "tell", "show", "hand", "lend"])
# verbs whose passive keeps an object: "was assigned a role", "is charged a fee", "are taught tricks"
_DOUBLE_OBJECT = frozenset(
    ["assign", "award", "allow", "deny", "pay", "charge", "teach", "ask", "bring", "cost", "promise", "owe", "issue"]
)
_DECIDING = frozenset(["determine", "decide", "choose", "control", "specify", "define"])
_READERS = frozenset(["you", "us"])  # "lets you …", "allows us to …": the reader


def _alternative(parse: Parse, verb: Word, refs: Mapping[int, str]) -> set[Stated]:
    """ "As an alternative to `Enum`, Elixir provides the `Stream` module": what the clause offers is
    the alternative."""
    preps = [w for w in parse.children(verb.i) if w.dep == "prep" and w.text.casefold() == "as"]
    if not preps or _unsure(parse, verb):
        return set()
    alternatives = [w for p in preps for w in parse.children(p.i) if w.dep == "pobj" and w.lemma.casefold() == "alternative"]
    to = [p for a in alternatives for p in parse.children(a.i) if p.dep == "prep" and p.text.casefold() == "to"]
    others = _stand_ins(parse, [w for t in to for w in parse.children(t.i) if w.dep == "pobj"], refs)
    offered = _stand_ins(parse, [w for w in parse.children(verb.i) if w.dep == "dobj"], refs)
    return {
        Stated(refs[o.i], "is alternative to", refs[x.i])
        for o in offered
        if o.i in refs
        for x in others
        if x.i in refs
    }


def _named(parse: Parse, word: Word) -> Word:
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


# "an identifier (like `String`, `Keyword`)": examples or exceptions of a class, not what it relates to
_EXAMPLES = frozenset(["like", "unlike", "including", "except", "besides", "than"])


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


def _reached(parse: Parse, noun: Word, refs: Mapping[int, str]) -> list[tuple[str, list[str]]]:
    """Concepts reached from ``noun`` through "of"/"on"/"for" phrases or a participle: the words of
    the path ("of"; "built on top of"), two steps at most."""
    found: list[tuple[str, list[str]]] = []

    def walk(word: Word, path: list[str], depth: int) -> None:
        if depth > 3:
            return
        for child in parse.children(word.i):
            if child.dep == "prep" and child.text.casefold() not in _EXAMPLES:
                for pobj in _with_conjuncts(parse, [w for w in parse.children(child.i) if w.dep == "pobj"]):
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
                and child.lemma.casefold() not in _NAMING | {"refer"}  # "identifiers (also known as UUIDs)"
            ):
                walk(child, [*path, child.text.casefold()], depth + 1)

    walk(noun, [], 0)
    return found


def _listed(parse: Parse, refs: Mapping[int, str], hubs: frozenset[str]) -> set[Stated]:
    """ "two data structures: keyword lists and maps", "collections such as lists": members are a
    kind of the class they are listed under."""
    found: set[Stated] = set()
    for word in parse.words:
        if word.i not in refs or word.pos not in ("NOUN", "PROPN"):
            continue
        members: list[Word] = []
        named = _named(parse, word)
        if named.i != word.i and _determiner_of(parse, word) in ("a", "an"):
            members.append(named)  # "a macro called `use`": use is a macro
        for child in parse.children(word.i):
            between = parse.text[word.end : child.start]
            plural = word.tag in ("NNS", "NNPS")
            listed = _with_conjuncts(parse, [child])
            # "two data structures: keyword lists and maps" lists members; "init containers: containers
            # that run …" glosses the term with its class
            if child.dep == "appos" and plural and ("(" in between or (":" in between and len(listed) > 1)):
                members.extend(listed)
            elif (
                child.dep == "prep"
                and child.text.casefold() == "as"
                and plural  # "objects in that namespace, such as Pods": the list is under "objects"
                and any(w.text.casefold() == "such" for w in parse.children(child.i))
            ):
                members.extend(
                    _with_conjuncts(parse, [w for w in parse.children(child.i) if w.dep == "pobj"])
                )
        for member in members:
            if member.i in refs and refs[member.i] not in hubs:
                found.add(Stated(refs[member.i], "is a", refs[word.i]))
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
                and not _other_case(child, refs[child.i])
            ):
                found.add(Stated(refs[child.i], "is a", refs[word.i]))
    return found


def _other_case(word: Word, ref: str) -> bool:
    """The code name is the concept's name in other letters: the `ets` module is not ETS."""
    written = word.text.strip("`")
    return not ref.startswith("concept/") and written != ref and written.casefold() == ref.casefold()


def _determiner_of(parse: Parse, word: Word) -> str:
    return next((w.text.casefold() for w in parse.children(word.i) if w.dep == "det"), "")


def _with_conjuncts(parse: Parse, words: Sequence[Word]) -> list[Word]:
    """The words and those coordinated with them ("keyword lists and maps")."""
    out = list(words)
    index = 0
    while index < len(out):
        out.extend(w for w in parse.children(out[index].i) if w.dep == "conj" and w not in out)
        index += 1
    return out


def _bare_participle(parse: Parse, verb: Word) -> bool:
    """ "credentials provided to the kubelet": a past participle without an auxiliary."""
    return verb.tag == "VBN" and not any(w.dep in ("aux", "auxpass") for w in parse.children(verb.i))


def _denied(parse: Parse, subject: Word, named: frozenset[int] = frozenset()) -> bool:
    """ "not every binary is …": the subject itself is negated; "many functions …" speaks of some;
    "these plugins …" of the ones just named."""
    # "Some Kubernetes objects …", parsed with "Some" on "Kubernetes": a modifier before the subject
    before = [g for w in parse.children(subject.i) if w.i < subject.i for g in parse.children(w.i)]
    return any(
        w.dep == "neg"
        or w.lemma.casefold() == "no"
        or (w.dep in ("det", "amod") and w.lemma.casefold() in SOME)
        for w in parse.children(subject.i)
    ) or _points(parse, subject, named) or any(w.dep == "det" and w.lemma.casefold() in SOME for w in before)


def _points(parse: Parse, word: Word, named: frozenset[int]) -> bool:
    """ "These plugins …", "… to run this pod": the ones just named, or one of an example (not a
    pointing word inside a name: "This command" on a command's page)."""
    return any(w.dep == "det" and w.text.casefold() in POINTING and w.i not in named for w in parse.children(word.i))


def _moment(parse: Parse, noun: Word) -> bool:
    """ "the scenario", "the point", "the same time": a moment or case, not a thing that has one
    ("an extension point that allows …" names a thing)."""
    return noun.lemma.casefold() in _CIRCUMSTANCE_NOUNS and not any(
        w.dep in ("compound", "nmod") for w in parse.children(noun.i)
    )


def _unsure(parse: Parse, verb: Word) -> bool:
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
        if child.dep == "advmod" and child.text.casefold() == "longer" and any(
            w.text.casefold() == "no" for w in parse.children(child.i)
        ):
            return True  # "controllers no longer consider the Pod …"
        if child.dep == "mark" and any(
            w.lemma.casefold() in ("instead", "rather") for w in parse.children(child.i)
        ):
            return True  # "Instead of X being implemented by Y, …": what is not the case
        if child.dep == "prep" and child.i < verb.i and _framed(parse, child):
            return True
        if child.dep in ("advcl", "pcomp", "prep") and _circumstance(parse, child, child.i < verb.i):
            return True
        if child.dep == "prep" and lemma == "by" and any(
            w.dep == "pobj" and w.lemma.casefold() == "default" for w in parse.children(child.i)
        ):
            return True  # "By default, the kubelet assigns …": what holds until it is configured
    if verb.dep in ("relcl", "acl") and _moment(parse, parse.words[verb.head]):
        return True
    if _in_purpose(parse, verb):
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
            _unsure(parse, head)
            or head.lemma.casefold() in _SUPPOSING | _TRYING
            or (head.lemma.casefold() in _ENABLING and _infinitive(parse, verb))
        )
    )


# "In most cases, …", "In this configuration, …", "In either of those situations …": where it holds
_FRAMES = frozenset(
    ["case", "situation", "configuration", "scenario", "setup", "mode", "circumstance", "event", "example"]
)
# "Finally, kube-scheduler assigns …", "Kubernetes then provides …": a step of a procedure
_SEQUENCE = frozenset(["finally", "then", "next", "afterwards", "subsequently", "lastly"])


def _framed(parse: Parse, prep: Word) -> bool:
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


def _in_purpose(parse: Parse, verb: Word) -> bool:
    """ "To ensure pods land on nodes supporting a RuntimeClass, …": a verb inside a fronted purpose
    clause states a goal (the parser may make its verb the root)."""
    fronted = _FRONTED_PURPOSE.match(parse.text)
    if fronted is not None and verb.start < fronted.end():
        return True
    word, seen = verb, 0
    while word.head != word.i and seen < 20:
        head = parse.words[word.head]
        if word.dep == "advcl" and word.i < head.i and _infinitive(parse, word):
            return True
        word, seen = head, seen + 1
    return False


_READER = frozenset(["you", "we", "i", "user", "users", "administrator", "operator", "one"])


def _circumstance(parse: Parse, clause: Word, before: bool) -> bool:
    """ "when you use …", "after deleting …", "While the kubelet is …": a clause that says when (a
    "while" after the main clause contrasts: "X runs serially, while Y …")."""
    when = _WHEN | (_CONDITIONS - {"although", "though"})
    if not before:
        when -= {"while"}
    children = parse.children(clause.i)
    if clause.dep == "prep":  # "After deleting all the dependent objects, …", "After the X phase, …"
        return clause.lemma.casefold() in when and (before or any(w.dep == "pcomp" for w in children))
    if _infinitive(parse, clause):
        return False  # "… determine when to restart a container": what is decided, not when it holds
    marker = next((w for w in children if w.dep in ("mark", "advmod") and w.lemma.casefold() in when), None)
    if marker is None:
        return False
    # "The autoscaler adds nodes when there are unschedulable Pods": when it happens, always; "…
    # adds finalizers when you use …" is a step the reader takes
    return before or marker.lemma.casefold() not in ("when", "whenever") or any(
        w.dep in ("nsubj", "nsubjpass") and w.lemma.casefold() in _READER for w in children
    )


def _infinitive(parse: Parse, verb: Word) -> bool:
    return any(w.dep == "aux" and w.text.casefold() == "to" for w in parse.children(verb.i))


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
