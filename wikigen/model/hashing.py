"""Canonical hashing: sha256 over sorted-key JSON, versions, fingerprints and citation ids."""

from __future__ import annotations

import bisect
import datetime as _dt
import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any


def _default(value: Any) -> Any:
    # YAML gives dates and datetimes; they hash as their ISO text.
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    raise TypeError(f"cannot hash a value of type {type(value).__name__}")


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the same value always gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)


def canonical_bytes(value: Any) -> bytes:
    """The UTF-8 bytes an engine receives and a delta is measured in: compact JSON with sorted keys.

    Unlike ``canonical_json`` it accepts only JSON values: a request or delta is plain JSON (R19).
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sha256_hex(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def json_sha256(value: Any) -> str:
    return sha256_hex(canonical_json(value))


def short_hash(value: Any, length: int = 10) -> str:
    return json_sha256(value)[:length]


def source_version(title: str, category: str, metadata: dict[str, Any], body: str) -> str:
    """R3: a version covers title, canonical category, business metadata and body."""
    return json_sha256({"title": title, "category": category, "metadata": metadata, "body": body})[:16]


def fingerprint(pairs: Iterable[tuple[str, str]]) -> str:
    """Hash over the sorted (id, version) pairs of all valid sources.

    A compile hashes the same pairs twice, for its plan and for the snapshot it writes: the last
    pairs and their hash are kept, and comparing them costs far less than encoding them again."""
    ordered = sorted(pairs)
    if _LAST_FINGERPRINT and _LAST_FINGERPRINT[0][0] == ordered:
        return _LAST_FINGERPRINT[0][1]
    value = json_sha256(ordered)[:16]
    _LAST_FINGERPRINT[:] = [(ordered, value)]
    return value


_LAST_FINGERPRINT: list[tuple[list[tuple[str, str]], str]] = []


def pairs_text(pairs: Iterable[tuple[str, str]]) -> str:
    """The text :func:`fingerprint` hashes: the canonical JSON of the sorted pairs."""
    return canonical_json(sorted(pairs))


def fingerprint_of_text(text: str) -> str:
    """:func:`fingerprint` of the pairs whose :func:`pairs_text` is ``text``."""
    return sha256_hex(text)[:16]


def spliced(text: str, changes: Mapping[str, str | None]) -> str | None:
    """``text`` (a :func:`pairs_text`) with each id of ``changes`` paired with its version, or taken
    out where the version is None — what :func:`pairs_text` gives for the changed pairs, in time that
    grows with the changes, not with the pairs, where encoding and hashing them all would grow with
    the knowledge base. None where the text cannot be split safely (an escaped character: a
    backslash sorts and splits differently from the string it stands for); the caller then hashes
    the pairs themselves."""
    if "\\" in text or not (text == "[]" or (text.startswith('[["') and text.endswith('"]]'))):
        return None
    parts = [] if text == "[]" else text[3:-3].split('"],["')
    for sid, version in sorted(changes.items()):
        if canonical_json(sid)[1:-1] != sid or (version is not None and canonical_json(version)[1:-1] != version):
            return None
        at = bisect.bisect_left(parts, sid, key=_pair_id)
        present = at < len(parts) and _pair_id(parts[at]) == sid
        if version is None:
            if present:
                del parts[at]
        elif present:
            parts[at] = f'{sid}","{version}'
        else:
            parts.insert(at, f'{sid}","{version}')
    return '[["' + '"],["'.join(parts) + '"]]' if parts else "[]"


def _pair_id(part: str) -> str:
    return part.split('","', 1)[0]


def citation_id(source_id: str, start: int) -> str:
    """E3: the same place always has the same id, whatever the query or the compile."""
    return hashlib.sha1(f"{source_id}#{start}".encode()).hexdigest()[:12]
