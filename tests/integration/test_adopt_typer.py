"""A real docs repo adopts wikigen in place: Typer's docs/ (copied from ../shared/corpora at run time,
never committed here) beside a mkdocs.yml of its own with INHERIT, hooks and plugins wikigen does
not install — from `wikigen init` to `wikigen build` with no step of the user's beyond what the
commands say."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import GitRepo
from tests.corpora import shared_dir
from tests.docs_repo import OWN_MKDOCS

pytestmark = pytest.mark.integration
TYPER = "corpora/typer-docs/content"
SPEC = ("--install-spec", "wikigen-compiler==0.1.0")


def test_typer_docs_adopt_wikigen_in_place_and_build_the_wiki(git_repo: GitRepo):
    """R1/R2/V5: docs/ stays where it is, the own mkdocs.yml stays byte for byte, and the wiki's
    site builds from mkdocs.wikigen.yml with every page of docs/ a source page."""
    corpus = shared_dir() / TYPER
    if not corpus.is_dir():
        pytest.skip(f"the Typer corpus is not at {corpus} (set WIKIGEN_SHARED)")
    shutil.copytree(corpus, git_repo.root / "docs")
    pages = sorted(p.relative_to(git_repo.root / "docs").as_posix() for p in (git_repo.root / "docs").rglob("*.md"))
    git_repo.write({"mkdocs.yml": OWN_MKDOCS, "README.md": "# Typer\n"})
    git_repo.git("add", "-A")
    git_repo.git("commit", "-qm", "Typer docs")

    first = git_repo.wikigen("init", str(git_repo.root), *SPEC)
    assert first.code == 0, first.err
    assert f"{len(pages)} Markdown file(s) lie outside the sources folder content/sources/" in first.out
    assert f"docs/ ({len(pages)})" in first.out and "`wikigen init --sources docs`" in first.out
    adopted = git_repo.wikigen("init", str(git_repo.root), "--sources", "docs")
    assert adopted.code == 0, adopted.err

    # release-notes.md is over the default caps.input_bytes: `check` names the setting and the value.
    refused = git_repo.wikigen("check")
    assert refused.code == 1 and "docs/release-notes.md:1: too large to compile" in refused.out
    assert "caps.input_bytes" in refused.out
    settings = git_repo.root / "wikigen.yml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace("  input_bytes: 100000", "  input_bytes: 175000"), encoding="utf-8"
    )
    checked = git_repo.wikigen("check")
    assert checked.code == 0, checked.out + checked.err
    assert "Markdown file(s)" not in checked.err
    git_repo.git("add", "-A")
    git_repo.git("commit", "-qm", "Adopt wikigen")

    compiled = git_repo.wikigen("compile", "--batch", "--quiet")
    assert compiled.code == 0, compiled.err
    status = git_repo.json("status")
    assert status["sources"] == len(pages) and status["unread_markdown"] == {}
    assert not any(status["pending_changes"].values())

    assert (git_repo.root / "mkdocs.yml").read_text(encoding="utf-8") == OWN_MKDOCS
    built = git_repo.wikigen("build")
    assert built.code == 0, built.err
    site = git_repo.root / "site"
    assert (site / "index.html").is_file()
    for page in ("tutorial/first-steps", "release-notes", "tutorial/options/version"):
        assert (site / "sources" / page / "index.html").is_file(), page
    assert git_repo.git("status", "--porcelain").stdout == ""
