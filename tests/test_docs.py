"""The docs are tested (as sqlite-utils does): every command has help and a section in the manual,
the README's two commands exist, .ci/run runs the README's test command, and __all__ is honest."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

import wikigen
from tests.corpora import REPO_ROOT
from wikigen.cli import cli, main

COMMANDS = sorted(cli.commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_and_a_manual_section(name: str):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([name, "--help"]) == 0
    assert "Usage: wikigen" in out.getvalue()
    manual = (REPO_ROOT / "content/manual/commands.md").read_text()
    assert re.search(rf"^## `wikigen {name}\b", manual, flags=re.MULTILINE), f"no section for `wikigen {name}`"


def test_readme_commands_are_real_and_ci_runs_the_test_command():
    readme = (REPO_ROOT / "README.md").read_text()
    makefile = (REPO_ROOT / "Makefile").read_text()
    assert "make site" in readme and "make test" in readme
    assert re.search(r"^site: ", makefile, flags=re.MULTILINE) and re.search(r"^test: ", makefile, flags=re.MULTILINE)
    assert "make test" in (REPO_ROOT / ".ci/run").read_text()


def test_manual_index_links_every_page():
    index = (REPO_ROOT / "content/manual/index.md").read_text()
    for page in sorted((REPO_ROOT / "content/manual").glob("*.md")):
        if page.name != "index.md":
            assert f"({page.name})" in index, page.name


def test_public_api_all_is_exported():
    for name in wikigen.__all__:
        assert hasattr(wikigen, name), name
    assert sorted(wikigen.__all__) == wikigen.__all__
