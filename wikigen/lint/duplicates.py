"""Likely duplicates: two concepts whose names (or aliases) a reader takes for one — equal up to a
leading determiner, the number of the last word, a type parameter (``List`` / ``List<T>``) or letter
case — or
whose definitions, cited from different places, are near-identical."""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from wikigen.lint.cited import defining_source
from wikigen.lint.findings import Finding
from wikigen.lint.terms import names_of, term_key, words_of
from wikigen.lint.words import DETERMINERS
from wikigen.model.ids import normalize_name

SAME_DEFINITION = 0.9  # Jaccard similarity of two definitions' word sets at or above which they are one
MIN_DEFINITION_WORDS = 6  # shorter definitions ("A pod.") say too little to compare
RAREST_WORDS = 3  # definitions are compared when they share one of their rarest words
_TYPE_PARAMETERS = re.compile(r"\s*<[^<>]*>")


def duplicates(concepts: Mapping[str, Mapping[str, Any]], paths: Mapping[str, str]) -> list[Finding]:
    findings: dict[tuple[str, str], Finding] = {}
    by_key: dict[str, list[tuple[str, str, bool]]] = {}  # key → (concept id, name as written, is alias)
    for oid, concept in concepts.items():
        for index, name in enumerate(names_of(concept)):
            key = term_key(name)
            if key:
                by_key.setdefault(key, []).append((oid, name, index > 0))
    for _key, named in sorted(by_key.items()):
        for (a, name_a, alias_a), (b, name_b, alias_b) in combinations(sorted(named), 2):
            if a == b or (a, b) in findings:
                continue
            why = _why(name_a, name_b)
            names = f"{_shown(name_a, alias_a, concepts[a])} and {_shown(name_b, alias_b, concepts[b])}"
            findings[(a, b)] = _finding(concepts, paths, a, b, f"{names} differ only by {why}", "warning")
    for a, b in _similar_definitions(concepts):
        if (a, b) not in findings:
            text = (
                f"concepts {concepts[a].get('name')!r} and {concepts[b].get('name')!r} have near-identical "
                "definitions, cited from different places"
            )
            findings[(a, b)] = _finding(concepts, paths, a, b, text, "info")
    return list(findings.values())


def _shown(name: str, alias: bool, concept: Mapping[str, Any]) -> str:
    return f"alias {name!r} of concept {concept.get('name')!r}" if alias else f"concept {name!r}"


def _why(a: str, b: str) -> str:
    plain_a, plain_b = normalize_name(a), normalize_name(b)
    if plain_a == plain_b:
        return "letter case or spacing"  # "Service" and an alias "service" of another concept
    if _TYPE_PARAMETERS.sub("", plain_a) == _TYPE_PARAMETERS.sub("", plain_b):
        return "a type parameter"
    words_a, words_b = plain_a.split(), plain_b.split()
    if words_a[1:] == words_b or words_b[1:] == words_a or (words_a[1:] == words_b[1:] and words_a[0] in DETERMINERS):
        return "a determiner"
    return "number (singular and plural)"


def _finding(
    concepts: Mapping[str, Mapping[str, Any]], paths: Mapping[str, str], a: str, b: str, text: str, severity: str
) -> Finding:
    origin_a, origin_b = defining_source(concepts[a]), defining_source(concepts[b])
    file = paths.get(origin_b or "", origin_b or "")
    where = f" ({paths.get(origin_a or '', origin_a or '?')} and {file})" if origin_a != origin_b else ""
    name_a, name_b = concepts[a].get("name"), concepts[b].get("name")
    return Finding(
        kind="duplicate",
        severity=severity,
        subject=f"{a} {b}",
        finding=text,
        file=file,
        action=f"if they are one, write one name in the sources that define them{where}, or state "
        f"\"{name_a} (also called {name_b})\" once so that one becomes the other's alias; if they "
        "differ, say how in one of them",
    )


def _similar_definitions(concepts: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    words: dict[str, frozenset[str]] = {}
    cited: dict[str, frozenset[str]] = {}
    for oid, concept in concepts.items():
        definition = concept.get("definition") or {}
        if not isinstance(definition, Mapping):
            continue
        found = frozenset(words_of(str(definition.get("text") or "")))
        if len(found) >= MIN_DEFINITION_WORDS:
            words[oid] = found
            cited[oid] = frozenset(str(c) for c in definition.get("citations") or [])
    frequency: dict[str, int] = {}
    for found in words.values():
        for word in found:
            frequency[word] = frequency.get(word, 0) + 1
    index: dict[str, list[str]] = {}
    for oid, found in sorted(words.items()):
        for word in sorted(found, key=lambda w: (frequency[w], w))[:RAREST_WORDS]:
            index.setdefault(word, []).append(oid)
    pairs: set[tuple[str, str]] = set()
    for members in index.values():
        for a, b in combinations(members, 2):
            if (a, b) in pairs or cited[a] & cited[b]:
                continue  # one sentence read as the definition of two terms is no duplicate
            common = len(words[a] & words[b])
            if common / len(words[a] | words[b]) >= SAME_DEFINITION:
                pairs.add((a, b))
    return sorted(pairs)
