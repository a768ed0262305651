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
import shlex
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from wikigen.model.errors import (
    ConflictError,
    EnvironmentalError,
    GitStoreError,
    LocalChangesError,
    PreviousFailure,
    WikigenError,
    environmental,
)
from wikigen.model.snapshot import SHARDED_DIRS, SNAPSHOT_PATH, Snapshot
from wikigen.store.git import GitStore
from wikigen.store.git_cli import GENERATED
from wikigen.store.snapshot import load_snapshot, snapshot_files

# Test hook: after-objects | after-commit | after-ref | during-worktree raise there; kill-after-ref
# and kill-during-worktree SIGKILL the process there; sigint-ref-moved sends it SIGINT (Ctrl-C) the
# moment the ref moved.
FAULT_ENV = "WIKIGEN_FAULT"


def _fault(point: str) -> None:
    fault = os.environ.get(FAULT_ENV)
    if fault == point:
        raise RuntimeError(f"injected fault at {point}")
    if fault == f"kill-{point}":
        os.kill(os.getpid(), signal.SIGKILL)
    if fault == f"sigint-{point}":
        os.kill(os.getpid(), signal.SIGINT)


@dataclass(frozen=True, slots=True)
class Published:
    """A publish whose branch ref moved: the snapshot is published, whatever followed (R31).
    ``warnings`` say what did not follow and the command that repairs each."""

    commit: str
    warnings: tuple[str, ...] = ()
    interrupted: bool = False


@dataclass(frozen=True, slots=True)
class StartedFrom:
    """What a compile read at its start; publish rejects the result if any of it moved (R30)."""

    head: str | None
    baseline_version: int
    sources_tree: str
    sources_dir: str  # the folder ``sources_tree`` is the tree of


@contextmanager
def repo_lock(store: GitStore, timeout_s: float = 60.0) -> Iterator[None]:
    """An exclusive lock per repository (the knowledge root), held while comparing and publishing."""
    path = os.path.join(store.repo.path, "wikigen.lock")
    try:
        handle = open(path, "a+")  # noqa: SIM115 (closed below, after the lock is released)
    except OSError as exc:
        raise environmental("opening the wikigen lock", exc) or GitStoreError(f"cannot open {path}: {exc}") from None
    with handle:
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


def restore_command(paths: list[str]) -> str:
    """The command that brings the generated folders holding ``paths`` (index and work tree) to HEAD.

    From HEAD, not from the index (`git checkout -- …` restores a stale index after a compile stopped
    right after publishing), and without overlay, so that objects the new snapshot removed leave the
    index too.
    """
    folders = [g.rstrip("/") for g in GENERATED if any(p.startswith(g) for p in paths)]
    return "git checkout --no-overlay HEAD -- " + " ".join(folders or [g.rstrip("/") for g in GENERATED])


def _stale_index_lock(store: GitStore) -> str:
    lock = f"{store.index_file}.lock"  # R42: the index in force may be GIT_INDEX_FILE's
    if not os.path.exists(lock):
        return ""
    return f"if no git command is running, first remove the stale lock (`rm {shlex.quote(lock)}`), then "


def start_dirty_check(
    store: GitStore, started: Callable[[], list[str] | None] | None = None
) -> Callable[..., None]:
    """The work tree is updated after publishing, so local edits there would be lost: the returned
    function refuses them before anything is sent to an engine or written — every generated file
    staged against HEAD (the index is read now, or was: ``started`` is
    :func:`wikigen.store.git_cli.start_staged_paths` of GENERATED in this repository, begun by the
    command line before it loaded the compiler), and the files of the paths it is given (the
    articles the plan will rewrite) that differ from HEAD. What else a compile writes is known once
    the engine has answered: :func:`publish` refuses a local change there before the ref moves. Like
    git's checkout, a compile leaves alone the local changes it would not overwrite (R38), and so
    never stats the whole work tree. It raises each time on a local change."""
    pending = store.start_staged_paths(GENERATED, started=started)

    def refuse(paths: Iterable[str] = ()) -> None:
        dirty = sorted({*pending(), *store.work_tree_changes(store.commit_tree(store.head_commit()), paths)})
        if dirty:
            raise LocalChangesError(local_changes_message(store, dirty))

    return refuse


def local_changes_message(store: GitStore, dirty: list[str], overwrite: bool = False) -> str:
    listing = ", ".join(dirty[:5]) + (" …" if len(dirty) > 5 else "")
    return (
        f"generated files have local changes against HEAD ({listing}): edits, or a compile stopped "
        "after it published"
        + (", and this compile would overwrite them; nothing was published" if overwrite else "")
        + ". Only the compiler writes content/wiki/ and content/.wikigen/ — "
        f"{_stale_index_lock(store)}restore them with `{restore_command(dirty)}` (this discards edits "
        "there) and compile again"
    )


