"""A docs repo adopts wikigen in place: `paths.sources` names the folder that holds its Markdown
(R1, R2, R5, R41); `init` says where Markdown lies and offers the setting; an own mkdocs.yml is left
alone; `check`, `status` and `plan` never pass over Markdown they do not read without a word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import GitRepo, source
from tests.docs_repo import OWN_MKDOCS
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.config import load_config
from wikigen.model.errors import ConfigError
from wikigen.store.workspace import Workspace

SPEC = ("--install-spec", "wikigen-compiler==0.1.0")
ADOPTED = "paths:\n  sources: docs\n"
INSTALL = "# Install\n\nInstall the package with pip, then run the command line once to see its help.\n"
TASK = "# Ship it\n\nDecision: the release goes out on Friday once the changelog is written.\n"


def test_a_folder_named_by_paths_sources_is_compiled_in_place(git_repo: GitRepo):
    """R1/R2: with `paths.sources: docs` the Markdown under docs/ are the sources, their ids their
    paths below docs/; folders there only organize files: the category is the frontmatter's, else
    knowledge."""
    git_repo.commit(
        {
            "wikigen.yml": ADOPTED,
            "docs/tutorial/install.md": INSTALL,
            "docs/tasks/ship.md": source(TASK, category="tasks", task="ship", status="accepted"),
            "docs/img/logo.svg": "<svg/>",  # outside content/: never copied, so no problem (R41)
        }
    )
    read = Workspace.open(git_repo.root).read()
    assert not read.problems
    assert {s.path: (s.id, s.category) for s in read.parsed.values()} == {
        "docs/tutorial/install.md": ("tutorial/install", "knowledge"),
        "docs/tasks/ship.md": ("tasks/ship", "tasks"),
    }
    assert git_repo.wikigen("check").code == 0

    report = compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert report.published
    ws = Workspace.open(git_repo.root)
    assert ws.baseline.manifest["tutorial/install"].path == "docs/tutorial/install.md"
    assert ws.baseline.extra["sourcesDir"] == "docs"
    assert ws.sources_tree() == ws.baseline.sources_tree

    git_repo.commit({"docs/tutorial/install.md": INSTALL + "\nUpgrade it with pip install --upgrade.\n"})
    again = Workspace.open(git_repo.root).plan()
    assert again.updated == ("tutorial/install",) and not again.added and not again.withdrawn


def test_moving_paths_sources_reads_every_source_of_the_new_folder(git_repo: GitRepo):
    """R29: a snapshot compiled from content/sources, then `paths.sources: docs`: the new folder is
    read whole (never diffed against the old one), and the mass withdrawal names the setting."""
    old = {f"content/sources/knowledge/page{i}.md": INSTALL + f"\nPage {i}.\n" for i in range(12)}
    git_repo.commit(old)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    moved = {path: None for path in old} | {f"docs/page{i}.md": INSTALL + f"\nPage {i}.\n" for i in range(12)}
    git_repo.commit({**moved, "wikigen.yml": ADOPTED})
    plan = Workspace.open(git_repo.root).plan()
    assert sorted(plan.added) == sorted(f"page{i}" for i in range(12))
    assert len(plan.withdrawn) == 12
    refused = git_repo.wikigen("compile", "--engine", "offline")
    assert refused.code != 0
    assert "the sources folder is docs/ by `paths.sources`" in refused.err
    assert "compiled from content/sources/" in refused.err


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("../docs", "not a folder inside the repository"),
        ("/srv/docs", "not a folder inside the repository"),
        (".docs", "no hidden folder"),
        ("content", "overlaps content/wiki/"),
        ("content/wiki/articles", "overlaps content/wiki/"),
        ("content/notes", "lies in content/, the site's folder"),
        ("", "is not a folder name"),
    ],
)
def test_a_sources_folder_outside_the_repo_or_over_generated_files_is_refused(tmp_path: Path, value, why):
    """R5: a `paths.sources` that would read outside the repository, or the compiler's own output,
    is a settings problem naming the setting."""
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, text=f"paths:\n  sources: {json.dumps(value)}\n")
    assert "paths.sources" in caught.value.message and why in caught.value.message


def test_check_status_and_plan_say_how_much_markdown_they_do_not_read(git_repo: GitRepo):
    """R11: a docs repo that has not set `paths.sources` is told how many Markdown files lie outside
    the sources folder, where, and the setting that compiles them — not "nothing to compile"."""
    git_repo.commit(
        {
            "README.md": "# The project\n",  # the repository's front page: not counted
            "tests/data/README.md": "# Fixtures\n",  # a folder of nothing but a README: not counted
            ".github/ISSUE_TEMPLATE/bug.md": "# Bug\n",  # hidden: not counted
            "content/manual/usage.md": "# Usage\n",  # the site's own page: published, not counted
            "docs/index.md": "# Docs\n",
            "docs/tutorial/install.md": INSTALL,
            "docs/tutorial/first-steps.md": "# First steps\n",
        }
    )
    note = "3 Markdown file(s) lie outside the sources folder content/sources/ and are not compiled: docs/ (3)"
    check = git_repo.wikigen("check")
    assert check.code == 0 and note in check.err and "`wikigen init --sources docs`" in check.err
    assert note in git_repo.wikigen("status").out
    assert note in git_repo.wikigen("plan").out
    assert git_repo.json("plan")["unread_markdown"] == {"docs": 3}
    assert git_repo.json("status")["unread_markdown"] == {"docs": 3}

    git_repo.commit({"wikigen.yml": ADOPTED})
    assert "Markdown file(s)" not in git_repo.wikigen("check").err
    assert git_repo.json("plan")["unread_markdown"] == {}


def test_init_in_a_docs_repo_offers_the_folder_then_sets_it(git_repo: GitRepo):
    """`wikigen init` in a repo whose Markdown lies in docs/ writes no examples, says how many files
    and where, and `init --sources docs` sets `paths.sources` and points the workflow and the
    pre-commit config at docs/."""
    git_repo.commit({"docs/index.md": "# Docs\n", "docs/tutorial/install.md": INSTALL})
    first = git_repo.wikigen("init", str(git_repo.root), *SPEC)
    assert first.code == 0, first.err
    assert "2 Markdown file(s) lie outside the sources folder content/sources/" in first.out
    assert "`wikigen init --sources docs`" in first.out
    assert not (git_repo.root / "content").exists()  # no example sources

    second = git_repo.wikigen("init", str(git_repo.root), "--sources", "docs")
    assert second.code == 0, second.err
    assert "set `paths: {sources: docs}` in wikigen.yml" in second.out
    assert load_config(git_repo.root).sources_dir == "docs"
    workflow = (git_repo.root / ".github/workflows/wikigen.yml").read_text(encoding="utf-8")
    assert 'paths: ["docs/**", "wikigen.yml"]' in workflow and "content/sources" not in workflow
    assert "files: ^docs/" in (git_repo.root / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert git_repo.wikigen("init", str(git_repo.root), "--sources", "docs").out.startswith("nothing to do")

    refused = git_repo.wikigen("init", str(git_repo.root), "--sources", "guide")
    assert refused.code != 0 and "already sets paths.sources to 'docs'" in refused.err


def test_init_keeps_an_own_mkdocs_yml_and_writes_the_wikis_beside_it(git_repo: GitRepo):
    """An existing mkdocs.yml (INHERIT, hooks, plugins) is left byte for byte; the wiki's site gets
    mkdocs.wikigen.yml, named after that site, which `wikigen build` uses."""
    git_repo.commit({"mkdocs.yml": OWN_MKDOCS, "docs/index.md": "# Docs\n"})
    result = git_repo.wikigen("init", str(git_repo.root), *SPEC, "--sources", "docs")
    assert result.code == 0, result.err
    assert (git_repo.root / "mkdocs.yml").read_text(encoding="utf-8") == OWN_MKDOCS
    assert "mkdocs.yml is kept as it is for your own site" in result.out
    wiki = (git_repo.root / "mkdocs.wikigen.yml").read_text(encoding="utf-8")
    assert 'site_name: "Typer wiki"' in wiki and "docs_dir: content" in wiki and "- wikigen" in wiki
    assert "INHERIT" not in wiki and "hooks" not in wiki.split("\n", 2)[2]

