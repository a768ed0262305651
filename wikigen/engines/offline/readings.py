"""What a sentence says about a term it names, read from the sentence's parse (R20).

A *reading* places one mention of a term in its sentence: the subject of a copula ("A **trait** is a
…"), of a verb that says what the term does ("*Modules* let us organize code …"), the name a sentence
gives ("… is called the *prelude*", "… known as IEx"), an apposition ("ETS, a cache …"), any other
subject, or a mere mention. Its :class:`Rank` orders definitions by form: it defines, describes,
mentions, or only modifies another noun.
Negated and question sentences define nothing; a forward reference ("… which Chapter 18 covers")
ranks below a sentence that does not point elsewhere.

This module decides the reading; the tests it asks of the parse live beside it, one module per part
of the sentence: :mod:`~wikigen.engines.offline.subjects` (the term's noun phrase), :mod:`~wikigen.engines.offline.namings`
(the name a sentence gives it), :mod:`~wikigen.engines.offline.uses`
(what the verb does with it), :mod:`~wikigen.engines.offline.complements` (what a copula's complement says)
and :mod:`~wikigen.engines.offline.frames` (the clause around it: hedges, conditions, steps, examples).
What a copula says of its subject term is read by :mod:`~wikigen.engines.offline.copulas`, what a
verb says its subject term does by :mod:`~wikigen.engines.offline.functions`; the
values, :class:`Reading` and :class:`Rank`, live in :mod:`~wikigen.engines.offline.findings`.
"""

from __future__ import annotations

from dataclasses import replace

from wikigen.engines.offline import complements, copulas, frames, functions, namings, subjects, uses
from wikigen.engines.offline.copulas import copula_reading
from wikigen.engines.offline.discourse import continues
from wikigen.engines.offline.findings import Rank, Reading
from wikigen.engines.offline.functions import function_reading
from wikigen.engines.offline.lexicon import (
    CALLING_VERBS,
    DEFAULTS,
    DEMONSTRATIVES,
    EACH,
    GIVING_VERBS,
    NEEDING_VERBS,
    OFFERING_VERBS,
    ONE_MORE,
    READER_PRONOUNS,
    TOPIC_VERBS,
)
from wikigen.engines.offline.parse import Parse, Word
from wikigen.engines.offline.relatives import which_clause


def read(parse: Parse, head: Word, *, marked: bool = False) -> Reading:
    """The reading of the mention whose syntactic head is ``head``. An emphasized modifier ("the
    _test_ namespace") stresses an example; only an emphasized name introduces a term."""
    marked = marked and head.dep not in ("compound", "amod", "nmod", "poss", "npadvmod")
    governor = parse.words[head.head]
    if head.dep in ("compound", "nmod", "amod") and (
        (head.code and subjects.is_named_classifier(parse, governor))
        or subjects.is_kind_of_instances(head, governor)
    ):
        # "the `Enum` module provides …" says it of `Enum`; "StorageClass objects define …" of StorageClass
        head = governor
    elif not head.code and (
        subjects.is_named_classifier(parse, head) or subjects.is_named_instance(parse, head)
    ):
        # "The `use` macro is used as …" says it of `use`, not of macros; "A `data` Service is in
        # the `prod` namespace" of one Service
        return Reading("mention", Rank.MENTIONS)
    if subjects.is_same(parse, head) or subjects.is_pointed(parse, head):
        return Reading("mention", Rank.MENTIONS)  # "… the same repository: …", "This instance is …"
    if uses.names_one_of_its_kind(parse, head):
        return Reading("mention", Rank.MENTIONS)  # "… a "virtual file" called "standard output""
    if head.dep in ("nsubj", "nsubjpass") and (
        subjects.is_some_of(parse, head) or frames.is_consequence(parse, parse.words[head.head])
    ):
        # "Some interfaces match …": what some of them do; "As a result, all namespace names must
        # be …", "…, so taints are still required": what follows from something else
        return Reading("mention", Rank.MENTIONS)
    reading = _framed(parse, head, _read(parse, head, marked))
    if head.dep in ("nsubj", "nsubjpass") and frames.is_hedged(parse, parse.words[head.head]):
        # "Custom sigils may be either a single lowercase character, or …": what it may be
        return Reading("mention", Rank.MENTIONS, forward=reading.forward)
    if head.dep not in ("nsubj", "nsubjpass") and _is_reader_possibility(parse):
        # "You can also get the raw *CLI parameters*, just a list of …", "Instead, you can use
        # _workload resources_ that …": what the reader can do with it
        return Reading("mention", Rank.MENTIONS, forward=reading.forward)
    if _is_by_means(parse):
        # "By design, a CronJob contains …", "Pod priority is specified by setting …", "Kubernetes
        # runs your workload by placing containers into Pods": how, or by what default, not what it is
        return Reading("mention", Rank.MENTIONS, forward=reading.forward)
    if frames.is_imperative(parse) and reading.pattern != "appositive":
        # "Use the pin operator `^` when you want …", "Note that `require` is also lexically scoped":
        # what the reader is to do or to note, never what the term is ("Manage Cloud9 - a collection
        # of tools …" still glosses it)
        return Reading("mention", Rank.MENTIONS, forward=reading.forward)
    return reading


