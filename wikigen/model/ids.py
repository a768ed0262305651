"""Readable, reproducible object ids (R25): from names and source ids, never from history or order."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from wikigen.model.hashing import short_hash

KINDS = ("article", "concept", "relation", "topic")
# R40: an object's file is `<slug>.md`, and 255 bytes is the longest file name that Linux, macOS and
# Windows all check out (Linux counts UTF-8 bytes), so a slug keeps to 252 bytes.
MAX_SLUG_BYTES = 255 - len(".md")
_HASH_SUFFIX = len("-") + 8  # what article_id and topic_id add after a slug of a title
_NON_WORD = re.compile(r"[^\w\-]+", flags=re.UNICODE)


def normalize_name(name: str) -> str:
    """Names are compared normalized: Unicode NFKC, casefold, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def name_keys(source_id: str) -> tuple[str, ...]:
    """R40: the names two source ids must not share. The first is what the id's article is named by
    (``article_id`` slugs the id normalized by NFKC and case folding, `/` written `--`: equal keys,
    one article file); the second is the id as a case-insensitive file system compares it (NFC,
    case folded), which the first already tells for an ASCII id."""
    if source_id.isascii():
        return (" ".join(source_id.replace("/", "--").lower().split()),)
    return normalize_name(source_id.replace("/", "--")), unicodedata.normalize("NFC", source_id).casefold()


def normalize_predicate(predicate: str) -> str:
    return normalize_name(predicate)


def slugify(text: str, limit: int = 72, max_bytes: int = MAX_SLUG_BYTES) -> str:
    """A path-safe slug that keeps distinct names distinct: spaces become ``_``, hyphens stay.

    "Control plane" → ``control_plane``, "kube-apiserver" → ``kube-apiserver``, so "nix store" and
    "nix-store" never share an id. When slugging loses information (other punctuation, a literal
    underscore, a cut), a short hash of the normalized text keeps the slug unique. ``limit`` counts
    characters; a slug still over ``max_bytes`` UTF-8 bytes (characters outside the BMP take four)
    is cut at a character boundary and ends in the hash.
    """
    normalized = normalize_name(text)
    slug = _NON_WORD.sub("-", normalized.replace(" ", "_")).strip("-_")[:limit].strip("-_")
    if not slug:
        return "x-" + short_hash(normalized, 8)
    if "_" in normalized or slug != normalized.replace(" ", "_"):
        slug = f"{slug}-{short_hash(normalized, 6)}"
    if len(slug.encode("utf-8")) > max_bytes:
        # R40: a readable prefix and the hash, so the file name checks out everywhere.
        prefix = cut_utf8(slug, max_bytes - len("-") - 6).strip("-_")
        slug = f"{prefix}-{short_hash(normalized, 6)}" if prefix else "x-" + short_hash(normalized, 8)
    return slug


def cut_utf8(text: str, max_bytes: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 encoding fits ``max_bytes`` (whole characters)."""
    return text.encode("utf-8")[:max_bytes].decode("utf-8", "ignore")


def concept_id(name: str) -> str:
    return f"concept/{slugify(name)}"


def article_id(sources: Iterable[str], title: str) -> str:
    """One source: its id's slug. Several: the title plus a short hash of the sorted source ids."""
    ordered = sorted(set(sources))
    if len(ordered) == 1:
        return f"article/{slugify(ordered[0].replace('/', '--'))}"
    return f"article/{slugify(title, 56, MAX_SLUG_BYTES - _HASH_SUFFIX)}-{short_hash(ordered, 8)}"


def topic_id(title: str, members: Iterable[str]) -> str:
    return f"topic/{slugify(title, 56, MAX_SLUG_BYTES - _HASH_SUFFIX)}-{short_hash(sorted(set(members)), 8)}"


def relation_id(subject: str, predicate: str, obj: str) -> str:
    return f"relation/{short_hash([subject, normalize_predicate(predicate), obj], 12)}"


def kind_of(object_id: str) -> str:
    return object_id.split("/", 1)[0]
