"""The clause around a mention (R20): hedges and negation, conditions, steps, examples, comparisons,
consequences and instructions — frames under which what a sentence says of a term is no definition.
"""

from __future__ import annotations

import re

from wikigen.engines.offline import subjects
from wikigen.engines.offline.lexicon import (
    ADDITIVE_CONNECTIVES,
    CIRCUMSTANCE_MARKS,
    COMPARING_ADJECTIVES,
    CONNECTIVES,
    CONSEQUENCE_WORDS,
    EACH,
    FURTHER_MODIFIERS,
    FUTURE_MODALS,
    HABITUAL_WORDS,
    HEDGES,
    LIKENESS_ADJECTIVES,
    SCARCITY_ADVERBS,
    STEP_WORDS,
    alternation,
)
from wikigen.engines.offline.parse import Parse, Word, parse_sentences
from wikigen.engines.offline.text import visible

FORWARD = re.compile(
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
NEED = re.compile(r"^(?:if|when|whenever) you (?:need|want) to\b", re.IGNORECASE)
# A sentence that begins with a lower-case connective is the rest of one an example interrupted
FRAGMENT = re.compile(r"^(?:" + alternation(CONNECTIVES) + r")\b[\s,]")


def is_hortative(parse: Parse) -> bool:
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
PRESENTED = re.compile(r"\blook no further than\b", re.IGNORECASE)


def is_conditional(parse: Parse) -> bool:
    """ "If …", "Similarly, if …", "To learn more, …": circumstances and pointers, not definitions."""
    return _CONDITIONAL_START.match(parse.text) is not None


def is_present_perfect(parse: Parse, verb: Word) -> bool:
    """ "X has replaced Y", "X have become …": the present perfect tells a change, not a function."""
    return verb.tag == "VBN" and any(w.dep == "aux" and w.lemma == "have" for w in parse.children(verb.i))


def is_main_clause(parse: Parse, verb: Word) -> bool:
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
        and _has_one_break(parse.text[words[verb.i].end : root.start])
    )


def _has_one_break(between: str) -> bool:
    """One comma, or a colon alone, between two clauses."""
    return between.count(",") == 1 or (between.count(":") == 1 and not between.count(","))


def is_sequence_step(parse: Parse, verb: Word) -> bool:
    """ "The scheduler then notifies …", "First, plugins register …": ``verb`` is one step in a
    sequence the text tells."""
    return any(w.dep == "advmod" and w.lemma.casefold() in STEP_WORDS for w in parse.children(verb.i))


def is_in_relative_clause(parse: Parse, word: Word) -> bool:
    """``word`` sits in a relative clause ("an alpha feature that allows … to select a leader via
    _coordinated leader election_": the clause says what the feature is, by the term's name)."""
    seen = set()
    while word.head != word.i and word.i not in seen:
        seen.add(word.i)
        if word.dep == "relcl":
            return True
        word = parse.words[word.head]
    return False


def is_by_means(parse: Parse, verb: Word) -> bool:
    """ "… by including a _logging agent_ on each node": the means by which the reader does something."""
    return verb.tag == "VBG" and verb.i > 0 and parse.words[verb.i - 1].text.casefold() == "by"


def is_done_to_subject(parse: Parse, head: Word, verb: Word) -> bool:
    """ "Lists are stored in memory as …", "Pod priority is specified by setting …": what is done to
    the subject, not what it does ("Processes are isolated from each other, run concurrent … and
    communicate …" goes on with what they do)."""
    if head.dep != "nsubjpass":
        return False
    return not any(
        w.dep == "conj" and w.pos == "VERB" and not any(a.dep == "auxpass" for a in parse.children(w.i))
        for w in parse.children(verb.i)
    )


def is_of_each(parse: Parse, verb: Word) -> bool:
    """ "Every object has …", "Any container can enable …": what ``verb`` says holds of each one of
    its subject's kind (of what they have or do, not of what the object is)."""
    return any(
        w.dep in ("nsubj", "nsubjpass") and subjects.determiner(parse, w) in EACH
        for w in parse.children(verb.i)
    )


def has_hedged_contrast(parse: Parse, verb: Word) -> bool:
    """ "Structured parameters enable cluster autoscaling, but might not satisfy all use-cases": what
    the term does, weighed against what it may not do."""
    children = parse.children(verb.i)
    return any(w.dep == "cc" and w.lemma.casefold() == "but" for w in children) and any(
        w.dep == "conj" and w.pos in ("VERB", "AUX") and (is_hedged(parse, w) or is_negated(parse, w))
        for w in children
    )


def is_part_of(parse: Parse, verb: Word) -> bool:
    """ "X is part of Y": where X belongs, not what it is."""
    return verb.lemma == "be" and any(
        w.dep == "attr" and w.lemma.casefold() == "part" and not subjects.determiner(parse, w)
        for w in parse.children(verb.i)
    )


