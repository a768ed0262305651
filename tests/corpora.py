"""The shared public corpora (../shared/corpora), read for tests and benchmarks; never committed here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pygit2

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    return Path(os.environ.get("WIKIGEN_SHARED", REPO_ROOT.parent / "shared"))


CORPORA = {
    "tldr": ("corpora/tldr-pages/pages", "content/sources/knowledge/tldr"),
    "k8s": ("corpora/k8s-concepts/content/en/docs/concepts", "content/sources/knowledge/k8s"),
}


def corpus_available(name: str) -> bool:
    return (shared_dir() / CORPORA[name][0]).is_dir()


def corpus_files(name: str) -> dict[str, bytes]:
    """Every Markdown file of a corpus, keyed by the path it gets under content/sources/."""
    folder, prefix = CORPORA[name]
    root = shared_dir() / folder
    return {f"{prefix}/{p.relative_to(root).as_posix()}": p.read_bytes() for p in sorted(root.rglob("*.md"))}


def commit_files(repo: pygit2.Repository, files: Mapping[str, bytes | str | None], message: str = "import") -> str:
    """Commit files (bytes, or ids of blobs already written) straight into the object store (no
    work-tree writes): fast for thousands of files."""
    from wikigen.model.snapshot import EMPTY_TREE
    from wikigen.store.git import GitStore

    store = GitStore(repo.workdir)
    base = EMPTY_TREE if repo.head_is_unborn else str(repo.head.peel(pygit2.Commit).tree.id)
    tree = store.build_tree(base, files)
    sig = pygit2.Signature("Test Author", "author@example.invalid", 1_700_000_000, 0)
    parents = [] if repo.head_is_unborn else [repo.head.target]
    commit = repo.create_commit("HEAD", sig, sig, message, pygit2.Oid(hex=tree), parents)
    repo.index.read_tree(repo[tree])
    repo.index.write()
    return str(commit)


def baseline_files(repo: pygit2.Repository, plan: Any, version: int = 1) -> dict[str, bytes | None]:
    """A snapshot recording ``plan`` as compiled, every file of it, written by the snapshot module's
    own writer (the sharded layout: root record and shards)."""
    from wikigen.model.snapshot import Snapshot
    from wikigen.store.git import GitStore
    from wikigen.store.snapshot import snapshot_files

    snapshot = Snapshot(version=version, sources_tree=plan.sources_tree, fingerprint=plan.fingerprint,
                        manifest=plan.manifest, exists=True)
    files = snapshot_files(GitStore(repo.workdir), snapshot, whole=True)
    return {path: data for path, data in files.items() if isinstance(data, bytes)}
