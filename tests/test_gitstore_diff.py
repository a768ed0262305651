"""R7: the tree diff a plan and a publish read walks only the folders whose ids differ, and
says exactly what libgit2's diff (and `git diff-tree`) says: modified, added and deleted files,
renames of identical content, a mode change, a file that became a folder."""

from __future__ import annotations

import os

import pytest

from tests.conftest import GitRepo
from wikigen.store.git import GitStore
from wikigen.store.tree_diff import Change

S = "content/sources"


def libgit2_diff(store: GitStore, old: str, new: str, prefix: str) -> list[Change]:
    """What the store's diff says when its walk steps aside."""
    plain = GitStore(store.root)
    plain._changed_entries = lambda *_: None  # type: ignore[method-assign]
    return plain.diff(old, new, prefix)


def cli_diff(repo: GitRepo, old: str, new: str) -> set[tuple[str, str]]:
    out = repo.git("diff-tree", "-r", "--no-renames", "--name-status", old, new).stdout
    return {(line.split("\t")[0], line.split("\t")[1]) for line in out.splitlines() if line}


def tree_of(repo: GitRepo, commit: str, folder: str = S) -> str:
    return str(repo.repo.get(commit).tree[folder].id)  # type: ignore[union-attr]


@pytest.fixture()
def history(git_repo: GitRepo) -> tuple[GitRepo, list[str]]:
    commits = [
        git_repo.commit(
            {f"{S}/knowledge/a{i}.md": f"page {i}\n" for i in range(30)}
            | {f"{S}/knowledge/deep/b.md": "deep\n", f"{S}/tasks/t.md": "task\n"}
        )
    ]
    steps: list[dict[str, str | None]] = [
        {f"{S}/knowledge/a3.md": "page 3, edited\n"},  # one edit in a wide folder
        {f"{S}/knowledge/new.md": "new\n", f"{S}/tasks/t2.md": "task 2\n"},  # added only
        {f"{S}/knowledge/a4.md": None, f"{S}/knowledge/deep/b.md": None},  # deleted only, a folder emptied
        {f"{S}/knowledge/a5.md": None, f"{S}/knowledge/moved.md": "page 5\n"},  # a rename
        {f"{S}/tasks/t.md": None, f"{S}/tasks/t.md/inner.md": "inner\n"},  # a file became a folder
    ]
    for step in steps:
        commits.append(git_repo.commit(step))
    os.chmod(git_repo.root / S / "knowledge" / "a6.md", 0o755)  # a mode change alone
    index = git_repo.repo.index
    index.read()
    index.add(f"{S}/knowledge/a6.md")
    index.write()
    commits.append(git_repo.commit())
    return git_repo, commits


def test_the_walk_says_what_libgit2_and_the_git_cli_say(history: tuple[GitRepo, list[str]]) -> None:
    repo, commits = history
    store = GitStore(repo.root)
    pairs = [(a, b) for i, a in enumerate(commits) for b in commits[i + 1 :]]
    walked = 0
    for old, new in pairs:
        before, after = tree_of(repo, old), tree_of(repo, new)
        found = store.diff(before, after, S)
        assert found == libgit2_diff(store, before, after, S)
        if store._changed_entries(before, after, S) is not None:
            walked += 1
        expected = cli_diff(repo, old, new)
        said = {
            (c.status[0].upper(), path)
            for c in found
            for path in ([c.old_path, c.new_path] if c.status == "renamed" else [c.new_path or c.old_path])
            if path
        }
        assert {path for _, path in said} == {path for _, path in expected}
    assert walked == 5  # the edit, the additions, both, the deletions and the mode change took the walk


def test_a_rename_and_a_file_turned_folder_are_left_to_libgit2(history: tuple[GitRepo, list[str]]) -> None:
    repo, commits = history
    store = GitStore(repo.root)
    rename = (tree_of(repo, commits[3]), tree_of(repo, commits[4]))
    assert store._changed_entries(*rename, S) is None
    assert [c.status for c in store.diff(*rename, S)] == ["renamed"]
    folder = (tree_of(repo, commits[4]), tree_of(repo, commits[5]))
    assert store._changed_entries(*folder, S) is None


def test_a_diff_is_computed_once_per_pair_of_trees(history: tuple[GitRepo, list[str]]) -> None:
    repo, commits = history
    store = GitStore(repo.root)
    before, after = tree_of(repo, commits[0]), tree_of(repo, commits[1])
    first = store.diff(before, after, S)
    first.clear()  # a caller's list is its own
    calls = []
    store._changed_entries = lambda *args: calls.append(args)  # type: ignore[method-assign]
    assert [c.status for c in store.diff(before, after, S)] == ["modified"] and not calls
