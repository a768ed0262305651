"""Readable, reproducible object ids (R25): from names and source ids, never from history or order."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from wikigen.hashing import short_hash

KINDS = ("article", "concept", "relation", "topic")
_NON_WORD = re.compile(r"[^\w\-]+", flags=re.UNICODE)


def normalize_name(name: str) -> str:
    """Names are compared normalized: Unicode NFKC, casefold, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def normalize_predicate(predicate: str) -> str:
    return normalize_name(predicate)


def slugify(text: str, limit: int = 72) -> str:
    """A path-safe slug that keeps distinct names distinct: spaces become ``_``, hyphens stay.

    "Control plane" → ``control_plane``, "kube-apiserver" → ``kube-apiserver``, so "nix store" and
    "nix-store" never share an id. When slugging loses information (other punctuation, a literal
    underscore, a cut), a short hash of the normalized text keeps the slug unique.
    """
    normalized = normalize_name(text)
    slug = _NON_WORD.sub("-", normalized.replace(" ", "_")).strip("-_")[:limit].strip("-_")
    if not slug:
        return "x-" + short_hash(normalized, 8)
    if "_" in normalized or slug != normalized.replace(" ", "_"):
        slug = f"{slug}-{short_hash(normalized, 6)}"
    return slug


def concept_id(name: str) -> str:
    return f"concept/{slugify(name)}"


def article_id(sources: Iterable[str], title: str) -> str:
    """One source: its id's slug. Several: the title plus a short hash of the sorted source ids."""
    ordered = sorted(set(sources))
    if len(ordered) == 1:
        return f"article/{slugify(ordered[0].replace('/', '--'))}"
    return f"article/{slugify(title, 56)}-{short_hash(ordered, 8)}"


def topic_id(title: str, members: Iterable[str]) -> str:
    return f"topic/{slugify(title, 56)}-{short_hash(sorted(set(members)), 8)}"


def relation_id(subject: str, predicate: str, obj: str) -> str:
    return f"relation/{short_hash([subject, normalize_predicate(predicate), obj], 12)}"


def kind_of(object_id: str) -> str:
    return object_id.split("/", 1)[0]
