"""R34, as a new user would meet it: git init, wikigen init, the hook, a refused and a fixed commit,
`wikigen compile` (offline engine), `mkdocs build`, an edit compiled incrementally, and
`pre-commit try-repo` with this project's hook."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV
from tests.corpora import REPO_ROOT
from wikigen.model.objects import object_path

pytestmark = pytest.mark.integration
BIN = Path(sys.executable).parent
SPEC = "wikigen-compiler @ git+https://example.invalid/wikigen.git@0123456789abcdef0123456789abcdef01234567"


def run(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_ENV, "PATH": f"{BIN}:{os.environ['PATH']}"}
    result = subprocess.run(list(args), cwd=cwd, text=True, capture_output=True, env=env)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def test_new_user_flow_from_git_init_to_site(tmp_path: Path):
    kb = tmp_path / "kb"
    kb.mkdir()
    run(kb, "git", "init", "-q", "-b", "main")
    run(kb, "wikigen", "init", "--install-spec", SPEC)
    run(kb, "git", "config", "core.hooksPath", "hooks")
    run(kb, "git", "add", "-A")
    run(kb, "git", "commit", "-qm", "wikigen init")

    bad = kb / "content/sources/knowledge/pods.md"
    bad.write_text("---\ntitle: Pods\nverification: maybe\n---\n# Pods\n\nA **Pod** is the smallest deployable unit.\n")
    run(kb, "git", "add", "-A")
    refused = run(kb, "git", "commit", "-qm", "bad", check=False)
    assert refused.returncode != 0 and "content/sources/knowledge/pods.md:3:" in refused.stdout + refused.stderr

    bad.write_text(
        "---\ntitle: Pods\n---\n# Pods\n\nA **Pod** is the smallest deployable unit of computing that you can "
        "create and manage in Kubernetes.\n\nA Pod runs on a Node, and the scheduler assigns each Pod to a Node.\n"
    )
    run(kb, "git", "add", "-A")
    run(kb, "git", "commit", "-qm", "pods")

    compiled = run(kb, "wikigen", "compile")
    assert "published snapshot 1" in compiled.stdout
    assert run(kb, "git", "log", "-1", "--format=%an").stdout.strip() == "wikigen"
    assert run(kb, "wikigen", "verify").returncode == 0
    assert "nothing to compile" in run(kb, "wikigen", "compile").stdout  # the second compile is a no-op

    run(kb, "mkdocs", "build", "--strict")
    assert (kb / "site/index.html").is_file()
    assert run(kb, "git", "status", "--porcelain").stdout == ""  # site/ is ignored, nothing else written

    node = kb / "content/sources/knowledge/nodes.md"
    node.write_text("# Nodes\n\nA **Node** is a worker machine in Kubernetes that runs Pods.\n")
    run(kb, "git", "add", "-A")
    run(kb, "git", "commit", "-qm", "nodes")
    run(kb, "wikigen", "compile")
    changed = run(kb, "git", "show", "--name-only", "--format=", "HEAD").stdout.split()
    assert object_path("article/knowledge--nodes") in changed
    assert object_path("article/knowledge--pods") not in changed  # only affected objects change
    assert all(p.startswith(("content/wiki/", "content/.wikigen/")) for p in changed)


@pytest.mark.skipif(shutil.which("pre-commit", path=str(BIN)) is None, reason="pre-commit is a dev dependency")
def test_pre_commit_try_repo_runs_the_project_hook(tmp_path: Path):
    kb = tmp_path / "kb"
    kb.mkdir()
    run(kb, "git", "init", "-q", "-b", "main")
    run(kb, "wikigen", "init", "--install-spec", SPEC)
    run(kb, "git", "add", "-A")
    run(kb, "git", "commit", "-qm", "init", "--no-verify")
    (kb / "content/sources/knowledge/bad.md").write_text("---\ntitle: [x\n---\n")
    run(kb, "git", "add", "-A")
    env_home = tmp_path / "pre-commit-home"
    result = subprocess.run(
        [str(BIN / "pre-commit"), "try-repo", str(REPO_ROOT), "wikigen-check", "--verbose"],
        cwd=kb, text=True, capture_output=True, env={**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(env_home)},
        timeout=900,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert re.search(r"content/sources/knowledge/bad\.md:\d+: frontmatter is not valid YAML", output), output
