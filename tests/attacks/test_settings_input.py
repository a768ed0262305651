"""Settings and arguments a user gets wrong are said to be wrong, where they were set: the
environment variable, wikigen.yml, the path or the commit named — a clear message, a non-zero exit,
no traceback.

Before the fix: `WIKIGEN_DEADLINE=nan` or `inf` passed every check; an invalid
`WIKIGEN_CAPS_INPUT_BYTES` was reported as a wikigen.yml error; a non-UTF-8 wikigen.yml was an
internal error and a wikigen.yml folder was silently ignored; `wikigen check` of a file outside the
repository (or outside the sources folder) passed by checking nothing; and `wikigen search --at
garbage` said "git failed while resolving 'garbage'".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import GitRepo, source

K = "content/sources/knowledge"
GOOD = source("# Pods\n\nA pod is a group of one or more containers that share storage and network.\n", title="Pods")
COMMANDS = (("check",), ("plan",), ("status",), ("hook",), ("compile", "--engine", "offline", "-q"))


def assert_clean(result: object) -> None:
    text = str(result)
    assert "internal error" not in text and "Traceback" not in text, text


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e300", "0", "soon"])
def test_a_deadline_that_is_not_a_finite_positive_number_is_refused_by_every_command(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, value: str
):
    """R5 (settings): WIKIGEN_DEADLINE must be a number of seconds above 0 and at most 1,000,000;
    every command that reads the settings names the variable and what it accepts; HEAD is kept."""
    head = git_repo.commit({f"{K}/pods.md": GOOD})
    monkeypatch.setenv("WIKIGEN_DEADLINE", value)
    for args in COMMANDS:
        result = git_repo.wikigen(*args)
        assert_clean(result)
        assert result.code == 1, (args, result)
        assert "the environment variable WIKIGEN_DEADLINE must be a number of seconds above 0" in result.err
        assert f"got {value!r}" in result.err and "(e.g. 600)" in result.err, result.err
        assert "wikigen.yml" not in result.err, result.err
    assert git_repo.head() == head


def test_an_infinite_deadline_in_wikigen_yml_is_refused_there(git_repo: GitRepo):
    """R5 (settings): `engine.deadline_s: .inf` is a wikigen.yml problem, named as one."""
    git_repo.commit({"wikigen.yml": "engine:\n  deadline_s: .inf\n", f"{K}/pods.md": GOOD})
    result = git_repo.wikigen("plan")
    assert result.code == 1 and "wikigen.yml: engine.deadline_s must be a number of seconds" in result.err


@pytest.mark.parametrize("value", ["abc", "-5", "1.5"])
def test_an_invalid_cap_in_the_environment_is_named_as_the_variable_not_wikigen_yml(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, value: str
):
    """R5 (settings): a bad WIKIGEN_CAPS_INPUT_BYTES names the environment variable; a wikigen.yml
    problem beside it is still named as wikigen.yml's."""
    git_repo.commit({f"{K}/pods.md": GOOD})
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", value)
    result = git_repo.wikigen("check")
    assert_clean(result)
    assert result.code == 1
    assert "the environment variable WIKIGEN_CAPS_INPUT_BYTES must be a" in result.err
    assert f"got {value!r}" in result.err
    assert "1 problem(s) in the WIKIGEN_* environment variables" in result.err
    assert "wikigen.yml" not in result.err, result.err
    git_repo.commit({"wikigen.yml": "caps:\n  articles: many\n"})
    both = git_repo.wikigen("plan")
    assert "wikigen.yml: caps.articles must be a whole number, got 'many'" in both.err
    assert "the environment variable WIKIGEN_CAPS_INPUT_BYTES must be a" in both.err
    assert "2 problem(s) in wikigen.yml and the WIKIGEN_* environment variables" in both.err


