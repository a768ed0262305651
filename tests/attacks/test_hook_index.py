"""R34, R42: the pre-commit hook checks the index git hands it. `git commit -a`, `git commit PATH` and
`git commit --only PATH` do not commit `.git/index`: git builds another index (`index.lock`,
`next-index-<pid>.lock`) and names it in GIT_INDEX_FILE, and runs the hook with GIT_DIR set when the
commit was told where the repository is (`--git-dir`, a linked work tree).

Each test commits through the real hook: `core.hooksPath` names a folder whose pre-commit runs this
worktree's `python -m wikigen hook`, as hooks/pre-commit does.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV, GitRepo, source
from tests.corpora import REPO_ROOT

K = "content/sources/knowledge"
GOOD = source("Concept Alpha: the first letter, and a body long enough to be a passage.\n", title="A")
BETTER = source("Concept Alpha: the first letter of the alphabet, and a passage of its own.\n", title="A")
BROKEN = "---\ntitle: Broken\ntags: [a, b\n---\nA body long enough to be a passage of its own, it is.\n"


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The git command as a user runs it: none of this process's GIT_ variables but the identity."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(["git", *args], cwd=cwd, text=True, capture_output=True, env={**env, **GIT_ENV})


@pytest.fixture
def hooked(git_repo: GitRepo, tmp_path: Path) -> GitRepo:
    """A repo with one committed source whose commits run the real pre-commit hook."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    hook = hooks / "pre-commit"
    hook.write_text(
        f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(REPO_ROOT))} exec {shlex.quote(sys.executable)} -m wikigen hook\n"
    )
    hook.chmod(0o755)
    git_repo.commit({f"{K}/a.md": GOOD}, message="first")
    assert git(git_repo.root, "config", "core.hooksPath", str(hooks)).returncode == 0
    return git_repo


def head(cwd: Path) -> str:
    return git(cwd, "rev-parse", "HEAD").stdout.strip()


COMMITS = {
    "all": ("commit", "-a", "-m", "edit"),
    "path": ("commit", "-m", "edit", f"{K}/a.md"),
    "only": ("commit", "--only", "-m", "edit", f"{K}/a.md"),
    "all with --git-dir": ("--git-dir=.git", "--work-tree=.", "commit", "-a", "-m", "edit"),
}


@pytest.mark.parametrize("command", COMMITS.values(), ids=list(COMMITS))
def test_a_source_committed_past_the_index_is_refused_while_broken_and_accepted_once_fixed(
    hooked: GitRepo, command: tuple[str, ...]
):
    """R34: a source broken in the work tree only (the index holds the good one) is committed by
    `commit -a`, `commit PATH` and `commit --only PATH`: the hook reads the index git hands it in
    GIT_INDEX_FILE, names the file and refuses, HEAD staying where it was; the same commit of the
    fixed source goes in, and the hook's summary counts it."""
    before = head(hooked.root)
    hooked.write({f"{K}/a.md": BROKEN})
    refused = git(hooked.root, *command)
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert f"{K}/a.md:4: " in refused.stderr
    assert "commit refused" in refused.stderr and "Traceback" not in refused.stderr
    assert head(hooked.root) == before
    hooked.write({f"{K}/a.md": BETTER})
    accepted = git(hooked.root, *command)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "wikigen: 1 source(s) changed (1 added, 0 updated, 0 withdrawn)" in accepted.stderr
    assert head(hooked.root) != before
    assert git(hooked.root, "show", f"HEAD:{K}/a.md").stdout == BETTER


def test_a_broken_source_staged_but_left_out_of_commit_only_does_not_refuse_it(hooked: GitRepo):
    """R34: `commit --only PATH` commits HEAD plus PATH, not what else is staged: a broken source
    staged in `.git/index` is not part of it, so the hook accepts, and it stays staged."""
    hooked.write({f"{K}/a.md": BETTER, f"{K}/broken.md": BROKEN})
    assert git(hooked.root, "add", f"{K}/broken.md").returncode == 0
    accepted = git(hooked.root, "commit", "--only", "-m", "edit", f"{K}/a.md")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert git(hooked.root, "show", f"HEAD:{K}/a.md").stdout == BETTER
    assert git(hooked.root, "ls-tree", "--name-only", "HEAD", f"{K}/").stdout.split() == [f"{K}/a.md"]
    assert git(hooked.root, "diff", "--cached", "--name-only").stdout.split() == [f"{K}/broken.md"]


def test_the_hook_in_a_linked_work_tree_checks_the_index_of_commit_all(hooked: GitRepo, tmp_path: Path):
    """R34, R42: in a linked work tree git runs the hook with GIT_DIR at the work tree's git folder
    and GIT_INDEX_FILE at its `index.lock`: honoured, so `commit -a` of a broken source is refused."""
    linked = tmp_path / "linked"
    assert git(hooked.root, "worktree", "add", "-q", "-b", "side", str(linked)).returncode == 0
    before = head(linked)
    (linked / K / "a.md").write_text(BROKEN, encoding="utf-8")
    refused = git(linked, "commit", "-a", "-m", "edit")
    assert refused.returncode != 0 and f"{K}/a.md:4: " in refused.stderr, refused.stdout + refused.stderr
    assert head(linked) == before
    (linked / K / "a.md").write_text(BETTER, encoding="utf-8")
    accepted = git(linked, "commit", "-a", "-m", "edit")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative to the top"])
def test_check_staged_reads_the_index_git_index_file_names(
    hooked: GitRepo, monkeypatch: pytest.MonkeyPatch, relative: bool
):
    """R34, R42: `check --staged` with GIT_INDEX_FILE at an index holding a broken source fails and
    names the file, while the repository's own index (the good source) passes; a relative name is
    read from the top of the work tree, as git reads it (a plain commit's hook gets `.git/index`)."""
    index = hooked.root / ".git" / "other-index"
    env = {"GIT_INDEX_FILE": str(index)}
    hooked.write({f"{K}/a.md": BROKEN})
    assert subprocess.run(["git", "add", f"{K}/a.md"], cwd=hooked.root, env={**os.environ, **env}).returncode == 0
    hooked.write({f"{K}/a.md": GOOD})
    assert hooked.wikigen("check", "--staged").code == 0
    monkeypatch.chdir(REPO_ROOT)  # another repository: the name is not read from the process's folder
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/other-index" if relative else str(index))
    refused = hooked.wikigen("check", "--staged")
    assert refused.code == 1 and f"{K}/a.md:4: " in refused.out, refused
