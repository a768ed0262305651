"""The index and the work tree: their trees, their changes against HEAD, and a checkout of a few paths —
through the git command line where it answers (:mod:`wikigen.store.git_cli`), else libgit2."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

import pygit2

from wikigen.model.errors import GitStoreError
from wikigen.model.hashing import short_hash
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store import git_cli as worktree
from wikigen.store.git_errors import translated
from wikigen.store.history import History
from wikigen.store.object_writer import ObjectWriter

_BLOB = pygit2.enums.FileMode.BLOB


def _temporary_name(name: str) -> str:
    """The hidden name a file is written under beside ``name`` before it replaces it: within 255
    bytes however long ``name`` is (R40 lets an object's file name take all 255)."""
    tmp = f".{name}.wikigen-tmp"
    return tmp if len(tmp.encode("utf-8")) <= 255 else f".{short_hash(name, 16)}.wikigen-tmp"


class WorkTree(History, ObjectWriter):
    """The index and work tree of :class:`wikigen.store.git.GitStore` (which sets ``root``, the
    ``environment`` of its git commands and the ``alternate_index`` git's environment names)."""

    root: Path
    environment: dict[str, str]
    alternate_index: Path | None

    def index_tree(self) -> str:
        """The tree of the index (what `git commit` would record now), for --staged. An index libgit2
        cannot read (a split index, `core.splitIndex`: "unsupported mandatory extension") is asked of
        the git command line, `git write-tree`."""
        try:
            return str(self._index().write_tree(self.repo))
        except pygit2.GitError as exc:
            tree = self._cli_write_tree() if "extension" in str(exc) else None
            if tree is None:
                with translated("reading the index"):
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

    def tracked(self, prefix: str) -> frozenset[str]:
        """The paths below ``prefix`` that git tracks (in the index), asked once: `git ls-files`, or
        libgit2's index where no ``git`` answers."""
        listed = self._cli(["ls-files", "-z", "--", prefix])
        if listed is not None:
            return frozenset(p for p in listed.decode("utf-8", "surrogateescape").split("\0") if p)
        with translated("reading the index", self.repo.path):
            index = self.repo.index
            index.read()
            return frozenset(entry.path for entry in index if entry.path.startswith(f"{prefix}/"))

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
        with translated("reading the index"):
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
        status of the whole work tree."""
        found = []
        with translated("reading the work tree"):
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
        with translated("reading the work-tree status"):
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
        reads and writes a large index several times faster than libgit2. False when no ``git`` is
        installed or it fails: the caller asks libgit2."""
        listed = "".join(f"{path}\0" for path in paths).encode("utf-8", "surrogateescape")
        return self._cli(["update-index", "--add", "--remove", "-z", "--stdin"], listed) is not None

    def _cli_status(self, args: list[str], paths: list[str]) -> list[tuple[str, str]] | None:
        """(XY code, path) of every entry `git status --porcelain` with ``args`` lists under ``paths``
        (:func:`wikigen.store.git_cli.start_status`); None where the command line cannot tell."""
        return worktree.finish_status(worktree.start_status(self.root, args, paths, self.environment))

    def checkout_paths(self, tree: str, paths: list[str]) -> None:
        """Bring the index and the work tree to ``tree`` for ``paths`` only (others untouched)."""
        with translated("updating the work tree", self.repo.path):
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
