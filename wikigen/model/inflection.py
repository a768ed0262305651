"""The grammatical number of a word: its plural and singular forms, as a text may write a name.

Shared by the compiler's context (a concept is hit by its name in the other number) and the
engines (aliases, candidate terms): one rule for both, so that what the context sends and what an
engine links agree.
"""

from __future__ import annotations

from wikigen.model.ids import normalize_name


def _word_set(text: str) -> frozenset[str]:
    return frozenset(normalize_name(word) for word in text.split("|"))


PLURAL_KEEP = _word_set(
    "kubernetes|status|class|access|process|address|ingress|egress|dns|tls|https|metrics|series|species|"
    "analysis|basis|bus|alias|os|us|is|has|was|this|its|less|news|always|versus|plus|various|previous"
)


SINGULAR_IN_S = _word_set("status|class|access|process|address|ingress|egress|alias|bus")


def singular_forms(word: str) -> list[str]:
    """Candidate singulars of a plural word, most likely first (empty when it does not look plural)."""
    low = word.casefold()
    if (
        low in PLURAL_KEEP
        or low.endswith(("ss", "us", "is", "ous"))
        or not low.endswith("s")
        or len(low) < 4
    ):
        return []
    forms = []
    if low.endswith("ies"):
        forms.append(word[:-3] + "y")
    if low.endswith(("ches", "shes", "xes", "zes", "sses", "ases")):
        forms.append(word[:-2])  # aliases → alias
    forms.append(word[:-1])
    return forms


def plural_forms(word: str) -> list[str]:
    low = word.casefold()
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return [word + "es"]
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return [word[:-1] + "ies"]
    return [word + "s"]


def other_numbers(word: str) -> list[str]:
    """The word in the other grammatical number: its singulars if it looks plural, else its plural
    ("gizmos" → "gizmo", "policy" → "policies"); none for a word that is singular though it ends in
    s ("status", "process" keep their plural)."""
    low = word.casefold()
    if low in SINGULAR_IN_S:
        return plural_forms(word)
    if low in PLURAL_KEEP:
        return []
    return singular_forms(word) or plural_forms(word)
