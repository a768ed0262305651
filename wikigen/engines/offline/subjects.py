"""What a term's noun phrase is, read from the parse (R20): its determiner, what narrows it to some
members or one instance, and the classifier that names its kind; the name a sentence gives it is
read by :mod:`wikigen.engines.offline.namings`. Used by :mod:`wikigen.engines.offline.readings`.
"""

from __future__ import annotations

import re

from wikigen.engines.offline.lexicon import (
    CLASSIFIERS,
    GENERIC_MODIFIERS,
    INSTANCE_NOUNS,
    NAMING_CLASSIFIERS,
    POINTING,
    SOME,
    WORD_NOUNS,
)
from wikigen.engines.offline.parse import Parse, Word


def has_number_agreement(parse: Parse, head: Word, clause: Word) -> bool:
    """Whether a relative clause's verb can have ``head`` as its subject by number: "the shed, which
    are used for …" belongs to another noun (a name written as code keeps any number)."""
    if head.code or head.tag not in ("NN", "NNS", "NNP", "NNPS"):
        return True
    finite = [w for w in [clause, *parse.children(clause.i)] if w.tag in ("VBZ", "VBP") and w.i <= clause.i]
    if not finite:
        return True
    # the tagger calls a name singular whatever its ending ("`Agent`s" is NNP)
    plural = head.tag in ("NNS", "NNPS") or (
        head.tag == "NNP" and re.search(r"[^s]s$", head.text) is not None
    )
    return all((w.tag == "VBP") == plural for w in finite)


def has_parenthesized_gloss(parse: Parse, head: Word) -> bool:
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
        and (determiner(parse, gloss) in ("a", "an") or (not determiner(parse, gloss) and gloss.tag == "NNS"))
        and any(w.dep in ("acl", "relcl", "prep") for w in parse.children(gloss.i))
        and ")" in (w.text for w in words[gloss.i :])
    )


def has_colon_gloss(parse: Parse, head: Word) -> bool:
    """ "an overview of init containers: specialized containers that run before …": a colon right
    after the term opens a description of it (a common noun with a clause), not a list of names."""
    words = parse.words
    if head.i + 2 >= len(words) or words[head.i + 1].text != ":":
        return False
    if is_counted(parse, head):
        return False
    after = words[head.i + 2 :]
    gloss = next((w for w in after if w.pos in ("NOUN", "PROPN", "VERB", "AUX")), None)
    return (
        gloss is not None
        and gloss.dep in ("appos", "dobj", "attr", "npadvmod", "ROOT")
        and gloss.pos == "NOUN"
        and all(w.pos in ("DET", "ADJ", "ADV", "NOUN") for w in words[head.i + 2 : gloss.i])
        and determiner(parse, gloss) in ("", "a", "an")
        and any(w.dep in ("relcl", "acl") for w in parse.children(gloss.i))
    )


def is_entry_term(parse: Parse, head: Word) -> bool:
    """``head`` is the term of a definition list's entry ("Concept" / ": A named entity …")."""
    return head.i == 0 and len(parse.words) > 1 and parse.words[1].text == ":"


def is_comma_list(parse: Parse, word: Word) -> bool:
    """``word`` opens a list of several items set off by commas ("a person …, CI …, and a second
    person …"; not "a named entity or idea", one gloss with two words for it), or names examples
    in brackets."""
    items = [c for c in parse.children(word.i) if c.dep in ("conj", "appos")]
    # (or a bracket of examples: "Lookup a field (CNAME, TXT, ...) of a domain:")
    return any("," in parse.text[word.end : c.start] or "(" in parse.text[word.end : c.start] for c in items)


def is_word_example(parse: Parse, head: Word) -> bool:
    """ "… contains words such as “failure” or “preference”": the quoted words are examples of
    words, the word itself and not the thing it names (use and mention)."""
    node = head
    while node.dep == "conj" and node.head != node.i:
        node = parse.words[node.head]
    governor = parse.words[node.head]
    return (
        node.dep == "pobj"
        and governor.text.casefold() in ("as", "like")
        and parse.words[governor.head].lemma.casefold() in WORD_NOUNS
    )


def is_same(parse: Parse, head: Word) -> bool:
    """ "the same repository", "the same rules": the one already spoken of, never introduced."""
    return any(w.dep == "amod" and w.lemma.casefold() == "same" for w in parse.children(head.i))


def is_counted(parse: Parse, head: Word) -> bool:
    """ "Label keys have two segments: an optional prefix and name": a number of parts, then the parts."""
    return any(w.dep == "nummod" for w in parse.children(head.i))


def is_definite(parse: Parse, head: Word) -> bool:
    """ "The form is …" speaks of one thing; "The arity of a function is …" of a kind; "The `Enum`
    module provides …" of the thing its name names."""
    return (
        determiner(parse, head) == "the"
        and head.pos == "NOUN"
        and not head.code
        and not is_named_classifier(parse, head)
        and not any(w.dep == "prep" and w.text.casefold() == "of" for w in parse.children(head.i))
    )


