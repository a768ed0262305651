"""Which committed snapshot the search index answers for: HEAD, a snapshot version number, or any git
revision, resolved to the commit and the blob of its snapshot.json (:class:`At`); the manifest is
parsed only when the index must move to it.
"""

from __future__ import annotations

from wikigen.model.errors import UsageError
from wikigen.model.snapshot import SNAPSHOT_PATH, Snapshot
from wikigen.store.git import GitStore
from wikigen.store.snapshot import load_snapshot


class At:
    """A committed snapshot: the commit it was read from, the blob of its snapshot.json (what the index
    records), and the manifest, parsed only when the index must move (a query on an index that is up
    to date reads no snapshot)."""

    __slots__ = ("_snapshot", "blob", "commit", "store")

    def __init__(self, store: GitStore | None, commit: str | None, blob: str | None) -> None:
        self.store = store
        self.commit = commit
        self.blob = blob
        self._snapshot: Snapshot | None = None

    @property
    def snapshot(self) -> Snapshot:
        if self._snapshot is None:
            data = self.store.read_blob(self.blob) if self.store is not None and self.blob else None
            self._snapshot = load_snapshot(data, self.store)
        return self._snapshot


def resolve_snapshot(store: GitStore, at: str | None = None) -> At:
    """The snapshot at HEAD, or ``at``: a snapshot version number (``3``) or any git revision."""
    head = store.head_commit()
    if at is None or at == "":
        commit = head
    elif at.isdigit():
        commit = _commit_of_version(store, head, int(at))
    else:
        commit = store.find_commit(at)
        if commit is None:
            raise UsageError(
                f"no snapshot version or commit {at!r} in this repository; give a snapshot version "
                "(`wikigen status` shows the current one) or a git revision that names a commit "
                "(`git log --oneline` lists them)"
            )
    if commit is None:
        return At(store, None, None)
    return At(store, commit, store.blob_at(commit, SNAPSHOT_PATH))


def _commit_of_version(store: GitStore, head: str | None, version: int) -> str:
    """The newest commit whose snapshot has ``version`` (first-parent history; one blob read per change)."""
    commit, seen = head, None
    while commit is not None:
        blob = store.blob_at(commit, SNAPSHOT_PATH)
        if blob is None:
            break
        if blob != seen:
            seen = blob
            found = load_snapshot(store.read_blob(blob), store).version
            if found == version:
                return commit
            if found < version:
                break
        parents = store.commit_info(commit)[2]
        commit = parents[0] if parents else None
    raise UsageError(
        f"no snapshot version {version} in the history of HEAD; `wikigen status` shows the current version, "
        "and --at also takes a git revision (a commit, a tag)"
    )
