"""R5: YAML that parses but holds a value PyYAML cannot build — a 30 February, `!!float abc`,
`!!int 0b102`, an integer past Python's 4,300-digit limit, the lone surrogate `"\\ud800"` — is an
invalid source (frontmatter) or invalid settings (wikigen.yml), at the line of the value.

Before the fix each one was "internal error: ValueError …" (or UnicodeEncodeError, KeyError,
AttributeError) from `check`, `plan`, `compile`, `status` and `hook`, and a traceback from
`wikigen build`.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import GitRepo, source
from wikigen.model.config import Config
from wikigen.model.sources import parse_source

K = "content/sources/knowledge"
GOOD = source("# Pods\n\nA pod is a group of one or more containers that share storage and network.\n", title="Pods")
# name → (the frontmatter line, what the message says); each value sits on line 4 of its file.
VALUES = {
    "day": ("day: 2024-02-30", "'2024-02-30' is not a valid timestamp (day is out of range for month)"),
    "float": ("x: !!float abc", "'abc' is not a valid float"),
    "binary int": ("n: !!int 0b102", "'0b102' is not a valid int"),
    "digits": ("n: " + "9" * 4400, "a whole number of more than 4,300 digits"),
    "hex digits": ("n: 0x" + "f" * 4000, "a whole number of more than 4,300 digits"),
    "surrogate": ('s: "\\ud800"', "the lone surrogate \\ud800"),
    "surrogate key": ('k: [1, {"\\udc00": 2}]', "the lone surrogate \\udc00"),
    "bool": ("x: !!bool maybe", "'maybe' is not a valid bool"),
    "timestamp": ("t: !!timestamp someday", "'someday' is not a valid timestamp"),
}
MKDOCS_YML = (
    "site_name: kb\ndocs_dir: content\nsite_dir: site\ntheme:\n  name: material\n"
    "plugins:\n  - wikigen:\n      graph: false\n"
)


def bad_source(line: str) -> str:
    return f"---\ntitle: Bad\nauthor: me\n{line}\n---\n# Bad\n\nSome text of the source.\n"


def file_of(name: str) -> str:
    return f"{K}/{name.replace(' ', '-')}.md"


def assert_clean(result: object) -> None:
    text = str(result)
    assert "internal error" not in text and "Traceback" not in text, text


@pytest.mark.parametrize("name", sorted(VALUES))
def test_a_value_pyyaml_cannot_build_is_an_invalid_source_at_its_line(name: str):
    """R5: parse_source returns the problem, with the file, the value's line and what is wrong."""
    line, words = VALUES[name]
    result = parse_source(file_of(name), bad_source(line).encode(), "0" * 40, Config())
    assert isinstance(result, list), result
    assert [(p.path, p.line) for p in result] == [(file_of(name), 4)], result
    assert words in result[0].message, result[0].message


def test_every_command_names_each_unbuildable_value_and_publishes_nothing(git_repo: GitRepo):
    """R5: `hook`, `check --staged`, then (committed) `check`, `plan`, `compile` and `status` name
    every bad file at its line, no internal error; the checks, plan and compile exit 1 and the
    compile publishes nothing."""
    git_repo.commit({f"{K}/pods.md": GOOD})
    assert git_repo.wikigen("compile", "--engine", "offline", "-q").code == 0
    bad = {file_of(name): bad_source(line) for name, (line, _) in VALUES.items()}
    git_repo.stage(bad)
    for args in (("hook",), ("check", "--staged")):
        result = git_repo.wikigen(*args)
        assert_clean(result)
        assert result.code == 1, (args, result)
        for path in bad:
            assert f"{path}:4: " in result.out, (args, path, result.out)
    git_repo.commit(message="bad values")
    head = git_repo.head()
    for args in (("check",), ("plan",), ("compile", "--engine", "offline", "-q"), ("status",)):
        result = git_repo.wikigen(*args)
        assert_clean(result)
        assert result.code == (0 if args == ("status",) else 1), (args, result)
        for path in bad:
            assert f"{path}:4: " in result.out + result.err, (args, path, result)
    assert git_repo.head() == head


def test_a_surrogate_pair_is_read_as_the_one_character_it_stands_for():
    """R5: JSON writes 😀 as the pair "\\ud83d\\ude00"; YAML hands the two halves over separately,
    and they are joined into the character, so that the value can be hashed and written as UTF-8."""
    text = bad_source('emoji: "a \\ud83d\\ude00 b"')
    result = parse_source(f"{K}/emoji.md", text.encode(), "0" * 40, Config())
    assert not isinstance(result, list), result
    assert result.metadata["emoji"] == "a \U0001f600 b"


def build(repo: GitRepo, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikigen", "-C", str(repo.root), "build", *extra],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )


def test_wikigen_build_names_each_unbuildable_value_without_a_traceback(git_repo: GitRepo):
    """R5: `wikigen build` reports each bad source with file and line, as it does any invalid
    source: a warning, which `--strict` (as CI builds) makes a failed build."""
    git_repo.commit({"mkdocs.yml": MKDOCS_YML, ".gitignore": "site/\n", f"{K}/pods.md": GOOD})
    bad = {file_of(name): bad_source(line) for name, (line, _) in VALUES.items()}
    git_repo.commit(bad, message="bad values")
    for extra in ((), ("--strict",)):
        result = build(git_repo, *extra)
        output = result.stdout + result.stderr
        assert "Traceback" not in output and "internal error" not in output, output
        for path in bad:
            assert f"wikigen: {path}:4: " in output, (path, output)
        assert result.returncode == (1 if extra else 0), output


@pytest.mark.parametrize("name", ["day", "float", "binary int", "digits", "surrogate"])
def test_a_value_pyyaml_cannot_build_in_wikigen_yml_is_invalid_settings_at_its_line(git_repo: GitRepo, name: str):
    """R5: the same values in wikigen.yml: `wikigen.yml:<line>: …`, exit 1, no internal error."""
    line, words = VALUES[name]
    git_repo.commit({"wikigen.yml": f"caps:\n  anchors: 10\n{line}\n", f"{K}/pods.md": GOOD})
    for args in (("check",), ("plan",), ("status",), ("hook",), ("compile", "--engine", "offline", "-q")):
        result = git_repo.wikigen(*args)
        assert_clean(result)
        assert result.code == 1, (args, result)
        assert "wikigen.yml:3: not valid YAML: " in result.err and words in result.err, (args, result)


def test_wikigen_build_refuses_an_unbuildable_value_in_wikigen_yml(git_repo: GitRepo):
    """R5: `wikigen build` fails with wikigen.yml's line, no traceback, and writes no site."""
    git_repo.commit(
        {"mkdocs.yml": MKDOCS_YML, ".gitignore": "site/\n", "wikigen.yml": "day: 2024-02-30\n", f"{K}/pods.md": GOOD}
    )
    result = build(git_repo)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    assert "wikigen.yml:1: not valid YAML: the value '2024-02-30' is not a valid timestamp" in output
    assert not (git_repo.root / "site" / "index.html").exists()
