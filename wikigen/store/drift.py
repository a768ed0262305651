"""The generated files at HEAD against the compiler commit that published the snapshot.

Only the compiler writes content/wiki/ and content/.wikigen/, so every difference between HEAD and
the commit that published HEAD's snapshot came from one of two places:

- a merge of another branch that compiled too: the file at HEAD is what the other branch's compiler
  wrote. The compile reconciles it with no user step — the published version comes back (or the
  other branch's object goes away), and the sources the other branch brought compile as changes,
  because the plan diffs the sources tree against the one the snapshot records (R7);
- a commit by hand: refused, naming the file and the command that restores it.

Files the snapshot does not own (people's own files there, R38) are left alone either way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from wikigen.compiler.community_record import COMMUNITIES_DIR, WHOLE_RECORD_PATH
from wikigen.model.config import GENERATED_DIRS
from wikigen.model.errors import GitStoreError, HandEditError, SnapshotError
from wikigen.model.objects import FOLDERS, RELATIONS_DIR, WIKI_DIR, object_path
from wikigen.model.snapshot import SHARDED_DIRS, SNAPSHOT_PATH, WAITING_PATH, Snapshot, recorded_sources_dir
from wikigen.store.git import GitStore
from wikigen.store.object_writer import COMPILER_NAME
from wikigen.store.publish import Published, StartedFrom, commit_message, publish
from wikigen.store.snapshot import load_snapshot

MAX_WALK = 10_000  # commits followed back to the one that published the snapshot
MAX_OTHERS = 1_000  # compiler commits of merged branches looked at


@dataclass(frozen=True, slots=True)
class Drift:
    published: str | None  # the compiler commit whose snapshot HEAD holds (None: not known)
    merged: Mapping[str, str | None] = field(default_factory=lambda: MappingProxyType({}))  # path → blob
    edited: tuple[str, ...] = ()  # owned paths committed by hand
    restore_from: str | None = None  # the compiler commit their published versions come from

    @property
    def restore(self) -> str:
        """The command that brings the hand-edited files back to what the compiler wrote."""
        return f"git checkout {(self.restore_from or '')[:12]} -- {' '.join(self.edited)}"

    def problems(self) -> list[str]:
        """One line per file, for `wikigen verify`."""
        lines = [
            f"{path}: differs from what the compiler wrote in {(self.restore_from or '')[:12]} (edited by "
            f"hand?); restore it with `git checkout {(self.restore_from or '')[:12]} -- {path}` and commit"
            for path in self.edited
        ]
        lines += [
            f"{path}: not the shard the snapshot records (brought by a merge, or edited); "
            "`wikigen compile` restores it"
            if _in_shards(path)
            else f"{path}: brought by merging another compiled branch; `wikigen compile` reconciles it"
            for path in sorted(self.merged)
        ]
        return lines


def _published_by(store: GitStore, head: str) -> tuple[str | None, str | None]:
    """(the compiler commit that wrote HEAD's snapshot.json or None, the commit that introduced it).

    Follows parents that hold the same snapshot blob (a merge that kept one side, user commits after a
    compile) back to where the blob first appears.
    """
    target = store.blob_at(head, SNAPSHOT_PATH)
    if target is None:
        return None, None
    current = head
    for _ in range(MAX_WALK):
        author, _, parents = store.commit_info(current)
        same = [p for p in parents if store.blob_at(p, SNAPSHOT_PATH) == target]
        if not same:
            return (current if author == COMPILER_NAME else None), current
        current = same[0]
    return None, None


def _in_shards(path: str) -> bool:
    """A path in the sharded manifest or index folders, or the waiting list: the snapshot reads them
    from the tree and blob ids its root records, so whatever differs there (a merge's mix, an edit) is
    only restored."""
    return path == WAITING_PATH or path.startswith(tuple(f"{folder}/" for folder in SHARDED_DIRS))


def _owner(store: GitStore, commit: str, snapshot: Snapshot) -> Callable[[str], bool]:
    """Whether a path is one of the files the compiler wrote for ``snapshot`` (committed at
    ``commit``): an object file of its index, a relation shard, the root record, or the communities
    record (V3: its whole file, and every file in its folder). A sharded snapshot answers path by path
    (one index shard, never the whole index)."""
    fixed = {SNAPSHOT_PATH, WHOLE_RECORD_PATH}
    if not snapshot.sharded:
        files = {str(e["file"]) for e in snapshot.objects.values() if e.get("file")} | fixed
        return lambda path: path in files or path.startswith(f"{COMMUNITIES_DIR}/")

    def owns(path: str) -> bool:
        if path in fixed or path.startswith(f"{COMMUNITIES_DIR}/"):
            return True
        if path.startswith(f"{RELATIONS_DIR}/"):
            return store.blob_at(commit, path) is not None  # every relation shard there is the compiler's
        oid = _object_of(path)
        return oid is not None and oid in snapshot.objects and object_path(oid) == path

    return owns


_KINDS = {folder: kind for kind, folder in FOLDERS.items()}


def _object_of(path: str) -> str | None:
    """The object id a file under content/wiki/<folder>/ is named for (None: not an object file)."""
    parts = path.split("/")
    if len(parts) < 4 or f"{parts[0]}/{parts[1]}" != WIKI_DIR or not parts[-1].endswith(".md"):
        return None
    kind = _KINDS.get(parts[2])
    return f"{kind}/{parts[-1][:-3]}" if kind else None


def find_drift(store: GitStore, head: str | None, baseline: Snapshot) -> Drift:
    """How HEAD's generated files differ from what the compiler published, and why."""
    if head is None or not baseline.exists:
        return Drift(None)
    published, introduced = _published_by(store, head)
    if published is None:
        # snapshot.json itself came from a person (a hand edit, a conflict merged by hand) after a
        # compile: restore the compiler's. Without an earlier compile (a hand-made or legacy snapshot,
        # R10) there is nothing to compare with.
        if introduced is None:
            return Drift(None)
        for parent in store.commit_info(introduced)[2]:
            earlier, _ = _published_by(store, parent)
            if earlier is not None:
                return Drift(None, edited=(SNAPSHOT_PATH,), restore_from=earlier)
        return Drift(None)

    head_tree, old_tree = store.commit_tree(head), store.commit_tree(published)
    changed: set[str] = set()
    for folder in GENERATED_DIRS:
        for change in store.diff(store.subtree(old_tree, folder), store.subtree(head_tree, folder), folder):
            changed.update(p for p in (change.old_path, change.new_path) if p is not None)
    if not changed:
        return Drift(published)

    owns = _owner(store, published, baseline)
    others = [
        c
        for c in store.commits_since(head, published, MAX_OTHERS)
        if store.commit_info(c)[0] == COMPILER_NAME
    ]
    other_snapshots: dict[str, Snapshot | None] = {}

    def compiled_elsewhere(path: str, blob: str | None) -> list[str]:
        """Compiler commits of merged branches that hold exactly this version of ``path``."""
        return [c for c in others if store.blob_at(c, path) == blob]

    def owned_by(commit: str, path: str) -> bool:
        if commit not in other_snapshots:
            try:
                other_snapshots[commit] = load_snapshot(
                    store.read_file(store.commit_tree(commit), SNAPSHOT_PATH), store
                )
            except (SnapshotError, GitStoreError):
                other_snapshots[commit] = None
        snapshot = other_snapshots[commit]
        return snapshot is not None and _owner(store, commit, snapshot)(path)

    merged: dict[str, str | None] = {}
    edited: list[str] = []
    for path in sorted(changed):
        now = store.blob_at(head, path)
        if _in_shards(path):
            merged[path] = store.blob_at(published, path)  # restored from the compiler's commit
        elif owns(path):
            if compiled_elsewhere(path, now):
                merged[path] = store.blob_at(published, path)
            else:
                edited.append(path)
        elif now is not None and any(owned_by(c, path) for c in compiled_elsewhere(path, now)):
            merged[path] = None  # the other branch's object; its source compiles as a change
    return Drift(published, MappingProxyType(merged), tuple(edited), published if edited else None)


def refuse_hand_edits(drift: Drift) -> None:
    """A committed hand edit of a generated file would survive the compile: refuse."""
    if drift.edited:
        raise HandEditError(
            f"{', '.join(drift.edited)}: committed by hand, not by the compiler (only the compiler writes "
            f"content/wiki/ and content/.wikigen/). Restore the compiler's version with `{drift.restore}`, "
            "commit it, and compile again."
        )


def reconciled_files(store: GitStore, drift: Drift) -> dict[str, bytes | None]:
    """The files a reconciling commit writes: the published versions back, the other branch's gone."""
    if drift.published is None:
        return {}
    tree = store.commit_tree(drift.published)
    return {
        path: None if blob is None else store.read_file(tree, path) for path, blob in drift.merged.items()
    }


def reconcile(
    store: GitStore, head: str | None, baseline: Snapshot, refuse_dirty: Callable[[], None]
) -> Published | None:
    """After a merge of compiled branches, one compiler commit (no engine call) brings the generated
    files back to the snapshot HEAD holds; the sources the merge brought then compile as changes.
    Refuses hand edits (:func:`refuse_hand_edits`), and a dirty work tree before it writes. None when
    there is nothing to reconcile."""
    drift = find_drift(store, head, baseline)
    refuse_hand_edits(drift)
    if not drift.merged:
        return None
    refuse_dirty()
    files = reconciled_files(store, drift)
    folder = recorded_sources_dir(baseline)
    started = StartedFrom(head, baseline.version, store.subtree(store.commit_tree(head), folder), folder)
    message = commit_message(
        f"wikigen: reconcile {len(files)} generated file(s) after a merge (snapshot {baseline.version} "
        "kept, no engine call)",
        {
            "Wikigen-Snapshot": baseline.version,
            "Wikigen-Reconciled-From": drift.published,
            "Wikigen-Engine-Calls": 0,
        },
    )
    return publish(store, started, files, baseline, message)
