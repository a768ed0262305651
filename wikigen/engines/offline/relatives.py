"""What a relative clause or a phrase on a term says it does (R20): "`Agent`s, which are simple
abstractions around state", "… is the `Chars` protocol, which specifies how to …", and the member a
sentence offers ("Starlette includes a `Request` class that gives you …", "… a `BackgroundTask`
class for in-process background tasks").
"""

from __future__ import annotations

from wikigen.engines.offline import complements, frames, subjects
from wikigen.engines.offline.lexicon import FUNCTION_VERBS, OFFERING_VERBS
from wikigen.engines.offline.parse import Parse, Word


def which_clause(parse: Parse, head: Word) -> str | None:
    """ "`Agent`s, which are simple abstractions around state": a relative clause that says what
    the term is ("copula") or what it is meant for ("function"), of a term in the main clause ("we
    see a message saying the parent process, which is the shell, …" reports one process)."""
    governor = parse.words[head.head]
    if (
        governor.i != head.i
        and governor.pos in ("VERB", "AUX")
        and not frames.is_main_clause(parse, governor)
    ):
        return None
    if governor.i != head.i and (frames.is_hedged(parse, governor) or frames.is_possibility(parse, governor)):
        return None  # "you can only have 1 DNS suffix, which is the suffix of …": a limit on some
    if any(w.dep == "nummod" for w in parse.children(head.i)):
        return None  # "two processes, which are …": those two
    offered = (
        head.dep == "dobj"
        and governor.lemma in OFFERING_VERBS
        and subjects.determiner(parse, head) in ("a", "an")
        and subjects.names_code(parse, head)
    )
    if offered and any(
        w.dep == "prep" and w.text.casefold() == "for" and any(c.dep in ("pobj", "pcomp") for c in parse.children(w.i))
        for w in parse.children(head.i)
    ):
        return "function"  # "Starlette includes a `BackgroundTask` class for in-process background tasks."
    for clause in parse.children(head.i):
        if (
            clause.dep != "relcl"
            or frames.is_hedged(parse, clause)
            or frames.is_possibility(parse, clause)
            or frames.is_negated(parse, clause)
        ):
            continue
        pronoun = next((w for w in parse.children(clause.i) if w.dep in ("nsubj", "nsubjpass")), None)
        if pronoun is None or pronoun.lemma.casefold() not in ("which", "that", "who"):
            continue
        if ", " not in parse.text[head.end : pronoun.start + 1] and pronoun.lemma.casefold() != "that":
            continue
        if offered and pronoun.dep == "nsubj" and clause.pos == "VERB":
            return "function"  # "Starlette includes a `Request` class that gives you a nicer interface …"
        if pronoun.lemma.casefold() == "that" and head.dep not in ("nsubj", "nsubjpass", "attr", "appos"):
            continue  # "records are created for named ports that are part of …" narrows the ports
        if not subjects.has_number_agreement(parse, head, clause):
            continue  # "Leases are kept in the tool shed, which are used for …" speaks of the leases
        if clause.lemma == "be" and any(
            w.dep == "attr" and complements.is_defining_attr(parse, w) for w in parse.children(clause.i)
        ):
            return "copula"
        if clause.lemma in ("mean", "use", "design", "intend") and pronoun.dep == "nsubjpass":
            return "function"
        if (
            clause.lemma in FUNCTION_VERBS - {"mean", "refer", "give"}
            and pronoun.dep == "nsubj"
            and pronoun.lemma.casefold() == "which"
            and head.dep in ("attr", "nsubj", "appos")
            and subjects.names_code(parse, head)
        ):
            return "function"  # "… is the `Chars` protocol, which specifies how to …"
    return None
