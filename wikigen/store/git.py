"""The repository, opened once (:class:`GitStore`): where git's environment says (R42), refused where
wikigen cannot work in it. What the store does with it lives in a module per job, mixed into the
class: reading trees and blobs (:mod:`~wikigen.store.trees`), diffs (:mod:`~wikigen.store.tree_diff`),
the compiler's own files (:mod:`~wikigen.store.generated_files`), history
(:mod:`~wikigen.store.history`), writing objects (:mod:`~wikigen.store.object_writer`), moving refs
(:mod:`~wikigen.store.refs`), notes (:mod:`~wikigen.store.notes`), the index and the work tree
(:mod:`~wikigen.store.work_tree`). pygit2's errors become wikigen's in :mod:`~wikigen.store.git_errors`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygit2

from wikigen.model.errors import GitStoreError
from wikigen.store.environment import GitEnvironment, command_environment
from wikigen.store.generated_files import GeneratedFiles
from wikigen.store.notes import Notes
from wikigen.store.tree_diff import Change, TreeDiff
from wikigen.store.work_tree import WorkTree


def _discover(start: str) -> str | None:
    """The git folder of the repository ``start`` lies in, found as git finds it without GIT_DIR."""
    try:
        found = pygit2.discover_repository(start)
    except pygit2.GitError:
        return None
    return str(found) if found is not None else None


def _same_place(a: Path | str, b: Path | str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _open(path: Path | str, environment: GitEnvironment) -> pygit2.Repository:
    """The repository, with the work tree git's environment names (R42); refuses where the
    environment points a folder of one repository at another repository or another work tree, since
    git would then read one and write the other."""
    start = os.path.abspath(path)
    own = _discover(start)
    if environment.git_dir is None:
        if own is None:
            raise GitStoreError(f"{path} is not inside a git repository; run `git init` first")
        repo = pygit2.Repository(own)
    else:
        try:
            repo = pygit2.Repository(str(environment.git_dir))
        except pygit2.GitError:
            raise GitStoreError(
                f"GIT_DIR names {environment.git_dir}, which is not a git repository; "
                "unset GIT_DIR (`unset GIT_DIR`) or point it at one"
            ) from None
        if own is not None and not _same_place(own, repo.path):
            theirs = pygit2.Repository(own).workdir or own
            raise GitStoreError(
                f"GIT_DIR names the repository {environment.git_dir}, but {start} belongs to the repository "
                f"of {theirs.rstrip('/')}: git would read one and wikigen write the other. Unset GIT_DIR "
                f"(`unset GIT_DIR`) to work in {theirs.rstrip('/')}, or run wikigen in the work tree of "
                f"{environment.git_dir}."
            )
    # Git's work tree: GIT_WORK_TREE, else with GIT_DIR the configured one (core.worktree) or the
    # folder git was started in — also for a linked work tree's git folder.
    meant = environment.work_tree
    if meant is None and environment.git_dir is not None and not repo.is_bare and "core.worktree" not in repo.config:
        meant = Path(start)
    if meant is not None and (repo.workdir is None or not _same_place(meant, repo.workdir)):
        if own is not None:
            variable = "GIT_WORK_TREE" if environment.work_tree is not None else "GIT_DIR without GIT_WORK_TREE"
            top = (repo.workdir or start).rstrip("/")
            raise GitStoreError(
                f"{variable} makes {meant} the top of the work tree, but the repository's work tree is {top}: "
                f"git and wikigen would see different files. Unset GIT_DIR and GIT_WORK_TREE, or set "
                f"GIT_WORK_TREE={top}."
            )
        repo.workdir = str(meant)  # a folder of no repository of its own: git's work tree is honoured
    return repo


class GitStore(Notes, WorkTree, TreeDiff, GeneratedFiles):
    """A repository opened once; counts the source blobs it reads (``blobs_read``)."""

    def __init__(self, path: Path | str) -> None:
        environment = GitEnvironment.read(path)
        self.repo = _open(path, environment)
        if self.repo.is_bare or self.repo.workdir is None:
            raise GitStoreError(f"{self.repo.path} is a bare repository; wikigen needs a work tree")
        self.root = Path(self.repo.workdir)
        # R34, R42: the index git names (a hook is handed the one about to be committed); None when it
        # is the repository's own, which libgit2 opens itself.
        alternate = environment.index_path(self.root)
        own_index = Path(self.repo.path) / "index"
        self.alternate_index = None if alternate is None or _same_place(alternate, own_index) else alternate
        self.index_file = self.alternate_index or own_index
        self.environment = command_environment(self.repo.path, self.root, self.alternate_index)
        self.blobs_read = 0
        self.generated_bytes_read = 0  # bytes of snapshot shards read (read_generated, generated_files)
        # Two trees' diff never changes: a compile asks the sources diff of its plan twice
        self._diffs: dict[tuple[str, str, str, bool], tuple[Change, ...]] = {}

    def refuse_shallow(self) -> None:
        """A shallow clone lacks the trees and blobs of earlier commits that the baseline
        snapshot names (its sources tree, the compiled versions), so say how to fetch them first."""
        if self.repo.is_shallow:
            raise GitStoreError(
                f"{self.root} is a shallow clone (its history is cut off), but wikigen reads the sources "
                "and the snapshot of earlier commits. Fetch the whole history with `git fetch --unshallow`; "
                "in GitHub Actions set `fetch-depth: 0` on actions/checkout. Then run again."
            )

    def cache_path(self, name: str) -> Path:
        """A file of wikigen's own caches, under the git directory (never committed, never pushed)."""
        return Path(self.repo.path) / "wikigen" / name
