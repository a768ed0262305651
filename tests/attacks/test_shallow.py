"""R7: a shallow clone (GitHub Actions' default `fetch-depth: 1`) is detected before anything
is read, and every command that needs history says exactly how to fetch it.

Before the fix, `compile` on a depth-1 clone whose tip is a user commit failed with "git object not
found while diffing trees" and `verify` failed, with no hint to fetch the history.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pygit2
import pytest

from tests.conftest import GIT_ENV, GitRepo, source

K = "content/sources/knowledge"
POD = "# Pods\n\nA pod is a group of one or more containers that share storage and network resources.\n"
NODE = "# Nodes\n\nA node is a worker machine that runs pods and is managed by the control plane.\n"
HINTS = ("git fetch --unshallow", "fetch-depth: 0")


def _shallow_clone(origin: GitRepo, target: Path) -> GitRepo:
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", "--branch", "main", f"file://{origin.root}", str(target)],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )
    clone = GitRepo.__new__(GitRepo)  # the fixture class, on a clone instead of a new repo
    clone.root = target
    clone.repo = pygit2.Repository(str(target))
    assert clone.repo.is_shallow
    return clone


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    """A compiled origin whose tip is a user commit (a changed source); compiled once per module."""
    git_repo = GitRepo(tmp_path_factory.mktemp("origin") / "repo")
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    git_repo.commit({f"{K}/pod.md": source(POD + "\nPods are scheduled onto nodes.\n", title="Pods"),
                     f"{K}/node.md": source(NODE, title="Nodes")}, message="user edit")
    return git_repo


@pytest.fixture
def shallow(origin: GitRepo, tmp_path: Path) -> GitRepo:
    return _shallow_clone(origin, tmp_path / "clone")


@pytest.mark.parametrize(
    "args",
    [("compile", "--engine", "offline"), ("plan",), ("verify",), ("status",), ("push",), ("check", "--staged")],
)
def test_commands_that_need_history_say_how_to_fetch_it(shallow: GitRepo, args: tuple[str, ...]):
    """R7: compile, plan, verify, status, push (and the index check) refuse a shallow clone
    before reading anything, naming `git fetch --unshallow` and `fetch-depth: 0`; nothing is published."""
    head = shallow.head()
    result = shallow.wikigen(*args)
    assert result.code == 1, result
    assert "shallow clone" in result.err and all(hint in result.err for hint in HINTS), result.err
    assert "Traceback" not in result.out + result.err and "internal error" not in result.err
    assert shallow.head() == head


def test_unshallow_then_compile_works(shallow: GitRepo):
    """R7: the advice works — after `git fetch --unshallow` the compile publishes and verifies."""
    assert shallow.wikigen("check").code == 0  # the work tree alone needs no history
    shallow.git("fetch", "-q", "--unshallow")
    assert shallow.wikigen("compile", "--engine", "offline").code == 0
    assert shallow.wikigen("verify").code == 0
