"""Since when a source has waited: a walk back along HEAD's first parents to the first commit whose
version of the file the snapshot has not compiled — commit times only, never the clock."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygit2

from wikigen.store.git import GitStore
from wikigen.store.git_errors import translated

MAX_COMMITS = 10_000  # a walk stops here; a source still waiting then waits at least that long


def waiting_since(store: GitStore, head: str, compiled: Mapping[str, str | None], folder: str) -> dict[str, int]:
    """path → the commit time since which the file at ``path`` has held a version other than its
    compiled blob (``compiled[path]``; None: never compiled; ``folder`` the sources folder): the time of the oldest commit of the
    run, back from HEAD, in which the file exists and differs from that blob. A shallow history or
    the walk's limit ends the run at the oldest commit read."""
    remaining = dict(compiled)
    since: dict[str, int] = {}
    with translated("walking the history"):
        commit: Any = store.repo[head].peel(pygit2.Commit)
        newer_time = int(commit.commit_time)
        newer_sources: str | None = None
        for _ in range(MAX_COMMITS):
            tree = str(commit.tree_id)
            sources = store.subtree(tree, folder)
            if sources != newer_sources:  # a commit that leaves the sources alone ends no run
                for path in sorted(remaining):
                    blob = store.blob_in(tree, path)
                    if blob is None or blob == remaining[path]:
                        since[path] = newer_time
                        del remaining[path]
            if not remaining:
                break
            newer_time, newer_sources = int(commit.commit_time), sources
            try:
                commit = commit.parents[0] if commit.parent_ids else None
            except KeyError:  # a shallow clone's oldest commit names a parent it does not hold
                commit = None
            if commit is None:
                break
    return since | dict.fromkeys(remaining, newer_time)