def publish(
    store: GitStore,
    started: StartedFrom,
    files: Mapping[str, bytes | str | None],
    snapshot: Snapshot,
    message: str,
) -> Published:
    """One commit with the snapshot and the object files; the branch ref moves by compare-and-swap.

    An error before the ref moves means nothing was published; from the moment it moved the snapshot
    is published, and what fails after (the work tree) is a warning with its repair (R31).
    """
    ref = store.head_ref()
    moved: list[str] = []
    try:
        commit, changed = _commit(store, ref, started, files, snapshot, message, moved)
    except EnvironmentalError as exc:
        raise EnvironmentalError(f"{exc.message} Nothing was published.") from None
    except KeyboardInterrupt:
        if not moved:
            raise
        # Ctrl-C in the moment the ref moved (held until then, see _commit): published all the same.
        return Published(
            moved[0],
            (f"snapshot commit {moved[0][:12]} is published, but Ctrl-C stopped the work-tree update. "
             f"To bring content/wiki and content/.wikigen to it, run `{restore_command([*files, SNAPSHOT_PATH])}`.",),
            interrupted=True,
        )
    return _follow(store, commit, changed)


def _commit(
    store: GitStore,
    ref: str,
    started: StartedFrom,
    files: Mapping[str, bytes | str | None],
    snapshot: Snapshot,
    message: str,
    moved: list[str],
) -> tuple[str, list[str]]:
    """Under the lock: compare (R30), write the objects and the commit, move the ref (R31).
    ``moved`` gets the commit the moment the ref points at it."""
    with repo_lock(store):
        head = store.head_commit()
        if head != started.head:
            tree_now = store.commit_tree(head)
            now = load_snapshot(store.read_file(tree_now, SNAPSHOT_PATH), store)
            if now.version != started.baseline_version:
                raise ConflictError(
                    f"the snapshot moved while compiling (version {started.baseline_version} → {now.version}); "
                    "the late result was rejected and nothing was overwritten — compile again"
                )
            if store.subtree(tree_now, started.sources_dir) != started.sources_tree:
                raise ConflictError(
                    "the sources changed while compiling; the late result was rejected — compile again"
                )
        changes: dict[str, bytes | str | None] = {
            path: data for path, data in files.items() if path.startswith(GENERATED)
        }
        if set(changes) != set(files):
            outside = sorted(set(files) - set(changes))
            raise GitStoreError(f"refusing to publish paths outside the generated folders: {outside}")
        # The root record and the sharded folders, only the shards that changed rewritten.
        changes |= snapshot_files(store, snapshot)
        head_tree = store.commit_tree(head)
        tree = store.build_tree(head_tree, changes)
        changed = _changed_files(store, head_tree, tree, changes)
        # What the work-tree update would overwrite is known now: a local change there is refused
        # before the ref moves (see start_dirty_check; the rest of the work tree is left alone).
        dirty = store.work_tree_changes(head_tree, changed, tree)
        if dirty:
            raise LocalChangesError(local_changes_message(store, dirty, overwrite=True))
        _fault("after-objects")
        commit = store.create_commit(tree, [head] if head else [], message)
        _fault("after-commit")
        # SIGINT is held while the ref moves, so that a Ctrl-C lands either before (nothing published)
        # or after ``moved`` says so (published) — never in between, where it would be told wrong.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            store.move_ref(ref, commit, head)  # R31: compare-and-swap; raises if the ref moved
            moved.append(commit)
            _fault("ref-moved")
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    return commit, changed


def _changed_files(store: GitStore, old_tree: str, new_tree: str, changes: Mapping[str, object]) -> list[str]:
    """The file paths a publish changed: a sharded folder (written as a whole tree) by its diff."""
    paths = {path for path in changes if path not in SHARDED_DIRS}
    for folder in SHARDED_DIRS:
        if folder in changes:
            for change in store.diff(store.subtree(old_tree, folder), store.subtree(new_tree, folder), folder):
                paths.update(p for p in (change.old_path, change.new_path) if p is not None)
    return sorted(paths)


def _follow(store: GitStore, commit: str, paths: list[str]) -> Published:
    """Bring the work tree to the published commit; a failure here is a warning, never an error."""
    try:
        _fault("after-ref")
        update_work_tree(store, commit, paths)
    except (Exception, KeyboardInterrupt) as exc:
        why = "interrupted (Ctrl-C)." if isinstance(exc, KeyboardInterrupt) else explain(exc, "updating the work tree")
        return Published(
            commit,
            (
                f"snapshot commit {commit[:12]} is published, but the work tree was not updated: {why} "
                f"To bring content/wiki and content/.wikigen to it, run `{restore_command(paths)}`.",
            ),
            interrupted=isinstance(exc, KeyboardInterrupt),
        )
    return Published(commit)


