"""The only module that imports pygit2: trees, diffs, blobs, commits, notes, CAS on refs.

pygit2 errors are translated here into GitStoreError with a message a user can act on.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygit2

from wikigen.model.errors import ConflictError, EnvironmentalError, GitStoreError, LockHeld, environmental
from wikigen.model.hashing import short_hash
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store import git_cli as worktree
from wikigen.store.environment import GitEnvironment, command_environment

NOTES_REF = "refs/notes/wikigen"
NOTE_ATTEMPTS = 20
LOCK_WAITS = 12  # tries at a ref another writer has locked; LOCK_PAUSE seconds more each time
LOCK_PAUSE = 0.01
LOW_SPACE = 1 << 20  # bytes free under which a failed write is put down to a full disk
COMPILER_NAME = "wikigen"
COMPILER_EMAIL = "wikigen@localhost"
_BLOB = pygit2.enums.FileMode.BLOB
_TREE = pygit2.enums.FileMode.TREE
_LINK = pygit2.enums.FileMode.LINK
CLEAN_DEPTH = 3  # levels of trees below the walked one whose "no link here" a caller may remember


@dataclass(frozen=True, slots=True)
class Change:
    """One changed path between two trees. Renames of identical content come as one change."""

    status: str  # "added" | "deleted" | "modified" | "renamed"
    old_path: str | None
    new_path: str | None
    old_blob: str | None
    new_blob: str | None


@contextmanager
def _translated(action: str, git_dir: str | None = None) -> Iterator[None]:
    # pygit2 raises OSError for libgit2's file-system errors (a lock, a full disk) and GitError for
    # the rest; both may be the machine's fault, which the user fixes differently (issue 15.7).
    try:
        yield
    except (pygit2.GitError, OSError) as exc:
        raise environmental(action, exc, git_dir) or _low_on_space(action, exc, git_dir) or GitStoreError(
            f"git failed while {action}: {exc}"
        ) from None
    except KeyError as exc:
        raise GitStoreError(f"git object not found while {action}: {exc}") from None


def _low_on_space(action: str, error: BaseException, git_dir: str | None) -> EnvironmentalError | None:
    """libgit2 sometimes reports a full disk as its consequence ("object not found" for the object it
    could not write); while writing, a nearly full disk is then the likely cause, and is said so."""
    if git_dir is None:
        return None
    try:
        free = shutil.disk_usage(git_dir).free
    except OSError:
        return None
    if free >= LOW_SPACE:
        return None
    return EnvironmentalError(
        f"the disk is full ({free // 1024:,} KiB free where the repository lives); free space and run again. "
        f"The error came while {action}: {error}."
    )


def _temporary_name(name: str) -> str:
    """The hidden name a file is written under beside ``name`` before it replaces it: within 255
    bytes however long ``name`` is (R40 lets an object's file name take all 255)."""
    tmp = f".{name}.wikigen-tmp"
    return tmp if len(tmp.encode("utf-8")) <= 255 else f".{short_hash(name, 16)}.wikigen-tmp"


def _note_path(tree: Any, commit: str) -> str | None:
    """Where the note on ``commit`` lives in a notes tree: flat (``<hex>``) or fanned out by git
    (``ab/cdef…``, ``ab/cd/ef…``); None when there is none."""
    node, rest, parts = tree, commit, list[str]()
    while True:
        if rest in node and node[rest].type_str == "blob":
            return "/".join([*parts, rest])
        if len(rest) <= 2 or rest[:2] not in node or node[rest[:2]].type_str != "tree":
            return None
        parts.append(rest[:2])
        node, rest = node[rest[:2]], rest[2:]


def _discover(start: str) -> str | None:
    """The git folder of the repository ``start`` lies in, found as git finds it without GIT_DIR."""
    try:
        found = pygit2.discover_repository(start)
    except pygit2.GitError:
        return None
    return str(found) if found is not None else None


def _same_place(a: Path | str, b: Path | str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _open(path: Path | str, environment: GitEnvironment) -> pygit2.Repository:
    """The repository, with the work tree git's environment names (R42); refuses where the
    environment points a folder of one repository at another repository or another work tree, since
    git would then read one and write the other."""
    start = os.path.abspath(path)
    own = _discover(start)
    if environment.git_dir is None:
        if own is None:
            raise GitStoreError(f"{path} is not inside a git repository; run `git init` first")
        repo = pygit2.Repository(own)
    else:
        try:
            repo = pygit2.Repository(str(environment.git_dir))
        except pygit2.GitError:
            raise GitStoreError(
                f"GIT_DIR names {environment.git_dir}, which is not a git repository; "
                "unset GIT_DIR (`unset GIT_DIR`) or point it at one"
            ) from None
        if own is not None and not _same_place(own, repo.path):
            theirs = pygit2.Repository(own).workdir or own
            raise GitStoreError(
                f"GIT_DIR names the repository {environment.git_dir}, but {start} belongs to the repository "
                f"of {theirs.rstrip('/')}: git would read one and wikigen write the other. Unset GIT_DIR "
                f"(`unset GIT_DIR`) to work in {theirs.rstrip('/')}, or run wikigen in the work tree of "
                f"{environment.git_dir}."
            )
    # Git's work tree: GIT_WORK_TREE, else with GIT_DIR the configured one (core.worktree) or the
    # folder git was started in — also for a linked work tree's git folder.
    meant = environment.work_tree
    if meant is None and environment.git_dir is not None and not repo.is_bare and "core.worktree" not in repo.config:
        meant = Path(start)
    if meant is not None and (repo.workdir is None or not _same_place(meant, repo.workdir)):
        if own is not None:
            variable = "GIT_WORK_TREE" if environment.work_tree is not None else "GIT_DIR without GIT_WORK_TREE"
            top = (repo.workdir or start).rstrip("/")
            raise GitStoreError(
                f"{variable} makes {meant} the top of the work tree, but the repository's work tree is {top}: "
                f"git and wikigen would see different files. Unset GIT_DIR and GIT_WORK_TREE, or set "
                f"GIT_WORK_TREE={top}."
            )
        repo.workdir = str(meant)  # a folder of no repository of its own: git's work tree is honoured
    return repo


class TreeId(str):
    """A tree id given to ``GitStore.build_tree`` as a path's value: that folder becomes this tree."""


class GitStore:
    """A repository opened once; counts the source blobs it reads (``blobs_read``)."""

    def __init__(self, path: Path | str) -> None:
        environment = GitEnvironment.read(path)
        self.repo = _open(path, environment)
        if self.repo.is_bare or self.repo.workdir is None:
            raise GitStoreError(f"{self.repo.path} is a bare repository; wikigen needs a work tree")
        self.root = Path(self.repo.workdir)
        # R34, R42: the index git names (a hook is handed the one about to be committed); None when it
        # is the repository's own, which libgit2 opens itself.
        alternate = environment.index_path(self.root)
        own_index = Path(self.repo.path) / "index"
        self.alternate_index = None if alternate is None or _same_place(alternate, own_index) else alternate
        self.index_file = self.alternate_index or own_index
        self.environment = command_environment(self.repo.path, self.root, self.alternate_index)
        self.blobs_read = 0
        self.generated_bytes_read = 0  # bytes of snapshot shards read (read_generated, generated_files)
        # Two trees' diff never changes: a compile asks the sources diff of its plan twice (issue 14:
        # 0.07 s each at 100,000 sources)
        self._diffs: dict[tuple[str, str, str, bool], tuple[Change, ...]] = {}

    def refuse_shallow(self) -> None:
        """Issue 15.5: a shallow clone lacks the trees and blobs of earlier commits that the baseline
        snapshot names (its sources tree, the compiled versions), so say how to fetch them first."""
        if self.repo.is_shallow:
            raise GitStoreError(
                f"{self.root} is a shallow clone (its history is cut off), but wikigen reads the sources "
                "and the snapshot of earlier commits. Fetch the whole history with `git fetch --unshallow`; "
                "in GitHub Actions set `fetch-depth: 0` on actions/checkout. Then run again."
            )

    # -- reading -------------------------------------------------------------------------------------

    def head_ref(self) -> str:
        """The branch HEAD points at (refs/heads/...), also when it has no commit yet."""
        if self.repo.head_is_detached:
            raise GitStoreError(
                "HEAD is detached; check out a branch (e.g. `git switch main`) before compiling"
            )
        target = self.repo.references["HEAD"].target
        return str(target)

    def head_commit(self) -> str | None:
        if self.repo.head_is_unborn:
            return None
        with _translated("reading HEAD"):
            return str(self.repo.head.target)

    def resolve(self, rev: str) -> str:
        with _translated(f"resolving {rev!r}"):
            return str(self.repo.revparse_single(rev).peel(pygit2.Commit).id)

    def find_commit(self, rev: str) -> str | None:
        """The commit ``rev`` names; None when it names none (no such name, or a tree or a blob)."""
        with _translated(f"resolving {rev!r}"):
            try:
                return str(self.repo.revparse_single(rev).peel(pygit2.Commit).id)
            except (KeyError, ValueError):  # pygit2's NotFoundError and InvalidSpecError
                return None

    def commit_tree(self, commit: str | None) -> str:
        if commit is None:
            return EMPTY_TREE
        with _translated(f"reading commit {commit}"):
            return str(self.repo[commit].peel(pygit2.Commit).tree.id)

    def index_tree(self) -> str:
        """The tree of the index (what `git commit` would record now), for --staged. An index libgit2
        cannot read (a split index, `core.splitIndex`: "unsupported mandatory extension") is asked of
        the git command line, `git write-tree`."""
        try:
            return str(self._index().write_tree(self.repo))
        except pygit2.GitError as exc:
            tree = self._cli_write_tree() if "extension" in str(exc) else None
            if tree is None:
                with _translated("reading the index"):
                    raise
            return tree

    def _index(self) -> pygit2.Index:
        """The index as it is on disk now: the one git's environment names (R34: a hook's), else the
        repository's own."""
        if self.alternate_index is None:
            index: pygit2.Index = self.repo.index
            index.read()
            return index
        return pygit2.Index(str(self.alternate_index))  # a missing file reads as empty, as git reads it

    def _cli_write_tree(self) -> str | None:
        result = self._cli(["write-tree"])
        tree = result.decode("ascii", "replace").strip() if result is not None else ""
        return tree if tree and self.has_object(tree) else None

    def _cli(self, args: list[str], stdin: bytes | None = None) -> bytes | None:
        """The output of the git command line with ``args`` in the work tree, or None where no ``git``
        is installed or it fails (the caller then asks libgit2)."""
        git = shutil.which("git")
        if git is None:
            return None
        try:
            result = subprocess.run(
                [git, *args], cwd=self.root, env=self.environment, input=stdin, capture_output=True, check=False
            )
        except OSError:
            return None
        return result.stdout if result.returncode == 0 else None

    def work_tree(self, prefix: str) -> str:
        """A tree of the work-tree files under ``prefix`` (tracked or not, ignoring .gitignored ones)."""
        base = self.root / prefix
        files: dict[str, bytes | None] = {}
        if base.is_dir():
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for name in filenames:
                    full = Path(dirpath) / name
                    rel = full.relative_to(self.root).as_posix()
                    if self.repo.path_is_ignored(rel):
                        continue
                    files[rel] = full.read_bytes()
        return self.build_tree(EMPTY_TREE, files)

    def subtree(self, tree: str, path: str) -> str:
        """The tree id at ``path`` inside ``tree``; the empty tree when it does not exist."""
        with _translated(f"reading {path}"):
            obj: Any = self._tree_obj(tree)
            try:
                entry = obj[path]
            except KeyError:
                return EMPTY_TREE
            if entry.type_str != "tree":
                return EMPTY_TREE
            return str(entry.id)

    def _tree_obj(self, tree: str) -> Any:
        if tree == EMPTY_TREE and EMPTY_TREE not in self.repo:
            self.repo.TreeBuilder().write()
        return self.repo[tree]

    def diff(self, old: str, new: str, prefix: str, *, renames: bool = True) -> list[Change]:
        """Changed paths between two trees (ids of the same folder), renames of identical content
        detected unless ``renames`` is False."""
        if old == new:
            return []
        key = (old, new, prefix, renames)
        if key not in self._diffs:
            if len(self._diffs) >= 16:
                self._diffs.clear()
            self._diffs[key] = tuple(self._diff(old, new, prefix, renames))
        return list(self._diffs[key])

    def _diff(self, old: str, new: str, prefix: str, renames: bool) -> list[Change]:
        with _translated("diffing trees"):
            walked = self._changed_entries(old, new, prefix)
            if walked is not None:
                return walked
            diff = self._tree_obj(old).diff_to_tree(self._tree_obj(new))
            if renames:
                diff.find_similar(
                    flags=pygit2.enums.DiffFind.FIND_RENAMES | pygit2.enums.DiffFind.FIND_EXACT_MATCH_ONLY
                )
            changes = []
            for delta in diff.deltas:
                status = {
                    pygit2.enums.DeltaStatus.ADDED: "added",
                    pygit2.enums.DeltaStatus.DELETED: "deleted",
                    pygit2.enums.DeltaStatus.MODIFIED: "modified",
                    pygit2.enums.DeltaStatus.RENAMED: "renamed",
                    pygit2.enums.DeltaStatus.TYPECHANGE: "modified",
                }.get(delta.status)
                if status is None:
                    continue
                old_path = f"{prefix}/{delta.old_file.path}" if status != "added" else None
                new_path = f"{prefix}/{delta.new_file.path}" if status != "deleted" else None
                changes.append(
                    Change(
                        status=status,
                        old_path=old_path,
                        new_path=new_path,
                        old_blob=str(delta.old_file.id) if old_path else None,
                        new_blob=str(delta.new_file.id) if new_path else None,
                    )
                )
            return changes

    def _changed_entries(self, old: str, new: str, prefix: str) -> list[Change] | None:
        """The changes between two trees found by walking only the folders whose ids differ, where
        no rename can be among them (nothing both added and deleted) and every changed entry is a
        file: libgit2's diff compares every entry of a changed folder and costs 0.07 s for one edit
        in a folder of 3,500 sources (issue 14), this walk 0.01 s. None: the caller asks libgit2."""
        found: list[Change] = []
        stack: list[tuple[str, Any, Any]] = [("", self._tree_obj(old), self._tree_obj(new))]
        while stack:
            base, before, after = stack.pop()
            olds = {e.name: e for e in before} if before is not None else {}
            news = {e.name: e for e in after} if after is not None else {}
            for name in olds.keys() | news.keys():
                was, now = olds.get(name), news.get(name)
                if was is not None and now is not None and was.id == now.id and was.filemode == now.filemode:
                    continue
                kinds = {e.type_str for e in (was, now) if e is not None}
                inner = f"{base}/{name}" if base else str(name)
                if kinds == {"tree"}:
                    stack.append((inner, self.repo[was.id] if was else None, self.repo[now.id] if now else None))
                    continue
                path = f"{prefix}/{inner}"
                if kinds != {"blob"}:
                    return None  # a file became a folder, or a submodule: libgit2 says how
                status = "modified" if was is not None and now is not None else "added" if now else "deleted"
                found.append(
                    Change(
                        status=status,
                        old_path=path if was is not None else None,
                        new_path=path if now is not None else None,
                        old_blob=str(was.id) if was is not None else None,
                        new_blob=str(now.id) if now is not None else None,
                    )
                )
        statuses = {c.status for c in found}
        if {"added", "deleted"} <= statuses:
            return None  # a rename may be among them
        return sorted(found, key=lambda c: c.new_path or c.old_path or "")

    def tracked(self, prefix: str) -> frozenset[str]:
        """The paths below ``prefix`` that git tracks (in the index), asked once: `git ls-files`, or
        libgit2's index where no ``git`` answers."""
        listed = self._cli(["ls-files", "-z", "--", prefix])
        if listed is not None:
            return frozenset(p for p in listed.decode("utf-8", "surrogateescape").split("\0") if p)
        with _translated("reading the index", self.repo.path):
            index = self.repo.index
            index.read()
            return frozenset(entry.path for entry in index if entry.path.startswith(f"{prefix}/"))

    def blobs(self, tree: str, prefix: str) -> Iterator[tuple[str, str]]:
        """(path, blob id) for every file below a tree, without reading any blob. Symbolic links are
        not files: ``links`` lists them."""
        with _translated("listing a tree"):
            for path, entry in self._walk(tree, prefix):
                if entry.type_str == "blob" and entry.filemode != _LINK:
                    yield path, str(entry.id)

    def _walk(self, tree: str, prefix: str) -> Iterator[tuple[str, Any]]:
        """(path, entry) for every entry below a tree that is not a tree itself."""
        stack: list[tuple[str, Any]] = [(prefix, self._tree_obj(tree))]
        while stack:
            base, obj = stack.pop()
            for entry in obj:
                path = f"{base}/{entry.name}" if base else str(entry.name)
                if entry.type_str == "tree":
                    stack.append((path, self.repo[entry.id]))
                else:
                    yield path, entry

    def links(
        self, tree: str, prefix: str, *, known_clean: AbstractSet[str] = frozenset(), clean: set[str] | None = None
    ) -> list[tuple[str, str]]:
        """(path, target) for every symbolic link below a tree (mode 120000), sorted by path.

        Issue 15.1: reads the tree objects and the links' own blobs (their target text) only. Issue 14:
        a tree whose id is in ``known_clean`` (a tree found to hold no link before: trees never change)
        is not walked; ``clean``, when given, receives the ids of the trees down to ``CLEAN_DEPTH``
        levels below ``tree`` that hold none, for the caller to remember.
        """
        found: list[tuple[str, str]] = []
        with _translated("listing symbolic links"):
            self._links_below(tree, prefix, 0, known_clean, clean, found)
        return sorted(found)

    def _links_below(
        self, tree: str, path: str, level: int, known: AbstractSet[str], clean: set[str] | None,
        found: list[tuple[str, str]],
    ) -> bool:
        """Whether a link is below ``tree``; the links into ``found``."""
        remember = clean is not None and level <= CLEAN_DEPTH
        if tree in known:
            if remember:
                clean.add(tree)  # type: ignore[union-attr]
            return False
        linked = False
        for entry in self._tree_obj(tree):
            below = f"{path}/{entry.name}" if path else str(entry.name)
            if entry.type_str == "tree":
                linked = self._links_below(str(entry.id), below, level + 1, known, clean, found) or linked
            elif entry.filemode == _LINK:
                found.append((below, bytes(self.repo[entry.id].read_raw()).decode("utf-8", "replace")))
                linked = True
        if remember and not linked:
            clean.add(tree)  # type: ignore[union-attr]
        return linked

    def cache_path(self, name: str) -> Path:
        """A file of wikigen's own caches, under the git directory (never committed, never pushed)."""
        return Path(self.repo.path) / "wikigen" / name

    def read_blob(self, blob: str) -> bytes:
        with _translated(f"reading blob {blob}"):
            data = self.repo[blob].read_raw()
        self.blobs_read += 1
        return bytes(data)

    def read_file(self, tree: str, path: str) -> bytes | None:
        """A file's bytes inside a tree (not counted as a source blob read), or None."""
        return self._read_path(tree, path)

    def _read_path(self, tree: str, path: str) -> bytes | None:
        blob = self.blob_in(tree, path)
        if blob is None:
            return None
        with _translated(f"reading {path}"):
            return bytes(self.repo[blob].read_raw())

    def read_generated(self, tree: str, path: str) -> bytes | None:
        """A compiler-written file inside ``tree`` (a snapshot shard), counted in ``generated_bytes_read``."""
        data = self._read_path(tree, path)
        self.generated_bytes_read += len(data or b"")
        return data

    def read_generated_blob(self, blob: str) -> bytes:
        """A compiler-written blob by id, counted in ``generated_bytes_read``."""
        with _translated(f"reading blob {blob}"):
            data = bytes(self.repo[blob].read_raw())
        self.generated_bytes_read += len(data)
        return data

    def blob_id(self, data: bytes) -> str:
        """The id ``data`` has as a blob, without writing it."""
        return str(pygit2.hash(data))

    def generated_files(self, tree: str) -> Iterator[tuple[str, bytes]]:
        """(path, bytes) of every file below ``tree``, counted in ``generated_bytes_read``."""
        with _translated("reading the snapshot's shards"):
            for path, entry in self._walk(tree, ""):
                if entry.type_str == "blob":
                    data = bytes(self.repo[entry.id].read_raw())
                    self.generated_bytes_read += len(data)
                    yield path, data

    def blob_in(self, tree: str, path: str) -> str | None:
        """The blob id at ``path`` inside ``tree``; None when no file is there."""
        with _translated(f"reading {path}"):
            try:
                entry = self._tree_obj(tree)[path]
            except KeyError:
                return None
            return str(entry.id) if entry.type_str == "blob" else None

    def blob_at(self, commit: str, path: str) -> str | None:
        """The blob id at ``path`` in ``commit``'s tree; None when no file is there."""
        with _translated(f"reading {path} in {commit}"):
            tree = str(self.repo[commit].peel(pygit2.Commit).tree_id)
        return self.blob_in(tree, path)

    def commits_since(self, head: str, base: str, limit: int = 1000) -> list[str]:
        """Commits reachable from ``head`` but not from ``base``, newest first, at most ``limit``."""
        with _translated("walking the history"):
            walker = self.repo.walk(head, pygit2.enums.SortMode.TOPOLOGICAL)
            walker.hide(base)
            return [str(c.id) for c, _ in zip(walker, range(limit), strict=False)]

    def has_object(self, oid: str) -> bool:
        return oid in self.repo

    # -- writing -------------------------------------------------------------------------------------

    def write_blob(self, data: bytes) -> str:
        with _translated("writing a blob", self.repo.path):
            return str(self.repo.create_blob(data))

    def build_tree(self, base: str, files: Mapping[str, bytes | str | None]) -> str:
        """A new tree: ``base`` with each path set to bytes (or an existing blob id, or a ``TreeId`` for
        a whole folder) or removed (None)."""
        with _translated("writing trees", self.repo.path):
            return self._build(self._tree_obj(base) if base != EMPTY_TREE else None, files)

    def _build(self, base: Any, files: Mapping[str, bytes | str | None]) -> str:
        builder = self.repo.TreeBuilder(base) if base is not None else self.repo.TreeBuilder()
        nested: dict[str, dict[str, bytes | str | None]] = {}
        for path, data in files.items():
            head, _, rest = path.partition("/")
            if rest:
                nested.setdefault(head, {})[rest] = data
            elif data is None:
                if builder.get(head) is not None:
                    builder.remove(head)
            elif isinstance(data, TreeId):
                builder.insert(head, data, _TREE)
            else:
                blob = data if isinstance(data, str) else self.repo.create_blob(data)
                builder.insert(head, blob, _BLOB)
        for name, inner in nested.items():
            existing = builder.get(name)
            sub: Any = (
                self.repo[existing.id] if existing is not None and existing.type_str == "tree" else None
            )
            tree_id = self._build(sub, inner)
            if str(tree_id) == EMPTY_TREE:
                if existing is not None:
                    builder.remove(name)
            else:
                builder.insert(name, tree_id, _TREE)
        return str(builder.write())

    def create_commit(self, tree: str, parents: list[str], message: str) -> str:
        """A commit object authored by `wikigen`; no ref moves (publish does that with CAS)."""
        signature = pygit2.Signature(COMPILER_NAME, COMPILER_EMAIL, int(time.time()), 0)
        with _translated("creating the commit", self.repo.path):
            return str(self.repo.create_commit(None, signature, signature, message, tree, parents))

    def move_ref(self, name: str, new: str, expected: str | None, why: str = "wikigen: publish snapshot") -> None:
        """Compare-and-swap: move ``name`` to ``new`` only if it still points at ``expected``.

        Another writer's lock on the ref is held for a moment (issue 15.4: two compiles write their
        notes at once); the swap waits and tries again, and only a lock still there after
        ``LOCK_WAITS`` tries (one a killed process left) is the machine's error.
        """
        for attempt in range(LOCK_WAITS):
            try:
                return self._swap_ref(name, new, expected, why)
            except LockHeld:
                if attempt == LOCK_WAITS - 1:
                    raise
                time.sleep(LOCK_PAUSE * (attempt + 1) * random.uniform(0.5, 1.5))

    def _swap_ref(self, name: str, new: str, expected: str | None, why: str) -> None:
        try:
            if expected is None:
                self.repo.references.create(name, new, force=False)
                return
            ref = self.repo.references.get(name)
            if ref is None or str(ref.target) != expected:
                raise ConflictError(
                    f"{name} moved while compiling; the late result was rejected, run the compile again"
                )
            ref.set_target(new, why)
        except pygit2.GitError as exc:
            raise ConflictError(
                f"{name} moved while compiling ({exc}); the late result was rejected, run the compile again"
            ) from None
        except pygit2.AlreadyExistsError:
            raise ConflictError(f"{name} was created while compiling; the late result was rejected") from None
        except OSError as exc:  # libgit2 could not lock or write the ref: a writer's moment, or the machine
            raise environmental(f"moving {name}", exc) or GitStoreError(f"git failed while moving {name}: {exc}") from None

    def commit_info(self, commit: str) -> tuple[str, str, list[str]]:
        with _translated(f"reading commit {commit}"):
            obj = self.repo[commit].peel(pygit2.Commit)
            return obj.author.name, obj.message, [str(p) for p in obj.parent_ids]

    def changed_paths(self, commit: str) -> list[str]:
        """Paths a commit changed against its first parent."""
        _, _, parents = self.commit_info(commit)
        old = self.commit_tree(parents[0]) if parents else EMPTY_TREE
        new = self.commit_tree(commit)
        with _translated("diffing a commit"):
            diff = self._tree_obj(old).diff_to_tree(self._tree_obj(new))
            return sorted({d.new_file.path for d in diff.deltas} | {d.old_file.path for d in diff.deltas})

    # -- notes ---------------------------------------------------------------------------------------

    def write_note(self, commit: str, message: str, replaces: Callable[[str | None], bool] | None = None) -> bool:
        """Set the note on ``commit`` by compare-and-swap on refs/notes/wikigen (issue 15.4).

        ``replaces(current)`` decides from the note there now whether to write; when another process
        moved the notes ref in between, the note is read again and the decision made again. Returns
        whether the note was written.
        """
        signature = pygit2.Signature(COMPILER_NAME, COMPILER_EMAIL, int(time.time()), 0)
        with _translated("writing a note under refs/notes/wikigen", self.repo.path):
            for _ in range(NOTE_ATTEMPTS):
                ref = self.repo.references.get(NOTES_REF)
                base = str(ref.target) if ref is not None else None
                tree = self.commit_tree(base)
                path = _note_path(self._tree_obj(tree), commit)
                current = None if path is None else self.read_file(tree, path)
                if replaces is not None and not replaces(None if current is None else current.decode("utf-8", "replace")):
                    return False
                changes: dict[str, bytes | str | None] = {} if path is None else {path: None}
                changes[commit] = message.encode("utf-8")  # a flat entry; git reads flat and fanned-out alike
                notes_tree = self.build_tree(tree, changes)
                new = str(
                    self.repo.create_commit(
                        None, signature, signature, f"wikigen: note on {commit}\n", notes_tree, [base] if base else []
                    )
                )
                try:
                    self.move_ref(NOTES_REF, new, base, "wikigen: note")
                    return True
                except ConflictError:
                    continue  # another writer moved the notes ref: read its note and decide again
        raise ConflictError(
            f"refs/notes/wikigen kept moving ({NOTE_ATTEMPTS} attempts); the note on {commit[:12]} was not written"
        )

    def read_note(self, commit: str) -> str | None:
        try:
            return str(self.repo.lookup_note(commit, NOTES_REF).message)
        except (KeyError, pygit2.GitError):
            return None

    # -- work tree -----------------------------------------------------------------------------------

    def start_staged_paths(
        self, prefixes: tuple[str, ...], *, started: Callable[[], list[str] | None] | None = None
    ) -> Callable[[], list[str]]:
        """Tracked files under ``prefixes`` whose index entry is not HEAD's, started now (or
        ``started`` earlier, by :func:`wikigen.store.git_cli.start_staged_paths` in this repository) and
        answered when the returned function is called — by libgit2 where the command line cannot."""
        pending = started or worktree.start_staged_paths(self.root, prefixes, self.environment)
        answer: list[list[str]] = []

        def result() -> list[str]:
            if not answer:
                listed = pending()
                answer.append(listed if listed is not None else self._libgit2_staged_paths(prefixes))
            return list(answer[0])

        return result

    def _libgit2_staged_paths(self, prefixes: tuple[str, ...]) -> list[str]:
        with _translated("reading the index"):
            head = self.head_commit()
            index = self._index()
            if head is None:
                return sorted(entry.path for entry in index if entry.path.startswith(prefixes))
            diff = self.repo[head].peel(pygit2.Commit).tree.diff_to_index(index)
            paths = {p for d in diff.deltas for p in (d.old_file.path, d.new_file.path)}
        return sorted(p for p in paths if p.startswith(prefixes))

    def work_tree_changes(self, tree: str | None, paths: Iterable[str], new_tree: str | None = None) -> list[str]:
        """Of ``paths``, those whose file in the work tree would be lost if it were replaced: it holds
        other bytes than ``tree`` has at that path (a file where ``tree`` has none counts only when
        ``new_tree`` is given and holds other bytes there too) — git's own rule for a checkout, which
        refuses only the local changes it would overwrite. It reads the few files asked, never the
        status of the whole work tree (issue 14: 0.6 s of CPU at 100,000 sources)."""
        found = []
        with _translated("reading the work tree"):
            for path in paths:
                target = self.root / path
                try:
                    if not target.is_file() or target.is_symlink():
                        if target.exists() or target.is_symlink():
                            found.append(path)  # a folder or a link where the compiler writes a file
                        continue
                    data = target.read_bytes()
                except FileNotFoundError:
                    continue
                held = str(pygit2.hash(data))
                old = self.blob_in(tree, path) if tree is not None else None
                if old is None and new_tree is None:
                    continue  # not in HEAD: only the exact check (with what would be written) can tell
                if held != old and (new_tree is None or held != self.blob_in(new_tree, path)):
                    if old is not None and self._clean_through_filters(path):
                        continue  # the same content, checked out through a filter (eol=crlf)
                    found.append(path)
        return sorted(found)

    def _clean_through_filters(self, path: str) -> bool:
        """Whether git, applying its filters (``core.autocrlf``, ``.gitattributes``), sees the file at
        ``path`` as its index has it (asked only of a file whose bytes differ from its blob)."""
        if self.alternate_index is not None:
            return False  # libgit2's status reads the repository's own index, not the one in force (R42)
        flag = pygit2.enums.FileStatus
        try:
            return self.repo.status_file(path) == flag.CURRENT
        except (KeyError, pygit2.GitError):
            return False

    def uncommitted(self, prefix: str) -> dict[str, list[str]]:
        """Paths under ``prefix`` whose state is not HEAD's: ``staged`` (the index differs from HEAD),
        ``changed`` (the work tree differs from the index) and ``untracked`` (not ignored)."""
        folder = prefix.rstrip("/") + "/"
        found: dict[str, list[str]] = {"staged": [], "changed": [], "untracked": []}
        listed = self._cli_status(["-uall"], [prefix])
        if listed is not None:
            for code, path in listed:
                if not path.startswith(folder):
                    continue
                if code == "??":
                    found["untracked"].append(path)
                    continue
                if code[0] in "MADRCT":
                    found["staged"].append(path)
                if code[1] in "MDT":
                    found["changed"].append(path)
            return {key: sorted(set(paths)) for key, paths in found.items()}
        if self.alternate_index is not None:
            raise GitStoreError(  # R42: libgit2's status reads the repository's own index only
                f"the git command could not list the work tree's changes against the index GIT_INDEX_FILE "
                f"names ({self.alternate_index}); install git or unset GIT_INDEX_FILE, and run again"
            )
        flag = pygit2.enums.FileStatus
        staged = flag.INDEX_NEW | flag.INDEX_MODIFIED | flag.INDEX_DELETED | flag.INDEX_RENAMED | flag.INDEX_TYPECHANGE
        changed = flag.WT_MODIFIED | flag.WT_DELETED | flag.WT_RENAMED | flag.WT_TYPECHANGE
        with _translated("reading the work-tree status"):
            for path, flags in self.repo.status(untracked_files="all").items():
                if not path.startswith(folder):
                    continue
                if flags & staged:
                    found["staged"].append(path)
                if flags & changed:
                    found["changed"].append(path)
                if flags & flag.WT_NEW:
                    found["untracked"].append(path)
        return {key: sorted(paths) for key, paths in found.items()}

    def _cli_update_index(self, paths: list[str]) -> bool:
        """`git update-index --add --remove` for ``paths`` (as the work tree has them): the command line
        reads and writes a large index several times faster than libgit2 (0.15 s against 1.1 s at
        350,000 entries, issue 14). False when no ``git`` is installed or it fails: the caller asks
        libgit2."""
        listed = "".join(f"{path}\0" for path in paths).encode("utf-8", "surrogateescape")
        return self._cli(["update-index", "--add", "--remove", "-z", "--stdin"], listed) is not None

    def _cli_status(self, args: list[str], paths: list[str]) -> list[tuple[str, str]] | None:
        """(XY code, path) of every entry `git status --porcelain` with ``args`` lists under ``paths``
        (:func:`wikigen.store.git_cli.start_status`); None where the command line cannot tell."""
        return worktree.finish_status(worktree.start_status(self.root, args, paths, self.environment))

    def checkout_paths(self, tree: str, paths: list[str]) -> None:
        """Bring the index and the work tree to ``tree`` for ``paths`` only (others untouched)."""
        with _translated("updating the work tree", self.repo.path):
            root = self._tree_obj(tree)
            removed: list[str] = []
            for path in paths:
                target = self.root / path
                try:
                    entry = root[path]
                except KeyError:
                    entry = None
                if entry is None or entry.type_str != "blob":
                    removed.append(path)
                    if target.is_file():
                        target.unlink()
                    continue
                data = self.repo[entry.id].read_raw()
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_name(_temporary_name(target.name))
                try:
                    tmp.write_bytes(data)
                    os.replace(tmp, target)
                finally:
                    tmp.unlink(missing_ok=True)  # a full disk must not leave half a file behind
            # the index from the files just written, so its stat data is fresh
            if paths and not self._cli_update_index(paths):
                index = self._index()
                gone = set(removed)
                for path in paths:
                    if path not in gone:
                        # An index of its own (R42) has no work tree to read the file from: its blob
                        # is named, and git refreshes the missing file times when it next looks.
                        index.add(path if self.alternate_index is None else pygit2.IndexEntry(path, root[path].id, _BLOB))
                    elif path in index:
                        index.remove(path)
                index.write()
            for path in removed:
                # Remove folders the compiler emptied, never ones a person still uses.
                parent = (self.root / path).parent
                while parent != self.root and parent.is_dir() and not any(parent.iterdir()):
                    parent.rmdir()
                    parent = parent.parent
