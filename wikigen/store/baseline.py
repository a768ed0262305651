"""What an increment reads of its baseline snapshot without copying it: compiled bodies (read from
their blobs, checked against the manifest, R13), compiled versions and titles looked up in the
manifest, and the lookup of its object index."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from wikigen.compiler.lookup import Lookup
from wikigen.model.config import Config
from wikigen.model.errors import ValidationError
from wikigen.model.snapshot import ManifestEntry
from wikigen.store.git import GitStore
from wikigen.store.lookup_cache import lookup_of
from wikigen.store.sourceset import read_recorded
from wikigen.store.workspace import Workspace


def baseline_lookup(ws: Workspace) -> Lookup:
    """Who depends on what in the baseline's index: its lookup mirror when it is sharded."""
    stored = ws.baseline.stored
    return lookup_of(ws.store, ws.baseline.objects, stored.index_tree if stored is not None else None)


class Compiled(Mapping[str, str]):
    """Source id → compiled version in a manifest, but for ``touched`` — looked up, never copied."""

    def __init__(self, manifest: Mapping[str, ManifestEntry], touched: frozenset[str]) -> None:
        self.manifest, self.touched = manifest, touched

    def __getitem__(self, sid: str) -> str:
        entry = self.manifest[sid]
        if sid in self.touched or entry.version is None:
            raise KeyError(sid)
        return entry.version

    def __iter__(self) -> Iterator[str]:
        return (sid for sid in self.manifest if sid in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Titles(Mapping[str, str]):
    """Source id → title in a manifest, looked up, never copied."""

    def __init__(self, manifest: Mapping[str, ManifestEntry]) -> None:
        self.manifest = manifest

    def __getitem__(self, sid: str) -> str:
        return self.manifest[sid].title

    def __iter__(self) -> Iterator[str]:
        return iter(self.manifest)

    def __len__(self) -> int:
        return len(self.manifest)


class Bodies:
    """Bodies of compiled source versions, read from their blobs and checked against the manifest (R13)."""

    def __init__(
        self,
        store: GitStore,
        manifest: Mapping[str, ManifestEntry],
        config: Config,
        cache: dict[tuple[str, str, str], str] | None = None,
    ) -> None:
        self.store = store
        self.manifest = manifest
        self.config = config
        # by source id, version and blob: a --batch run shares one across its increments and re-plans
        self.cache: dict[tuple[str, str, str], str] = {} if cache is None else cache

    def __call__(self, source_id: str, version: str) -> str:
        entry = self.manifest.get(source_id)
        if entry is None or entry.version != version or entry.blob is None:
            raise ValidationError(
                [f"{source_id}@{version} is not a compiled version in the manifest"], "baseline snapshot"
            )
        key = (source_id, version, entry.blob)
        if key in self.cache:
            return self.cache[key]
        result, why = read_recorded(
            self.store, self.config, entry.compiled_path or entry.path, entry.blob, entry.content_hash
        )
        if result is None:
            raise ValidationError([f"{source_id}@{version}: {why}"], "baseline snapshot")
        self.cache[key] = result.body
        return result.body
