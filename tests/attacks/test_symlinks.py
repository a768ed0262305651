"""R41: a symlink under content/ must never publish the build machine's files.

Each test builds a real git repo: links committed with the real `git` CLI (as a user would) or by
pygit2 straight into the index, then the real CLI (`check`, `check --staged`, `plan`, `compile`)
or a real `mkdocs build`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygit2
import pytest

from tests.conftest import GitRepo, source

K = "content/sources/knowledge"
SECRET = "TOKEN-ghp_s3cr3t-do-not-publish"
BIN = Path(sys.executable).parent
MKDOCS_YML = """site_name: attack
docs_dir: content
site_dir: site
theme:
  name: material
plugins:
  - wikigen
"""


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the repo standing for `.git/config`, `/proc/self/environ` or `/etc/shadow`."""
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(f"[credential]\n\thelper = store {SECRET}\n", encoding="utf-8")
    return path


def commit_links(repo: GitRepo, links: dict[str, str]) -> None:
    """Commit symlinks with the real `git` CLI, as `git add` records them (mode 120000)."""
    for rel, target in links.items():
        path = repo.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, path)
    repo.git("add", *links)
    repo.git("commit", "-q", "-m", "links")


def base(repo: GitRepo) -> None:
    repo.commit(
        {f"{K}/good.md": source("\nA plain source.\n", title="Good"), "content/manual/index.md": "# Manual\n"}
    )


LINKS = {
    f"{K}/leak.md": "SECRET",  # a .md link: once compiled as its link text
    f"{K}/diagram.png": "SECRET",  # an asset link: once copied into site/
    "content/manual/git-config": "../../.git/config",
}


def links_to(secret: Path) -> dict[str, str]:
    return {rel: str(secret) if target == "SECRET" else target for rel, target in LINKS.items()}


def assert_names_every_link(output: str, paths: list[str]) -> None:
    for rel in paths:
        assert f"{rel}:1: " in output, output
    assert "replace the link with a plain file" in output
    assert SECRET not in output
    assert "Traceback" not in output


def test_check_refuses_committed_links_in_work_tree_and_index(git_repo: GitRepo, secret: Path):
    """R41: `check` (work tree) and `check --staged` name every link under content/."""
    base(git_repo)
    commit_links(git_repo, links_to(secret))
    for args in (("check",), ("check", "--staged"), ("hook",)):
        result = git_repo.wikigen(*args)
        assert result.code == 1, (args, result)
        assert_names_every_link(result.out, list(LINKS))


def test_check_of_named_files_refuses_a_link(git_repo: GitRepo, secret: Path):
    """R41: `check FILE` (how pre-commit calls it) refuses a link given by name."""
    base(git_repo)
    commit_links(git_repo, {f"{K}/leak.md": str(secret)})
    result = git_repo.wikigen("check", str(git_repo.root / K / "leak.md"))
    assert result.code == 1
    assert_names_every_link(result.out, [f"{K}/leak.md"])


def test_uncommitted_link_to_a_folder_is_refused_by_check(git_repo: GitRepo, secret: Path):
    """R41: a linked folder in the docs folder (MkDocs would walk into it) fails `check`."""
    base(git_repo)
    os.symlink(secret.parent, git_repo.root / "content" / "manual" / "outside")
    result = git_repo.wikigen("check")
    assert result.code == 1
    assert_names_every_link(result.out, ["content/manual/outside"])


def test_plan_and_compile_refuse_and_publish_nothing(git_repo: GitRepo, secret: Path):
    """R5, R41: `plan` and `compile` refuse the same way; the branch does not move."""
    base(git_repo)
    commit_links(git_repo, links_to(secret))
    head = git_repo.head()
    plan = git_repo.wikigen("plan")
    assert plan.code == 1
    assert_names_every_link(plan.out, list(LINKS))
    data = git_repo.json("plan")
    assert {p["path"] for p in data["invalid"]} >= set(LINKS)
    compiled = git_repo.wikigen("compile", "--engine", "offline")
    assert compiled.code == 1
    assert_names_every_link(compiled.err, list(LINKS))
    assert "nothing was published" in compiled.err
    assert git_repo.head() == head
    assert not (git_repo.root / "content" / "wiki").exists()


def test_link_committed_by_pygit2_is_refused(git_repo: GitRepo):
    """R41: a mode-120000 tree entry written by pygit2 (no link on disk) fails plan and compile."""
    base(git_repo)
    repo = git_repo.repo
    index = repo.index
    index.read()
    blob = repo.create_blob(b"/proc/self/environ")
    index.add(pygit2.IndexEntry(f"{K}/environ.md", blob, pygit2.enums.FileMode.LINK))
    index.write()
    git_repo.commit(message="a link, by pygit2")
    head = git_repo.head()
    for args in (("check", "--staged"), ("plan",)):
        result = git_repo.wikigen(*args)
        assert result.code == 1, (args, result)
        assert_names_every_link(result.out, [f"{K}/environ.md"])
        assert "/proc/self/environ" in result.out  # the message says where the link points
    compiled = git_repo.wikigen("compile", "--engine", "offline")
    assert compiled.code == 1 and f"{K}/environ.md:1: " in compiled.err
    assert git_repo.head() == head


