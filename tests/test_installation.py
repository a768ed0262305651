"""The workflow `wikigen init` writes installs wikigen from where it can really be had."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import GitRepo
from tests.test_workflow import actionlint
from wikigen.commands.installation import (
    InstallSpec,
    checked_spec,
    install_spec,
    local_install,
    this_install_spec,
)
from wikigen.model.errors import UsageError

COMMIT = "0123456789abcdef0123456789abcdef01234567"

# What pip writes in direct_url.json (PEP 610) for each way of installing, and the spec it becomes.
CASES: dict[str, tuple[dict[str, Any] | None, str]] = {
    "index": (None, "wikigen-compiler==0.1.0"),
    "git": (
        {
            "url": "https://github.com/acme/wikigen.git",
            "vcs_info": {"vcs": "git", "requested_revision": "main", "commit_id": COMMIT},
        },
        f"wikigen-compiler @ git+https://github.com/acme/wikigen.git@{COMMIT}",
    ),
    "git subdirectory": (
        {
            "url": "https://github.com/acme/tools",
            "vcs_info": {"vcs": "git", "commit_id": COMMIT},
            "subdirectory": "wikigen",
        },
        f"wikigen-compiler @ git+https://github.com/acme/tools@{COMMIT}#subdirectory=wikigen",
    ),
    "wheel url": (
        {
            "url": "https://github.com/acme/wikigen/releases/download/v0.1.0/wikigen-0.1.0-py3-none-any.whl",
            "archive_info": {"hashes": {"sha256": "ab" * 32}},
        },
        "wikigen-compiler @ https://github.com/acme/wikigen/releases/download/v0.1.0/wikigen-0.1.0-py3-none-any.whl",
    ),
    "sdist url": (
        {"url": "https://example.org/wikigen-0.1.0.tar.gz", "archive_info": {}},
        "wikigen-compiler @ https://example.org/wikigen-0.1.0.tar.gz",
    ),
}
LOCAL = {
    "editable": {"url": "file:///home/me/wikigen", "dir_info": {"editable": True}},
    "folder": {"url": "file:///home/me/wikigen", "dir_info": {}},
    "local wheel": {"url": "file:///tmp/dist/wikigen-0.1.0-py3-none-any.whl", "archive_info": {}},
    "local git clone": {"url": "file:///home/me/wikigen", "vcs_info": {"vcs": "git", "commit_id": COMMIT}},
}


@pytest.mark.parametrize("case", CASES)
def test_install_spec_from_each_kind_of_direct_url(case: str):
    direct_url, expected = CASES[case]
    assert install_spec(direct_url, "0.1.0") == expected
    assert checked_spec(expected) == expected  # what it writes is a requirement pip reads


@pytest.mark.parametrize("case", LOCAL)
def test_a_local_install_gives_this_version_from_pypi_and_says_where_it_came_from(case: str):
    assert install_spec(LOCAL[case], "0.1.0") == "wikigen-compiler==0.1.0"
    how = local_install(LOCAL[case])
    assert how is not None and ("/home/me/wikigen" in how or "/tmp/dist" in how)
    assert ("editable" in how) == (case == "editable")
    assert all(local_install(direct_url) is None for direct_url, _ in CASES.values())


@pytest.mark.parametrize("spec", ["not a requirement !!", "requests==2.0", "wikigen==0.1.0"])
def test_a_bad_install_spec_is_refused(spec: str):
    with pytest.raises(UsageError, match="--install-spec"):
        checked_spec(spec)


def fake_distribution(folder: Path, direct_url: dict[str, Any] | None, version: str = "0.1.0") -> None:
    """A wikigen-compiler dist-info folder as pip leaves it, first on sys.path: importlib.metadata
    finds it."""
    info = folder / f"wikigen_compiler-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: wikigen-compiler\nVersion: {version}\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))


@pytest.mark.parametrize("case", ["index", "git", "wheel url"])
def test_this_install_spec_reads_the_installed_direct_url_json(tmp_path: Path, monkeypatch, case: str):
    direct_url, expected = CASES[case]
    fake_distribution(tmp_path / "site", direct_url, "0.1.0")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert this_install_spec() == InstallSpec(expected)


def workflow_install(repo: GitRepo) -> str:
    flow = yaml.safe_load(repo.read(".github/workflows/wikigen.yml"))
    return str(flow["env"]["WIKIGEN_INSTALL"])


def test_init_writes_the_git_commit_it_was_installed_from_and_actionlint_passes(
    git_repo: GitRepo, tmp_path: Path, monkeypatch
):
    fake_distribution(tmp_path / "site", CASES["git"][0])
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    result = git_repo.wikigen("init", str(git_repo.root))
    assert result.code == 0, result.err
    assert workflow_install(git_repo) == CASES["git"][1]
    lint = subprocess.run(
        [actionlint(), str(git_repo.root / ".github/workflows/wikigen.yml")], capture_output=True, text=True
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_init_from_an_editable_install_writes_this_version_from_pypi_and_says_how_to_change_it(
    git_repo: GitRepo, tmp_path: Path, monkeypatch
):
    fake_distribution(tmp_path / "site", LOCAL["editable"], "0.3.0")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    made = git_repo.wikigen("init", str(git_repo.root))
    assert made.code == 0, made.err
    assert workflow_install(git_repo) == "wikigen-compiler==0.3.0"
    said = [line for line in made.out.splitlines() if "wikigen-compiler==0.3.0" in line]
    assert len(said) == 1 and "editable" in said[0] and "--install-spec" in said[0]
    # The workflow is there now: a second init changes nothing and says nothing about it.
    again = git_repo.wikigen("init", str(git_repo.root))
    assert "nothing to do" in again.out and "wikigen-compiler" not in again.out


def test_init_where_wikigen_compiler_is_not_installed_writes_the_running_version(
    git_repo: GitRepo, monkeypatch
):
    import wikigen
    from wikigen.commands import installation

    monkeypatch.setattr(installation, "DISTRIBUTION", "wikigen-compiler-not-installed")
    made = git_repo.wikigen("init", str(git_repo.root))
    assert made.code == 0, made.err
    assert workflow_install(git_repo) == f"wikigen-compiler-not-installed=={wikigen.__version__}"
    assert "not installed as" in made.out and "--install-spec" in made.out


def test_an_install_spec_names_wikigen_compiler_since_wikigen_on_pypi_is_another_project():
    with pytest.raises(UsageError, match="wikigen-compiler"):
        checked_spec("wikigen @ git+https://github.com/acme/wikigen@v0.2.0")
    assert checked_spec("Wikigen_Compiler==0.1.0") == "Wikigen_Compiler==0.1.0"
