"""The work tree's and the index's state (R38): read with the git command line where one is
installed (it stats a large work tree several times faster than libgit2, and compares the index with
HEAD from its cache tree), else with libgit2 — both give the same answer, for what `compile` refuses
before it sends anything (generated files staged against HEAD) and what `status` reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import GitRepo, source
from wikigen.store import git_cli as worktree
from wikigen.store import work_tree as gitstore
from wikigen.store.git import GitStore
from wikigen.store.git_cli import GENERATED

K = "content/sources/knowledge"


def answers(root: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    store = GitStore(root)
    return store.uncommitted("content/wiki"), store.uncommitted("content/sources")


def test_the_command_line_and_libgit2_read_the_same_status(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch):
    git_repo.commit(
        {
            f"{K}/a.md": source("Alpha is a letter."),
            f"{K}/b.md": source("Beta is a letter."),
            f"{K}/c d é.md": source("Gamma is a letter."),
            "content/wiki/articles/x.md": "generated\n",
            "content/wiki/articles/y.md": "generated\n",
            "content/.wikigen/snapshot.json": "{}\n",
        }
    )
    root = git_repo.root
    (root / f"{K}/a.md").write_text(source("Alpha is the first letter."))  # changed, not staged
    git_repo.stage({f"{K}/b.md": source("Beta is the second letter.")})  # staged
    (root / f"{K}/c d é.md").unlink()  # deleted, not staged
    (root / f"{K}/new one.md").write_text(source("Delta is a letter."))  # untracked
    (root / "content/wiki/articles/x.md").write_text("edited by hand\n")
    git_repo.stage({"content/wiki/articles/y.md": None})
    (root / "content/wiki/articles/z.md").write_text("untracked: not a local change to a generated file\n")

    assert GitStore(root)._cli_status(["-uno"], ["content"]) is not None  # the command line answered, not libgit2
    cli = answers(root)
    assert cli[0] == {
        "staged": ["content/wiki/articles/y.md"],
        "changed": ["content/wiki/articles/x.md"],
        "untracked": ["content/wiki/articles/z.md"],
    }
    assert cli[1] == {
        "staged": [f"{K}/b.md"],
        "changed": [f"{K}/a.md", f"{K}/c d é.md"],
        "untracked": [f"{K}/new one.md"],
    }
    monkeypatch.setattr(gitstore.shutil, "which", lambda name: None)  # no git installed: libgit2
    assert answers(root) == cli


def test_the_command_line_and_libgit2_bring_the_index_to_the_same_tree(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """checkout_paths updates the index with `git update-index` where git is installed, else with
    libgit2: the same index either way (what the next commit records), and a clean status."""
    git_repo.commit({f"{K}/a.md": source("Alpha is a letter."), "content/wiki/articles/x.md": "old\n"})
    root = git_repo.root
    store = GitStore(root)
    target = store.build_tree(
        store.commit_tree(store.head_commit()),
        {"content/wiki/articles/x.md": b"new\n", "content/wiki/articles/y z.md": b"added\n"},
    )
    paths = ["content/wiki/articles/x.md", "content/wiki/articles/y z.md"]

    def checked_out() -> tuple[str, list[str]]:
        store = GitStore(root)
        store.checkout_paths(target, paths)
        return store.index_tree(), store.uncommitted("content/wiki")

    assert store._cli_update_index([]) is True  # the command line is there and answers
    cli = checked_out()
    assert cli[0] == target and (root / "content/wiki/articles/y z.md").read_text() == "added\n"
    removal = store.build_tree(target, {"content/wiki/articles/y z.md": None})
    GitStore(root).checkout_paths(removal, paths)
    assert GitStore(root).index_tree() == removal and not (root / "content/wiki/articles/y z.md").exists()
    monkeypatch.setattr(gitstore.shutil, "which", lambda name: None)  # no git installed: libgit2
    assert checked_out() == cli


def test_a_split_index_is_read_through_the_command_line(git_repo: GitRepo):
    """`git config core.splitIndex true` (git's setting for large repositories) writes an
    index libgit2 cannot read ("unsupported mandatory extension: 'link'"): --staged then asks `git
    write-tree`, and `check --staged` (the pre-commit hook) still works."""
    import subprocess

    git_repo.commit({f"{K}/a.md": source("Alpha is a letter.")})
    root = git_repo.root
    subprocess.run(["git", "update-index", "--split-index"], cwd=root, check=True)
    git_repo.write({f"{K}/b.md": source("Beta is a letter.")})
    subprocess.run(["git", "add", f"{K}/b.md"], cwd=root, check=True)
    assert list((root / ".git").glob("sharedindex.*"))
    expected = subprocess.run(["git", "write-tree"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    assert GitStore(root).index_tree() == expected
    assert git_repo.wikigen("check", "--staged").code == 0


def test_the_staged_generated_files_read_the_same_through_the_command_line_and_libgit2(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """R38: what a compile refuses before it sends anything: generated files whose index entry
    is not HEAD's — asked of `git diff-index --cached`, which stats no file, or of libgit2; a work-tree
    edit that is not staged is not listed (the compile checks the files it writes itself). `wikigen
    compile` asks in the folder it was given, before it knows the repository: from a subfolder the
    paths are the root's, as GitStore's are."""
    root = git_repo.root
    git_repo.stage({"content/wiki/articles/new.md": "staged before any commit\n"})
    assert worktree.start_staged_paths(root)() is None  # no HEAD yet: the command line cannot tell
    assert worktree.start_staged_paths(tmp_path)() is None  # not a repository: libgit2 answers (or not)
    assert GitStore(root).start_staged_paths(GENERATED)() == ["content/wiki/articles/new.md"]
    git_repo.commit(
        {
            f"{K}/a.md": source("Alpha is a letter."),
            "content/wiki/articles/x.md": "generated\n",
            "content/wiki/articles/y é.md": "generated\n",
            "content/.wikigen/snapshot.json": "{}\n",
        }
    )
    git_repo.stage({"content/wiki/articles/x.md": "edited and staged\n", "content/.wikigen/snapshot.json": None})
    (root / "content/wiki/articles/y é.md").write_text("edited, not staged\n")
    git_repo.stage({f"{K}/a.md": source("Alpha is the first letter.")})  # a source: not asked
    expected = ["content/.wikigen/snapshot.json", "content/wiki/articles/x.md"]
    assert worktree.start_staged_paths(root / "content/sources")() == expected
    assert GitStore(root).start_staged_paths(GENERATED, started=worktree.start_staged_paths(root))() == expected
    monkeypatch.setattr(worktree.shutil, "which", lambda name: None)  # no git installed: libgit2
    assert GitStore(root).start_staged_paths(GENERATED)() == expected


def test_the_work_tree_changes_a_compile_would_overwrite(git_repo: GitRepo):
    """Of the files a compile writes, those whose bytes are neither HEAD's nor the new ones."""
    git_repo.commit({"content/wiki/articles/x.md": "old\n", "content/wiki/articles/y.md": "old\n"})
    root = git_repo.root
    store = GitStore(root)
    head = store.commit_tree(store.head_commit())
    new = store.build_tree(head, {"content/wiki/articles/x.md": b"new\n", "content/wiki/articles/z.md": b"new\n"})
    paths = ["content/wiki/articles/x.md", "content/wiki/articles/y.md", "content/wiki/articles/z.md"]
    assert store.work_tree_changes(head, paths, new) == []
    (root / "content/wiki/articles/x.md").write_text("new\n")  # already the new bytes: nothing lost
    (root / "content/wiki/articles/z.md").write_text("untracked, other bytes\n")
    (root / "content/wiki/articles/y.md").unlink()  # deleted: nothing to lose
    assert store.work_tree_changes(head, paths, new) == ["content/wiki/articles/z.md"]
    # before the engine's answer only HEAD's bytes can tell: z (not in HEAD) is left to the exact check
    assert store.work_tree_changes(head, paths) == ["content/wiki/articles/x.md"]
    (root / "content/wiki/articles/x.md").write_text("edited by hand\n")
    assert store.work_tree_changes(head, paths, new) == ["content/wiki/articles/x.md", "content/wiki/articles/z.md"]


def test_a_file_checked_out_through_a_filter_is_no_local_change(git_repo: GitRepo):
    """A generated file checked out with CRLF line ends (`.gitattributes` eol=crlf) has other bytes
    than its blob, yet git sees it unchanged: a compile does not refuse it; an edit still is refused."""
    git_repo.commit({".gitattributes": "*.md text eol=crlf\n", "content/wiki/articles/x.md": "one\ntwo\n"})
    root = git_repo.root
    path = root / "content/wiki/articles/x.md"
    path.unlink()
    git_repo.git("checkout", "--", "content/wiki/articles/x.md")
    assert path.read_bytes() == b"one\r\ntwo\r\n"  # what the filter wrote
    store = GitStore(root)
    head = store.commit_tree(store.head_commit())
    assert store.work_tree_changes(head, ["content/wiki/articles/x.md"]) == []
    path.write_bytes(b"one\r\nedited\r\n")
    assert store.work_tree_changes(head, ["content/wiki/articles/x.md"]) == ["content/wiki/articles/x.md"]
