"""Canonical hashing: the fingerprint of a snapshot (R10), the same for the same pairs in any order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wikigen.model import hashing
from wikigen.model.hashing import fingerprint, fingerprint_of_text, pairs_text, spliced


def test_the_fingerprint_is_the_hash_of_the_sorted_pairs_and_is_encoded_once_per_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R10: a compile hashes the same 100,000 pairs for its plan and for its snapshot; the
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


_IDS = st.text(alphabet="abcz/-_.é\"\\\n", min_size=1, max_size=6)
_VERSIONS = st.sampled_from(["", "a1", "ff00", "b\\2", "9"])


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(_IDS, _VERSIONS, max_size=25),
    st.dictionaries(_IDS, st.one_of(st.none(), _VERSIONS), max_size=6),
)
def test_a_spliced_pairs_text_is_the_text_of_the_changed_pairs(
    pairs: dict[str, str], changes: dict[str, str | None]
) -> None:
    """R10: the fingerprint's text with a few pairs changed, spliced, is exactly the text of the
    changed pairs (so its hash is today's fingerprint), or None where an escaped character would
    sort or split wrongly; then the caller hashes the pairs."""
    changed = {**pairs, **{k: v for k, v in changes.items() if v is not None}}
    for key in (k for k, v in changes.items() if v is None):
        changed.pop(key, None)
    text = spliced(pairs_text(pairs.items()), changes)
    if text is not None:
        assert text == pairs_text(changed.items())
        assert fingerprint_of_text(text) == fingerprint(changed.items())
    else:  # only where some id or version is written escaped
        words = [*pairs, *pairs.values(), *changes, *(v for v in changes.values() if v is not None)]
        assert any(json.dumps(w, ensure_ascii=False)[1:-1] != w for w in words)