def test_an_environment_variable_that_is_not_utf8_is_refused_by_name(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """R5 (settings): bytes that are not UTF-8 in WIKIGEN_MODEL reach Python as a lone surrogate,
    which no request can carry: refused naming the variable, never an internal error at compile."""
    git_repo.commit({f"{K}/pods.md": GOOD})
    monkeypatch.setenv("WIKIGEN_MODEL", "model-\udcff")
    for args in (("plan",), ("compile", "--engine", "http", "-q")):
        result = git_repo.wikigen(*args)
        assert_clean(result)
        assert result.code == 1, (args, result)
        assert "the environment variable WIKIGEN_MODEL is not valid UTF-8" in result.err, result.err


def test_a_wikigen_yml_that_is_not_utf8_is_invalid_settings_with_its_line(git_repo: GitRepo):
    """R5 (settings): `wikigen.yml:<line>: not valid UTF-8 (byte … at offset …)`, every command."""
    git_repo.commit({"wikigen.yml": b"caps:\n  anchors: 10\n# caf\xe9\n", f"{K}/pods.md": GOOD})
    for args in COMMANDS:
        result = git_repo.wikigen(*args)
        assert_clean(result)
        assert result.code == 1, (args, result)
        assert "wikigen.yml:3: not valid UTF-8 (byte 0xe9 at offset 25)" in result.err, result.err


def test_a_wikigen_yml_folder_is_an_error_naming_it(git_repo: GitRepo):
    """R5 (settings): a folder named wikigen.yml is never silently taken for no settings."""
    git_repo.commit({"wikigen.yml/notes.txt": "settings go here?\n", f"{K}/pods.md": GOOD})
    for args in COMMANDS:
        result = git_repo.wikigen(*args)
        assert_clean(result)
        assert result.code == 1, (args, result)
        assert f"{git_repo.root / 'wikigen.yml'} is a folder; wikigen.yml must be a YAML file" in result.err


def test_check_of_a_file_outside_the_repository_says_so(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """R5: `wikigen check /elsewhere/x.md` checked nothing and exited 0; it is a usage error now.
    A relative name is read from the folder of -C (the repository here), as -C promises."""
    git_repo.commit({f"{K}/pods.md": GOOD, f"{K}/bad.md": "---\ntitle: [\n---\nbody\n"})
    outside = tmp_path / "elsewhere" / "x.md"
    outside.parent.mkdir()
    outside.write_text("---\ntitle: [\n---\nbody\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name in (str(outside), "../elsewhere/x.md"):
        result = git_repo.wikigen("check", name)
        assert_clean(result)
        assert result.code == 2, result
        assert "is outside the repository" in result.err and "x.md" in result.err, result.err
    assert f"{outside} is outside the repository ({git_repo.root})" in git_repo.wikigen("check", str(outside)).err
    relative = git_repo.wikigen("check", f"{K}/bad.md")
    assert relative.code == 1 and f"{K}/bad.md:3: " in relative.out, relative


@pytest.mark.parametrize("name", ["README.md", "content/manual/index.md", "wikigen.yml"])
def test_check_of_a_file_that_is_not_a_source_says_where_sources_live(git_repo: GitRepo, name: str):
    """R5: a file in the repository but outside content/sources/ is no source; check says so."""
    git_repo.commit({f"{K}/pods.md": GOOD, name: "# Not a source\n"})
    result = git_repo.wikigen("check", str(git_repo.root / name))
    assert_clean(result)
    assert result.code == 2, result
    assert f"{git_repo.root / name} is not a source: sources are the *.md files under content/sources/" in result.err


def test_check_of_a_missing_source_says_it_does_not_exist(git_repo: GitRepo):
    """R5: a mistyped source path is not a pass."""
    git_repo.commit({f"{K}/pods.md": GOOD})
    result = git_repo.wikigen("check", str(git_repo.root / K / "podz.md"))
    assert result.code == 2 and f"{git_repo.root / K / 'podz.md'} does not exist" in result.err, result


def test_check_of_a_folder_checks_the_sources_in_it(git_repo: GitRepo):
    """R5: `wikigen check content/sources/knowledge` checks every source under it (it checked none)."""
    git_repo.commit({f"{K}/pods.md": GOOD, f"{K}/bad.md": "---\ntitle: [\n---\nbody\n"})
    for name in (K, "content/sources", "."):
        result = git_repo.wikigen("check", str(git_repo.root / name))
        assert result.code == 1 and f"{K}/bad.md:" in result.out, (name, result)


@pytest.mark.parametrize("at", ["garbage", "HEAD~50", "HEAD^{tree}", "a..b"])
def test_search_at_a_name_that_is_no_commit_says_how_to_list_them(git_repo: GitRepo, at: str):
    """`--at` takes a snapshot version or a commit; a name that is neither says so and how to find
    the valid ones, instead of "git failed while resolving"."""
    git_repo.commit({f"{K}/pods.md": GOOD})
    assert git_repo.wikigen("compile", "--engine", "offline", "-q").code == 0
    result = git_repo.wikigen("search", "--at", at, "pods")
    assert_clean(result)
    assert result.code == 2, result
    assert f"no snapshot version or commit {at!r} in this repository" in result.err
    assert "`wikigen status`" in result.err and "`git log --oneline`" in result.err
    assert "git failed" not in result.err
