"""Publish (R30–R31, R33): a lock, a compare of what the compile started from, one commit touching
only content/wiki/ and content/.wikigen/, and a compare-and-swap on the branch ref.

Objects are written first and the ref moves last, so a crash leaves the old snapshot or the new
one, never a mix. A failure is recorded as a git note under refs/notes/wikigen on the source commit.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from wikigen.errors import ConflictError, GitStoreError, PreviousFailure, WikigenError
from wikigen.gitstore import GitStore
from wikigen.snapshot import SNAPSHOT_PATH, Snapshot, dump_snapshot, load_snapshot
from wikigen.sources import SOURCES_DIR

GENERATED = ("content/wiki/", "content/.wikigen/")
FAULT_ENV = "WIKIGEN_FAULT"  # test hook: after-objects | after-commit | after-ref | during-worktree


def _fault(point: str) -> None:
    if os.environ.get(FAULT_ENV) == point:
        raise RuntimeError(f"injected fault at {point}")


@dataclass(frozen=True, slots=True)
class StartedFrom:
    """What a compile read at its start; publish rejects the result if any of it moved (R30)."""

    head: str | None
    baseline_version: int
    sources_tree: str


@contextmanager
def repo_lock(store: GitStore, timeout_s: float = 60.0) -> Iterator[None]:
    """An exclusive lock per repository (the knowledge root), held while comparing and publishing."""
    path = os.path.join(store.repo.path, "wikigen.lock")
    with open(path, "a+") as handle:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise ConflictError(
                        f"another wikigen holds {path}; wait for it to finish and run again"
                    ) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def refuse_dirty(store: GitStore) -> None:
    """The work tree is updated after publishing, so local edits there would be lost: refuse first."""
    dirty = store.dirty_paths(GENERATED)
    if dirty:
        listing = ", ".join(dirty[:5]) + (" …" if len(dirty) > 5 else "")
        raise WikigenError(
            f"generated files have local changes ({listing}); only the compiler writes content/wiki/ and "
            "content/.wikigen/ — restore them with `git checkout -- content/wiki content/.wikigen` and compile again"
        )


def publish(
    store: GitStore,
    started: StartedFrom,
    files: Mapping[str, bytes | None],
    snapshot: Snapshot,
    message: str,
) -> str:
    """One commit with the snapshot and the object files; the branch ref moves by compare-and-swap."""
    ref = store.head_ref()
    with repo_lock(store):
        head = store.head_commit()
        if head != started.head:
            tree_now = store.commit_tree(head)
            now = load_snapshot(store.read_file(tree_now, SNAPSHOT_PATH))
            if now.version != started.baseline_version:
                raise ConflictError(
                    f"the snapshot moved while compiling (version {started.baseline_version} → {now.version}); "
                    "the late result was rejected and nothing was overwritten — compile again"
                )
            if store.subtree(tree_now, SOURCES_DIR) != started.sources_tree:
                raise ConflictError(
                    "the sources changed while compiling; the late result was rejected — compile again"
                )
        changes = {path: data for path, data in files.items() if path.startswith(GENERATED)}
        if set(changes) != set(files):
            outside = sorted(set(files) - set(changes))
            raise GitStoreError(f"refusing to publish paths outside the generated folders: {outside}")
        changes[SNAPSHOT_PATH] = dump_snapshot(snapshot)
        tree = store.build_tree(store.commit_tree(head), changes)
        _fault("after-objects")
        commit = store.create_commit(tree, [head] if head else [], message)
        _fault("after-commit")
        store.move_ref(ref, commit, head)  # R31: compare-and-swap; raises if the ref moved
    _fault("after-ref")
    update_work_tree(store, commit, sorted(changes))
    return commit


def update_work_tree(store: GitStore, commit: str, paths: list[str]) -> None:
    """Bring the generated paths of the work tree to the new commit (they were clean: see refuse_dirty)."""
    if os.environ.get(FAULT_ENV) == "during-worktree":
        half = paths[: len(paths) // 2]
        store.checkout_paths(store.commit_tree(commit), half)
        raise RuntimeError("injected fault during-worktree")
    store.checkout_paths(store.commit_tree(commit), paths)


def commit_message(summary: str, trailers: Mapping[str, Any]) -> str:
    lines = [summary, ""] + [f"{k}: {v}" for k, v in trailers.items()]
    return "\n".join(lines) + "\n"


# -- R33: failures as git notes ----------------------------------------------------------------------


def record_failure(store: GitStore, commit: str | None, record: Mapping[str, Any]) -> None:
    if commit is None:
        return
    # The failure itself is what the user must see; a note that cannot be written must not hide it.
    with contextlib.suppress(WikigenError):
        store.write_note(commit, json.dumps({"status": "failed", **record}, sort_keys=True, indent=1) + "\n")


def record_outcome(store: GitStore, commit: str | None, record: Mapping[str, Any]) -> None:
    """A successful compile's figures as a note on its source commit (replaces an older failure note)."""
    if commit is None:
        return
    with contextlib.suppress(WikigenError):
        store.write_note(commit, json.dumps(dict(record), sort_keys=True, indent=1) + "\n")


def previous_failure(
    store: GitStore, commit: str | None, sources_tree: str, config_key: str
) -> Mapping[str, Any] | None:
    """The failure recorded for these same sources, if any (HEAD and ancestors with the same sources)."""
    current = commit
    for _ in range(50):
        if current is None:
            return None
        if store.subtree(store.commit_tree(current), SOURCES_DIR) != sources_tree:
            return None
        note = store.read_note(current)
        if note:
            try:
                data = json.loads(note)
            except json.JSONDecodeError:
                data = {}
            if (
                data.get("status") == "failed"
                and data.get("sourcesTree") == sources_tree
                and data.get("configKey") == config_key
            ):
                return dict(data)
            if data.get("status") == "ok":
                return None
        _, _, parents = store.commit_info(current)
        current = parents[0] if parents else None
    return None


def refuse_retry(failure: Mapping[str, Any]) -> None:
    raise PreviousFailure(
        "the same sources failed to compile before (recorded in refs/notes/wikigen): "
        f"{failure.get('error', 'unknown error')}\nChange a source or the settings, or run `wikigen compile --retry`."
    )