def is_restricted(parse: Parse, head: Word) -> bool:
    """ "Each pod in a DaemonSet …", "64 characters is …", "Some organizations run …": a subject
    narrowed to some of its kind by where they are or how many."""
    if is_some_of(parse, head) or any(
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
        and any(o.dep == "pobj" and determiner(parse, o) for o in parse.children(w.i))
        for w in parse.children(head.i)
    )


def is_aside(parse: Parse, head: Word, governor: Word) -> bool:
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


def is_some_of(parse: Parse, head: Word) -> bool:
    """ "Some interfaces …", "Many functions …", "Multiple generators …": some of a kind."""
    return determiner(parse, head) in SOME or any(
        w.dep == "amod" and w.i < head.i and w.lemma.casefold() in SOME for w in parse.children(head.i)
    )


def is_of_this(parse: Parse, head: Word) -> bool:
    """ "Direct access to this API allows …": the term of the one just named, not the term."""
    return any(
        clause.dep == "prep"
        and clause.i > head.i
        and any(w.dep == "pobj" and determiner(parse, w) in POINTING for w in parse.children(clause.i))
        for clause in parse.children(head.i)
    )


def is_hyphened(parse: Parse, word: Word) -> bool:
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


def is_participled(parse: Parse, head: Word) -> bool:
    """ "The spawned process", "the created Pod": a participle before the noun picks the one an
    example made, not the kind."""
    return any(w.dep == "amod" and w.tag == "VBN" and w.i < head.i for w in parse.children(head.i))


def is_narrowed(parse: Parse, head: Word) -> bool:
    """ "Pods that are removed in this way will be replaced": a subject narrowed by a restrictive
    clause (or by place and number, :func:`is_restricted`) says something of some of its kind only."""
    if is_restricted(parse, head):
        return True
    if is_of_this(parse, head):
        return True
    for clause in parse.children(head.i):
        if clause.dep == "acl" and clause.tag in ("VBG", "VBN") and clause.i > head.i:
            return True  # "Functions starting with underscore are …", "Pods created by a Job …"
        if clause.dep == "relcl":
            pronoun = next((w for w in parse.children(clause.i) if w.dep in ("nsubj", "nsubjpass")), None)
            if pronoun is not None and pronoun.lemma.casefold() == "that":
                return True
    return False


def is_named_instance(parse: Parse, head: Word) -> bool:
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


_IDENTIFIER = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+")


def is_kind_of_instances(word: Word, governor: Word) -> bool:
    """ "StorageClass objects define …": an identifier (code, or a CamelCase word) right before
    "objects" or "resources" names the kind; what the sentence says of them, it says of the kind."""
    return (
        governor.lemma.casefold() in INSTANCE_NOUNS
        and word.i == governor.i - 1
        and (word.code or _IDENTIFIER.fullmatch(word.text) is not None)
    )


def is_classified(parse: Parse, word: Word) -> bool:
    """ "The `kubectl` command-line tool supports …": a code name the author calls a thing of a
    kind (the tool, the module), and that thing is what the sentence is about."""
    governor = parse.words[word.head]
    return (
        word.code
        and word.dep in ("compound", "nmod", "amod")
        and governor.lemma.casefold() in NAMING_CLASSIFIERS
        and governor.dep in ("nsubj", "nsubjpass")
        and determiner(parse, governor) == "the"
        # "The `kubectl` tool uses the `--validate` flag to set …": how it does one thing
        and parse.words[governor.head].lemma.casefold() != "use"
    )


def is_code_of_classifier(parse: Parse, word: Word) -> bool:
    """ "the `Stream` module", "the `String.Chars` protocol": a code name on its classifier noun."""
    return (
        word.code
        and word.dep in ("compound", "nmod")
        and parse.words[word.head].lemma.casefold() in CLASSIFIERS
    )


def is_named_classifier(parse: Parse, head: Word) -> bool:
    """ "the `Enum` module", "the `Inspect` protocol": a classifier noun that a code name names."""
    return head.lemma.casefold() in CLASSIFIERS and any(
        w.code and w.head == head.i and w.dep in ("compound", "nmod", "amod") for w in parse.words
    )


def names_code(parse: Parse, word: Word) -> bool:
    """ "`Request`", "the `Request` class": a word written as code, or a classifier a code name names."""
    return word.code or is_named_classifier(parse, word)


def is_pointed(parse: Parse, head: Word) -> bool:
    """ "This instance is …", "This job failing means …": a pointing word before the name (on its
    head, or on a compound the parser hung it on) says the text before named the one meant."""
    before = [head, *(w for w in parse.children(head.i) if w.dep == "compound" and w.i < head.i)]
    return any(determiner(parse, w) in POINTING for w in before)


def determiner(parse: Parse, word: Word) -> str:
    for child in parse.children(word.i):
        if child.dep in ("det", "poss") and child.i < word.i:
            return child.text.casefold()
    return ""


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
