"""Open a knowledge repo once: git store, config, the committed baseline snapshot."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wikigen.compiler.plan import Plan, make_plan
from wikigen.compiler.plan_edges import unchanged_plan
from wikigen.model.config import CONFIG_FILE, Config, load_config
from wikigen.model.snapshot import (
    SNAPSHOT_PATH,
    Snapshot,
    private_globs,
    private_globs_of,
    recorded_sources_dir,
)
from wikigen.model.sources import CONTENT_DIR, SourceSet
from wikigen.store.git import GitStore
from wikigen.store.plan_from_diff import plan_from_diff
from wikigen.store.snapshot import load_snapshot, read_waiting
from wikigen.store.sourceset import read_sources

LINK_FREE_CACHE = "link-free-trees"  # ids of trees under content/ that hold no symbolic link
LINK_FREE_MAX = 100_000  # ids kept (4 MB); a full walk of 100,000 sources finds a few thousand


@dataclass(frozen=True, slots=True)
class Workspace:
    store: GitStore
    config: Config
    head: str | None  # the commit the baseline was read from
    baseline: Snapshot

    @classmethod
    def open(
        cls, path: Path | str = ".", overrides: Mapping[str, Any] | None = None, *, history: bool = True
    ) -> Workspace:
        """``history=False`` for what reads HEAD alone (check, the site): it then works in a shallow clone."""
        store = GitStore(path)
        if history:
            store.refuse_shallow()  # before reading anything
        config = load_config(store.root, overrides=overrides)
        head = store.head_commit()
        # R7/R8: the baseline is the last *committed* snapshot, so it survives restarts.
        data = store.read_file(store.commit_tree(head), SNAPSHOT_PATH) if head else None
        return cls(store=store, config=config, head=head, baseline=load_snapshot(data, store))

    @property
    def root(self) -> Path:
        return self.store.root

    @property
    def sources_dir(self) -> str:
        """The sources folder (``paths.sources`` in wikigen.yml), relative to the repository root."""
        return self.config.sources_dir

    def sources_tree(self, *, staged: bool = False, commit: str | None = None) -> str:
        """The id of the sources folder's tree at HEAD (or ``commit``), or in the index (--staged)."""
        if staged:
            root = self.store.index_tree()
        else:
            root = self.store.commit_tree(commit if commit is not None else self.head)
        return self.store.subtree(root, self.sources_dir)

    def read(
        self, *, staged: bool = False, include_deferred: bool = False, parsed_cache: dict[Any, Any] | None = None
    ) -> SourceSet:
        root = self.store.index_tree() if staged else self.store.commit_tree(self.head)
        return self._read(root, self._links(root), include_deferred=include_deferred, parsed_cache=parsed_cache)

    def plan(
        self, *, staged: bool = False, include_deferred: bool = False, parsed_cache: dict[Any, Any] | None = None
    ) -> Plan:
        root = self.store.index_tree() if staged else self.store.commit_tree(self.head)
        links = self._links(root)
        tree = self.store.subtree(root, self.sources_dir)
        if (
            private_globs(self.baseline) != private_globs_of(self.config)
            or recorded_sources_dir(self.baseline) != self.sources_dir
        ):
            # R39: the `private` setting changed since the snapshot: every source is read again, so
            # that a source it now names is withdrawn and one it no longer names is compiled. So too
            # when the sources folder moved: the snapshot's tree and paths are of the old one.
            current = self._read(root, links, include_deferred=include_deferred, parsed_cache=parsed_cache, every=True)
            return make_plan(self.baseline, current, self.config, include_deferred=include_deferred)
        if not include_deferred and not links and tree == self.baseline.sources_tree and self.baseline.sharded:
            # R7: an unchanged sources tree is planned from the root record alone, once no link under
            # content/ makes the sources invalid (R41).
            unchanged = unchanged_plan(self.baseline, tree, read_waiting(self.store, self.baseline))
            if unchanged is not None:
                return unchanged
        if not include_deferred:
            # R7: a change planned from its diff, the manifest read where the change touches it.
            narrow = plan_from_diff(self.store, self.baseline, tree, self.config, links, parsed_cache)
            if narrow is not None:
                return narrow
        current = self._read(root, links, include_deferred=include_deferred, parsed_cache=parsed_cache)
        return make_plan(self.baseline, current, self.config, include_deferred=include_deferred)

    def _links(self, root: str) -> list[tuple[str, str]]:
        # R41: a link anywhere under content/ (the site's docs folder), or under a sources folder
        # outside it, makes the sources invalid.
        # The trees found free of links before are not walked again (a tree never changes), so a plan
        # after one edit walks the few trees that edit made, not the whole knowledge base.
        cache = self.store.cache_path(LINK_FREE_CACHE)
        read = _read_ids(cache)
        known = read if read is not None else frozenset()
        clean: set[str] = set()
        links: list[tuple[str, str]] = []
        for folder in (CONTENT_DIR, *([] if self.sources_dir.startswith(CONTENT_DIR + "/") else [self.sources_dir])):
            subtree = self.store.subtree(root, folder)
            links += self.store.links(subtree, folder, known_clean=known, clean=clean)
        # Trees never change: what was clean stays clean, so the ids seen before are kept (a walk that
        # stops at a known tree sees none below it, and the next edit's plan needs them), up to a
        # bound past which only this walk's are kept.
        kept = clean | known
        if read is None or len(kept) > LINK_FREE_MAX:
            _write_ids(cache, clean)  # none yet, damaged, or past the bound: this walk's alone
        elif kept != known:
            _append_ids(cache, clean - known)  # what this walk found new, not the 100,000 known again
        return links

    def _read(
        self,
        root: str,
        links: list[tuple[str, str]],
        *,
        include_deferred: bool,
        parsed_cache: dict[Any, Any] | None,
        every: bool = False,
    ) -> SourceSet:
        return read_sources(
            self.store,
            self.baseline,
            self.store.subtree(root, self.sources_dir),
            self.config,
            include_deferred=include_deferred,
            parsed_cache=parsed_cache,
            links=links,
            # The snapshot's tree and paths are of the folder it was compiled from: no diff against another.
            every=every or recorded_sources_dir(self.baseline) != self.sources_dir,
        )

def _read_ids(path: Path) -> frozenset[str] | None:
    try:
        return frozenset(path.read_text(encoding="ascii").split())
    except (OSError, UnicodeDecodeError):
        return None  # no cache yet, or unreadable: walk everything


def _append_ids(path: Path, ids: set[str]) -> None:
    """Best effort: a line cut short by a crash names no tree, and costs nothing but its walk."""
    try:
        path.parent.mkdir(exist_ok=True)
        with path.open("a", encoding="ascii") as cache:
            cache.write("".join(f"{i}\n" for i in sorted(ids)))
    except OSError:
        pass


def _write_ids(path: Path, ids: set[str]) -> None:
    """Best effort, atomic: a cache that cannot be written costs a walk, never a failure."""
    try:
        path.parent.mkdir(exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text("".join(f"{i}\n" for i in sorted(ids)), encoding="ascii")
        os.replace(partial, path)
    except OSError:
        pass


__all__ = ["CONFIG_FILE", "Workspace"]
