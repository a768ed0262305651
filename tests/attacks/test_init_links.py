"""`wikigen init` never writes through a symbolic link that leads out of the repository.

Before the fix, init appended to a `.gitignore` linked to a file elsewhere and wrote its example
source into a linked folder outside the repo, while reporting "created" for both.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import GitRepo

SPEC = ("--install-spec", "wikigen-compiler==0.1.0")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.txt").write_text("someone else's file\n", encoding="utf-8")
    return folder


def snapshot_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("link", "target"),
    [
        (".gitignore", "victim.txt"),  # init would append `site/` to it
        ("content/sources/knowledge", "."),  # init would write its example into the folder
        ("mkdocs.yml", "new.yml"),  # a dangling link: init would create the file out there
        ("hooks", "."),  # a folder on the way to hooks/pre-commit
    ],
)
def test_init_refuses_to_write_through_a_link_out_of_the_repo(git_repo: GitRepo, outside: Path, link, target):
    """init names the link and its target, exits 1, and writes nothing — neither outside nor in the
    repo; with the link gone it runs, writing through a link that stays inside the repo as through
    any file."""
    path = git_repo.root / link
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(outside / target, path)
    before_outside = snapshot_of(outside)
    before_repo = sorted(p.relative_to(git_repo.root).as_posix() for p in git_repo.root.rglob("*") if ".git" not in p.parts)
    result = git_repo.wikigen("init", str(git_repo.root), *SPEC)
    assert result.code == 1, result
    assert f"{link} is a symbolic link to {outside / target}" in result.err and "wrote nothing" in result.err
    assert "created" not in result.out and "Traceback" not in result.err
    assert snapshot_of(outside) == before_outside
    after_repo = sorted(p.relative_to(git_repo.root).as_posix() for p in git_repo.root.rglob("*") if ".git" not in p.parts)
    assert after_repo == before_repo
    path.unlink()
    (git_repo.root / "shared-ignore").write_text("node_modules/\n", encoding="utf-8")
    if not (git_repo.root / ".gitignore").exists():
        os.symlink("shared-ignore", git_repo.root / ".gitignore")
    again = git_repo.wikigen("init", str(git_repo.root), *SPEC)
    assert again.code == 0 and "created wikigen.yml" in again.out
    assert git_repo.read(".gitignore").endswith("site/\n")
