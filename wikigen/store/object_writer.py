"""Writing objects: blobs, trees built from a base and a set of changes, commits. No ref moves here."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import pygit2

from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store.git_errors import translated
from wikigen.store.trees import TreeReader

COMPILER_NAME = "wikigen"
COMPILER_EMAIL = "wikigen@localhost"
_BLOB = pygit2.enums.FileMode.BLOB
_TREE = pygit2.enums.FileMode.TREE


class TreeId(str):
    """A tree id given to ``GitStore.build_tree`` as a path's value: that folder becomes this tree."""


class ObjectWriter(TreeReader):
    """The writes of blobs, trees and commits, mixed into :class:`wikigen.store.git.GitStore`."""

    def write_blob(self, data: bytes) -> str:
        with translated("writing a blob", self.repo.path):
            return str(self.repo.create_blob(data))

    def build_tree(self, base: str, files: Mapping[str, bytes | str | None]) -> str:
        """A new tree: ``base`` with each path set to bytes (or an existing blob id, or a ``TreeId`` for
        a whole folder) or removed (None)."""
        with translated("writing trees", self.repo.path):
            return self._build(self._tree_obj(base) if base != EMPTY_TREE else None, files)

    def _build(self, base: Any, files: Mapping[str, bytes | str | None]) -> str:
        builder = self.repo.TreeBuilder(base) if base is not None else self.repo.TreeBuilder()
        nested: dict[str, dict[str, bytes | str | None]] = {}
        for path, data in files.items():
            head, _, rest = path.partition("/")
            if rest:
                nested.setdefault(head, {})[rest] = data
            elif data is None:
                if builder.get(head) is not None:
                    builder.remove(head)
            elif isinstance(data, TreeId):
                builder.insert(head, data, _TREE)
            else:
                blob = data if isinstance(data, str) else self.repo.create_blob(data)
                builder.insert(head, blob, _BLOB)
        for name, inner in nested.items():
            existing = builder.get(name)
            sub: Any = (
                self.repo[existing.id] if existing is not None and existing.type_str == "tree" else None
            )
            tree_id = self._build(sub, inner)
            if str(tree_id) == EMPTY_TREE:
                if existing is not None:
                    builder.remove(name)
            else:
                builder.insert(name, tree_id, _TREE)
        return str(builder.write())

    def create_commit(self, tree: str, parents: list[str], message: str) -> str:
        """A commit object authored by `wikigen`; no ref moves (publish does that with CAS)."""
        signature = pygit2.Signature(COMPILER_NAME, COMPILER_EMAIL, int(time.time()), 0)
        with translated("creating the commit", self.repo.path):
            return str(self.repo.create_commit(None, signature, signature, message, tree, parents))
