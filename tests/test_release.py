"""The release workflow builds the sdist and the wheel with the graph viewer inside."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import yaml

from tests.corpora import REPO_ROOT
from tests.test_workflow import actionlint
from wikigen.views.mkdocs_plugin import GRAPH_ASSETS

RELEASE = REPO_ROOT / ".github/workflows/release.yml"


def test_release_workflow_passes_actionlint():
    result = subprocess.run([actionlint(), str(RELEASE)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_release_builds_the_viewer_before_the_packages_checks_both_and_attaches_them():
    flow = yaml.safe_load(RELEASE.read_text())
    on = flow[True] if True in flow else flow["on"]  # YAML 1.1 reads `on` as true
    assert on["push"]["tags"] == ["v*"]
    runs = [str(step.get("run", "")) for step in flow["jobs"]["build"]["steps"]]
    assets = next(i for i, run in enumerate(runs) if "make assets" in run)
    build = next(i for i, run in enumerate(runs) if "python -m build" in run)
    check = next(i for i, run in enumerate(runs) if "unzip -l dist/*.whl" in run)
    assert assets < build < check
    assert "tar -tzf dist/*.tar.gz" in runs[check] and all(name in runs[check] for name in GRAPH_ASSETS)
    release = flow["jobs"]["release"]
    assert release["needs"] == "build" and release["permissions"] == {"contents": "write"}
    assert "gh release" in " ".join(str(step.get("run", "")) for step in release["steps"])


def test_an_sdist_built_after_make_assets_carries_the_bundle(tmp_path: Path):
    """What the release does, without npm: a built bundle in views/assets/ goes into the sdist (and
    the wheel that `python -m build` makes from it)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO_ROOT / name, tree / name)
    ignore = shutil.ignore_patterns("node_modules", "__pycache__", "graph.js", "graph.css", "graph.LICENSES.txt")
    shutil.copytree(REPO_ROOT / "wikigen", tree / "wikigen", ignore=ignore)
    for name in GRAPH_ASSETS:
        (tree / "wikigen/views/assets" / name).write_text(f"/* built {name} */\n")
    out = tmp_path / "dist"
    made = subprocess.run(
        [sys.executable, "-c", f"from setuptools import build_meta; print(build_meta.build_sdist({str(out)!r}))"],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    with tarfile.open(out / made.stdout.split()[-1]) as sdist:
        names = sdist.getnames()
    for name in GRAPH_ASSETS:
        assert any(n.endswith(f"wikigen/views/assets/{name}") for n in names), name
