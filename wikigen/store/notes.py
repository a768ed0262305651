"""The compiler's notes on commits (refs/notes/wikigen), each written by compare-and-swap on the ref."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pygit2

from wikigen.model.errors import ConflictError
from wikigen.store.git_errors import translated
from wikigen.store.history import History
from wikigen.store.object_writer import COMPILER_EMAIL, COMPILER_NAME, ObjectWriter
from wikigen.store.refs import Refs

NOTES_REF = "refs/notes/wikigen"
NOTE_ATTEMPTS = 20


def _note_path(tree: Any, commit: str) -> str | None:
    """Where the note on ``commit`` lives in a notes tree: flat (``<hex>``) or fanned out by git
    (``ab/cdef…``, ``ab/cd/ef…``); None when there is none."""
    node, rest, parts = tree, commit, list[str]()
    while True:
        if rest in node and node[rest].type_str == "blob":
            return "/".join([*parts, rest])
        if len(rest) <= 2 or rest[:2] not in node or node[rest[:2]].type_str != "tree":
            return None
        parts.append(rest[:2])
        node, rest = node[rest[:2]], rest[2:]


class Notes(History, ObjectWriter, Refs):
    """The notes of :class:`wikigen.store.git.GitStore`."""

    def write_note(self, commit: str, message: str, replaces: Callable[[str | None], bool] | None = None) -> bool:
        """Set the note on ``commit`` by compare-and-swap on refs/notes/wikigen (R33).

        ``replaces(current)`` decides from the note there now whether to write; when another process
        moved the notes ref in between, the note is read again and the decision made again. Returns
        whether the note was written.
        """
        signature = pygit2.Signature(COMPILER_NAME, COMPILER_EMAIL, int(time.time()), 0)
        with translated("writing a note under refs/notes/wikigen", self.repo.path):
            for _ in range(NOTE_ATTEMPTS):
                ref = self.repo.references.get(NOTES_REF)
                base = str(ref.target) if ref is not None else None
                tree = self.commit_tree(base)
                path = _note_path(self._tree_obj(tree), commit)
                current = None if path is None else self.read_file(tree, path)
                if replaces is not None and not replaces(None if current is None else current.decode("utf-8", "replace")):
                    return False
                changes: dict[str, bytes | str | None] = {} if path is None else {path: None}
                changes[commit] = message.encode("utf-8")  # a flat entry; git reads flat and fanned-out alike
                notes_tree = self.build_tree(tree, changes)
                new = str(
                    self.repo.create_commit(
                        None, signature, signature, f"wikigen: note on {commit}\n", notes_tree, [base] if base else []
                    )
                )
                try:
                    self.move_ref(NOTES_REF, new, base, "wikigen: note")
                    return True
                except ConflictError:
                    continue  # another writer moved the notes ref: read its note and decide again
        raise ConflictError(
            f"refs/notes/wikigen kept moving ({NOTE_ATTEMPTS} attempts); the note on {commit[:12]} was not written"
        )

    def read_note(self, commit: str) -> str | None:
        try:
            return str(self.repo.lookup_note(commit, NOTES_REF).message)
        except (KeyError, pygit2.GitError):
            return None
