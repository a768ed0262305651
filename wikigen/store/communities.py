"""The communities record as stored in a commit (V3): its shards read on first use, through their
cache, so that a local update of the partition reads only the concepts it asks about."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any

from wikigen.compiler.community_record import COMMUNITIES_DIR, WHOLE_RECORD_PATH, Record, load_record
from wikigen.model.shards import decode_shard
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store.git import GitStore


def read_record(store: GitStore, tree: str) -> Record:
    """The record stored in ``tree`` (a commit's root tree). Its assignment is read on first use, so
    an increment that does not partition (no concept or relation came or went) reads no shard."""
    folder = store.subtree(tree, COMMUNITIES_DIR)
    whole = store.read_file(tree, WHOLE_RECORD_PATH)
    if folder == EMPTY_TREE:
        return load_record((), whole)

    def read() -> Mapping[str, str]:
        return load_record(store.generated_files(folder), whole).assignment

    return Record(_OnFirstUse(read), sharded=True, whole=whole is not None, open_reader=lambda: StoredRecord(store, folder))


class StoredRecord:
    """A :class:`RecordReader` of the shards in one stored folder, through their cache
    (:class:`wikigen.store.community_cache.CommunityMirror`), opened on the first question."""

    def __init__(self, store: GitStore, folder: str) -> None:
        self.store, self.folder = store, folder
        self._mirror: Any = None

    def _cache(self) -> Any:
        if self._mirror is None:
            from wikigen.store.community_cache import CommunityMirror

            self._mirror = CommunityMirror(self.store, self.folder)
        return self._mirror

    def names_of(self, concepts: Collection[str]) -> Mapping[str, str]:
        return dict(self._cache().names_of(concepts))

    def members(self, name: str) -> Sequence[str]:
        return list(self._cache().members(name))

    def count(self) -> int:
        return int(self._cache().count())

    def shard(self, path: str) -> dict[str, str]:
        data = self.store.read_generated(self.folder, path)
        try:
            return {str(k): str(v) for k, v in decode_shard(data).items()} if data else {}
        except (ValueError, UnicodeDecodeError):
            return {}

    def close(self) -> None:
        if self._mirror is not None:
            self._mirror.close()


class _OnFirstUse(Mapping[str, str]):
    """A read-only mapping loaded by ``load`` when it is first asked anything."""

    __slots__ = ("_load", "_loaded")

    def __init__(self, load: Callable[[], Mapping[str, str]]) -> None:
        self._load = load
        self._loaded: Mapping[str, str] | None = None

    def _data(self) -> Mapping[str, str]:
        if self._loaded is None:
            self._loaded = self._load()
        return self._loaded

    def __getitem__(self, key: str) -> str:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())
