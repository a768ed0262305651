"""The changes between two trees: a walk of the folders whose ids differ, else libgit2's diff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygit2

from wikigen.store.git_errors import translated
from wikigen.store.trees import TreeReader


@dataclass(frozen=True, slots=True)
class Change:
    """One changed path between two trees. Renames of identical content come as one change."""

    status: str  # "added" | "deleted" | "modified" | "renamed"
    old_path: str | None
    new_path: str | None
    old_blob: str | None
    new_blob: str | None


class TreeDiff(TreeReader):
    """Diffs of trees, mixed into :class:`wikigen.store.git.GitStore` (which holds the last diffs asked
    in ``_diffs``: two trees' diff never changes)."""

    _diffs: dict[tuple[str, str, str, bool], tuple[Change, ...]]

    def diff(self, old: str, new: str, prefix: str, *, renames: bool = True) -> list[Change]:
        """Changed paths between two trees (ids of the same folder), renames of identical content
        detected unless ``renames`` is False."""
        if old == new:
            return []
        key = (old, new, prefix, renames)
        if key not in self._diffs:
            if len(self._diffs) >= 16:
                self._diffs.clear()
            self._diffs[key] = tuple(self._diff(old, new, prefix, renames))
        return list(self._diffs[key])

    def _diff(self, old: str, new: str, prefix: str, renames: bool) -> list[Change]:
        with translated("diffing trees"):
            walked = self._changed_entries(old, new, prefix)
            if walked is not None:
                return walked
            diff = self._tree_obj(old).diff_to_tree(self._tree_obj(new))
            if renames:
                diff.find_similar(
                    flags=pygit2.enums.DiffFind.FIND_RENAMES | pygit2.enums.DiffFind.FIND_EXACT_MATCH_ONLY
                )
            changes = []
            for delta in diff.deltas:
                status = {
                    pygit2.enums.DeltaStatus.ADDED: "added",
                    pygit2.enums.DeltaStatus.DELETED: "deleted",
                    pygit2.enums.DeltaStatus.MODIFIED: "modified",
                    pygit2.enums.DeltaStatus.RENAMED: "renamed",
                    pygit2.enums.DeltaStatus.TYPECHANGE: "modified",
                }.get(delta.status)
                if status is None:
                    continue
                old_path = f"{prefix}/{delta.old_file.path}" if status != "added" else None
                new_path = f"{prefix}/{delta.new_file.path}" if status != "deleted" else None
                changes.append(
                    Change(
                        status=status,
                        old_path=old_path,
                        new_path=new_path,
                        old_blob=str(delta.old_file.id) if old_path else None,
                        new_blob=str(delta.new_file.id) if new_path else None,
                    )
                )
            return changes

    def _changed_entries(self, old: str, new: str, prefix: str) -> list[Change] | None:
        """The changes between two trees found by walking only the folders whose ids differ, where
        no rename can be among them (nothing both added and deleted) and every changed entry is a
        file: libgit2's diff compares every entry of a changed folder, this walk only the entries
        whose ids differ. None: the caller asks libgit2."""
        found: list[Change] = []
        stack: list[tuple[str, Any, Any]] = [("", self._tree_obj(old), self._tree_obj(new))]
        while stack:
            base, before, after = stack.pop()
            olds = {e.name: e for e in before} if before is not None else {}
            news = {e.name: e for e in after} if after is not None else {}
            for name in olds.keys() | news.keys():
                was, now = olds.get(name), news.get(name)
                if was is not None and now is not None and was.id == now.id and was.filemode == now.filemode:
                    continue
                kinds = {e.type_str for e in (was, now) if e is not None}
                inner = f"{base}/{name}" if base else str(name)
                if kinds == {"tree"}:
                    stack.append((inner, self.repo[was.id] if was else None, self.repo[now.id] if now else None))
                    continue
                path = f"{prefix}/{inner}"
                if kinds != {"blob"}:
                    return None  # a file became a folder, or a submodule: libgit2 says how
                status = "modified" if was is not None and now is not None else "added" if now else "deleted"
                found.append(
                    Change(
                        status=status,
                        old_path=path if was is not None else None,
                        new_path=path if now is not None else None,
                        old_blob=str(was.id) if was is not None else None,
                        new_blob=str(now.id) if now is not None else None,
                    )
                )
        statuses = {c.status for c in found}
        if {"added", "deleted"} <= statuses:
            return None  # a rename may be among them
        return sorted(found, key=lambda c: c.new_path or c.old_path or "")
