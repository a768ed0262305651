"""Reading history: HEAD, revisions, commits, their trees and the paths they changed."""

from __future__ import annotations

import pygit2

from wikigen.model.errors import GitStoreError
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store.git_errors import translated
from wikigen.store.trees import TreeReader


class History(TreeReader):
    """The reads of commits and refs, mixed into :class:`wikigen.store.git.GitStore`."""

    def head_ref(self) -> str:
        """The branch HEAD points at (refs/heads/...), also when it has no commit yet."""
        if self.repo.head_is_detached:
            raise GitStoreError(
                "HEAD is detached; check out a branch (e.g. `git switch main`) before compiling"
            )
        target = self.repo.references["HEAD"].target
        return str(target)

    def head_commit(self) -> str | None:
        if self.repo.head_is_unborn:
            return None
        with translated("reading HEAD"):
            return str(self.repo.head.target)

    def resolve(self, rev: str) -> str:
        with translated(f"resolving {rev!r}"):
            return str(self.repo.revparse_single(rev).peel(pygit2.Commit).id)

    def find_commit(self, rev: str) -> str | None:
        """The commit ``rev`` names; None when it names none (no such name, or a tree or a blob)."""
        with translated(f"resolving {rev!r}"):
            try:
                return str(self.repo.revparse_single(rev).peel(pygit2.Commit).id)
            except (KeyError, ValueError):  # pygit2's NotFoundError and InvalidSpecError
                return None

    def commit_tree(self, commit: str | None) -> str:
        if commit is None:
            return EMPTY_TREE
        with translated(f"reading commit {commit}"):
            return str(self.repo[commit].peel(pygit2.Commit).tree.id)

    def commit_info(self, commit: str) -> tuple[str, str, list[str]]:
        with translated(f"reading commit {commit}"):
            obj = self.repo[commit].peel(pygit2.Commit)
            return obj.author.name, obj.message, [str(p) for p in obj.parent_ids]

    def commit_time(self, commit: str) -> int:
        """The committer time of ``commit``, in seconds since the epoch (what views stamp, never the clock)."""
        with translated(f"reading commit {commit}"):
            return int(self.repo[commit].peel(pygit2.Commit).commit_time)

    def changed_paths(self, commit: str) -> list[str]:
        """Paths a commit changed against its first parent."""
        _, _, parents = self.commit_info(commit)
        old = self.commit_tree(parents[0]) if parents else EMPTY_TREE
        new = self.commit_tree(commit)
        with translated("diffing a commit"):
            diff = self._tree_obj(old).diff_to_tree(self._tree_obj(new))
            return sorted({d.new_file.path for d in diff.deltas} | {d.old_file.path for d in diff.deltas})

    def blob_at(self, commit: str, path: str) -> str | None:
        """The blob id at ``path`` in ``commit``'s tree; None when no file is there."""
        with translated(f"reading {path} in {commit}"):
            tree = str(self.repo[commit].peel(pygit2.Commit).tree_id)
        return self.blob_in(tree, path)

    def commits_since(self, head: str, base: str, limit: int = 1000) -> list[str]:
        """Commits reachable from ``head`` but not from ``base``, newest first, at most ``limit``."""
        with translated("walking the history"):
            walker = self.repo.walk(head, pygit2.enums.SortMode.TOPOLOGICAL)
            walker.hide(base)
            return [str(c.id) for c, _ in zip(walker, range(limit), strict=False)]
