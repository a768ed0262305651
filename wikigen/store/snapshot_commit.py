"""The commit that published the snapshot at HEAD, and its time: what an export stamps instead of the
clock, so that the same snapshot exports the same bytes (V6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pygit2

from wikigen.model.snapshot import SNAPSHOT_PATH
from wikigen.store.git import GitStore
from wikigen.store.git_errors import translated

WALK_LIMIT = 10_000  # first-parent commits walked back at most; past it the oldest one seen is taken


@dataclass(frozen=True, slots=True)
class SnapshotCommit:
    commit: str | None  # None: no commit holds a snapshot
    time: str  # its committer time, ISO 8601 in UTC (``2026-05-28T14:30:00Z``)


def snapshot_commit(store: GitStore, head: str | None) -> SnapshotCommit:
    """The oldest commit on HEAD's first-parent line whose snapshot record is the one at HEAD: the
    compile's own commit, however many source or manual commits came after it. In a shallow clone
    the walk stops at the boundary."""
    if head is None:
        return SnapshotCommit(None, _iso(0))
    wanted = store.blob_at(head, SNAPSHOT_PATH)
    found = head
    with translated("walking the history for the snapshot's commit"):
        commit = store.repo[head].peel(pygit2.Commit)
        for _ in range(WALK_LIMIT):
            parents = commit.parent_ids
            if wanted is None or not parents or parents[0] not in store.repo:
                break
            parent = store.repo[parents[0]].peel(pygit2.Commit)
            if store.blob_at(str(parent.id), SNAPSHOT_PATH) != wanted:
                break
            commit, found = parent, str(parent.id)
        return SnapshotCommit(found, _iso(int(commit.commit_time)))


def _iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