# "For example, …", "For example: in …", "For instance — …": whatever mark ends the opener
EXAMPLE_START = re.compile(r"^(?:for example|for instance|e\.g\.)\s*(?:,|:|—|--|-\s)", re.IGNORECASE)
# "For each named port, the record has the form …": what holds once per instance of another kind
_PER_INSTANCE_START = re.compile(r"^for (?:each|every) [^,]{1,80},", re.IGNORECASE)


def is_step_lead_in(text: str) -> bool:
    """ "Clone an existing repository:", "Crop a raster dataset using a vector layer:": a step that
    leads into an example opens on its verb, which the parser, seeing a capital, may read as a name;
    read again with that word in lower case it is a bare verb with no subject."""
    text = text.rstrip()
    if not text.endswith(":") or not text[:1].isupper():
        return False
    parse = parse_sentences([visible(text[0].lower() + text[1:])])[0]
    verb = parse.words[0]
    subject = any(w.dep in ("nsubj", "nsubjpass") for w in parse.children(verb.i))
    return verb.pos == "VERB" and verb.dep == "ROOT" and not subject


def is_such_as(parse: Parse, word: Word) -> bool:
    """ "such as", "like": what follows ``word`` is one example of what came before."""
    text = word.text.casefold()
    return text == "like" or (
        text == "as" and any(w.lemma.casefold() == "such" for w in parse.children(word.i))
    )


def is_example_frame(parse: Parse) -> bool:
    """ "For example, a bitstring generator can be used with …": what one example does; "For each
    named port, the record has …" what each instance of another kind has, one case at a time."""
    return EXAMPLE_START.match(parse.text) is not None or _PER_INSTANCE_START.match(parse.text) is not None


def is_on_condition(parse: Parse, verb: Word) -> bool:
    """ "A claim is only used for a volume if it was created for the Pod", "… as long as …":
    ``verb`` holds on a condition, a circumstance of its use, not what its subject is for."""
    children = parse.children(verb.i)
    return any(
        w.dep == "advcl"
        and any(m.dep == "mark" and m.lemma.casefold() in ("if", "unless") for m in parse.children(w.i))
        for w in children
    ) or any(  # "… holds the lock as long as the queue is full"
        w.dep == "advmod"
        and w.lemma.casefold() == "long"
        and any(c.dep == "advcl" for c in parse.children(w.i))
        for w in children
    )


FURTHER = re.compile(r"^(?:" + alternation(ADDITIVE_CONNECTIVES) + r")\b", re.IGNORECASE)


def is_addition(parse: Parse, verb: Word) -> bool:
    """ "X also provides …", "… also allow …", "Rich has many other features": a further thing it
    does or has, after what it is for."""
    children = parse.children(verb.i)
    return any(w.dep == "advmod" and w.lemma.casefold() == "also" for w in children) or any(
        w.dep == "dobj"
        and any(m.dep == "amod" and m.lemma.casefold() in FURTHER_MODIFIERS for m in parse.children(w.i))
        for w in children
    )


def is_consequence(parse: Parse, verb: Word) -> bool:
    """ "The value has no effect, so gizmos are still required …": what follows from something else
    the sentence says, not what the term is or does."""
    return any(
        w.dep in ("advmod", "cc", "mark") and w.text.casefold() in CONSEQUENCE_WORDS
        for w in parse.children(verb.i)
    ) or any(
        w.dep == "prep"  # "As a result, all namespace names must be …"
        and w.text.casefold() == "as"
        and any(
            p.dep == "pobj" and p.lemma.casefold() in ("result", "consequence") for p in parse.children(w.i)
        )
        for w in parse.children(verb.i)
    )


_FRONTED_COMPARISON = re.compile(
    r"^(?:\w+,\s+)?(?:similar(?:ly)? to|like|unlike|just like|as with|compared to|in contrast to|instead of|outside(?: of)?)\b",
    re.IGNORECASE,
)


def is_comparison(parse: Parse, verb: Word) -> bool:
    """ "Ownership is different from …", "`dbg` is similar to …", "`dbg` does it better", "… provides a similar API to …",
    "… provide a much more concise representation than …": how the term compares with another, not
    what it is."""
    if any(w.dep == "acomp" and w.lemma.casefold() in COMPARING_ADJECTIVES for w in parse.children(verb.i)):
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
        w.dep == "amod" and w.lemma.casefold() in LIKENESS_ADJECTIVES and parse.words[w.head].dep == "dobj"
        for w in parse.subtree(verb.i)
    ):
        return True
    return any(w.text.casefold() == "than" for w in parse.words) and any(
        w.tag in ("JJR", "RBR") for w in parse.subtree(verb.i)
    )


def is_imperative(parse: Parse) -> bool:
    """ "Consider adding …", "Use X when …": a root of the sentence is a bare verb with no subject
    (a list entry's label before it is parsed as a root of its own: "[Projection] (recommended): In
    v1.20 and later, use …")."""
    return any(
        root.dep == "ROOT"
        and root.tag in ("VB", "VBP")  # "To start, create a fork …": VBP, a misread bare verb
        and not any(w.dep in ("nsubj", "nsubjpass", "aux", "expl") for w in parse.children(root.i))
        for root in parse.words
    )


