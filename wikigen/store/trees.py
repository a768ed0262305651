"""Reading trees and blobs: a tree's files, links and folders, a file's bytes, a blob's id."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import Any

import pygit2

from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store.git_errors import translated

_LINK = pygit2.enums.FileMode.LINK
CLEAN_DEPTH = 3  # levels of trees below the walked one whose "no link here" a caller may remember


class TreeReader:
    """The reads of trees and blobs, mixed into :class:`wikigen.store.git.GitStore` (which opens
    ``repo`` and counts the source blobs read in ``blobs_read``)."""

    repo: pygit2.Repository
    blobs_read: int

    def _tree_obj(self, tree: str) -> Any:
        if tree == EMPTY_TREE and EMPTY_TREE not in self.repo:
            self.repo.TreeBuilder().write()
        return self.repo[tree]

    def subtree(self, tree: str, path: str) -> str:
        """The tree id at ``path`` inside ``tree``; the empty tree when it does not exist."""
        with translated(f"reading {path}"):
            obj: Any = self._tree_obj(tree)
            try:
                entry = obj[path]
            except KeyError:
                return EMPTY_TREE
            if entry.type_str != "tree":
                return EMPTY_TREE
            return str(entry.id)

    def blobs(self, tree: str, prefix: str) -> Iterator[tuple[str, str]]:
        """(path, blob id) for every file below a tree, without reading any blob. Symbolic links are
        not files: ``links`` lists them."""
        with translated("listing a tree"):
            for path, entry in self._walk(tree, prefix):
                if entry.type_str == "blob" and entry.filemode != _LINK:
                    yield path, str(entry.id)

    def _walk(self, tree: str, prefix: str) -> Iterator[tuple[str, Any]]:
        """(path, entry) for every entry below a tree that is not a tree itself."""
        stack: list[tuple[str, Any]] = [(prefix, self._tree_obj(tree))]
        while stack:
            base, obj = stack.pop()
            for entry in obj:
                path = f"{base}/{entry.name}" if base else str(entry.name)
                if entry.type_str == "tree":
                    stack.append((path, self.repo[entry.id]))
                else:
                    yield path, entry

    def links(
        self, tree: str, prefix: str, *, known_clean: AbstractSet[str] = frozenset(), clean: set[str] | None = None
    ) -> list[tuple[str, str]]:
        """(path, target) for every symbolic link below a tree (mode 120000), sorted by path.

        R41: reads the tree objects and the links' own blobs (their target text) only, never what a
        link points at. A tree whose id is in ``known_clean`` (a tree found to hold no link before: trees never change)
        is not walked; ``clean``, when given, receives the ids of the trees down to ``CLEAN_DEPTH``
        levels below ``tree`` that hold none, for the caller to remember.
        """
        found: list[tuple[str, str]] = []
        with translated("listing symbolic links"):
            self._links_below(tree, prefix, 0, known_clean, clean, found)
        return sorted(found)

    def _links_below(
        self, tree: str, path: str, level: int, known: AbstractSet[str], clean: set[str] | None,
        found: list[tuple[str, str]],
    ) -> bool:
        """Whether a link is below ``tree``; the links into ``found``."""
        remember = clean is not None and level <= CLEAN_DEPTH
        if tree in known:
            if remember:
                clean.add(tree)  # type: ignore[union-attr]
            return False
        linked = False
        for entry in self._tree_obj(tree):
            below = f"{path}/{entry.name}" if path else str(entry.name)
            if entry.type_str == "tree":
                linked = self._links_below(str(entry.id), below, level + 1, known, clean, found) or linked
            elif entry.filemode == _LINK:
                found.append((below, bytes(self.repo[entry.id].read_raw()).decode("utf-8", "replace")))
                linked = True
        if remember and not linked:
            clean.add(tree)  # type: ignore[union-attr]
        return linked

    def read_blob(self, blob: str) -> bytes:
        with translated(f"reading blob {blob}"):
            data = self.repo[blob].read_raw()
        self.blobs_read += 1
        return bytes(data)

    def read_file(self, tree: str, path: str) -> bytes | None:
        """A file's bytes inside a tree (not counted as a source blob read), or None."""
        return self._read_path(tree, path)

    def _read_path(self, tree: str, path: str) -> bytes | None:
        blob = self.blob_in(tree, path)
        if blob is None:
            return None
        with translated(f"reading {path}"):
            return bytes(self.repo[blob].read_raw())

    def blob_id(self, data: bytes) -> str:
        """The id ``data`` has as a blob, without writing it."""
        return str(pygit2.hash(data))

    def blob_in(self, tree: str, path: str) -> str | None:
        """The blob id at ``path`` inside ``tree``; None when no file is there."""
        with translated(f"reading {path}"):
            try:
                entry = self._tree_obj(tree)[path]
            except KeyError:
                return None
            return str(entry.id) if entry.type_str == "blob" else None

    def has_object(self, oid: str) -> bool:
        return oid in self.repo
