"""The communities record as stored (V3): concept id → community name, in shards like the snapshot's
index (:mod:`wikigen.model.shards`), or in a schema-1 repo as one whole communities.json.

``content/.wikigen/communities/ab/c.json`` holds ``{concept id: community name}`` for the concepts
whose ``sha1(id)`` starts with ``abc``, one per line, so that a commit rewrites only the shards of the
concepts that moved. Reading it (:func:`load_record`), the reader a local update asks
(:class:`RecordReader`), and the files that store an assignment (:func:`record_files`). Pure.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from wikigen.model.shards import Levels, changed_shards, decode_shard, shard_of

COMMUNITIES_DIR = "content/.wikigen/communities"
COMMUNITIES_LEVELS: Levels = (2, 1)  # 4,096 shards, as the relations
WHOLE_RECORD_PATH = "content/.wikigen/communities.json"  # the record as one file (schema 1)


@dataclass(frozen=True, slots=True)
class Record:
    """A stored record: concept id → community name, and how it is stored."""

    assignment: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    sharded: bool = False  # read from shards: what the next write diffs against
    whole: bool = False  # a whole communities.json is there: the next write removes it
    # Opens a reader of its stored shards (:class:`wikigen.store.communities.StoredRecord`), so that
    # a local update reads only what it asks; none: the assignment is all there is.
    open_reader: Callable[[], RecordReader] | None = field(default=None, compare=False)

    def reader(self) -> RecordReader:
        """What the local update asks of the record (close it after)."""
        if self.open_reader is not None:
            return self.open_reader()
        return HeldRecord(self.assignment)

    @property
    def exists(self) -> bool:
        return self.sharded or self.whole


def load_record(shards: Iterable[tuple[str, bytes]], whole: bytes | None) -> Record:
    """The record from its shards' bytes, else from a whole communities.json (the shards win where
    both are there). An unreadable shard or file is left out: its concepts start alone at the next
    compile, which is correct, only less stable."""
    assignment: dict[str, str] = {}
    sharded = False
    for _, data in shards:
        sharded = True
        try:
            assignment.update({str(k): str(v) for k, v in decode_shard(data).items()})
        except (ValueError, UnicodeDecodeError):
            continue
    if not sharded:
        assignment = load_whole(whole)
    return Record(MappingProxyType(dict(sorted(assignment.items()))), sharded, whole is not None)


def load_whole(data: bytes | None) -> dict[str, str]:
    """Concept id → community name from a whole communities.json (schema 1: ``{"communities": {name:
    [members]}}``); {} when there is none or it is unreadable."""
    if not data:
        return {}
    try:
        doc = json.loads(data)
        groups = doc["communities"]
        return {str(m): str(name) for name, found in groups.items() for m in found}
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}


class RecordReader(Protocol):
    """The parent record as a local update reads it: a few concepts, a few communities, a few shards."""

    def names_of(self, concepts: Collection[str]) -> Mapping[str, str]: ...

    def members(self, name: str) -> Sequence[str]: ...

    def count(self) -> int: ...

    def shard(self, path: str) -> dict[str, str]:
        """The records of one shard (its path below the folder); {} where there is none."""
        ...

    def close(self) -> None: ...


class HeldRecord:
    """A :class:`RecordReader` of an assignment held whole."""

    def __init__(self, assignment: Mapping[str, str]) -> None:
        self.assignment = assignment
        self._members: dict[str, list[str]] | None = None
        self._shards: dict[str, dict[str, str]] | None = None

    def names_of(self, concepts: Collection[str]) -> Mapping[str, str]:
        return {c: self.assignment[c] for c in concepts if c in self.assignment}

    def members(self, name: str) -> Sequence[str]:
        if self._members is None:
            self._members = {}
            for n, c in sorted(self.assignment.items()):
                self._members.setdefault(c, []).append(n)
        return self._members.get(name, [])

    def count(self) -> int:
        return len(self.assignment)

    def shard(self, path: str) -> dict[str, str]:
        if self._shards is None:
            self._shards = {}
            for n, c in self.assignment.items():
                self._shards.setdefault(shard_of(n, COMMUNITIES_LEVELS), {})[n] = c
        return dict(self._shards.get(path, {}))

    def close(self) -> None:
        pass


def record_files(assignment: Mapping[str, str], parent: Record) -> dict[str, bytes | None]:
    """The files that store ``assignment`` where ``parent`` is stored: only the shards holding a
    concept whose community changed (R24), every shard when the parent is not in shards; ``None``
    removes a shard left empty, and the whole file."""
    old = parent.assignment if parent.sharded else None
    shards = changed_shards(assignment, old, COMMUNITIES_LEVELS, str)
    files: dict[str, bytes | None] = {f"{COMMUNITIES_DIR}/{path}": data for path, data in shards.items()}
    if parent.whole:
        files[WHOLE_RECORD_PATH] = None
    return files


def moved_record(whole: bytes | None) -> dict[str, bytes | None]:
    """R9: a whole communities.json moved into its shards, every assignment unchanged (the storage
    layout move of a schema-1 repo); nothing when there is no such file."""
    if whole is None:
        return {}
    parent = load_record((), whole)
    return record_files(parent.assignment, parent)
