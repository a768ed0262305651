"""R42: git's environment means what it means to git. GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE are
honoured by libgit2 and by every git command wikigen starts alike, or the command refuses, naming the
variable — where they point a folder of one repository at another repository or another work tree,
or move the objects where libgit2 does not look. A compile never writes into two repositories.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.attacks.test_publish_truth import cli_compile, generated_status, note, seeded
from tests.conftest import GitRepo
from tests.corpora import REPO_ROOT
from wikigen.cli import main


def state(repo: GitRepo) -> dict[str, str]:
    """Every ref (branches and refs/notes/wikigen), the index's bytes and the work tree's status."""
    index = repo.root / ".git" / "index"
    return {
        "refs": repo.git("for-each-ref", "--format=%(refname) %(objectname)").stdout,
        "index": hashlib.sha256(index.read_bytes()).hexdigest(),
        "status": repo.git("status", "--porcelain", "-uall").stdout,
    }


def run_cli(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue() + err.getvalue()


def test_a_compile_with_git_dir_at_another_repository_is_refused_and_writes_neither(make_repo):  # type: ignore[no-untyped-def]
    """R42: `GIT_DIR=<B> wikigen -C <A> compile` — libgit2 found A while git went to B, so a compile
    committed in A and staged its files and wrote its note in B. Now it refuses, naming GIT_DIR, and
    neither repository's refs, notes, index or work tree moves."""
    one, other = make_repo(), make_repo()
    seeded(one)
    seeded(other)
    before = {"one": state(one), "other": state(other)}
    result = cli_compile(one, env={"GIT_DIR": str(other.root / ".git")})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "GIT_DIR" in result.stderr and "unset GIT_DIR" in result.stderr and "internal error" not in result.stderr
    assert {"one": state(one), "other": state(other)} == before


def test_git_dir_and_git_work_tree_naming_a_repository_are_honoured_from_a_folder_outside_it(
    git_repo: GitRepo, tmp_path: Path
):
    """R42: GIT_DIR and GIT_WORK_TREE naming one repository, wikigen started in a folder of none (as
    git allows): the compile reads and publishes there, and git's view agrees with it — the index
    holds the new snapshot's files, the note is on the source commit."""
    source_commit = seeded(git_repo)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {**os.environ, "WIKIGEN_TEST_CLI": "1", "GIT_DIR": str(git_repo.root / ".git"), "GIT_WORK_TREE": str(git_repo.root)}
    result = subprocess.run(
        [sys.executable, "-m", "tests.compile_script", str(outside)],
        cwd=REPO_ROOT, text=True, capture_output=True, env=env, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert git_repo.head() != source_commit and git_repo.git("log", "-1", "--format=%an").stdout.strip() == "wikigen"
    assert generated_status(git_repo) == "" and git_repo.git("diff", "--cached", "--name-only").stdout == ""
    assert note(git_repo, source_commit)["status"] == "ok"
    assert list(outside.iterdir()) == []


def test_git_dir_without_git_work_tree_from_a_subfolder_is_refused(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch):
    """R42: GIT_DIR without GIT_WORK_TREE makes git take the folder it starts in for the top of the
    work tree; from a subfolder that is not the repository's work tree, so wikigen refuses and says
    which variable to set."""
    seeded(git_repo)
    monkeypatch.setenv("GIT_DIR", str(git_repo.root / ".git"))
    code, said = run_cli("-C", str(git_repo.root / "content"), "status")
    assert code == 1 and "GIT_DIR without GIT_WORK_TREE" in said and f"GIT_WORK_TREE={git_repo.root}" in said, said
    monkeypatch.setenv("GIT_WORK_TREE", str(git_repo.root))
    assert run_cli("-C", str(git_repo.root / "content"), "status")[0] == 0


@pytest.mark.parametrize("variable", ["GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"])
def test_a_variable_that_moves_the_objects_is_refused_before_anything_is_written(
    git_repo: GitRepo, tmp_path: Path, variable: str
):
    """R42: GIT_OBJECT_DIRECTORY or GIT_COMMON_DIR would send git's objects where libgit2 does not
    look: the compile refuses, naming the variable, and the repository stays as it was."""
    seeded(git_repo)
    before = state(git_repo)
    elsewhere = tmp_path / "objects"
    elsewhere.mkdir()
    result = cli_compile(git_repo, env={variable: str(elsewhere)})
    assert result.returncode == 1 and f"{variable} is set" in result.stderr, result.stderr
    assert state(git_repo) == before and list(elsewhere.iterdir()) == []
