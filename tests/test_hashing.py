"""Canonical hashing: the fingerprint of a snapshot (R10), the same for the same pairs in any order."""

from __future__ import annotations

import pytest

from wikigen import hashing


def test_r10_the_fingerprint_is_the_hash_of_the_sorted_pairs_and_is_encoded_once_per_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 14: a compile hashes the same 100,000 pairs for its plan and for its snapshot; the
    second time costs a comparison, not an encoding."""
    encoded: list[object] = []
    real = hashing.json_sha256
    monkeypatch.setattr(hashing, "json_sha256", lambda value: encoded.append(value) or real(value))
    pairs = [("knowledge/b", "2" * 16), ("knowledge/a", "1" * 16)]
    first = hashing.fingerprint(pairs)
    assert first == real(sorted(pairs))[:16]
    assert hashing.fingerprint(reversed(pairs)) == first and len(encoded) == 1
    other = hashing.fingerprint([("knowledge/a", "1" * 16)])
    assert other != first and len(encoded) == 2
    assert hashing.fingerprint(pairs) == first and len(encoded) == 3  # only the last pairs are kept