def _framed(parse: Parse, head: Word, reading: Reading) -> Reading:
    """``reading`` with what the clause around it says of its place in the text: an example's next
    step, a pointer onwards, a condition."""
    if head.dep in ("nsubj", "nsubjpass") and frames.is_future(parse, parse.words[head.head]):
        # "`s` will be a copy …", "`rick-portal-gun`: will be the name of …": what the example at
        # hand will do, never what the term is
        return replace(reading, forward=True)
    if frames.is_hortative(parse) or frames.FRAGMENT.match(parse.text) or continues(parse.text, parse):
        # "…, let's talk about how Elixir identifies named functions": what the text does next; "as, in
        # case of an error, …", "are called "Python function parameters"": the rest of a sentence
        # an example interrupted. Neither defines.
        return replace(reading, forward=True)
    if (
        frames.is_conditional(parse)
        and not (reading.pattern == "copula" and frames.NEED.match(parse.text))
        and frames.PRESENTED.search(parse.text) is None
    ):
        # "If the file is opened …" says what happens, "Read … to learn" points elsewhere: neither
        # says what the term is, and neither is ever its definition
        return replace(reading, forward=True)
    return reading


def _read(parse: Parse, head: Word, marked: bool) -> Reading:
    forward = (
        frames.FORWARD.search(parse.text) is not None
        or frames.WHAT_FOLLOWS.search(parse.text.strip()) is not None
    )
    if parse.text.rstrip().endswith("?") or frames.is_negated(parse, head):
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if uses.is_covered_by_text(parse, head):
        return Reading("mention", Rank.MENTIONS, forward=True)  # "This page describes _X_": what it covers
    words = parse.words
    governor = words[head.head]
    main = frames.is_main_clause(parse, governor)
    copula = copulas.subject_copula(parse, head)
    if copula is not None:
        return copula_reading(parse, head, copula, marked=marked, forward=forward)
    if head.dep == "nsubj" and main and uses.has_parts_listed(parse, governor):
        # "X consists of two parts: …": its structure
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if head.dep == "nsubj" and main and functions.is_function_verb(parse, head, governor):
        return function_reading(parse, head, governor, forward=forward)
    if uses.has_stated_purpose(parse, head):
        # "A ReplicaSet's purpose is to maintain …": what it is for; "the gate's role" of one gate
        restricted = subjects.is_restricted(parse, head)
        weak = restricted or subjects.is_definite(parse, head)
        return Reading(
            "purpose",
            Rank.DESCRIBES if weak else Rank.DEFINES,
            forward=forward,
            of_the_one=weak and not restricted,
        )
    if head.dep == "nsubjpass" and main and governor.lemma == "use" and not frames.is_hedged(parse, governor):
        # "X is used to …", "… is used as a shortcut for …", "… is used for …" say what it is for
        # ("For trace configuration, X is also used with Y": a fronted "for" frames the sentence)
        purpose = any(
            w.dep == "xcomp" or (w.dep == "prep" and w.text.casefold() in ("as", "for") and w.i > head.i)
            for w in parse.children(governor.i)
        )
        # "QoS classes are used by Kubernetes to decide …": what one user does with it
        used_by = any(w.dep == "agent" for w in parse.children(governor.i))
        # "The `use` macro is frequently used as …", "Keywords are mostly used to …": in which uses
        if not purpose or frames.is_possibility(parse, governor) or used_by or frames.is_habitual(parse, governor):
            # "Lists are used when …", "`catch` can also be used within …", "A `Path` object can be
            # used with `/`": when or with what it is used, like "You can use X", says nothing of
            # what it is or is for; nor does "X can be used to restrict …", one thing it can do, as
            # "You can use X to …" is
            return Reading("use", Rank.DESCRIBES, forward=forward)
        # "For example, X is used to …": one example's use
        weak = (
            subjects.is_restricted(parse, head)
            or frames.is_example_frame(parse)
            or frames.is_on_condition(parse, governor)  # "X is only used for Y if …": when, not what for
            # "This address is used as …", "The match operator is used to …", "The `Service` is used to
            # …" (an example's): one, or "each" certificate
            or subjects.determiner(parse, head) in DEMONSTRATIVES | EACH | ({"the"} if head.code else set())
            or subjects.is_definite(parse, head)
            # "Cgroups are used as a pod boundary …": one use of the members, not what the kind is
            or (frames.is_plural_passive(parse, governor) and not head.code)
        )
        # "X is used to …"
        return Reading("function", Rank.DESCRIBES if weak else Rank.DEFINES, forward=forward)
    if head.dep == "nsubjpass" and governor.lemma in CALLING_VERBS:
        return Reading("mention", Rank.MENTIONS, forward=forward)  # "X and Y are referred to as Z" names Z
    if head.dep == "dobj" and governor.dep == "ROOT" and main and uses.is_use_for_purpose(parse, governor):
        # "You use X to …" says what X is for; "You can use X to view …" one thing it can do (an
        # instruction, "Use X when …", defines nothing: see read)
        if subjects.determiner(parse, head) in DEMONSTRATIVES:
            return Reading("mention", Rank.MENTIONS, forward=forward)  # "Use these guidelines to …"
        # "Use a mutating admission webhook to set this field …": what it does for the thing just
        # named, not what it is for
        only = any(w.dep == "advmod" and w.lemma.casefold() == "only" for w in parse.children(governor.i))
        if frames.is_possibility(parse, governor) or uses.is_for_this(parse, governor) or only:
            # "You can use X to view …": what the reader can do with it, as "using a _X_" is; "Only
            # use X if …" when not to use it
            return Reading("use", Rank.DESCRIBES, forward=forward)
        return Reading("function", Rank.DEFINES, forward=forward)
    if (
        head.dep == "dobj"
        and main
        and governor.lemma in OFFERING_VERBS
        and uses.is_offered_as(parse, governor)
    ):
        # "Elixir provides macros as a mechanism for …"
        return Reading("copula", Rank.DEFINES, forward=forward)
    if (
        head.dep == "pobj"
        and governor.text.casefold() == "as"
        and uses.is_kind_of_offered_members(parse, head)
    ):
        # "Elixir supports `true` and `false` as booleans": which members are of the kind, not what
        # the kind is
        return Reading("mention", Rank.MENTIONS, forward=forward)
    grouping = (
        uses.grouped_into(parse, head) if head.dep == "pobj" and governor.text.casefold() == "into" else None
    )
    if grouping is not None:
        # "In Elixir we group several functions into modules"; "You can organize … into namespaces" one use
        rank = Rank.DESCRIBES if frames.is_possibility(parse, grouping) else Rank.DEFINES
        return Reading("function", rank, forward=forward)
    if head.dep == "attr" and governor.lemma == "be" and marked:
        example = any(w.dep == "nsubj" and w.code and " " in w.text for w in parse.children(governor.i))
        status = complements.is_maturity(parse, head)
        # "The `|>` symbol … is the **pipe operator**: it takes …" names a symbol; "The actual room
        # temperature is the *current state*" names one case of the term
        named = any(w.dep == "nsubj" and _has_code(parse, w) for w in parse.children(governor.i))
        if (
            subjects.determiner(parse, head) == "the"
            and not frames.is_hedged(parse, governor)
            and not (example or status)
            and named
        ):
            return Reading("copula", Rank.DEFINES, forward=forward)  # "… is the **pipe operator**"
        # "Jobs should be _idempotent_": stress; "This is already a simple *CLI program*": what one
        # thing is an instance of, which says nothing of what the term is
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if (
        head.dep == "pobj"
        and governor.text.casefold() == "of"
        and words[governor.head].lemma.casefold() in ("concept", "notion")
        and not frames.is_hedged(parse, words[words[governor.head].head])
    ):
        if words[words[governor.head].head].lemma.casefold() in TOPIC_VERBS:
            # "This document describes the concept of X"
            return Reading("mention", Rank.MENTIONS, forward=True)
        # "Elixir provides the concept of `nil`, to indicate …" says what it is for; "… also provides
        # a notion of graphemes." only introduces them, for the sentence after it to say (definitions)
        return Reading("called", Rank.DEFINES, forward=forward, introduced=namings.introduces_only(parse, head))
    if namings.is_former_name(parse, head):
        return Reading("mention", Rank.MENTIONS, forward=True)
    called = namings.called(parse, head)
    if called is not None and (
        uses.is_named_in_passing(parse, head)
        or namings.is_named_on_the_way(parse, head)
        or namings.names_several(parse, head)
    ):
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if called is not None:
        # "the `=` operator is called the match operator": the name of a symbol, not what it does
        rank = Rank.DESCRIBES if namings.is_symbol_named(parse, head) else Rank.DEFINES
        return Reading("called", rank, anaphoric=called, forward=forward)
    if (
        not subjects.is_counted(parse, head)
        and subjects.determiner(parse, head) not in DEMONSTRATIVES
        and head.dep != "appos"
        and any(
            w.dep == "appos"
            and w.pos in ("NOUN", "PROPN")
            and subjects.determiner(parse, w) in ("a", "an")
            and "(" not in parse.text[head.end : w.start]
            and (
                subjects.is_entry_term(parse, head) or not subjects.is_comma_list(parse, w)
            )  # "Concept\n: A named …"
            for w in parse.children(head.i)
        )
    ):  # "ETS, a cache …"; not "the first element (the key)", nor one item of a list ("records an
        # id, the version, a span, …") or a list after a colon ("… the same repository: a person
        # running …, and a second person …")
        return Reading("appositive", Rank.DEFINES, forward=forward)
    if subjects.has_parenthesized_gloss(parse, head):
        rank = Rank.DESCRIBES if frames.is_example_frame(parse) else Rank.DEFINES  # "For example, `X`s (…) are"
        return Reading("appositive", rank, forward=forward)  # "`MapSet`s (sets based on maps) are …"
    if subjects.has_colon_gloss(parse, head):
        return Reading("appositive", Rank.DEFINES, forward=forward)
    which = which_clause(parse, head)
    if which is not None:
        return Reading(which, Rank.DEFINES, forward=forward)
    # a "noun" as the object of a passive verb is a misread manner ("are specified _inline_")
    # (not where the verb names: "are considered _truthy_", "is called _x_")
    manner = (
        head.dep in ("dobj", "oprd")
        and governor.lemma not in CALLING_VERBS | {"consider"}
        and any(w.dep == "auxpass" for w in parse.children(governor.i))
    )
    used = marked and uses.is_put_to_use(parse, head)  # what the reader does with it
    if marked and subjects.is_word_example(parse, head):
        # "words such as “failure”": the word itself
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if (
        marked
        and head.pos in ("NOUN", "PROPN")
        and not manner
        and not frames.is_imperative(parse)
        and not complements.defines_another(parse, head)
        and not used
        and not subjects.is_some_of(parse, head)  # "… can be made of multiple _requirements_"
        # "… another "virtual file"": one more of what the text before introduced (read takes "these …")
        and subjects.determiner(parse, head) not in ONE_MORE
        and not frames.is_of_each(
            parse, governor
        )  # "Every object also has a _UID_ …", "Any container can enable _X_ if …"
        and not subjects.is_aside(parse, head, governor)
        and not uses.is_passed_through(parse, head)
        # "Using `stderr=True` tells **Rich** that the output …": the one told, not what is said of it
        and not (head.dep == "dobj" and governor.lemma in GIVING_VERBS and _says_what(parse, governor))
    ):
        # technical prose emphasizes a term where it introduces it; an emphasized adverb ("specified
        # _inline_") stresses a manner, advice ("Consider adding a _Custom Resource_ if …") tells the
        # reader what to do with a term, not what it is, and a sentence that defines another term
        # ("SELinux is a module that lets you restrict what a *subject* … may access") names this
        # one on the way; "We say these operators perform _X_" names what the sentence before
        # spoke of, and is quoted with it
        # "The _handling server_ then proxies …" is one step of what the text before describes
        rank = (
            Rank.DESCRIBES
            if head.dep in ("nsubj", "nsubjpass") and frames.is_sequence_step(parse, governor)
            else Rank.DEFINES
        )
        pointed = uses.has_pointed_subject(parse, governor) or uses.points_back(parse, governor)
        return Reading("emphasis", rank, forward=forward, anaphoric=pointed)
    if marked and used:
        # "… scale a workload using a _VerticalPodAutoscaler_", "… is to run an *extension API
        # server* in Pods": what the reader does with it, like "You can use X to …"
        return Reading("use", Rank.DESCRIBES, forward=forward)
    if marked:
        return Reading("mention", Rank.MENTIONS, forward=forward)
    participle = governor.tag == "VBN" and not any(
        w.dep in ("aux", "auxpass") for w in parse.children(governor.i)
    )
    if (
        head.dep in ("nsubj", "nsubjpass")
        and main
        and not participle
        and not subjects.is_narrowed(parse, head)
        and subjects.determiner(parse, head)
        not in DEMONSTRATIVES | EACH  # "This ownership is indicated by …"
        and not frames.is_comparison(parse, governor)
        and not frames.is_hedged(parse, governor)  # "Different parameters may be accepted …"
        and not frames.is_possibility(parse, governor)  # "The policy can either be …": what it may be
        and not frames.is_addition(parse, governor)  # "Function definitions also support …": one more feature
        # "Proxies have replaced redirect capabilities": a change
        and not frames.is_present_perfect(parse, governor)
        and not frames.is_sequence_step(parse, governor)  # "The kubelet then restarts …": one step
        and not frames.is_example_frame(parse)
        # "The group a function … belongs to": a misparse (two subjects, or a subject's subject)
        and frames.subject_count(parse, governor) == 1
        and frames.subject_count(parse, head) == 0
        and not frames.is_done_to_subject(parse, head, governor)
        # "Cluster-level logging architectures require a separate backend …", "Markdown uses
        # backticks to quote code": what it needs or uses
        and governor.lemma.casefold() not in NEEDING_VERBS
        # "the owner object you're deleting …" read as "the owner objects": a singular noun with a
        # plural verb is a misparse of a noun phrase
        and not (head.tag == "NN" and not head.code and governor.tag == "VBP")
    ):
        return Reading("subject", Rank.DESCRIBES, forward=forward)
    if head.dep in ("compound", "amod", "nmod", "poss") and not head.code:
        return Reading("modifier", Rank.MODIFIES, forward=forward)  # "observability features"
    return Reading("mention", Rank.MENTIONS, forward=forward)


def _says_what(parse: Parse, verb: Word) -> bool:
    """ "tells X that …", "shows X how …": a clause of what is told."""
    return any(w.dep == "ccomp" for w in parse.children(verb.i))


def _is_reader_possibility(parse: Parse) -> bool:
    """ "You can …", "we can …" as a main clause: what the reader can do."""
    return any(
        root.dep == "ROOT"
        and frames.is_possibility(parse, root)
        and any(w.dep == "nsubj" and w.lemma.casefold() in READER_PRONOUNS for w in parse.children(root.i))
        for root in parse.words
    )


def _is_by_means(parse: Parse) -> bool:
    """ "By design, …", "… by setting …": a "by" phrase on a main clause that gives the means (a
    gerund) or the default, not a place ("sits by the window")."""
    return any(
        root.dep == "ROOT"
        and any(
            w.dep == "prep"
            and w.lemma.casefold() == "by"
            and any(
                c.dep == "pcomp" or (c.dep == "pobj" and c.lemma.casefold() in DEFAULTS)
                for c in parse.children(w.i)
            )
            for w in parse.children(root.i)
        )
        for root in parse.words
    )


def _has_code(parse: Parse, word: Word) -> bool:
    return any(w.code for w in parse.subtree(word.i))
