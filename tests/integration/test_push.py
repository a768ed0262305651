"""R33/R34 in CI: `wikigen push` against a bare remote — a rejected push re-compiles, never forces."""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV, source
from tests.engines import extract
from wikigen.commands.push import push
from wikigen.compiler.driver import compile_repo
from wikigen.engines.contract import empty_delta
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.errors import ValidationError
from wikigen.model.snapshot import Snapshot
from wikigen.store.git import GitStore
from wikigen.store.snapshot import read_snapshot

pytestmark = pytest.mark.integration
K = "content/sources/knowledge"


def git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, text=True, capture_output=True, env={**os.environ, **GIT_ENV})
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def write_commit(clone: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        (clone / rel).parent.mkdir(parents=True, exist_ok=True)
        (clone / rel).write_text(text)
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", message)


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(bare), str(seed))
    write_commit(seed, {f"{K}/a.md": source("Concept Alpha: first.\n", title="A")}, "first source")
    git(seed, "push", "-q", "origin", "HEAD:main")
    return bare


def clone(remote: Path, where: Path) -> Path:
    git(where.parent, "clone", "-q", str(remote), str(where))
    return where


def remote_snapshot(remote: Path, where: Path) -> Snapshot:
    """The snapshot on the remote's main, read from a fresh clone (the shards need a repository)."""
    store = GitStore(clone(remote, where))
    return read_snapshot(store, store.commit_tree(store.head_commit()))


compiler = functools.partial(compile_repo, engine=ScriptedEngine(extract))


def test_push_race_second_push_recompiles_and_nothing_is_lost(remote: Path, tmp_path: Path):
    one, two = clone(remote, tmp_path / "one"), clone(remote, tmp_path / "two")
    write_commit(one, {f"{K}/b.md": source("Concept Beta: from one.\n", title="B")}, "one adds b")
    git(one, "push", "-q", "origin", "HEAD:main")
    # two compiled from the old baseline (a), then one's compile lands first.
    first = push(one, compiler=compiler)
    assert first.pushed and first.attempts == 1
    second = push(two, compiler=compiler)
    # two's compile of the old baseline was rejected and dropped; the new head was already compiled.
    assert second.attempts == 2 and not second.pushed and not second.reports[-1].published
    assert git(two, "rev-parse", "HEAD") == git(remote, "rev-parse", "main")
    head = git(remote, "rev-parse", "main")
    snapshot = remote_snapshot(remote, tmp_path / "check")
    assert set(snapshot.manifest) == {"knowledge/a", "knowledge/b"}
    assert git(remote, "log", "-1", "--format=%an", head) == "wikigen"


def test_push_rejected_then_recompiled_against_new_baseline(remote: Path, tmp_path: Path):
    one, two = clone(remote, tmp_path / "one"), clone(remote, tmp_path / "two")
    write_commit(two, {f"{K}/c.md": source("Concept Gamma: from two.\n", title="C")}, "two adds c")
    git(two, "push", "-q", "origin", "HEAD:main")
    git(one, "pull", "-q", "origin", "main")
    # one compiles locally; meanwhile two pushes another source, so one's push is rejected.
    calls = {"n": 0}

    def racing_compile(root, **kw):  # type: ignore[no-untyped-def]
        report = compiler(root, **kw)
        if calls["n"] == 0:
            write_commit(two, {f"{K}/d.md": source("Concept Delta: later.\n", title="D")}, "two adds d")
            git(two, "push", "-q", "origin", "HEAD:main")
        calls["n"] += 1
        return report

    result = push(one, compiler=racing_compile)
    assert result.pushed and result.attempts == 2 and calls["n"] == 2
    snapshot = remote_snapshot(remote, tmp_path / "check")
    assert set(snapshot.manifest) == {"knowledge/a", "knowledge/c", "knowledge/d"}  # nothing lost
    log = git(remote, "log", "--format=%an %s", "main").splitlines()
    assert sum(1 for line in log if line.startswith("wikigen ")) == 1  # the dropped commit never landed
    assert git(remote, "for-each-ref", "--format=%(refname)", "refs/notes/") == "refs/notes/wikigen"
    assert '"status": "ok"' in git(remote, "notes", "--ref=refs/notes/wikigen", "show", "main~1")


def test_push_failure_note_reaches_the_remote(remote: Path, tmp_path: Path):
    one = clone(remote, tmp_path / "one")
    bad = {**empty_delta(), "articles": [{"title": "A", "sources": ["knowledge/a"],
                                         "summary": [{"text": "x", "quotes": [{"source": "knowledge/a", "quote": "nope"}]}]}]}
    failing = functools.partial(compile_repo, engine=ScriptedEngine([bad, empty_delta()]))
    with pytest.raises(ValidationError):
        push(one, compiler=failing)
    assert git(remote, "for-each-ref", "--format=%(refname)", "refs/notes/") == "refs/notes/wikigen"
    note = git(remote, "notes", "--ref=refs/notes/wikigen", "show", "main")
    assert '"status": "failed"' in note


def test_push_shows_progress_outside_a_terminal(remote: Path, tmp_path: Path):
    """R16, R34: `wikigen push` is what CI runs, so its log shows a line per increment."""
    import contextlib
    import io

    from wikigen.cli import main

    one = clone(remote, tmp_path / "one")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["-C", str(one), "push", "--engine", "offline"])
    assert code == 0, err.getvalue()
    assert err.getvalue().startswith("wikigen: compiling 1 changed source(s)")
    assert "wikigen: snapshot 1: 1 source(s) compiled; 2 engine call(s)" in err.getvalue()
