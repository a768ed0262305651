"""How the lexicon writes its lists: a ``|``-separated list of names (:func:`word_set`), a
space-separated list of words (:func:`plain_words`), and a regex alternation built from a list
(:func:`alternation`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from wikigen.model.ids import normalize_name

__all__ = ["alternation", "plain_words", "word_set"]


def word_set(text: str) -> frozenset[str]:
    """The normalized words of a ``|``-separated list."""
    return frozenset(normalize_name(word) for word in text.split("|"))


def plain_words(text: str) -> frozenset[str]:
    """The words of a space-separated list, as written."""
    return frozenset(text.split())


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, each escaped, longest first (then alphabetical): no word
    shadows a longer one that starts with it ("controller" and "controller manager")."""
    return "|".join(re.escape(word) for word in sorted(words, key=lambda word: (-len(word), word)))