def explain(exc: BaseException, action: str) -> str:
    """What went wrong, in words a user acts on: a WikigenError's message, the machine's fault, or
    an internal error."""
    if isinstance(exc, WikigenError):
        return exc.message
    found = environmental(action, exc)
    if found is not None:
        return found.message
    return f"internal error while {action} ({type(exc).__name__}: {exc}); run with WIKIGEN_DEBUG=1 and report it."


def update_work_tree(store: GitStore, commit: str, paths: list[str]) -> None:
    """Bring the generated paths of the work tree to the new commit (they were clean: see start_dirty_check)."""
    if os.environ.get(FAULT_ENV, "").endswith("during-worktree"):
        store.checkout_paths(store.commit_tree(commit), paths[: len(paths) // 2])
        _fault("during-worktree")
    store.checkout_paths(store.commit_tree(commit), paths)


def commit_message(summary: str, trailers: Mapping[str, Any]) -> str:
    lines = [summary, ""] + [f"{k}: {v}" for k, v in trailers.items()]
    return "\n".join(lines) + "\n"


# -- R33: failures as git notes ----------------------------------------------------------------------


def _succeeded(note: str | None) -> bool:
    try:
        data = json.loads(note or "")
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("status") == "ok"


def record_failure(store: GitStore, commit: str | None, record: Mapping[str, Any], error: BaseException) -> None:
    """R33: the failure as a note on the source commit — unless another process's compile of the
    same commit succeeded (a late loser never hides the winner's note)."""
    if commit is None:
        return
    retryable = not isinstance(error, WikigenError) or error.retryable
    note = {"status": "failed", **record, "error": explain(error, "compiling"), "retryable": retryable}
    # The failure itself is what the user must see; a note that cannot be written must not hide it.
    with contextlib.suppress(WikigenError):
        store.write_note(commit, _note_text(note), replaces=lambda current: not _succeeded(current))


def record_outcome(store: GitStore, commit: str | None, record: Mapping[str, Any]) -> str | None:
    """A successful compile's figures as a note on its source commit (replaces an older failure note).
    The snapshot is already published: a note that cannot be written is a warning with its repair."""
    if commit is None:
        return None
    try:
        store.write_note(commit, _note_text(record))
    except WikigenError as exc:
        line = json.dumps(dict(record), sort_keys=True)
        return (
            f"the snapshot is published, but its note on {commit[:12]} was not written: {exc.message} "
            f"To write it: `git notes --ref=wikigen add -f -m {shlex.quote(line)} {commit}`."
        )
    return None


def _note_text(record: Mapping[str, Any]) -> str:
    return json.dumps(dict(record), sort_keys=True, indent=1) + "\n"


def previous_failure(
    store: GitStore, commit: str | None, sources_tree: str, config_key: str, mode: str, *, sources_dir: str
) -> Mapping[str, Any] | None:
    """The failure recorded for this same attempt, if any (HEAD and ancestors with the same sources).

    R33: only a repeat of the same attempt is refused — same sources tree, same settings
    (``config_key``) and same mode (``mode``: one increment or --batch, deferred or not).
    ``sources_tree`` is the tree of the folder ``sources_dir``.
    """
    current = commit
    for _ in range(50):
        if current is None:
            return None
        if store.subtree(store.commit_tree(current), sources_dir) != sources_tree:
            return None
        note = store.read_note(current)
        if note:
            try:
                data = json.loads(note)
            except json.JSONDecodeError:
                data = {}
            if (
                data.get("status") == "failed"
                and not data.get("retryable")  # a lost race, Ctrl-C or a full disk judges no source
                and data.get("sourcesTree") == sources_tree
                and data.get("configKey") == config_key
                and data.get("mode") == mode
            ):
                return dict(data)
            if data.get("status") == "ok":
                return None
        _, _, parents = store.commit_info(current)
        current = parents[0] if parents else None
    return None


def refuse_retry(failure: Mapping[str, Any], command: str = "wikigen compile") -> None:
    """``command`` is the invocation refused; the message gives it back with --retry."""
    raise PreviousFailure(
        "the same compile of the same sources, with the same settings, failed before (recorded in "
        f"refs/notes/wikigen): {failure.get('error', 'unknown error')}\n"
        f"Change a source or the settings, or run `{command} --retry` to try it again."
    )
