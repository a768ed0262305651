"""Sharded storage: a large id → record mapping kept as many small files, so that a snapshot commit
rewrites only the files whose records changed — O(change) git objects and bytes, whatever the size of
the knowledge base.

An id's shard is fixed by a hash of the id alone (never by history or order): the first hex digits
of ``sha1(id)``, cut into folder levels (``levels=(2, 1)``: ``ab/c.json``, 4,096 shards). A shard
holds one record per line, sorted by id, so that its diff is the records that changed. Pure but for
the reader a :class:`ShardMap` is given.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any, TypeVar

V = TypeVar("V")

Levels = tuple[int, ...]


@lru_cache(maxsize=1 << 20)
def _digest(key: str) -> str:
    return hashlib.sha1(key.encode("utf-8")).hexdigest()


def shard_of(key: str, levels: Levels, suffix: str = ".json") -> str:
    """The shard file of ``key``, relative to its folder: ``levels=(2, 1)`` → ``"ab/c.json"``."""
    digest = _digest(key)
    parts, at = [], 0
    for width in levels:
        parts.append(digest[at : at + width])
        at += width
    return "/".join(parts) + suffix


def encode_shard(records: Mapping[str, Any]) -> bytes:
    """``{id: record}`` as one JSON object, one record per line, sorted by id (C encoder: no indent)."""
    lines = [
        json.dumps(key, ensure_ascii=False) + ":" + _dumps(records[key]) for key in sorted(records)
    ]
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=plain)


def plain(value: Any) -> Any:
    """JSON's ``default`` for the compiler's records: mappings and collections as they serialize."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    raise TypeError(f"cannot serialize {type(value).__name__} in a snapshot")


def decode_shard(data: bytes) -> dict[str, Any]:
    loaded = json.loads(data.decode("utf-8"))
    if not isinstance(loaded, dict):
        raise ValueError("a shard is not a JSON object")
    return loaded


def changed_shards(
    new: Mapping[str, V],
    old: Mapping[str, V] | None,
    levels: Levels,
    encode: Callable[[V], Any],
    suffix: str = ".json",
) -> dict[str, bytes | None]:
    """The shard files to write so that the stored ``old`` becomes ``new``: every shard when there is
    no ``old`` (a new layout), else only the shards holding a record that was added, changed or
    removed (R24: nothing unaffected is rewritten). ``None`` removes a shard left empty."""
    if new is old:
        return {}
    if isinstance(new, Overlay) and new.base is old and isinstance(old, ShardMap):
        return _overlay_shards(new, old, levels, encode, suffix)
    if old is None:
        dirty = {shard_of(key, levels, suffix) for key in new}
    else:
        dirty = {shard_of(key, levels, suffix) for key, value in new.items() if old.get(key) != value}
        dirty |= {shard_of(key, levels, suffix) for key in old if key not in new}
    if not dirty:
        return {}
    members: dict[str, dict[str, Any]] = {path: {} for path in dirty}
    for key, value in new.items():
        path = shard_of(key, levels, suffix)
        if path in members:
            members[path][key] = encode(value)
    return {path: encode_shard(records) if records else None for path, records in sorted(members.items())}


def _overlay_shards(
    new: Overlay[V], old: ShardMap[V], levels: Levels, encode: Callable[[V], Any], suffix: str
) -> dict[str, bytes | None]:
    """:func:`changed_shards` of an overlay over the stored map: the cost follows what it changed."""
    dirty = sorted({shard_of(key, levels, suffix) for key in new.touched()})
    changed_in: dict[str, list[str]] = {}  # each change's shard once (a baseline changes thousands)
    for key in new.changes:
        changed_in.setdefault(shard_of(key, levels, suffix), []).append(key)
    files: dict[str, bytes | None] = {}
    for path in dirty:
        records = {k: encode(new[k]) for k in old.shard_keys(path) if k in new}
        records |= {k: encode(new.changes[k]) for k in changed_in.get(path, ())}
        files[path] = encode_shard(records) if records else None
    return files


