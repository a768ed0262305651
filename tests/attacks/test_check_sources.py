"""R5: sources that `check` once passed and that then broke every compile, and YAML keys
written twice (PyYAML keeps the last one silently).

Before the fix, an empty or frontmatter-only source passed `check`, and every later compile — an
unrelated edit included — failed with "source … is compiled but no article covers it (R28)",
without naming the file. Duplicate keys in frontmatter and in wikigen.yml were accepted.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo, source
from wikigen.model.config import Config
from wikigen.model.sources import parse_source

K = "content/sources/knowledge"
GOOD = source("# Pods\n\nA pod is a group of one or more containers that share storage and network.\n", title="Pods")
NODE = source("# Nodes\n\nA node is a worker machine that runs pods and is managed by the control plane.\n",
              title="Nodes")
EMPTY = {
    "empty file": ("", 1, "the file is empty"),
    "whitespace only": ("\n  \n", 1, "the file is empty"),
    "frontmatter only": ("---\ntitle: Only a title\n---\n", 3, "no body, only frontmatter"),
    "frontmatter and blank lines": ("---\ntitle: T\ncategory: knowledge\n---\n\n\n", 4, "no body, only frontmatter"),
}


@pytest.mark.parametrize("case", sorted(EMPTY))
def test_check_names_empty_and_frontmatter_only_sources(git_repo: GitRepo, case: str):
    """R5: `check` (work tree and --staged) names the file and line, exit 1."""
    text, line, words = EMPTY[case]
    git_repo.commit({f"{K}/good.md": GOOD})
    git_repo.stage({f"{K}/bad.md": text})
    for args in (("check",), ("check", "--staged"), ("check", f"{K}/bad.md")):
        result = git_repo.wikigen(*args)
        assert result.code == 1, (args, result)
        assert f"{K}/bad.md:{line}: " in result.out and words in result.out, (args, result.out)
        assert f"git rm {K}/bad.md" in result.out


def test_compile_with_an_empty_source_names_it(git_repo: GitRepo):
    """R5: an empty source committed (no hook) fails the compile of an unrelated edit
    with the file's name and the fix, not an R28 error about a source id; removing it compiles."""
    git_repo.commit({f"{K}/good.md": GOOD})
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    git_repo.commit({f"{K}/empty.md": "---\ntitle: Empty\n---\n"}, message="no hook ran")
    git_repo.commit({f"{K}/node.md": NODE}, message="an unrelated edit")
    head = git_repo.head()
    result = git_repo.wikigen("compile", "--engine", "offline")
    assert result.code == 1 and git_repo.head() == head
    assert f"{K}/empty.md:3: the source has no body" in result.err and "R28" not in result.err
    git_repo.git("rm", "-q", f"{K}/empty.md")
    git_repo.git("commit", "-q", "-m", "remove it")
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0


DUPLICATES = {
    "top level": ("title: A\nid: x\ntitle: B\n", 4, "'title' twice, on lines 2 and 4"),
    "nested": ("title: A\nmeta:\n  owner: me\n  owner: you\n", 5, "'owner' twice, on lines 4 and 5"),
    "flow mapping": ("title: A\nmeta: {k: 1, k: 2}\n", 3, "'k' twice, on lines 3 and 3"),
}


@pytest.mark.parametrize("case", sorted(DUPLICATES))
def test_duplicate_frontmatter_keys_name_both_lines(case: str):
    """R5: a key written twice is an error with both lines (PyYAML keeps the last)."""
    front, line, words = DUPLICATES[case]
    result = parse_source(f"{K}/a.md", f"---\n{front}---\nBody text.\n".encode(), "0" * 40, Config())
    assert isinstance(result, list), result
    assert (result[0].line, words in result[0].message) == (line, True), result


def test_same_key_in_different_mappings_is_fine():
    """R5: only a key repeated in one mapping is refused; lists of mappings repeat keys."""
    front = "title: A\na: {x: 1}\nb: {x: 2}\nitems:\n  - k: 1\n  - k: 2\nc:\n  d: 1\nd: 2\n"
    result = parse_source(f"{K}/a.md", f"---\n{front}---\nBody text.\n".encode(), "0" * 40, Config())
    assert not isinstance(result, list), result


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("caps:\n  anchors: 10\ncaps:\n  articles: 5\n", 3, "'caps' twice, on lines 1 and 3"),
        ("engine:\n  name: offline\n  name: http\n", 3, "'name' twice, on lines 2 and 3"),
        ("caps: &c\n  anchors: 10\nbudget: *c\n", 1, "YAML anchor &c"),
    ],
)
def test_wikigen_yml_refuses_duplicate_keys_and_anchors(git_repo: GitRepo, text, line, words):
    """R5: wikigen.yml is read the same way: `wikigen.yml:<line>: …`, exit 1, no traceback."""
    git_repo.commit({"wikigen.yml": text, f"{K}/good.md": GOOD})
    for args in (("check",), ("plan",)):
        result = git_repo.wikigen(*args)
        assert result.code == 1 and f"wikigen.yml:{line}: " in result.err and words in result.err, result
        assert "Traceback" not in result.err
