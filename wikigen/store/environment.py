"""Git's environment (R42): where ``GIT_DIR``, ``GIT_WORK_TREE`` and ``GIT_INDEX_FILE`` put the
repository, its work tree and its index, read as git reads them, and the environment of every git
command wikigen starts, so that the command line and libgit2 work on the same files.

Git reads ``GIT_DIR`` and ``GIT_WORK_TREE`` from the folder it was started in (``-C`` included), and
``GIT_INDEX_FILE`` from the top of the work tree, where it moves before it reads the index. A
pre-commit hook runs at that top and is handed the index about to be committed: ``.git/index`` for
a plain commit, ``.git/index.lock`` for ``commit -a``, ``.git/next-index-<pid>.lock`` for
``commit PATH`` and ``commit --only PATH``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wikigen.model.errors import GitStoreError

NAMED = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")
# R42: these move the objects or the shared part of a repository where libgit2 is not told to look,
# so git and wikigen would read and write different stores: refused rather than half honoured.
REFUSED = ("GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR")


@dataclass(frozen=True, slots=True)
class GitEnvironment:
    """The repository, work tree and index git's environment names; None where it names none."""

    git_dir: Path | None
    work_tree: Path | None
    index_file: str | None  # as given: a relative one is read from the top of the work tree

    @classmethod
    def read(cls, start: Path | str, environ: Mapping[str, str] | None = None) -> GitEnvironment:
        """The environment as git started in ``start`` reads it; refuses what wikigen cannot honour."""
        env = os.environ if environ is None else environ
        for name in REFUSED:
            if env.get(name):
                raise GitStoreError(
                    f"{name} is set ({env[name]}): git would keep objects where wikigen does not look. "
                    f"Unset it (`unset {name}`) and run again."
                )
        for name in NAMED:
            if name in env and not env[name]:
                raise GitStoreError(f"{name} is set but empty, which names no file; unset it (`unset {name}`) and run again")
        base = os.path.abspath(start)

        def place(name: str) -> Path | None:
            value = env.get(name)
            return Path(os.path.abspath(os.path.join(base, value))) if value else None

        return cls(git_dir=place("GIT_DIR"), work_tree=place("GIT_WORK_TREE"), index_file=env.get("GIT_INDEX_FILE"))

    def index_path(self, top: Path) -> Path | None:
        """The index ``GIT_INDEX_FILE`` names, read from ``top`` (the work tree's) as git reads it."""
        if self.index_file is None:
            return None
        return Path(os.path.abspath(os.path.join(top, self.index_file)))


def command_environment(
    git_dir: str, work_tree: Path, index: Path | None, environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a git command on the repository libgit2 opened: its folder, work tree and
    index named absolutely, so that the command works on them whatever folder it runs in (R42)."""
    env = {k: v for k, v in (os.environ if environ is None else environ).items() if k not in NAMED}
    env["GIT_DIR"] = git_dir
    env["GIT_WORK_TREE"] = str(work_tree)
    if index is not None:
        env["GIT_INDEX_FILE"] = str(index)
    return env
