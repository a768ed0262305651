"""What a sentence says its subject term does (R20): "*Modules* let us organize code …" and "A Job
runs Pods to completion" say what the term is for and define it; "`IO.inspect/2` also provides …",
"Each runtime allows …" or "The proxy then forwards …" tell one more thing, what each one does, or one
step, and describe it. :func:`~wikigen.engines.offline.readings.read` asks this of a term that is
the subject of a verb of :data:`~wikigen.engines.offline.lexicon.FUNCTION_VERBS` in a main clause.
"""

from __future__ import annotations

from wikigen.engines.offline import frames, subjects, uses
from wikigen.engines.offline.findings import Rank, Reading
from wikigen.engines.offline.lexicon import (
    DEMONSTRATIVES,
    EACH,
    ENABLING_VERBS,
    FUNCTION_VERBS,
    KEEPING_VERBS,
    OFFERING_VERBS,
)
from wikigen.engines.offline.parse import Parse, Word


def is_function_verb(parse: Parse, head: Word, governor: Word) -> bool:
    """``governor``, the verb ``head`` is the subject of, says what the term does."""
    return (
        governor.lemma in FUNCTION_VERBS
        and governor.tag != "VBN"  # "the Pods specified in the following manifest" is no "Pods specify"
        # "**Service**: Create a service …": a label before an instruction, read as its subject
        and not (
            governor.tag == "VB"
            and ":" in parse.text[head.end : governor.start]
            and not any(w.dep in ("aux", "auxpass") for w in parse.children(governor.i))
        )
        and not frames.is_hedged(parse, governor)
        and subjects.determiner(parse, head) not in DEMONSTRATIVES
    )


def function_reading(parse: Parse, head: Word, governor: Word, *, forward: bool) -> Reading:
    """The reading of ``head``, the subject of ``governor``, a verb that says what it does;
    ``forward``: the sentence points elsewhere."""
    # "the operator `/` returns …" is about one thing; "Modules let us …" about the kind; "Any
    # program … can provide" says what it may do, "Each pod in a DaemonSet performs" of some
    # "…, and `gather` starts again": what a second clause tells happens next, not what X does;
    # two subjects of one verb are a misparse ("An empty key with operator `Exists` matches …")
    # "Init containers always run to completion", "The layer runs in-process with …": where or
    # how it runs is a property; what it runs ("A Job runs Pods to completion") is its function
    incidental = (
        # "Comprehensions provide a more concise representation than …"
        frames.is_comparison(parse, governor)
        or frames.is_addition(parse, governor)  # "`IO.inspect/2` also provides …": one more thing it does
        or frames.FURTHER.match(parse.text) is not None  # "Furthermore, `Task` provides …": likewise
        or frames.is_example_frame(parse)
        or subjects.is_restricted(parse, head)
        or frames.is_possibility(parse, governor)
        # "DaemonSets typically provide …": what it is often used for
        or frames.is_habitual(parse, governor)
        # "Proxies have replaced redirect capabilities": what happened
        or frames.is_present_perfect(parse, governor)
        # "The proxy then forwards the request …": one step of a process
        or frames.is_sequence_step(parse, governor)
        or governor.dep == "conj"
        or frames.subject_count(parse, governor) > 1
        # "Each runtime allows only …": what each one does
        or subjects.determiner(parse, head) in EACH
        # "The spawned process will execute …": the one just spawned
        or subjects.is_participled(parse, head)
        or subjects.is_of_this(parse, head)  # "Direct access to this API allows …"
        # "X enable autoscaling, but might not satisfy …": weighed
        or frames.has_hedged_contrast(parse, governor)
        # "Tuples store elements contiguously in memory": what data it keeps, a property
        or governor.lemma in KEEPING_VERBS
        # "Starlette provides a `set_cookie` method to …": a member it offers, which the sentence is about
        or (
            governor.lemma in OFFERING_VERBS
            and any(
                w.dep == "dobj" and subjects.names_code(parse, w) for w in parse.children(governor.i)
            )
        )
        # "Indexes start from zero": where it starts; "A supervisor starts its children": what it does
        or (
            governor.lemma in ("run", "start")
            and not any(w.dep == "dobj" for w in parse.children(governor.i))
        )
    )
    if uses.sets_an_option(parse, head):
        return Reading("use", Rank.DESCRIBES, forward=forward)
    if _allows_for(parse, governor):
        # "Labels allow for efficient queries …", "Direct access to the API allows for disclosure of
        # …": what it makes possible, a benefit or a risk, not what it is or does
        return Reading("mention", Rank.MENTIONS, forward=forward)
    if any(w.dep == "dobj" and w.lemma.casefold() == head.lemma.casefold() for w in parse.children(governor.i)):
        # "`mode`: controls the "mode" to open the file with": explains the term by itself
        return Reading("mention", Rank.MENTIONS, forward=forward)
    weak = incidental or subjects.is_definite(parse, head)
    return Reading(
        "function",
        Rank.DESCRIBES if weak else Rank.DEFINES,
        anaphoric=uses.points_back(parse, governor),
        forward=forward,
        of_the_one=weak and not incidental,
    )


def _allows_for(parse: Parse, verb: Word) -> bool:
    """ "X allows for Y": an enabling verb with no object or clause of its own, only a "for" phrase."""
    children = parse.children(verb.i)
    return (
        verb.lemma.casefold() in ENABLING_VERBS
        and any(w.dep == "prep" and w.text.casefold() == "for" for w in children)
        and not any(w.dep in ("dobj", "xcomp", "ccomp") for w in children)
    )
