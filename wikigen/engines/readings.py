"""What a sentence says about a term it names, read from the sentence's parse (R20).

A *reading* places one mention of a term in its sentence: the subject of a copula ("A **trait** is a
…"), of a verb that says what the term does ("*Modules* let us organize code …"), the name a sentence
gives ("… is called the *prelude*", "… known as IEx"), an apposition ("ETS, a cache …"), any other
subject, or a mere mention. Its rank orders definitions by form: 0 defines, 1 describes, 2 mentions.
Negated and question sentences define nothing; a forward reference ("… which Chapter 18 covers")
ranks below a sentence that does not point elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from wikigen.engines.parse import Parse, Word

DEFINES, DESCRIBES, MENTIONS, MODIFIES = 0, 1, 2, 3  # MODIFIES: the term only qualifies another noun

# Verbs that say what a thing is for, when the term is their subject.
FUNCTION_LEMMAS = frozenset(
    [
        "let",
        "allow",
        "enable",
        "provide",
        "define",
        "represent",
        "describe",
        "store",
        "hold",
        "contain",
        "ensure",
        "manage",
        "track",
        "control",
        "specify",
        "determine",
        "mean",
        "refer",
        "implement",
        "give",
        "return",
        "create",
        "keep",
        "wrap",
        "encode",
        "identify",
        "combine",
        "convert",
        "handle",
        "execute",
        "evaluate",
        "perform",
        "group",
        "extend",
        "expose",
        "schedule",
        "run",
        "watch",
        "maintain",
        "select",
        "act",
        "serve",
        "consist",
        "denote",
        "indicate",
        "capture",
        "match",
        "spawn",
        "send",
        "receive",
        "supervise",
        "register",
        "start",
    ]
)
CALL_LEMMAS = frozenset(["call", "know", "refer", "name", "term", "dub"])
# "This ownership …", "these plugins …": the ones the text just named
POINTING = frozenset(["this", "that", "these", "those", "such"])
_DEMONSTRATIVE = POINTING | frozenset(
    [
        "both",  # "Both mechanisms provide …": the two just named
        "either",
        "neither",
        "it",
        "they",
        "its",
        "their",
        "our",
        "your",
        "his",
        "her",
        "my",
    ]
)
_FORWARD = re.compile(
    r"\b(?:chapter \d+|later (?:in|on)|in (?:the|a) (?:next|later|following) (?:chapter|section|guide)|"
    r"(?:we|you)(?:'ll| will)(?: also| then| now| soon| later| first)? (?:see|learn|explore|discuss|cover|talk|look)|will (?:be )?(?:see|learn|explore|"
    r"discuss|cover|explain)\w*|coming up|"
    r"(?:described|explained|covered|discussed|documented) (?:in (?:more|further|greater) detail )?in|"
    r"(?:summarized|listed|shown|described|explained|outlined) below)\b",
    re.IGNORECASE,
)
# "Extension point interfaces have the following form.", "The following information is …:": what
# comes after the sentence (not "… points to the following element until …")
WHAT_FOLLOWS = re.compile(
    r"^the following\b|\bthe following(?:\s+[\w-]+){0,3}\s*[:.]?\s*$|\bin (?:this|that|the following) order\s*:\s*$|"
    r"\bas follows\s*:\s*$",
    re.IGNORECASE,
)
_HEDGE = frozenset(["may", "might", "could", "would", "should"])
_NOT_DEFINING_ATTR = frozenset(
    [
        "same",
        "only",
        "case",
        "reason",
        "problem",
        "result",
        "thing",
        "way",
        "one",
        "example",
        "lot",
        "bit",
        "default",  # "`Always`, which is the default": a value, not its kind
        "alternative",  # "`if` is a useful alternative": how it compares, not what it is
        # "Gizmos are the successors to sprockets": what a term is to another, not what it is
        "successor",
        "predecessor",
        "counterpart",
        "replacement",
        "equivalent",
        "opposite",
        "focus",  # "…, which is the focus of this page": what the text is about
    ]
)


@dataclass(frozen=True, slots=True)
class Reading:
    pattern: str  # copula | function | purpose | called | appositive | emphasis | subject | mention
    rank: int
    anaphoric: bool = False  # "This set is called …": the sentence before says what "this" is
    forward: bool = False
    # A description (DESCRIBES) of what "the" one named is or does ("The aggregation layer allows
    # …", weak only because a definite article may pick one thing) says more of the term than any
    # other ("The aggregation layer runs in-process …", "Pod priority is specified by …").
    of_the_one: bool = False
    # "UTF-8 also provides a notion of graphemes.": the sentence after it, if it opens with the term
    # ("Graphemes may consist of …"), is quoted with it
    introduced: bool = False


def read(parse: Parse, head: Word, *, marked: bool = False) -> Reading:
    """The reading of the mention whose syntactic head is ``head``. An emphasized modifier ("the
    _test_ namespace") stresses an example; only an emphasized name introduces a term."""
    marked = marked and head.dep not in ("compound", "amod", "nmod", "poss", "npadvmod")
    governor = parse.words[head.head]
    if head.dep in ("compound", "nmod", "amod") and (
        (head.code and _named_classifier(parse, governor)) or _kind_instances(head, governor)
    ):
        # "the `Enum` module provides …" says it of `Enum`; "StorageClass objects define …" of StorageClass
        head = governor
    elif not head.code and (_named_classifier(parse, head) or _instance(parse, head)):
        # "The `use` macro is used as …" says it of `use`, not of macros; "A `data` Service is in
        # the `prod` namespace" of one Service
        return Reading("mention", MENTIONS)
    if _same(parse, head):
        return Reading("mention", MENTIONS)  # "Three actors can compile the same repository: …"
    if head.dep in ("nsubj", "nsubjpass") and (_some_of(parse, head) or _consequence(parse, parse.words[head.head])):
        # "Some interfaces match …": what some of them do; "As a result, all namespace names must
        # be …", "…, so taints are still required": what follows from something else
        return Reading("mention", MENTIONS)
    reading = _read(parse, head, marked)
    if _hortative(parse) or _FRAGMENT.match(parse.text):
        # "…, let's talk about how Elixir identifies named functions": what the text does next; "as, in
        # case of an error, …": the rest of a sentence an example interrupted. Neither defines.
        return replace(reading, forward=True)
    if (
        _conditional(parse)
        and not (reading.pattern == "copula" and _NEED.match(parse.text))
        and _PRESENTED.search(parse.text) is None
    ):
        # "If the file is opened …" says what happens, "Read … to learn" points elsewhere: neither
        # says what the term is, and neither is ever its definition
        return replace(reading, forward=True)
    return reading


_CONDITIONAL_START = re.compile(
    r"^(?:\w+,\s+|(?:therefore|so|but|and|then|thus|however|now|also|again|likewise|similarly|conversely|"
    r"even|only)\s+)?(?:if|when|unless|whenever|once|in case|"
    r"please (?:refer|see|read|visit|check)|here(?:'s| is| are)|to learn|to see|read|see|learn|refer|visit|check out|"
    r"for (?:more|details|an? example)|in (?:the|this|our) (?:\w+ )?(?:example|snippet|code)(?: above| below)?|"
    r"in (?:both|either|this|that|these|those|such|each|all|many|most|some) cases?|"
    r"early on|historically|in the past|traditionally|originally)\b",
    re.IGNORECASE,
)  # "Therefore if …", "In both cases, …", "Early on, …": what holds there or then, not what the term is


# "Whenever you need to store key-value pairs, maps are the data structure …" says what maps are for
_NEED = re.compile(r"^(?:if|when|whenever) you (?:need|want) to\b", re.IGNORECASE)


# A sentence that begins with a lower-case connective is the rest of one an example interrupted
_FRAGMENT = re.compile(r"^(?:as|and|or|but|which|because|since|whereas|while|so|then)\b[\s,]")


def _hortative(parse: Parse) -> bool:
    """ "Let's look at …", "let us now turn to …": the author says what comes next (a "let" with no
    subject of its own; "Modules let us organize code" says what modules do)."""
    words = parse.words
    return any(
        w.lemma.casefold() == "let"
        and w.i + 1 < len(words)
        and words[w.i + 1].text.casefold() in ("'s", "’s", "us")
        and not any(c.dep in ("nsubj", "nsubjpass") for c in parse.children(w.i))
        for w in words
    )


# "To see an example, look no further than Elixir's unit test framework called `ExUnit`": the pointer
# ends in this very sentence, which presents what it points to
_PRESENTED = re.compile(r"\blook no further than\b", re.IGNORECASE)


def _conditional(parse: Parse) -> bool:
    """ "If …", "Similarly, if …", "To learn more, …": circumstances and pointers, not definitions."""
    return _CONDITIONAL_START.match(parse.text) is not None


def _read(parse: Parse, head: Word, marked: bool) -> Reading:
    forward = _FORWARD.search(parse.text) is not None or WHAT_FOLLOWS.search(parse.text.strip()) is not None
    if parse.text.rstrip().endswith("?") or _negated(parse, head):
        return Reading("mention", MENTIONS, forward=forward)
    if _the_text_covers(parse, head):
        return Reading("mention", MENTIONS, forward=True)  # "This page describes _X_": what it covers
    words = parse.words
    governor = words[head.head]
    main = _main(parse, governor)
    if head.dep == "nsubj" and governor.lemma == "be" and governor.i != head.i and main:
        attr = next((w for w in parse.children(governor.i) if w.dep in ("attr", "acomp")), None)
        if (
            attr is not None
            and attr.dep == "attr"
            and _defining_attr(parse, attr)
            and not _hedged(parse, governor)
            and not _can(parse, governor)  # "A policy can be a rule …": what it may be, not what it is
        ):
            # "The form is …" speaks of one form; "A form is …", "Forms are …" of the kind
            # "The _scheduling framework_ is a …": a term the author marks where it says what it is
            # is the one thing it names, not one of a kind
            restricted = _restricted(parse, head)
            # "The head is the first element of a list": the one of any list, a kind after all
            definite = _definite(parse, head) and not marked and not _of_any(parse, attr)
            weak = restricted or definite or _example(parse)  # "For example, a Set is …"
            return Reading(
                "copula",
                DESCRIBES if weak else DEFINES,
                # "This boundary is an authorization rule …" says it of what the sentence before set up
                anaphoric=_points_back(parse, governor) or _pointed_subject(parse, governor),
                forward=forward,
                of_the_one=weak and not restricted,
            )
        if _compares(parse, governor):
            return Reading("mention", MENTIONS, forward=forward)  # "X is different from Y", "… is faster than"
        if _values(parse, governor):
            return Reading("mention", MENTIONS, forward=forward)  # "X can either be `A` or `B`": its values
        if attr is not None and attr.dep == "attr" and _judged(parse, attr):
            # "`if` is a useful alternative", "Bundles are the most common answer to …": a verdict on
            # it, or how it ranks
            return Reading("mention", MENTIONS, forward=forward)
        if attr is not None and attr.dep == "acomp" and _capable(parse, attr):
            # "Associative data structures are able to associate a key …", "The node controller is
            # responsible for updating …": what it does, said with an adjective
            # "Any process that knows the `pid` above will be able to …": some processes
            restricted = _restricted(parse, head) or _narrowed(parse, head)
            weak = (
                restricted
                or _definite(parse, head)
                or _example(parse)
                or _hedged(parse, governor)
                or _can(parse, governor)
            )
            return Reading(
                "function", DESCRIBES if weak else DEFINES, forward=forward, of_the_one=weak and not restricted
            )
        if attr is not None and attr.dep == "acomp":
            # "Public functions are globally available", "Labels without a prefix are private": a property
            return Reading("mention", MENTIONS, forward=forward)
        if _part_of(parse, governor):
            # "Kubernetes volume health monitoring is part of how Kubernetes implements …": where it
            # belongs, not what it is or does
            return Reading("mention", MENTIONS, forward=forward)
        # "A policy can be a rule for …": what it may be describes it
        return Reading("subject", DESCRIBES, forward=forward)
    if head.dep == "nsubj" and main and _parts_listed(parse, governor):
        return Reading("mention", MENTIONS, forward=forward)  # "X consists of two parts: …": its structure
    if (
        head.dep == "nsubj"
        and main
        and governor.lemma in FUNCTION_LEMMAS
        and governor.tag != "VBN"  # "the Pods specified in the following manifest" is no "Pods specify"
        # "**Service**: Create a service …": a label before an instruction, read as its subject
        and not (
            governor.tag == "VB"
            and ":" in parse.text[head.end : governor.start]
            and not any(w.dep in ("aux", "auxpass") for w in parse.children(governor.i))
        )
        and not _hedged(parse, governor)
        and _determiner(parse, head) not in _DEMONSTRATIVE
    ):
        # "the operator `/` returns …" is about one thing; "Modules let us …" about the kind; "Any
        # program … can provide" says what it may do, "Each pod in a DaemonSet performs" of some
        # "…, and `gather` starts again": what a second clause tells happens next, not what X does;
        # two subjects of one verb are a misparse ("An empty key with operator `Exists` matches …")
        # "Init containers always run to completion", "The layer runs in-process with …": where or
        # how it runs is a property; what it runs ("A Job runs Pods to completion") is its function
        incidental = (
            _compares(parse, governor)  # "Comprehensions provide a more concise representation than …"
            or _also(parse, governor)  # "`IO.inspect/2` also provides …": one more thing it does
            or _FURTHER.match(parse.text) is not None  # "Furthermore, `Task` provides …": likewise
            or _example(parse)
            or _restricted(parse, head)
            or _can(parse, governor)
            or _usually(parse, governor)  # "DaemonSets typically provide …": what it is often used for
            or _perfect(parse, governor)  # "Proxies have replaced redirect capabilities": what happened
            or _then(parse, governor)  # "The proxy then forwards the request …": one step of a process
            or governor.dep == "conj"
            or _subjects(parse, governor) > 1
            or _determiner(parse, head) in _EACH  # "Each runtime allows only …": what each one does
            or _participled(parse, head)  # "The spawned process will execute …": the one just spawned
            or _of_this(parse, head)  # "Direct access to this API allows …"
            or _but_not(parse, governor)  # "X enable autoscaling, but might not satisfy …": weighed
            # "Indexes start from zero": where it starts; "A supervisor starts its children": what it does
            or (governor.lemma in ("run", "start") and not any(w.dep == "dobj" for w in parse.children(governor.i)))
        )
        weak = incidental or _definite(parse, head)
        return Reading(
            "function",
            DESCRIBES if weak else DEFINES,
            anaphoric=_points_back(parse, governor),
            forward=forward,
            of_the_one=weak and not incidental,
        )
    if _purpose_of(parse, head):
        # "A ReplicaSet's purpose is to maintain …": what it is for; "the gate's role" of one gate
        restricted = _restricted(parse, head)
        weak = restricted or _definite(parse, head)
        return Reading("purpose", DESCRIBES if weak else DEFINES, forward=forward, of_the_one=weak and not restricted)
    if head.dep == "nsubjpass" and main and governor.lemma == "use" and not _hedged(parse, governor):
        # "The credentials are then used when …" tells one use; "The capture syntax can be used as a
        # shortcut for …", "X is used to …" what it is for
        # ("For trace configuration, X can also be used with Y": a fronted "for" frames the sentence)
        purpose = any(
            w.dep == "xcomp" or (w.dep == "prep" and w.text.casefold() in ("as", "for") and w.i > head.i)
            for w in parse.children(governor.i)
        )
        # "Lists are used when …" tells a circumstance of use, not what a list is for
        # "For example, X can be used with …": one example's use
        weak = (
            not purpose
            or _restricted(parse, head)
            or _example(parse)
            or _on_condition(parse, governor)  # "X is only used for Y if …": when, not what for
            or _usually(parse, governor)  # "Keywords are mostly used to …": in most uses, not what for
            # "This address is used as …", "any certificate … can be used to gain …": one, or each
            or _determiner(parse, head) in _DEMONSTRATIVE | _EACH
        )
        return Reading("function", DESCRIBES if weak else DEFINES, forward=forward)  # "X is used to …"
    if head.dep == "nsubjpass" and governor.lemma in CALL_LEMMAS:
        return Reading("mention", MENTIONS, forward=forward)  # "X and Y are referred to as Z" names Z
    if head.dep == "dobj" and governor.dep == "ROOT" and main and _use_for(parse, governor):
        # "Use X when you want to …" says what X is for; "You can use X to view …" one thing it can do
        if _determiner(parse, head) in _DEMONSTRATIVE:
            return Reading("mention", MENTIONS, forward=forward)  # "Use these guidelines to …"
        # "Use a mutating admission webhook to set this field …": what it does for the thing just
        # named, not what it is for
        only = any(w.dep == "advmod" and w.lemma.casefold() == "only" for w in parse.children(governor.i))
        if _can(parse, governor) or _for_this(parse, governor) or only:
            # "You can use X to view …": what the reader can do with it, as "using a _X_" is; "Only
            # use X if …" when not to use it
            return Reading("use", DESCRIBES, forward=forward)
        return Reading("function", DEFINES, forward=forward)
    if head.dep == "dobj" and main and governor.lemma in _OFFER_LEMMAS and _offered_as(parse, governor):
        return Reading("copula", DEFINES, forward=forward)  # "Elixir provides macros as a mechanism for …"
    if head.dep == "pobj" and governor.text.casefold() == "as" and _members_offered(parse, head):
        return Reading("called", DEFINES, forward=forward)  # "Elixir supports `true` and `false` as booleans"
    grouping = _grouped_into(parse, head) if head.dep == "pobj" and governor.text.casefold() == "into" else None
    if grouping is not None:
        # "In Elixir we group several functions into modules"; "You can organize … into namespaces" one use
        return Reading("function", DESCRIBES if _can(parse, grouping) else DEFINES, forward=forward)
    if head.dep == "attr" and governor.lemma == "be" and marked:
        example = any(w.dep == "nsubj" and w.code and " " in w.text for w in parse.children(governor.i))
        status = _status(parse, head)
        if _determiner(parse, head) in ("a", "an", "the") and not _hedged(parse, governor) and not (example or status):
            return Reading("copula", DEFINES, forward=forward)  # "… is the **pipe operator**"
        return Reading("mention", MENTIONS, forward=forward)  # "Jobs should be _idempotent_": stress
    if (
        head.dep == "pobj"
        and governor.text.casefold() == "of"
        and words[governor.head].lemma.casefold() in ("concept", "notion")
        and not _hedged(parse, words[words[governor.head].head])
    ):
        if words[words[governor.head].head].lemma.casefold() in _COVERS:
            return Reading("mention", MENTIONS, forward=True)  # "This document describes the concept of X"
        # "Elixir provides the concept of `nil`, …"; "… also provides a notion of graphemes." says
        # what they are in the sentence after it, when that one opens with them
        return Reading("called", DEFINES, forward=forward, introduced=True)
    if _former_name(parse, head):
        return Reading("mention", MENTIONS, forward=True)
    called = _called(parse, head)
    if called is not None:
        # "the `=` operator is called the match operator": the name of a symbol, not what it does
        rank = DESCRIBES if _symbol_named(parse, head) else DEFINES
        return Reading("called", rank, anaphoric=called, forward=forward)
    if not _counted(parse, head) and _determiner(parse, head) not in _DEMONSTRATIVE and head.dep != "appos" and any(
        w.dep == "appos"
        and w.pos in ("NOUN", "PROPN")
        and _determiner(parse, w) in ("a", "an")
        and "(" not in parse.text[head.end : w.start]
        and (_entry_term(parse, head) or not _comma_list(parse, w))  # "Concept\n: A named …"
        for w in parse.children(head.i)
    ):  # "ETS, a cache …"; not "the first element (the key)", nor one item of a list ("records an
        # id, the version, a span, …") or a list after a colon ("… the same repository: a person
        # running …, and a second person …")
        return Reading("appositive", DEFINES, forward=forward)
    if _parenthesized_gloss(parse, head):
        return Reading("appositive", DEFINES, forward=forward)  # "`MapSet`s (sets based on maps) are …"
    if _glossed(parse, head):
        return Reading("appositive", DEFINES, forward=forward)
    which = _which_clause(parse, head)
    if which is not None:
        return Reading(which, DEFINES, forward=forward)
    # a "noun" as the object of a passive verb is a misread manner ("are specified _inline_")
    # (not where the verb names: "are considered _truthy_", "is called _x_")
    manner = (
        head.dep in ("dobj", "oprd")
        and governor.lemma not in CALL_LEMMAS | {"consider"}
        and any(w.dep == "auxpass" for w in parse.children(governor.i))
    )
    used = marked and _put_to_use(parse, head)  # what the reader does with it
    if marked and _word_example(parse, head):
        return Reading("mention", MENTIONS, forward=forward)  # "words such as “failure”": the word itself
    if (
        marked
        and head.pos in ("NOUN", "PROPN")
        and not manner
        and not imperative(parse)
        and not _defines_another(parse, head)
        and not used
        and not _some_of(parse, head)  # "… can be made of multiple _requirements_"
        and not _of_each(parse, governor)  # "Every object also has a _UID_ …", "Any container can enable _X_ if …"
        and not _aside(parse, head, governor)
    ):
        # technical prose emphasizes a term where it introduces it; an emphasized adverb ("specified
        # _inline_") stresses a manner, advice ("Consider adding a _Custom Resource_ if …") tells the
        # reader what to do with a term, not what it is, and a sentence that defines another term
        # ("SELinux is a module that lets you restrict what a *subject* … may access") names this
        # one on the way; "We say these operators perform _X_" names what the sentence before
        # spoke of, and is quoted with it
        # "The _handling server_ then proxies …" is one step of what the text before describes
        rank = DESCRIBES if head.dep in ("nsubj", "nsubjpass") and _then(parse, governor) else DEFINES
        pointed = _pointed_subject(parse, governor) or _points_back(parse, governor)
        return Reading("emphasis", rank, forward=forward, anaphoric=pointed)
    if marked and used:
        # "… scale a workload using a _VerticalPodAutoscaler_", "… is to run an *extension API
        # server* in Pods": what the reader does with it, like "You can use X to …"
        return Reading("use", DESCRIBES, forward=forward)
    if marked:
        return Reading("mention", MENTIONS, forward=forward)
    participle = governor.tag == "VBN" and not any(
        w.dep in ("aux", "auxpass") for w in parse.children(governor.i)
    )
    if (
        head.dep in ("nsubj", "nsubjpass")
        and main
        and not participle
        and not _narrowed(parse, head)
        and _determiner(parse, head) not in _DEMONSTRATIVE | _EACH  # "This ownership is indicated by …"
        and not _compares(parse, governor)
        and not _hedged(parse, governor)  # "Different parameters may be accepted …"
        and not _can(parse, governor)  # "The policy can either be …": what it may be
        and not _also(parse, governor)  # "Function definitions also support …": one more feature
        and not _perfect(parse, governor)  # "Proxies have replaced redirect capabilities": a change
        and not _then(parse, governor)  # "The kubelet then restarts …": one step
        and not _example(parse)
        # "The group a function … belongs to": a misparse (two subjects, or a subject's subject)
        and _subjects(parse, governor) == 1
        and _subjects(parse, head) == 0
        and not _done_to(parse, head, governor)
        # "Cluster-level logging architectures require a separate backend …": what it needs
        and governor.lemma.casefold() not in ("require", "need")
        # "the owner object you're deleting …" read as "the owner objects": a singular noun with a
        # plural verb is a misparse of a noun phrase
        and not (head.tag == "NN" and not head.code and governor.tag == "VBP")
    ):
        return Reading("subject", DESCRIBES, forward=forward)
    if head.dep in ("compound", "amod", "nmod", "poss") and not head.code:
        return Reading("modifier", MODIFIES, forward=forward)  # "observability features"
    return Reading("mention", MENTIONS, forward=forward)


_OFFER_LEMMAS = frozenset(["provide", "offer", "introduce", "include", "ship", "support"])


_PURPOSE_NOUNS = frozenset(["purpose", "role", "job", "goal", "aim", "responsibility", "task"])


def _purpose_of(parse: Parse, head: Word) -> bool:
    """ "A ReplicaSet's purpose is to maintain …", "The role of a gate is to …": the sentence says
    what the term is for."""
    words = parse.words
    if head.dep == "poss":
        noun = words[head.head]
    elif head.dep == "pobj" and words[head.head].text.casefold() == "of":
        noun = words[words[head.head].head]
    else:
        return False
    if noun.lemma.casefold() not in _PURPOSE_NOUNS or noun.dep != "nsubj":
        return False
    verb = words[noun.head]
    if verb.lemma != "be" or not _main(parse, verb) or _hedged(parse, verb) or _negated(parse, noun):
        return False
    return any(w.dep in ("xcomp", "attr", "ccomp", "acomp") for w in parse.children(verb.i))


def _perfect(parse: Parse, verb: Word) -> bool:
    """ "X has replaced Y", "X have become …": the present perfect tells a change, not a function."""
    return verb.tag == "VBN" and any(w.dep == "aux" and w.lemma == "have" for w in parse.children(verb.i))


def _for_this(parse: Parse, verb: Word) -> bool:
    """The purpose clause of ``verb`` acts on something named before: "… to set this field"."""
    return any(
        _determiner(parse, w) in _DEMONSTRATIVE
        for clause in parse.children(verb.i)
        if clause.dep in ("advcl", "xcomp")
        for w in parse.children(clause.i)
        if w.dep in ("dobj", "nsubjpass")
    )


def _use_for(parse: Parse, verb: Word) -> bool:
    """ "Use the pin operator when you want to …", "You use X to …": what the object is for."""
    if verb.lemma != "use" or _hedged(parse, verb) or _negated(parse, verb):
        return False
    children = parse.children(verb.i)
    if verb.tag == "VBD" or any(w.dep == "aux" and w.lemma == "have" for w in children):
        return False  # "Here we have used recursion to traverse a list": what an example did
    subject = next((w for w in children if w.dep in ("nsubj", "nsubjpass")), None)
    # "You use X to …", "Elixir developers use the `Mix` build tool to compile code": the people who
    # use it tell what it is for (not "Most developers …": some of them)
    if subject is not None and not (
        subject.lemma.casefold() in _USERS and not _some_of(parse, subject) and _determiner(parse, subject) not in _EACH
    ):
        return False
    objects = [w.i for w in children if w.dep == "dobj"]
    return any(
        w.dep in ("advcl", "xcomp")
        and w.pos in ("VERB", "AUX")
        and w.lemma not in _DEMONSTRATING
        and all(w.i > i for i in objects)  # "To set the location, use the `--x` arguments" is advice
        for w in children
    )


_USERS = frozenset(["you", "we", "developer", "user", "people", "programmer", "administrator", "operator"])
# "We can use `is_binary/1` to demonstrate this": what the example shows, not what the thing is for
_DEMONSTRATING = frozenset(
    ["demonstrate", "show", "illustrate", "see", "check", "confirm", "try", "explore", "test"]
)


def _members_offered(parse: Parse, head: Word) -> bool:
    """ "supports `true` and `false` as booleans": the kind (a bare plural) that the named members
    are offered as."""
    verb = parse.words[parse.words[head.head].head]
    if verb.lemma not in _OFFER_LEMMAS or head.tag != "NNS" or _determiner(parse, head) or _hedged(parse, verb):
        return False
    members = [w for w in parse.children(verb.i) if w.dep == "dobj"]
    members += [w for m in members for w in parse.children(m.i) if w.dep == "conj"]
    return len(members) >= 2 and all(w.code for w in members)


_GROUP_LEMMAS = frozenset(["group", "organize", "organise", "bundle", "package", "collect", "gather", "arrange"])


def _grouped_into(parse: Parse, head: Word) -> Word | None:
    """ "we group several functions into modules", "Containers are bundled into Pods": the verb that
    gathers things into the kind ``head`` (a bare plural), said in a main clause, not of one case."""
    verb = parse.words[parse.words[head.head].head]
    if verb.dep == "dobj":  # "group several widgets into panels", "into" attached to the object
        verb = parse.words[verb.head]
    if verb.lemma not in _GROUP_LEMMAS or verb.dep != "ROOT" or head.tag != "NNS" or _determiner(parse, head):
        return None
    if _hedged(parse, verb) or _negated(parse, verb) or verb.tag == "VBD" or _perfect(parse, verb):
        return None
    children = parse.children(verb.i)
    subject = next((w for w in children if w.dep in ("nsubj", "nsubjpass")), None)
    gathered = next((w for w in children if w.dep in ("dobj", "nsubjpass")), None)
    # what is gathered is many ("several functions"), not one thing divided ("Gateway API is organized
    # into different API kinds")
    many = gathered is not None and gathered.tag in ("NNS", "NNPS")
    told = subject is None or subject.dep == "nsubjpass" or subject.lemma.casefold() in ("we", "you")
    return verb if many and told else None


def _offered_as(parse: Parse, verb: Word) -> bool:
    """ "… provides macros *as a mechanism for* …": the verb's "as" names the kind of its object."""
    for prep in parse.children(verb.i):
        if prep.dep == "prep" and prep.text.casefold() == "as":
            kind = next((w for w in parse.children(prep.i) if w.dep == "pobj"), None)
            if kind is not None and kind.pos == "NOUN" and _determiner(parse, kind) in ("a", "an"):
                return not _hedged(parse, verb) and not _negated(parse, kind)
    return False


def _main(parse: Parse, verb: Word) -> bool:
    """The sentence's main clause: its root, a verb coordinated with it, or the first of two clauses
    joined by a comma or a colon ("Heredocs are multi-line strings, they start …", "Comprehensions
    are syntactic sugar for such constructs: they group …")."""
    words = parse.words
    if verb.dep == "ROOT" or (verb.dep == "conj" and words[verb.head].dep == "ROOT"):
        # two roots are a misparse of one sentence ("A DaemonSet ensures that all (or some) Nodes
        # run …"): the later one is no main clause
        root = verb if verb.dep == "ROOT" else words[verb.head]
        return not any(w.dep == "ROOT" and w.i < root.i for w in words)
    root = words[verb.head]
    return (
        verb.dep == "ccomp"
        and root.dep == "ROOT"
        and verb.i < root.i
        and _one_break(parse.text[words[verb.i].end : root.start])
    )


def _one_break(between: str) -> bool:
    """One comma, or a colon alone, between two clauses."""
    return between.count(",") == 1 or (between.count(":") == 1 and not between.count(","))


def _which_clause(parse: Parse, head: Word) -> str | None:
    """ "`Agent`s, which are simple abstractions around state": a relative clause that says what
    the term is ("copula") or what it is meant for ("function"), of a term in the main clause ("we
    see a message saying the parent process, which is the shell, …" reports one process)."""
    governor = parse.words[head.head]
    if governor.i != head.i and governor.pos in ("VERB", "AUX") and not _main(parse, governor):
        return None
    if governor.i != head.i and (_hedged(parse, governor) or _can(parse, governor)):
        return None  # "you can only have 1 DNS suffix, which is the suffix of …": a limit on some
    if any(w.dep == "nummod" for w in parse.children(head.i)):
        return None  # "two processes, which are …": those two
    for clause in parse.children(head.i):
        if clause.dep != "relcl" or _hedged(parse, clause) or _can(parse, clause) or _negated(parse, clause):
            continue
        pronoun = next((w for w in parse.children(clause.i) if w.dep in ("nsubj", "nsubjpass")), None)
        if pronoun is None or pronoun.lemma.casefold() not in ("which", "that", "who"):
            continue
        if ", " not in parse.text[head.end : pronoun.start + 1] and pronoun.lemma.casefold() != "that":
            continue
        if pronoun.lemma.casefold() == "that" and head.dep not in ("nsubj", "nsubjpass", "attr", "appos"):
            continue  # "records are created for named ports that are part of …" narrows the ports
        if not _agrees(parse, head, clause):
            continue  # "Leases are kept in the tool shed, which are used for …" speaks of the leases
        if clause.lemma == "be" and any(
            w.dep == "attr" and _defining_attr(parse, w) for w in parse.children(clause.i)
        ):
            return "copula"
        if clause.lemma in ("mean", "use", "design", "intend") and pronoun.dep == "nsubjpass":
            return "function"
        if (
            clause.lemma in FUNCTION_LEMMAS - {"mean", "refer", "give"}
            and pronoun.dep == "nsubj"
            and pronoun.lemma.casefold() == "which"
            and head.dep in ("attr", "nsubj", "appos")
            and (head.code or _named_classifier(parse, head))
        ):
            return "function"  # "… is the `Chars` protocol, which specifies how to …"
    return None


def _agrees(parse: Parse, head: Word, clause: Word) -> bool:
    """Whether a relative clause's verb can have ``head`` as its subject by number: "the shed, which
    are used for …" belongs to another noun (a name written as code keeps any number)."""
    if head.code or head.tag not in ("NN", "NNS", "NNP", "NNPS"):
        return True
    finite = [w for w in [clause, *parse.children(clause.i)] if w.tag in ("VBZ", "VBP") and w.i <= clause.i]
    if not finite:
        return True
    # the tagger calls a name singular whatever its ending ("`Agent`s" is NNP)
    plural = head.tag in ("NNS", "NNPS") or (head.tag == "NNP" and re.search(r"[^s]s$", head.text) is not None)
    return all((w.tag == "VBP") == plural for w in finite)


def _parenthesized_gloss(parse: Parse, head: Word) -> bool:
    """ "`MapSet`s (sets based on maps)", "a probe (a check that the kubelet runs)": a kind named in
    parentheses right after the term, with what narrows it; not "the first element (the key)", a
    name or one word ("(default)")."""
    words = parse.words
    if head.i + 2 >= len(words) or words[head.i + 1].text != "(":
        return False
    gloss = next((w for w in parse.children(head.i) if w.dep == "appos" and w.i > head.i + 1), None)
    return (
        gloss is not None
        and gloss.pos == "NOUN"
        and not gloss.code
        # "(even pods with no memory request set)": an aside on some, not a kind that glosses the term
        and all(w.pos in ("DET", "ADJ", "NOUN") for w in words[head.i + 2 : gloss.i])
        and (_determiner(parse, gloss) in ("a", "an") or (not _determiner(parse, gloss) and gloss.tag == "NNS"))
        and any(w.dep in ("acl", "relcl", "prep") for w in parse.children(gloss.i))
        and ")" in (w.text for w in words[gloss.i :])
    )


def _glossed(parse: Parse, head: Word) -> bool:
    """ "an overview of init containers: specialized containers that run before …": a colon right
    after the term opens a description of it (a common noun with a clause), not a list of names."""
    words = parse.words
    if head.i + 2 >= len(words) or words[head.i + 1].text != ":":
        return False
    if _counted(parse, head):
        return False
    after = words[head.i + 2 :]
    gloss = next((w for w in after if w.pos in ("NOUN", "PROPN", "VERB", "AUX")), None)
    return (
        gloss is not None
        and gloss.dep in ("appos", "dobj", "attr", "npadvmod", "ROOT")
        and gloss.pos == "NOUN"
        and all(w.pos in ("DET", "ADJ", "ADV", "NOUN") for w in words[head.i + 2 : gloss.i])
        and _determiner(parse, gloss) in ("", "a", "an")
        and any(w.dep in ("relcl", "acl") for w in parse.children(gloss.i))
    )


def _symbol_named(parse: Parse, head: Word) -> bool:
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


def _called(parse: Parse, head: Word) -> bool | None:
    """The term is the name a sentence gives: "… is called X", "X, known as …", "called X".

    Returns whether the subject that is named is anaphoric ("This set is called …"), or None.
    """
    words = parse.words
    governor = words[head.head]
    verb: Word | None = None
    if head.dep in ("oprd", "attr", "dobj") and governor.lemma in CALL_LEMMAS:
        verb = governor
    elif head.dep == "pobj" and governor.lemma == "as" and words[governor.head].lemma in CALL_LEMMAS:
        verb = words[governor.head]
    if verb is None or head.dep == "dobj":
        return None  # "Name the volume anything", "may be called multiple times": not the name
    if verb.tag == "VBG":
        return None  # "The directive allows referring to `Math.List` as `List`": an act of naming, in use
    if head.lemma.casefold() == "time" or any(
        w.dep in ("nummod", "amod") and w.lemma.casefold() in _MANY for w in parse.children(head.i)
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
        head.code or (verb.dep == "acl" and _determiner(parse, words[verb.head]) in ("a", "an"))
    ):
        # "a struct named `User`", "Services named `mydb`", "A custom resource named SampleDB": an
        # example's instance ("an agent called X" names a thing of its own)
        return None
    subject = next((w for w in children if w.dep in ("nsubjpass", "nsubj")), None)
    if subject is not None and subject.lemma.casefold() in ("we", "you", "people"):
        # "We call other cases *voluntary disruptions*": the cases are what is named
        subject = next((w for w in children if w.dep == "dobj"), None)
        if subject is not None and any(
            w.dep in ("amod", "det") and w.lemma.casefold() in ("other", "such") for w in parse.children(subject.i)
        ):
            return True  # the other ones than those the sentence before named
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
    definite = bare and not named and subject.pos == "NOUN" and _determiner(parse, subject) == "the"
    return ordinal or definite or subject.lemma.casefold() in _DEMONSTRATIVE or _determiner(parse, subject) in _DEMONSTRATIVE


def _entry_term(parse: Parse, head: Word) -> bool:
    """``head`` is the term of a definition list's entry ("Concept" / ": A named entity …")."""
    return head.i == 0 and len(parse.words) > 1 and parse.words[1].text == ":"


def _comma_list(parse: Parse, word: Word) -> bool:
    """``word`` opens a list of several items set off by commas ("a person …, CI …, and a second
    person …"; not "a named entity or idea", one gloss with two words for it), or names examples
    in brackets."""
    items = [c for c in parse.children(word.i) if c.dep in ("conj", "appos")]
    # (or a bracket of examples: "Lookup a field (CNAME, TXT, ...) of a domain:")
    return any("," in parse.text[word.end : c.start] or "(" in parse.text[word.end : c.start] for c in items)


_WORD_NOUNS = frozenset(["word", "term", "name", "phrase", "keyword"])


def _word_example(parse: Parse, head: Word) -> bool:
    """ "… contains words such as “failure” or “preference”": the quoted words are examples of
    words, the word itself and not the thing it names (use and mention)."""
    node = head
    while node.dep == "conj" and node.head != node.i:
        node = parse.words[node.head]
    governor = parse.words[node.head]
    return (
        node.dep == "pobj"
        and governor.text.casefold() in ("as", "like")
        and parse.words[governor.head].lemma.casefold() in _WORD_NOUNS
    )


def _same(parse: Parse, head: Word) -> bool:
    """ "the same repository", "the same rules": the one already spoken of, never introduced."""
    return any(w.dep == "amod" and w.lemma.casefold() == "same" for w in parse.children(head.i))


def _pointed_subject(parse: Parse, verb: Word) -> bool:
    """The subject of ``verb``'s clause points back ("these operators", "this set"; not "this
    document", the text itself)."""
    return any(
        w.dep in ("nsubj", "nsubjpass")
        and _determiner(parse, w) in POINTING
        and w.lemma.casefold() not in _TEXT_ITSELF
        for w in parse.children(verb.i)
    )


def _points_back(parse: Parse, verb: Word) -> bool:
    """What ``verb`` says, it says of something the sentence before named: "_Ephemeral volumes_ are
    designed for *these* use cases", "… are syntactic sugar for *such* constructs"."""
    nouns: list[Word] = []
    for w in parse.children(verb.i):
        if w.dep in ("dobj", "attr", "oprd"):  # the complement, and what its preposition names
            nouns.append(w)
            preps = [p for p in parse.children(w.i) if p.dep == "prep"]
        elif w.dep in ("prep", "agent"):
            preps = [w]
        else:
            continue
        nouns += [o for p in preps for o in parse.children(p.i) if o.dep == "pobj"]
    return any(_determiner(parse, w) in POINTING and w.lemma.casefold() not in _TEXT_ITSELF for w in nouns)


def _counted(parse: Parse, head: Word) -> bool:
    """ "Label keys have two segments: an optional prefix and name": a number of parts, then the parts."""
    return any(w.dep == "nummod" for w in parse.children(head.i))


_HAVING = frozenset(["consist", "comprise", "have", "contain", "include"])


def _parts_listed(parse: Parse, verb: Word) -> bool:
    """ "The service consists of two parts: the server … and the agents …", "Each context has three
    parameters: …", "… has two methods, namely …": a number of parts, then the parts — what it is
    made of, not what it is ("A Pod contains one or more containers" lists none)."""
    if verb.lemma.casefold() not in _HAVING:
        return False
    parts = [w for w in parse.children(verb.i) if w.dep == "dobj"]
    for prep in parse.children(verb.i):
        if prep.dep == "prep" and prep.text.casefold() == "of":  # "consists of two parts"
            parts += [w for w in parse.children(prep.i) if w.dep == "pobj"]
    return any(
        _counted(parse, part) and re.match(r"\s*(?::|,\s*namely\b)", parse.text[part.end :]) is not None
        for part in parts
    )


def _the_text_covers(parse: Parse, head: Word) -> bool:
    """ "This document describes _ephemeral volumes_", "This page gives an overview of X": the text
    says what it covers, which is no definition of what it covers (unless a gloss follows the term:
    "… an overview of X: a special type of container that …")."""
    words = parse.words
    verb = head
    while verb.pos not in ("VERB", "AUX") and verb.head != verb.i:
        verb = words[verb.head]
    if verb.i == head.i or verb.lemma.casefold() not in _TEXT_COVERS or _glossed(parse, head):
        return False  # "This document uses the term X to refer to …", "… about X: containers that …"
    return any(
        w.dep == "nsubj" and w.lemma.casefold() in _TEXT_ITSELF and _determiner(parse, w) in POINTING
        for w in parse.children(verb.i)
    )


def _then(parse: Parse, verb: Word) -> bool:
    """ "The scheduler then notifies …", "First, plugins register …": ``verb`` is one step in a
    sequence the text tells."""
    return any(w.dep == "advmod" and w.lemma.casefold() in _STEPS for w in parse.children(verb.i))


_STEPS = frozenset(["then", "first", "next", "finally", "afterwards", "afterward", "lastly", "subsequently"])


_TEXT_ITSELF = frozenset(["document", "page", "section", "chapter", "guide", "tutorial", "article", "book"])


def _former_name(parse: Parse, head: Word) -> bool:
    """ "Prior to 1.27, this feature was known as _X_", "… formerly called X": the name it had."""
    words = parse.words
    governor = words[head.head]
    if head.dep == "pobj" and governor.lemma == "as":
        governor = words[governor.head]
    elif head.dep not in ("oprd", "attr"):
        return False
    children = parse.children(governor.i)
    return governor.lemma in CALL_LEMMAS and (
        any(w.dep == "auxpass" and w.tag == "VBD" for w in children)
        or any(w.dep == "advmod" and w.lemma.casefold() in _FORMERLY for w in children)
    )


# "This document describes the concept of X": what the text covers
_COVERS = frozenset(["describe", "explain", "cover", "discuss", "outline"])
_TEXT_COVERS = _COVERS | {"give", "provide"}  # "This page gives an overview of X"
_FORMERLY = frozenset(["formerly", "previously", "originally", "once"])
_MANY = frozenset(["multiple", "several", "many", "few", "two", "three", "numerous", "countless"])


# "the first manifest", "the second is called …": one of a series just named, not the kind
ORDINALS = frozenset(["first", "second", "third", "last", "next", "previous", "former", "latter"])


def _put_to_use(parse: Parse, head: Word) -> bool:
    """ "… scale a workload using a _X_", "… is to run an *X* in Pods": the reader's use of a
    thing, where nothing says what it does ("use _workload resources_ that manage …", "uses
    *capabilities* to divide …" do)."""
    governor = parse.words[head.head]
    if head.dep == "pobj" and governor.text.casefold() in ("via", "through") and not _in_relative_clause(parse, governor):
        # "… resources handled by Kubernetes via _structured parameters_": the means of another thing
        return not any(  # "via a _sieve_ that sorts …" says what it does; "(introduced in 1.30)" is an aside
            w.dep in ("relcl", "acl") and "(" not in parse.text[head.end : w.start] for w in parse.children(head.i)
        )
    means = _by_means(parse, governor)
    if governor.lemma.casefold() not in _USING and not means:
        return False
    # "In case you need …, *throws* should be used": the passive of the reader's use, as advice
    used = head.dep == "nsubjpass" and _hedged(parse, governor)
    if head.dep != "dobj" and not used and not (means and head.dep == "pobj"):  # "by including" read as a preposition
        return False
    if any(w.dep in ("relcl", "acl") and w.lemma.casefold() not in _PLACED for w in parse.children(head.i)):
        return False  # "… that manage a set of pods" says what they do; "… that run in your cluster" where
    return not any(  # "… to divide …", "… so that the new release can …": what it is used for
        w.dep in ("advcl", "xcomp")
        and any(
            (a.dep == "aux" and a.text.casefold() == "to") or (a.dep == "mark" and a.text.casefold() in ("so", "that"))
            for a in parse.children(w.i)
        )
        for w in parse.children(governor.i)
    )


def _in_relative_clause(parse: Parse, word: Word) -> bool:
    """``word`` sits in a relative clause ("an alpha feature that allows … to select a leader via
    _coordinated leader election_": the clause says what the feature is, by the term's name)."""
    seen = set()
    while word.head != word.i and word.i not in seen:
        seen.add(word.i)
        if word.dep == "relcl":
            return True
        word = parse.words[word.head]
    return False


_USING = frozenset(["use", "run", "install", "deploy", "employ"])
_PLACED = frozenset(["run", "live", "reside", "sit", "exist"])  # where it is, not what it does
_MATURITY = frozenset(["alpha", "beta", "stable", "experimental", "deprecated", "preview", "ga"])


def _by_means(parse: Parse, verb: Word) -> bool:
    """ "… by including a _logging agent_ on each node": the means by which the reader does something."""
    return verb.tag == "VBG" and verb.i > 0 and parse.words[verb.i - 1].text.casefold() == "by"


def _status(parse: Parse, attr: Word) -> bool:
    """ "an *alpha feature*", "a CNCF project at the Sandbox level": how far a thing is, not what it is."""
    children = parse.children(attr.i)
    if any(w.lemma.casefold() in _MATURITY for w in children if w.dep in ("amod", "compound")):
        return True
    return any(
        w.dep == "prep" and w.text.casefold() == "at" and p.dep == "pobj" and p.lemma.casefold() in ("level", "stage")
        for w in children
        for p in parse.children(w.i)
    )


# Nouns that judge a thing for a purpose rather than say what it is ("a good fit", "a useful
# alternative", "the best choice"; "a useful construct" still says what it is)
_VERDICTS = frozenset(["alternative", "fit", "choice", "idea", "practice"])


def _defining_attr(parse: Parse, attr: Word) -> bool:
    """ "is a cache …", "are extensions built on …"; not "is the same", "is one of the most …"."""
    if attr.lemma.casefold() in _NOT_DEFINING_ATTR or not (
        attr.pos in ("NOUN", "PROPN") or _nominal(parse, attr)
    ):
        return False
    if _status(parse, attr):
        return False  # "X is an alpha feature and only enabled when …": its status, not what it is
    if _judged(parse, attr):
        return False  # "`if` is a useful alternative", "Processes are the most common answer to …"
    determiner = _determiner(parse, attr)
    if attr.lemma.casefold() == "part" and (
        determiner == "" or any(w.dep == "amod" and w.lemma.casefold() in _WEIGHTY for w in parse.children(attr.i))
    ):
        # "are part of the winter stock" says where it belongs, "is a central part of the farm" how
        # much it matters there; "is a reusable part of the line", "is a part that …" what it is
        return False
    if determiner in ("a", "an", "the", "any", "one"):
        return True
    return determiner == "" and attr.tag in ("NNS", "NNPS", "NN", "NNP")


_WEIGHTY = frozenset(
    ["central", "important", "key", "integral", "essential", "vital", "crucial", "fundamental", "major", "core", "critical"]
)


def _nominal(parse: Parse, attr: Word) -> bool:
    """ "An atom is a constant whose value is …": a word the tagger took for an adjective is a noun
    where an article opens it and a clause or phrase qualifies it."""
    children = parse.children(attr.i)
    return attr.pos == "ADJ" and _determiner(parse, attr) in ("a", "an") and any(
        w.dep in ("relcl", "acl", "prep") and w.i > attr.i for w in children
    )


def _done_to(parse: Parse, head: Word, verb: Word) -> bool:
    """ "Lists are stored in memory as …", "Pod priority is specified by setting …": what is done to
    the subject, not what it does ("Processes are isolated from each other, run concurrent … and
    communicate …" goes on with what they do)."""
    if head.dep != "nsubjpass":
        return False
    return not any(
        w.dep == "conj" and w.pos == "VERB" and not any(a.dep == "auxpass" for a in parse.children(w.i))
        for w in parse.children(verb.i)
    )


def _capable(parse: Parse, complement: Word) -> bool:
    """ "… is responsible for configuring routes", "… are able to associate …": what a thing does,
    said with an adjective."""
    lemma, children = complement.lemma.casefold(), parse.children(complement.i)
    if lemma == "responsible":
        # not "… are responsible for that": what "that" is, the sentence before says
        return any(
            w.dep == "prep"
            and w.text.casefold() == "for"
            and not any(o.dep == "pobj" and o.pos == "PRON" for o in parse.children(w.i))
            for w in children
        )
    return lemma == "able" and any(w.dep == "xcomp" for w in children)


def _of_any(parse: Parse, attr: Word) -> bool:
    """ "the first element of a list", "the number of arguments of functions": the attribute says
    what it is of any one of a kind (an indefinite or bare plural object of "of")."""
    return any(
        w.dep == "prep"
        and w.text.casefold() == "of"
        and any(
            o.dep == "pobj" and (_determiner(parse, o) in ("a", "an") or (not _determiner(parse, o) and o.tag == "NNS"))
            for o in parse.children(w.i)
        )
        for w in parse.children(attr.i)
    )


def _judged(parse: Parse, attr: Word) -> bool:
    """The attribute judges the subject rather than say what it is: a verdict ("a useful
    alternative", "a good fit") or a ranking ("the most common answer", "the preferred method")."""
    children = parse.children(attr.i)
    if attr.lemma.casefold() in _VERDICTS:
        return True
    return any(
        w.tag == "JJS"
        or (w.dep == "advmod" and w.lemma.casefold() == "most")
        or (w.dep == "amod" and w.lemma.casefold() in _RANKING)
        for m in children
        for w in [m, *parse.children(m.i)]
    )


_RANKING = frozenset(["prefer", "preferred", "recommend", "recommended", "favored", "favoured"])


def _definite(parse: Parse, head: Word) -> bool:
    """ "The form is …" speaks of one thing; "The arity of a function is …" of a kind; "The `Enum`
    module provides …" of the thing its name names."""
    return (
        _determiner(parse, head) == "the"
        and head.pos == "NOUN"
        and not head.code
        and not _named_classifier(parse, head)
        and not any(w.dep == "prep" and w.text.casefold() == "of" for w in parse.children(head.i))
    )


def _restricted(parse: Parse, head: Word) -> bool:
    """ "Each pod in a DaemonSet …", "64 characters is …", "Some organizations run …": a subject
    narrowed to some of its kind by where they are or how many."""
    if _some_of(parse, head) or any(
        w.dep == "nummod" or (w.dep == "advmod" and w.lemma.casefold() == "only" and w.i < head.i)
        for w in parse.children(head.i)
    ):
        return True  # "Some organizations …", "64 characters …", "Only Windows pods …"
    if any(
        w.dep == "prep"
        and w.text.casefold() in ("for", "with")
        and any(o.dep == "pobj" and o.code for o in parse.children(w.i))
        for w in parse.children(head.i)
    ):
        return True  # "A query for `data` returns …": one query, an example's
    return any(
        w.dep == "prep"
        and w.text.casefold() in ("in", "on", "inside", "within", "under", "from")
        and any(o.dep == "pobj" and _determiner(parse, o) for o in parse.children(w.i))
        for w in parse.children(head.i)
    )


# words that pick some of a kind (also statements: "many functions …" states nothing of all); the
# tagger reads most of them before a noun as adjectives ("amod"), not determiners
SOME = frozenset(["some", "many", "several", "few", "most", "certain", "other", "multiple", "various", "numerous"])
_EACH = frozenset(["each", "every", "any"])  # one at a time: what each does is not what the kind is for


def _aside(parse: Parse, head: Word, governor: Word) -> bool:
    """An emphasized term the sentence uses on its way to something else: compared ("The difference
    between "iodata" and "chardata" is …"), given as a reason ("… because they have *lexical
    scope*") or the subject of an elided verb ("…, whereas _API Access Extensions_ do")."""
    first = head
    while first.dep == "conj" and first.head != first.i:
        first = parse.words[first.head]
    if first.dep == "pobj" and parse.words[first.head].text.casefold() == "between":
        return True
    if any(w.dep == "mark" and w.text.casefold() in ("because", "since") for w in parse.children(governor.i)):
        return True
    return (
        head.dep == "nsubj"
        and governor.lemma.casefold() == "do"
        and not any(w.dep in ("dobj", "xcomp", "ccomp", "attr", "prep") for w in parse.children(governor.i))
    )


def _of_each(parse: Parse, verb: Word) -> bool:
    """ "Every object has …", "Any container can enable …": what ``verb`` says holds of each one of
    its subject's kind (of what they have or do, not of what the object is)."""
    return any(w.dep in ("nsubj", "nsubjpass") and _determiner(parse, w) in _EACH for w in parse.children(verb.i))


def _some_of(parse: Parse, head: Word) -> bool:
    """ "Some interfaces …", "Many functions …", "Multiple generators …": some of a kind."""
    return _determiner(parse, head) in SOME or any(
        w.dep == "amod" and w.i < head.i and w.lemma.casefold() in SOME for w in parse.children(head.i)
    )


def _but_not(parse: Parse, verb: Word) -> bool:
    """ "Structured parameters enable cluster autoscaling, but might not satisfy all use-cases": what
    the term does, weighed against what it may not do."""
    children = parse.children(verb.i)
    return any(w.dep == "cc" and w.lemma.casefold() == "but" for w in children) and any(
        w.dep == "conj" and w.pos in ("VERB", "AUX") and (_hedged(parse, w) or _negated(parse, w)) for w in children
    )


def _of_this(parse: Parse, head: Word) -> bool:
    """ "Direct access to this API allows …": the term of the one just named, not the term."""
    return any(
        clause.dep == "prep"
        and clause.i > head.i
        and any(w.dep == "pobj" and _determiner(parse, w) in POINTING for w in parse.children(clause.i))
        for clause in parse.children(head.i)
    )


def _part_of(parse: Parse, verb: Word) -> bool:
    """ "X is part of Y": where X belongs, not what it is."""
    return verb.lemma == "be" and any(
        w.dep == "attr" and w.lemma.casefold() == "part" and not _determiner(parse, w) for w in parse.children(verb.i)
    )


def hyphened(parse: Parse, word: Word) -> bool:
    """ "set-based", "API-initiated", "container-specific": an adjective made of words joined by a
    hyphen (the parser splits them, the hyphen hangs on the last) that names a subkind of a common
    noun; "built-in" says where any of them comes from, and a proper name ("Self-healing
    Kubernetes") is one thing."""
    return (
        word.dep == "amod"
        and parse.words[word.head].pos != "PROPN"
        and any(w.tag == "HYPH" for w in parse.children(word.i))
        and not any(w.text.casefold() == "in" for w in parse.children(word.i))  # "built-in", "opt-in"
    )


def _participled(parse: Parse, head: Word) -> bool:
    """ "The spawned process", "the created Pod": a participle before the noun picks the one an
    example made, not the kind."""
    return any(w.dep == "amod" and w.tag == "VBN" and w.i < head.i for w in parse.children(head.i))


def _narrowed(parse: Parse, head: Word) -> bool:
    """ "Pods that are removed in this way will be replaced": a subject narrowed by a restrictive
    clause (or by place and number, :func:`_restricted`) says something of some of its kind only."""
    if _restricted(parse, head):
        return True
    if _of_this(parse, head):
        return True
    for clause in parse.children(head.i):
        if clause.dep == "acl" and clause.tag in ("VBG", "VBN") and clause.i > head.i:
            return True  # "Functions starting with underscore are …", "Pods created by a Job …"
        if clause.dep == "relcl":
            pronoun = next((w for w in parse.children(clause.i) if w.dep in ("nsubj", "nsubjpass")), None)
            if pronoun is not None and pronoun.lemma.casefold() == "that":
                return True
    return False


EXAMPLE_START = re.compile(r"^(?:for example|for instance|e\.g\.)\s*,", re.IGNORECASE)
# "For each named port, the record has the form …": what holds once per instance of another kind
_PER_INSTANCE_START = re.compile(r"^for (?:each|every) [^,]{1,80},", re.IGNORECASE)


def _example(parse: Parse) -> bool:
    """ "For example, a bitstring generator can be used with …": what one example does; "For each
    named port, the record has …" what each instance of another kind has, one case at a time."""
    return EXAMPLE_START.match(parse.text) is not None or _PER_INSTANCE_START.match(parse.text) is not None


def _on_condition(parse: Parse, verb: Word) -> bool:
    """ "A claim is only used for a volume if it was created for the Pod": ``verb`` holds on a
    condition, a circumstance of its use, not what its subject is for."""
    return any(
        w.dep == "advcl" and any(m.dep == "mark" and m.lemma.casefold() in ("if", "unless") for m in parse.children(w.i))
        for w in parse.children(verb.i)
    )


_FURTHER = re.compile(r"^(?:furthermore|moreover|additionally|in addition|besides)\b", re.IGNORECASE)


def _also(parse: Parse, verb: Word) -> bool:
    """ "X also provides …", "… also allow …": a further thing it does, after what it is for."""
    return any(w.dep == "advmod" and w.lemma.casefold() == "also" for w in parse.children(verb.i))


_SO = frozenset(["so", "thus", "therefore", "hence", "consequently"])


def _consequence(parse: Parse, verb: Word) -> bool:
    """ "The value has no effect, so gizmos are still required …": what follows from something else
    the sentence says, not what the term is or does."""
    return any(w.dep in ("advmod", "cc", "mark") and w.text.casefold() in _SO for w in parse.children(verb.i)) or any(
        w.dep == "prep"  # "As a result, all namespace names must be …"
        and w.text.casefold() == "as"
        and any(p.dep == "pobj" and p.lemma.casefold() in ("result", "consequence") for p in parse.children(w.i))
        for w in parse.children(verb.i)
    )


_COMPARING = frozenset(["similar", "different", "equivalent", "identical", "analogous", "comparable", "opposite"])
_LIKE = _COMPARING - {"different", "opposite"}  # "different attributes" are various ones
_FRONTED_COMPARISON = re.compile(
    r"^(?:\w+,\s+)?(?:similar(?:ly)? to|like|unlike|just like|as with|compared to|in contrast to|instead of)\b", re.IGNORECASE
)


def _compares(parse: Parse, verb: Word) -> bool:
    """ "Ownership is different from …", "`dbg` is similar to …", "`dbg` does it better", "… provides a similar API to …",
    "… provide a much more concise representation than …": how the term compares with another, not
    what it is."""
    if any(w.dep == "acomp" and w.lemma.casefold() in _COMPARING for w in parse.children(verb.i)):
        return True
    if _FRONTED_COMPARISON.match(parse.text):
        return True  # "Similar to constructs like `if`, function definitions support …"
    if any(w.dep in ("advmod", "acomp") and w.tag in ("RBR", "JJR") for w in parse.children(verb.i)):
        return True  # "`dbg` does it better: …", "Streams are faster": better than something else
    if any(
        w.dep == "dobj" and any(a.dep == "amod" and a.tag == "JJR" for a in parse.children(w.i))
        for w in parse.children(verb.i)
    ):
        return True  # "Virtualization allows better utilization of …": a benefit, against what came before
    if any(  # "The `Map` module provides a very similar API to the `Keyword` module"
        w.dep == "amod" and w.lemma.casefold() in _LIKE and parse.words[w.head].dep == "dobj"
        for w in parse.subtree(verb.i)
    ):
        return True
    return any(w.text.casefold() == "than" for w in parse.words) and any(
        w.tag in ("JJR", "RBR") for w in parse.subtree(verb.i)
    )


def _defines_another(parse: Parse, head: Word) -> bool:
    """The sentence is "Y is a …" of a subject Y that is not ``head`` (nor holds it)."""
    root = next((w for w in parse.words if w.dep == "ROOT"), None)
    if root is None or root.lemma != "be":
        return False
    children = parse.children(root.i)
    subject = next((w for w in children if w.dep == "nsubj"), None)
    return (
        subject is not None
        and head.i not in {w.i for w in parse.subtree(subject.i)}
        and subject.pos in ("NOUN", "PROPN")
        and any(w.dep == "attr" and _defining_attr(parse, w) for w in children)
    )


def imperative(parse: Parse) -> bool:
    """ "Consider adding …", "Use X when …": a root of the sentence is a bare verb with no subject
    (a list entry's label before it is parsed as a root of its own: "[Projection] (recommended): In
    v1.20 and later, use …")."""
    return any(
        root.dep == "ROOT"
        and root.tag == "VB"
        and not any(w.dep in ("nsubj", "nsubjpass", "aux") for w in parse.children(root.i))
        for root in parse.words
    )


def _subjects(parse: Parse, verb: Word) -> int:
    return sum(1 for w in parse.children(verb.i) if w.dep in ("nsubj", "nsubjpass"))


_USUALLY = frozenset(
    ["typically", "usually", "often", "generally", "commonly", "normally", "sometimes", "mostly", "frequently"]
)


def _usually(parse: Parse, verb: Word) -> bool:
    """ "DaemonSets typically provide node-local services …": what it does in most uses, not what it is
    for."""
    return verb.lemma not in ("refer", "mean") and any(  # "… typically refers to …" still names it
        w.dep == "advmod" and w.lemma.casefold() in _USUALLY for w in parse.children(verb.i)
    )


def _values(parse: Parse, copula: Word) -> bool:
    """ "The policy can either be `Retain` or `Delete`", "… is `true` or `false`": the values it
    takes, each a literal (a code span or a name), which say nothing of what it is."""
    attr = next((w for w in parse.children(copula.i) if w.dep == "attr"), None)
    if attr is None:
        return False
    values = [attr, *(w for w in parse.children(attr.i) if w.dep == "conj")]
    return len(values) >= 2 and all(w.code or w.pos == "PROPN" for w in values)


def _can(parse: Parse, verb: Word) -> bool:
    """ "… can provide useful automation": what something may do, not what it is for."""
    return any(w.dep == "aux" and w.lemma.casefold() == "can" for w in parse.children(verb.i))


def _instance(parse: Parse, head: Word) -> bool:
    """ "a `data` Service", "the `kube-system` namespace": a lower-case code name right before the
    noun names one thing of its kind."""
    before = parse.words[head.i - 1] if head.i else None
    return (
        before is not None
        and before.code
        and before.head == head.i
        and before.dep in ("compound", "nmod", "amod")
        and re.fullmatch(r"[a-z][a-z0-9_.-]*", before.text.strip("`")) is not None
    )


# Nouns that stand for the instances of a kind the name before them names ("StorageClass objects",
# "`Job` resources")
INSTANCE_NOUNS = frozenset(["object", "resource"])
_IDENTIFIER = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+")


def _kind_instances(word: Word, governor: Word) -> bool:
    """ "StorageClass objects define …": an identifier (code, or a CamelCase word) right before
    "objects" or "resources" names the kind; what the sentence says of them, it says of the kind."""
    return (
        governor.lemma.casefold() in INSTANCE_NOUNS
        and word.i == governor.i - 1
        and (word.code or _IDENTIFIER.fullmatch(word.text) is not None)
    )


# Classifiers that name a thing of its own kind, not a slot of another ("the `kubectl` tool", "the
# `Enum` module"; not "the `name` field", "the `--all` flag")
NAMING_CLASSIFIERS = frozenset(
    ["module", "protocol", "library", "package", "tool", "utility", "binary", "daemon", "behaviour", "behavior"]
)


def classified(parse: Parse, word: Word) -> bool:
    """ "The `kubectl` command-line tool supports …": a code name the author calls a thing of a
    kind (the tool, the module), and that thing is what the sentence is about."""
    governor = parse.words[word.head]
    return (
        word.code
        and word.dep in ("compound", "nmod", "amod")
        and governor.lemma.casefold() in NAMING_CLASSIFIERS
        and governor.dep in ("nsubj", "nsubjpass")
        and _determiner(parse, governor) == "the"
        # "The `kubectl` tool uses the `--validate` flag to set …": how it does one thing
        and parse.words[governor.head].lemma.casefold() != "use"
    )


def _named_classifier(parse: Parse, head: Word) -> bool:
    """ "the `Enum` module", "the `Inspect` protocol": a classifier noun that a code name names."""
    return head.lemma.casefold() in CLASSIFIERS and any(
        w.code and w.head == head.i and w.dep in ("compound", "nmod", "amod") for w in parse.words
    )


def _determiner(parse: Parse, word: Word) -> str:
    for child in parse.children(word.i):
        if child.dep in ("det", "poss") and child.i < word.i:
            return child.text.casefold()
    return ""


def _negated(parse: Parse, head: Word) -> bool:
    governor = parse.words[head.head]
    return any(
        w.dep == "neg" or w.lemma.casefold() in ("no", "never")
        for w in [*parse.children(governor.i), *parse.children(head.i)]
        if w.dep in ("neg", "det", "advmod")
    )


def _hedged(parse: Parse, verb: Word) -> bool:
    return any(w.dep == "aux" and w.lemma.casefold() in _HEDGE for w in parse.children(verb.i))


def noun_phrase(parse: Parse, head: Word) -> tuple[int, int]:
    """The visible-text span of the name whose head is ``head``: the head and the modifiers right
    before it that belong to the name (compounds, adjectives, proper nouns), never determiners,
    numbers, generic adjectives ("other", "main") or clauses. A code word names itself."""
    if head.code:
        return head.start, head.end
    coded = [w for w in parse.words if w.code and w.head == head.i and w.dep in ("compound", "nmod", "amod")]
    if coded and head.lemma.casefold() in CLASSIFIERS:
        return coded[-1].start, coded[-1].end  # "the `Enum` module" names `Enum`
    inside = {w.i for w in parse.subtree(head.i)}
    start = head.start
    index = head.i - 1
    while index >= 0 and index in inside:
        word = parse.words[index]
        hyphen = word.text == "-"
        if not hyphen and (
            word.dep in ("det", "poss", "nummod", "predet", "case", "punct", "cc", "conj", "prep")
            or word.pos not in ("NOUN", "PROPN", "ADJ", "X", "VERB")
            or word.lemma.casefold() in GENERIC_MODIFIERS
        ):
            break
        start = word.start
        index -= 1
    if parse.text[start] == "-":
        start += 1
    return start, head.end


CLASSIFIERS = frozenset(
    [
        "module",
        "function",
        "operator",
        "protocol",
        "macro",
        "struct",
        "attribute",
        "sigil",
        "type",
        "class",
        "method",
        "library",
        "package",
        "command",
        "tool",  # "the `kubectl` command-line tool", "the `Mix` build tool"
        "utility",
        "binary",
        "daemon",
        "option",
        "field",
        "flag",
        "keyword",
        "variable",
        "directive",
        "behaviour",
        "behavior",
    ]
)
GENERIC_MODIFIERS = frozenset(
    [
        "other",
        "another",
        "main",
        "many",
        "several",
        "various",
        "new",
        "same",
        "different",
        "particular",
        "certain",
        "following",
        "previous",
        "next",
        "first",
        "last",
        "basic",
        "simple",
        "whole",
        "entire",
        "own",
        "more",
        "most",
        "few",
        "such",
        "additional",
        "specific",
        "given",
        "existing",
        "actual",
        "real",
        "single",
        "multiple",
        "two",
        "three",
        "important",
        "common",
        "usual",
        "typical",
        "special",
        "general",
        "small",
        "large",
        "big",
        "good",
        "bad",
        "best",
        "better",
        "easy",
        "hard",
        "necessary",
        "possible",
        "example",
    ]
)
