"""Comparisons and what a copula's complement says (R20): the adjectives of likeness and of
relation, and the attributes, verdicts and rankings that say nothing of what a thing is.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------------------------
# Comparisons.

# Adjectives of likeness: "`dbg` is similar to …", "… provides a very similar API to …".
LIKENESS_ADJECTIVES = frozenset(["similar", "equivalent", "identical", "analogous", "comparable"])
# "Ownership is different from …": how a term compares with another, not what it is. The likeness
# adjectives and those of unlikeness ("different attributes" are various ones, so only as a complement).
COMPARING_ADJECTIVES = LIKENESS_ADJECTIVES | {"different", "opposite"}
# Adjectives that state a relation between the subject and their prepositional object ("is similar
# to", "is compatible with"); "is available in", "is useful for" say where or how good.
RELATIONAL_ADJECTIVES = LIKENESS_ADJECTIVES | {"compatible", "interchangeable"}

# ---------------------------------------------------------------------------------------------
# What a copula's complement says (complements.is_defining_attr).

# Attributes that say nothing of what a thing is: "is the same", "is one of …", "which is the
# default" (a value), "is a useful alternative" (how it compares), "are the successors to sprockets"
# (what it is to another), "which is the focus of this page" (what the text is about).
NOT_DEFINING_ATTRIBUTES = frozenset(
    [
        "same", "only", "case", "reason", "problem", "result", "thing", "way", "one", "example", "lot",
        "bit", "default", "alternative", "successor", "predecessor", "counterpart", "replacement",
        "equivalent", "opposite", "focus",
    ]
)
# Nouns that judge a thing for a purpose rather than say what it is ("a good fit", "a useful
# alternative", "the best choice"; "a useful construct" still says what it is).
VERDICT_NOUNS = frozenset(["alternative", "fit", "choice", "idea", "practice"])
# "the preferred method": a ranking, not what it is.
RANKING_WORDS = frozenset(["prefer", "preferred", "recommend", "recommended", "favored", "favoured"])
# "is a central part of the farm" says how much it matters there, not what it is.
WEIGHTY_ADJECTIVES = frozenset(
    [
        "central", "important", "key", "integral", "essential", "vital", "crucial", "fundamental", "major",
        "core", "critical",
    ]
)
