"""The project's own site — its manual and its compiled knowledge base — builds with `mkdocs build
--strict` from what HEAD holds, so a manual link to a page or an anchor that is gone fails CI, not
only `make site` (V1)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.conftest import GitRepo

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def test_the_projects_own_site_builds_strict_from_head(tmp_path: Path) -> None:
    """V1: every page of content/ (the manual, the compiled wiki) renders with no warning."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD", "content", "mkdocs.yml"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        pytest.skip("not run from a git checkout of wikigen")
    repo = GitRepo(tmp_path / "repo")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(repo.root, filter="data")
    repo.git("add", "-A")
    repo.commit(message="the project's own content and site settings")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(repo.root / "mkdocs.yml"),
         "-d", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "site" / "manual" / "index.html").is_file()
    assert (tmp_path / "site" / "lint" / "index.html").is_file()