def subject_count(parse: Parse, verb: Word) -> int:
    return sum(1 for w in parse.children(verb.i) if w.dep in ("nsubj", "nsubjpass"))


def is_habitual(parse: Parse, verb: Word) -> bool:
    """ "DaemonSets typically provide node-local services …": what it does in most uses, not what it is
    for."""
    return verb.lemma not in ("refer", "mean") and any(  # "… typically refers to …" still names it
        w.dep == "advmod" and w.lemma.casefold() in HABITUAL_WORDS for w in parse.children(verb.i)
    )


def is_possibility(parse: Parse, verb: Word) -> bool:
    """ "… can provide useful automation": what something may do, not what it is for."""
    return any(w.dep == "aux" and w.lemma.casefold() == "can" for w in parse.children(verb.i))


def is_plural_passive(parse: Parse, verb: Word) -> bool:
    """ "Cgroups are used as a pod boundary …", "QoS classes are used by Kubernetes to decide …": a
    passive verb whose auxiliary agrees with a plural subject. What the members of a kind are used
    for is one use of them; "The `~s` sigil is used to …" tells what one tool is for."""
    return any(w.dep == "auxpass" and w.text.casefold() in ("are", "were") for w in parse.children(verb.i))


def is_future(parse: Parse, verb: Word) -> bool:
    """ "`rick-portal-gun`: will be the name of the CLI program", "The spawned process will execute
    …": what will be the case in the example or the step at hand, not what always holds."""
    return any(w.dep == "aux" and w.lemma.casefold() in FUTURE_MODALS for w in parse.children(verb.i))


def is_negated(parse: Parse, head: Word) -> bool:
    governor = parse.words[head.head]
    return any(
        w.dep == "neg" or w.lemma.casefold() in ("no", "never")
        for w in [*parse.children(governor.i), *parse.children(head.i)]
        if w.dep in ("neg", "det", "advmod")
    )


def is_hedged(parse: Parse, verb: Word) -> bool:
    return any(w.dep == "aux" and w.lemma.casefold() in HEDGES for w in parse.children(verb.i))


def is_none_of(parse: Parse, noun: Word) -> bool:
    """ "takes no arguments", "holds neither the lock nor the queue", "returns queues, not stacks",
    "either the lock or the queue": ``noun`` (or the noun it is coordinated with) is denied or only
    one of two, so nothing is stated of it; "no more than one lock" bounds a number."""
    words = parse.words
    seen = set()
    while noun.i not in seen:
        seen.add(noun.i)
        for w in parse.children(noun.i):
            if (w.dep == "neg" and w.i < noun.i) or (
                w.dep == "preconj" and w.lemma.casefold() in ("either", "neither")
            ):
                return True
            if w.dep == "det" and w.lemma.casefold() == "no":
                after = words[w.i + 1] if w.i + 1 < len(words) else None
                if after is None or after.tag not in ("JJR", "RBR"):
                    return True
        if noun.dep not in ("conj", "appos") or noun.head == noun.i:
            return False
        head = words[noun.head]
        if any(w.dep == "neg" and head.i < w.i < noun.i for w in parse.children(head.i)):
            return True  # "queues, not stacks": the "not" the parser hung on "queues" denies "stacks"
        noun = head
    return False




def is_scarce(parse: Parse, verb: Word) -> bool:
    """ "Handlers rarely take arguments": what seldom happens is not stated as a fact."""
    adverbs = [w for w in parse.children(verb.i) if w.dep in ("advmod", "neg")]
    return any(  # "hardly ever" hangs "hardly" on "ever"
        w.lemma.casefold() in SCARCITY_ADVERBS
        for w in [*adverbs, *(a for w in adverbs for a in parse.children(w.i) if a.dep == "advmod")]
    )


def is_circumstance(parse: Parse, verb: Word) -> bool:
    """ "Writers wait when a reader holds a write lock": ``verb`` is inside a clause under "when",
    "if", "unless", "until", "as long as" …, which says when the main clause holds and states
    nothing as a fact of its own."""
    words = parse.words
    seen = set()
    while verb.head != verb.i and verb.i not in seen:
        seen.add(verb.i)
        head = words[verb.head]
        infinitive = any(w.dep == "aux" and w.text.casefold() == "to" for w in parse.children(verb.i))
        if verb.dep == "advcl" and not infinitive:  # "… decide when to restart Y" is what is decided
            for w in parse.children(verb.i):
                lemma = w.lemma.casefold()
                if w.dep in ("mark", "advmod") and w.i < verb.i and lemma in CIRCUMSTANCE_MARKS:
                    return True
                if w.dep == "mark" and lemma == "while" and verb.i < head.i:
                    return True  # "While a reader holds the lock, …" says when
            if head.lemma.casefold() in ("long", "soon") and head.pos == "ADV":
                return True  # "as long as a reader holds …", "as soon as …"
        verb = head
    return False
