"""The docs are tested (as sqlite-utils does): every command has help and a section in the manual,
the README's two commands exist, .ci/run runs the README's test command, every rule number the code
cites is explained on the manual's rules page, and __all__ is honest."""

from __future__ import annotations

import contextlib
import io
import re

import markdown
import pytest

import wikigen
from tests.corpora import REPO_ROOT
from wikigen.cli import cli, main

COMMANDS = sorted(cli.commands)  # type: ignore[attr-defined]
RULE_COUNTS = {"R": 42, "E": 6, "V": 6}  # DESIGN.md's numbered rules: R1–R42, E1–E6, V1–V6
RULE_NUMBER = re.compile(r"\b([REV])([0-9]{1,2})\b")
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".css")
# The graph viewer's bundle, built by `make assets` from node_modules (ignored by git): not our source.
BUILT = ("wikigen/views/assets/graph.js", "wikigen/views/assets/graph.css")


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


def test_every_rule_number_the_code_cites_is_defined_once_on_the_rules_page():
    """R1–R42, E1–E6, V1–V6: a rule number in a comment, docstring or test can be looked up."""
    page = (REPO_ROOT / "content/manual/rules.md").read_text()
    # Rendered as MkDocs renders the manual (its default extensions), so the anchor is a real id.
    html = markdown.markdown(page, extensions=["toc", "tables", "fenced_code"])
    headings = re.findall(r'<h3[^>]*><a id="([a-z][0-9]+)"></a>([REV][0-9]+) — ', html)
    assert all(anchor == number.lower() for anchor, number in headings), headings
    defined = [number for _, number in headings]

    cited: dict[str, str] = {}
    for folder in ("wikigen", "tests"):
        for path in sorted((REPO_ROOT / folder).rglob("*")):
            name = path.relative_to(REPO_ROOT).as_posix()
            if path.suffix not in SOURCE_SUFFIXES or "node_modules" in path.parts or name in BUILT:
                continue
            for kind, n in RULE_NUMBER.findall(path.read_text(encoding="utf-8")):
                if 1 <= int(n) <= RULE_COUNTS[kind]:
                    cited.setdefault(f"{kind}{int(n)}", name)
    assert cited, "no rule number found in wikigen/ or tests/"
    missing = {number: name for number, name in cited.items() if number not in defined}
    assert not missing, f"cited but not on content/manual/rules.md: {missing}"

    every = [f"{kind}{n}" for kind, count in RULE_COUNTS.items() for n in range(1, count + 1)]
    assert sorted(defined) == sorted(every), "each rule must be defined exactly once"


def test_public_api_all_is_exported():
    for name in wikigen.__all__:
        assert hasattr(wikigen, name), name
    assert sorted(wikigen.__all__) == wikigen.__all__
