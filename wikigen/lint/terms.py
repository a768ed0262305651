"""Names compared as a reader compares them: a term's key ignores case, a leading determiner, the
number of its last word and a type parameter (``List<T>``), so "the Pods" and "pod" share a key;
and which sources mention which keys."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from wikigen.lint.words import CONNECTORS, DETERMINERS, FUNCTION_WORDS, GENERIC_PHRASES, GENERIC_TERMS
from wikigen.model.ids import normalize_name
from wikigen.model.inflection import singular_forms

_TYPE_PARAMETERS = re.compile(r"<[^<>]*>")
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
MAX_TERM_WORDS = 4  # a marked phrase longer than this is a clause, not a term
MAX_KEY_WORDS = 6  # the longest name looked for in the sources' text


def words_of(text: str) -> list[str]:
    """The words of ``text``, normalized (NFKC, casefold), a type parameter dropped."""
    return _WORD.findall(normalize_name(_TYPE_PARAMETERS.sub(" ", text)))


@lru_cache(maxsize=65_536)
def _singular(word: str) -> str:
    forms = singular_forms(word)
    return forms[0] if forms else word


def key_of_words(words: list[str]) -> str:
    if len(words) > 1 and words[0] in DETERMINERS:
        words = words[1:]
    if not words:
        return ""
    return " ".join([*words[:-1], _singular(words[-1])])


def _stem(word: str) -> str:
    """A word without the ending of a verb form ("matching", "scheduled" → "match", "schedul")."""
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def stem_key(key: str) -> str:
    """A term key with each word stemmed: "pattern match" and "pattern matching" share it."""
    return " ".join(_stem(word) for word in key.split())


def term_key(text: str) -> str:
    """The key two names share when a reader takes them for one: "The Pods" → "pod"."""
    return key_of_words(words_of(text))


def is_term(text: str) -> bool:
    """Whether a marked phrase (emphasis, a heading, a code name) reads as a term: one to four words,
    no sentence word at either end nor a pronoun or verb inside, not document furniture."""
    words = words_of(text)
    if not 1 <= len(words) <= MAX_TERM_WORDS or len(text) > 60:
        return False
    if words[0] in FUNCTION_WORDS or words[-1] in FUNCTION_WORDS:
        return False
    if any(w in FUNCTION_WORDS and w not in CONNECTORS for w in words):
        return False
    if " ".join(words) in GENERIC_PHRASES or all(w in GENERIC_TERMS for w in words):
        return False
    if len(words) > 1 and words[0].endswith("ing"):  # "Creating pods", "Using Typer": a task, not a term
        return False
    return any(ch.isalpha() for ch in text) and not any(ch.isdigit() for ch in words[0][:1])


def mentions(texts: Iterable[tuple[str, str]], keys: Iterable[str]) -> dict[str, set[str]]:
    """key → the ids of the sources whose text mentions it (in either number), for (id, text) pairs."""
    wanted = {k for k in keys if k}
    longest = min(MAX_KEY_WORDS, max((k.count(" ") + 1 for k in wanted), default=0))
    found: dict[str, set[str]] = {}
    for source_id, text in texts:
        words = words_of(text)
        seen: set[str] = set()
        for start in range(len(words)):
            for size in range(1, longest + 1):
                gram = words[start : start + size]
                if len(gram) < size:
                    break
                key = " ".join([*gram[:-1], _singular(gram[-1])])
                if key in wanted:
                    seen.add(key)
        for key in seen:
            found.setdefault(key, set()).add(source_id)
    return found


def concept_keys(concepts: Mapping[str, Mapping[str, Any]]) -> dict[str, set[str]]:
    """key → the ids of the concepts named by it (name or alias)."""
    keys: dict[str, set[str]] = {}
    for oid, concept in concepts.items():
        for name in names_of(concept):
            key = term_key(name)
            if key:
                keys.setdefault(key, set()).add(oid)
    return keys


def names_of(concept: Mapping[str, Any]) -> list[str]:
    aliases = concept.get("aliases") or []
    return [str(concept.get("name") or ""), *(str(a) for a in aliases if isinstance(aliases, list))]