class Overlay(Mapping[str, V]):
    """A mapping changed in place of a stored one without copying it: ``base`` with ``changes`` (new
    and rewritten records) and without ``removed``. A lookup reads the base only for a key not
    changed; iterating reads the whole base (only whole-snapshot checks do). :func:`changed_shards`
    of an overlay over the stored map rewrites only the shards of what it changed."""

    __slots__ = ("base", "changes", "removed")

    def __init__(self, base: Mapping[str, V]) -> None:
        self.base = base
        self.changes: dict[str, V] = {}
        self.removed: set[str] = set()

    def __setitem__(self, key: str, value: V) -> None:
        self.removed.discard(key)
        self.changes[key] = value

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self.changes.pop(key, None)
        if key in self.base:
            self.removed.add(key)

    def pop(self, key: str, default: Any = None) -> Any:
        if key not in self:
            return default
        value = self[key]
        del self[key]
        return value

    def __getitem__(self, key: str) -> V:
        if key in self.changes:
            return self.changes[key]
        if key in self.removed:
            raise KeyError(key)
        return self.base[key]

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        if key in self.changes:
            return True
        return key not in self.removed and key in self.base

    def __iter__(self) -> Iterator[str]:
        return iter(sorted((set(self.base) - self.removed) | set(self.changes)))

    def __len__(self) -> int:
        return len(self.base) - len(self.removed) + sum(1 for k in self.changes if k not in self.base)

    def copy(self) -> Overlay[V]:
        """Another overlay of the same base with the same changes, changed on its own from now on."""
        other: Overlay[V] = Overlay(self.base)
        other.changes = dict(self.changes)
        other.removed = set(self.removed)
        return other

    def touched(self) -> set[str]:
        """Every key whose record differs from the base's, or that left it."""
        return {k for k, v in self.changes.items() if self.base.get(k) != v} | set(self.removed)

    def added(self) -> int:
        return sum(1 for k in self.changes if k not in self.base)


class ShardMap(Mapping[str, V]):
    """A read-only mapping over stored shards, loaded lazily: a lookup reads the one shard of its key,
    an iteration (or ``len``) reads them all, once. ``read(path)`` gives a shard's bytes (None:
    absent), ``read_all()`` every (path, bytes) of the folder."""

    __slots__ = ("_all", "_decode", "_keys", "_levels", "_loaded", "_read", "_read_all", "_records", "_suffix")

    def __init__(
        self,
        read: Callable[[str], bytes | None],
        read_all: Callable[[], Iterable[tuple[str, bytes]]],
        levels: Levels,
        decode: Callable[[Any], V],
        suffix: str = ".json",
    ) -> None:
        self._read, self._read_all, self._levels, self._decode, self._suffix = read, read_all, levels, decode, suffix
        self._records: dict[str, V] = {}
        self._loaded: set[str] = set()
        self._keys: dict[str, list[str]] = {}  # shard path → the keys it holds
        self._all = False

    def _load(self, path: str, data: bytes | None) -> None:
        if path in self._loaded:
            return
        self._loaded.add(path)
        if data is not None:
            records = decode_shard(data)
            self._keys[path] = list(records)
            for key, value in records.items():
                self._records[key] = self._decode(value)

    def _everything(self) -> dict[str, V]:
        if not self._all:
            for path, data in self._read_all():
                self._load(path, data)
            self._all = True
            self._records = dict(sorted(self._records.items()))
        return self._records

    def forget(self) -> None:
        """Drop the shards read so far (a reader that goes through every key once keeps memory flat);
        nothing changes for a map that was iterated whole."""
        if not self._all:
            self._records.clear()
            self._loaded.clear()
            self._keys.clear()

    def shard_keys(self, path: str) -> list[str]:
        """The keys stored in one shard (``path`` as :func:`shard_of` gives it), reading only it."""
        if not self._all and path not in self._loaded:
            self._load(path, self._read(path))
        return list(self._keys.get(path, ()))

    def __getitem__(self, key: str) -> V:
        if not self._all:
            path = shard_of(key, self._levels, self._suffix)
            if path not in self._loaded:
                self._load(path, self._read(path))
        return self._records[key]

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())

    def __repr__(self) -> str:
        return f"ShardMap({len(self._records)} loaded{', all' if self._all else ''})"
