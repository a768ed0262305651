"""R34: the pre-commit hook finds wikigen without an active virtual environment. The hook `wikigen init`
writes runs the interpreter wikigen was installed with; this repository's `hooks/pre-commit` runs
`.venv/bin/python` (what `make setup` builds) at the top of the repository.

Each commit runs through real git with PATH cut to /usr/bin:/bin, as in a shell where no virtual
environment is active; PYTHONPATH names this worktree so that its code is the one imported.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV, source
from tests.corpora import REPO_ROOT
from wikigen.commands import init as init_module

K = "content/sources/knowledge"
GOOD = source("Concept Alpha: the first letter, and a body long enough to be a passage.\n", title="A")
BROKEN = "---\ntitle: Broken\ntags: [a, b\n---\nA body long enough to be a passage of its own, it is.\n"
NO_VENV = "/usr/bin:/bin"


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git as run from a shell with no virtual environment active: no GIT_ variables but the identity."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "VIRTUAL_ENV"))}
    env.update(GIT_ENV, PATH=NO_VENV, PYTHONPATH=str(REPO_ROOT))
    return subprocess.run(["/usr/bin/git", *args], cwd=cwd, text=True, capture_output=True, env=env)


def wikigen_init(repo: Path, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [python, "-m", "wikigen", "init", "--install-spec", "wikigen-compiler==0.1.0"],
        cwd=repo, text=True, capture_output=True, env=env,
    )  # fmt: skip


def refuses_broken_and_accepts_good(repo: Path) -> None:
    """A commit of a broken source is refused by wikigen (path and line), a good one goes in."""
    assert git(repo, "config", "core.hooksPath", "hooks").returncode == 0
    (repo / K).mkdir(parents=True, exist_ok=True)
    (repo / K / "broken.md").write_text(BROKEN, encoding="utf-8")
    assert git(repo, "add", "-A").returncode == 0
    refused = git(repo, "commit", "-m", "broken")
    assert refused.returncode != 0 and f"{K}/broken.md:4: " in refused.stderr, refused.stdout + refused.stderr
    assert "No module named" not in refused.stderr
    assert git(repo, "rev-parse", "--verify", "-q", "HEAD").returncode != 0  # nothing was committed
    (repo / K / "broken.md").write_text(GOOD, encoding="utf-8")
    assert git(repo, "add", "-A").returncode == 0
    accepted = git(repo, "commit", "-m", "good")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "source(s) changed" in accepted.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    root.mkdir()
    assert git(root, "init", "-q", "-b", "main").returncode == 0
    return root


def test_the_hook_wikigen_init_writes_runs_the_installing_python_with_no_venv_on_path(repo: Path):
    """R34: `wikigen init` writes a hook naming the interpreter it ran under and says so; with no
    virtual environment on PATH that hook refuses a broken source and lets a good one in."""
    init = wikigen_init(repo)
    assert init.returncode == 0, init.stdout + init.stderr
    assert f"hooks/pre-commit runs wikigen with {shlex.quote(sys.executable)};" in init.stdout
    assert f"python={shlex.quote(sys.executable)}\n" in (repo / "hooks/pre-commit").read_text(encoding="utf-8")
    refuses_broken_and_accepts_good(repo)


def test_the_hook_quotes_an_interpreter_path_with_spaces_and_quotes(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """R34: the interpreter's path is quoted for sh, so a folder named with a space and a quote works."""
    folder = tmp_path / "it's a $folder"
    folder.mkdir()
    python = folder / "python"
    python.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n", encoding="utf-8")
    python.chmod(0o755)
    monkeypatch.setattr(init_module, "hook_python", lambda: str(python))
    assert "hooks/pre-commit" in init_module.init_repo(repo, install_spec="wikigen-compiler==0.1.0")
    assert f"python={shlex.quote(str(python))}\n" in (repo / "hooks/pre-commit").read_text(encoding="utf-8")
    refuses_broken_and_accepts_good(repo)


def test_this_repositorys_hook_runs_the_venv_make_setup_builds_with_no_venv_on_path(repo: Path, tmp_path: Path):
    """R34: after `make setup` and `git config core.hooksPath hooks`, this repository's hook runs
    `.venv/bin/python` at the top of the repository, with no virtual environment on PATH."""
    (repo / "hooks").mkdir()
    shutil.copy2(REPO_ROOT / "hooks/pre-commit", repo / "hooks/pre-commit")
    venv = repo / ".venv/bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n", encoding="utf-8")
    (venv / "python").chmod(0o755)
    (repo / ".gitignore").write_text(".venv/\n", encoding="utf-8")
    refuses_broken_and_accepts_good(repo)
