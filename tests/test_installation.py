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
from wikigen.commands.installation import checked_spec, install_spec, this_install_spec
from wikigen.model.errors import UsageError

COMMIT = "0123456789abcdef0123456789abcdef01234567"

# What pip writes in direct_url.json (PEP 610) for each way of installing, and the spec it becomes.
CASES: dict[str, tuple[dict[str, Any] | None, str]] = {
    "index": (None, "wikigen==0.1.0"),
    "git": (
        {
            "url": "https://github.com/acme/wikigen.git",
            "vcs_info": {"vcs": "git", "requested_revision": "main", "commit_id": COMMIT},
        },
        f"wikigen @ git+https://github.com/acme/wikigen.git@{COMMIT}",
    ),
    "git subdirectory": (
        {
            "url": "https://github.com/acme/tools",
            "vcs_info": {"vcs": "git", "commit_id": COMMIT},
            "subdirectory": "wikigen",
        },
        f"wikigen @ git+https://github.com/acme/tools@{COMMIT}#subdirectory=wikigen",
    ),
    "wheel url": (
        {
            "url": "https://github.com/acme/wikigen/releases/download/v0.1.0/wikigen-0.1.0-py3-none-any.whl",
            "archive_info": {"hashes": {"sha256": "ab" * 32}},
        },
        "wikigen @ https://github.com/acme/wikigen/releases/download/v0.1.0/wikigen-0.1.0-py3-none-any.whl",
    ),
    "sdist url": (
        {"url": "https://example.org/wikigen-0.1.0.tar.gz", "archive_info": {}},
        "wikigen @ https://example.org/wikigen-0.1.0.tar.gz",
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
def test_a_local_install_asks_for_install_spec_and_says_why(case: str):
    with pytest.raises(UsageError) as caught:
        install_spec(LOCAL[case], "0.1.0")
    message = caught.value.message
    assert "--install-spec" in message and ("/home/me/wikigen" in message or "/tmp/dist" in message)
    assert "cannot install from" in message
    assert ("editable" in message) == (case == "editable")


@pytest.mark.parametrize("spec", ["not a requirement !!", "requests==2.0"])
def test_a_bad_install_spec_is_refused(spec: str):
    with pytest.raises(UsageError, match="--install-spec"):
        checked_spec(spec)


def fake_distribution(folder: Path, direct_url: dict[str, Any] | None, version: str = "0.1.0") -> None:
    """A wikigen dist-info folder as pip leaves it, first on sys.path: importlib.metadata finds it."""
    info = folder / f"wikigen-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: wikigen\nVersion: {version}\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))


@pytest.mark.parametrize("case", ["index", "git", "wheel url"])
def test_this_install_spec_reads_the_installed_direct_url_json(tmp_path: Path, monkeypatch, case: str):
    direct_url, expected = CASES[case]
    fake_distribution(tmp_path / "site", direct_url, "0.1.0")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert this_install_spec() == expected


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


def test_init_from_an_editable_install_asks_for_install_spec_and_writes_nothing(
    git_repo: GitRepo, tmp_path: Path, monkeypatch
):
    fake_distribution(tmp_path / "site", LOCAL["editable"])
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    refused = git_repo.wikigen("init", str(git_repo.root))
    assert refused.code == 2 and "--install-spec" in refused.err and "editable" in refused.err
    assert not (git_repo.root / "wikigen.yml").exists()
    spec = "wikigen @ git+https://github.com/acme/wikigen@v0.2.0"
    made = git_repo.wikigen("init", str(git_repo.root), "--install-spec", spec)
    assert made.code == 0, made.err
    assert workflow_install(git_repo) == spec
    # The workflow is there now: a second init needs no spec and changes nothing.
    assert "nothing to do" in git_repo.wikigen("init", str(git_repo.root)).out