def test_a_link_that_became_a_file_is_fine_again(git_repo: GitRepo, secret: Path):
    """R41: the advice works — replacing the link with a plain file makes `check` pass."""
    base(git_repo)
    commit_links(git_repo, {f"{K}/leak.md": str(secret)})
    (git_repo.root / K / "leak.md").unlink()
    git_repo.commit({f"{K}/leak.md": source("\nNow a plain file.\n", title="Leak")})
    for args in (("check",), ("check", "--staged"), ("plan",)):
        assert git_repo.wikigen(*args).code == 0, args


def mkdocs_build(repo: GitRepo, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "mkdocs"), "build", *extra, "-f", str(repo.root / "mkdocs.yml")],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )


def site_text(site: Path) -> str:
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in site.rglob("*") if p.is_file())


def test_mkdocs_never_copies_a_link_into_the_site(git_repo: GitRepo, secret: Path):
    """R41: whatever `check` said, the plugin drops linked files (and files reached through a
    linked folder) from the site with a warning; the link targets' bytes are nowhere in site/."""
    git_repo.commit(
        {
            "mkdocs.yml": MKDOCS_YML,
            ".gitignore": "site/\n",
            "content/manual/index.md": "# Manual\n\n![diagram](../sources/knowledge/diagram.png)\n",
            f"{K}/pods.md": source("# Pods\n\nA pod groups containers.\n", title="Pods"),
            f"{K}/real.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 16,
        }
    )
    commit_links(git_repo, links_to(secret))
    # A linked folder, never committed: MkDocs walks into it.
    os.symlink(secret.parent, git_repo.root / "content" / "manual" / "outside")
    result = mkdocs_build(git_repo)
    assert result.returncode == 0, result.stdout + result.stderr
    site = git_repo.root / "site"
    assert (site / "sources" / "knowledge" / "real.png").is_file()  # plain assets still ship
    assert SECRET not in site_text(site)
    assert "[core]" not in site_text(site)  # .git/config through content/manual/git-config
    for rel in ("sources/knowledge/diagram.png", "manual/git-config", "manual/outside/secret.txt"):
        assert not (site / rel).exists(), rel
        assert f"content/{rel}" in result.stderr, result.stderr
    # Every link and the linked folder's file, nothing else: the theme's own files still ship.
    assert result.stderr.count("is a symbolic link") == len(LINKS) + 1, result.stderr
    assert (site / "assets" / "javascripts").is_dir()
    # --strict turns the warning into a failed build: a Pages deploy then publishes nothing at all.
    strict = mkdocs_build(git_repo, "--strict", "-d", str(git_repo.root / "site-strict"))
    assert strict.returncode != 0
    strict_site = git_repo.root / "site-strict"
    assert not strict_site.exists() or SECRET not in site_text(strict_site)


def test_the_link_free_cache_never_hides_a_new_link(git_repo: GitRepo, secret: Path, monkeypatch):
    """R7, R41: with its cache of trees found free of links, a plan walks only the trees it
    has not seen, and a link committed anywhere below a tree it saw is still found (a new link makes
    new trees, up to content/)."""
    from wikigen.store.git import GitStore
    from wikigen.store.workspace import LINK_FREE_CACHE, Workspace

    git_repo.commit({f"content/manual/deep/er/page{i}.md": f"# Page {i}\n" for i in range(5)})
    git_repo.commit({f"content/manual/part{i}/sub/page.md": f"# Part {i}\n" for i in range(10)})
    base(git_repo)
    walked: list[str] = []
    tree_obj = GitStore._tree_obj
    monkeypatch.setattr(GitStore, "_tree_obj", lambda self, tree: walked.append(tree) or tree_obj(self, tree))

    assert not Workspace.open(git_repo.root).plan().invalid
    first = len(walked)
    cache = git_repo.root / ".git" / "wikigen" / LINK_FREE_CACHE
    assert cache.is_file() and len(cache.read_text().split()) >= 5  # content/, manual, deep, er, sources
    walked.clear()
    assert not Workspace.open(git_repo.root).plan().invalid
    assert len(walked) < first / 2  # only the trees plan reads besides the walk
    # an edit elsewhere makes new trees on its path only (content/, manual/): the trees seen clean
    # before, down to three levels, stay known and are not walked again
    git_repo.commit({"content/manual/other.md": "# Other\n"})
    before = cache.read_text()
    walked.clear()
    assert not Workspace.open(git_repo.root).plan().invalid
    assert len(walked) < first / 3
    # the new trees are appended: the ids known before are not written again
    after = cache.read_text()
    assert after.startswith(before) and len(after.split()) > len(before.split())

    commit_links(git_repo, {"content/manual/deep/er/leak.md": str(secret)})
    plan = Workspace.open(git_repo.root).plan()
    assert [p.path for p in plan.invalid] == ["content/manual/deep/er/leak.md"]
    cache.write_text("not a tree id\n\x00\xff")  # a damaged cache costs a walk, never a wrong answer
    assert [p.path for p in Workspace.open(git_repo.root).plan().invalid] == ["content/manual/deep/er/leak.md"]
    assert "not a tree id" not in cache.read_text(encoding="ascii")  # and is written anew, not appended to
