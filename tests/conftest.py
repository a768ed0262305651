"""Real temporary git repos built from dicts (like dvc's scm_gen / pre-commit's make_repo)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygit2
import pytest

from wikigen.cli import main
from wikigen.model.snapshot import ManifestEntry, Snapshot
from wikigen.store.git import GitStore
from wikigen.store.snapshot import read_snapshot, snapshot_files

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@dataclass
class Result:
    code: int
    out: str
    err: str


def source(
    body: str = "# Title\n\nSome body text that is long enough to be a passage of its own.\n", **front: object
) -> str:
    """Markdown with a YAML frontmatter block built from keyword arguments."""
    import yaml

    if not front:
        return body
    return "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True) + "---\n" + body


class GitRepo:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = pygit2.init_repository(str(root), initial_head="main")
        self.repo.config["user.name"] = "Test Author"
        self.repo.config["user.email"] = "author@example.invalid"

    def write(self, files: Mapping[str, str | bytes | None]) -> None:
        for rel, data in files.items():
            path = self.root / rel
            if data is None:
                if path.exists():
                    path.unlink()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, str):
                path.write_text(data, encoding="utf-8")
            else:
                path.write_bytes(data)

    def stage(self, files: Mapping[str, str | bytes | None]) -> None:
        self.write(files)
        index = self.repo.index
        index.read()
        for rel, data in files.items():
            if data is None:
                if rel in index:
                    index.remove(rel)
            else:
                index.add(rel)
        index.write()

    def commit(self, files: Mapping[str, str | bytes | None] | None = None, message: str = "edit") -> str:
        """Write, stage and commit ``files`` (None deletes a path); return the commit id."""
        if files:
            self.stage(files)
        index = self.repo.index
        index.read()
        tree = index.write_tree()
        sig = pygit2.Signature("Test Author", "author@example.invalid", 1_700_000_000, 0)
        parents = [] if self.repo.head_is_unborn else [self.repo.head.target]
        oid = self.repo.create_commit("HEAD", sig, sig, message, tree, parents)
        return str(oid)

    def head(self) -> str:
        return str(self.repo.head.target)

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *args],
            cwd=self.root,
            text=True,
            capture_output=True,
            check=check,
            env={**os.environ, **GIT_ENV},
        )

    def wikigen(self, *args: str) -> Result:
        """Run the CLI in-process, as a user would from the repo root."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["-C", str(self.root), *args])
        return Result(code, out.getvalue(), err.getvalue())

    def json(self, *args: str) -> dict:  # type: ignore[type-arg]
        import json

        result = self.wikigen(*args, "--json")
        assert result.code in (0, 1), result.err
        return json.loads(result.out)  # type: ignore[no-any-return]

    def publish_baseline(self, version: int = 1) -> Snapshot:
        """Record the current plan as a snapshot with the snapshot module's own writer (no compile)."""
        from wikigen.store.workspace import Workspace

        ws = Workspace.open(self.root)
        plan = ws.plan()
        assert not plan.invalid, plan.invalid
        snapshot = Snapshot(
            version=version,
            sources_tree=plan.sources_tree,
            fingerprint=plan.fingerprint,
            manifest=plan.manifest,
            exists=True,
        )
        files = snapshot_files(GitStore(self.root), snapshot, whole=True)
        self.commit({path: data for path, data in files.items() if isinstance(data, bytes)}, message="baseline")
        return snapshot

    def snapshot(self, rev: str = "HEAD") -> Snapshot:
        """The snapshot committed at ``rev``, read as the compiler reads it (any schema)."""
        store = GitStore(self.root)
        return read_snapshot(store, store.commit_tree(store.resolve(rev)))

    def relations(self, rev: str = "HEAD") -> list[str]:
        """Every relation line of the snapshot at ``rev`` (from its shards), sorted by relation id."""
        from wikigen.model.objects import relation_lines

        store = GitStore(self.root)
        tree = store.commit_tree(store.resolve(rev))
        lines = relation_lines(lambda path: store.read_file(tree, path), read_snapshot(store, tree).objects.items())
        return [lines[k] for k in sorted(lines)]

    def changed_paths(self, rev: str = "HEAD") -> list[str]:
        """The paths the commit ``rev`` changed, from `git diff-tree` (its first parent)."""
        return self.git("diff-tree", "-r", "--no-commit-id", "--name-only", rev).stdout.split()

    def edit_manifest(self, edit: Callable[[dict[str, dict[str, Any]]], None], message: str = "hand edit") -> str:
        """Commit a hand edit of HEAD's manifest (``edit`` changes its JSON in place): the shards and
        the root record rewritten so that the snapshot reads as edited."""
        store = GitStore(self.root)
        snap = read_snapshot(store, store.commit_tree(store.head_commit()))
        manifest = {k: v.as_json() for k, v in snap.manifest.items()}
        edit(manifest)
        edited = replace(snap, manifest={k: ManifestEntry.from_json(v) for k, v in manifest.items()}, stored=None)
        files = snapshot_files(store, edited, whole=True)
        return self.commit({path: data for path, data in files.items() if isinstance(data, bytes)}, message)

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


@pytest.fixture
def make_repo(tmp_path: Path):  # type: ignore[no-untyped-def]
    counter = iter(range(1000))

    def make() -> GitRepo:
        return GitRepo(tmp_path / f"repo{next(counter)}")

    return make
