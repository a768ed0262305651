"""The MkDocs plugin's own decisions, through a real in-process `mkdocs build` (the browser tests are
in tests/integration/test_site.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import GitRepo, source
from wikigen.views import mkdocs_plugin

MKDOCS_YML = "site_name: kb\ndocs_dir: content\nsite_dir: site\ntheme:\n  name: material\nplugins:\n  - wikigen\n"


def test_a_site_built_without_the_graph_viewer_says_so_on_the_graph_page(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """V4: a `pip install git+URL` has no graph viewer (npm never ran); its graph page says
    why and how to get one instead of showing an empty box."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    assets = tmp_path / "installed-without-npm"
    assets.mkdir()
    for name in mkdocs_plugin.OWN_ASSETS:
        shutil.copy(mkdocs_plugin.ASSET_DIR / name, assets / name)
    monkeypatch.setattr(mkdocs_plugin, "ASSET_DIR", assets)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    git_repo.commit(
        {
            "mkdocs.yml": MKDOCS_YML,
            "content/sources/knowledge/pods.md": source("# Pods\n\nA Pod is a group of containers.\n", title="Pods"),
        }
    )
    build(load_config(str(git_repo.root / "mkdocs.yml")))
    site = git_repo.root / "site"
    page = (site / "graph/index.html").read_text(encoding="utf-8")
    assert 'id="wikigen-graph-missing"' in page and 'id="wikigen-graph"' not in page
    assert "has no graph viewer" in page and "make assets" in page and "Install wikigen from a release" in page
    assert (site / "graph/graph.json").is_file()  # the data is still there, and linked
    assert not (site / "assets/wikigen/graph.js").exists()
