"""The work tree's and the index's state through the git command line, with nothing but
the standard library: `wikigen compile` starts its question (:func:`start_staged_paths`) before the
compiler's modules are imported, so that it is answered while the process loads and plans.

The command line stats a work tree in parallel, several times faster than libgit2 on a large one,
and it reads the index's cache tree, so that comparing the index with HEAD stats nothing. It is
asked with ``--no-optional-locks`` so that it never writes the index, and with ``:(top)`` pathspecs,
so that it answers for the repository's root from any folder in it; its paths are the root's. Where
it cannot answer (no ``git`` installed, not a repository, no commit yet, an error) the answer is
None and the caller asks libgit2 (:mod:`wikigen.store.work_tree`).

Started before the repository is opened, a question runs in this process's environment, which git
reads as the store does or the store refuses (R42); the store's own questions name its repository,
work tree and index (:func:`wikigen.store.environment.command_environment`).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

# Only the compiler writes here: wikigen.model.config.GENERATED_DIRS, written again because this module
# imports the standard library alone (tests/test_layer_contracts.py checks that the two agree).
GENERATED = ("content/wiki/", "content/.wikigen/")


def start_status(
    directory: Path | str, args: Sequence[str], paths: Sequence[str], env: Mapping[str, str] | None = None
) -> subprocess.Popen[bytes] | None:
    """`git status --porcelain` with ``args`` for ``paths`` (folders of the root) started in ``directory``
    (with ``env``, else this process's environment)."""
    return _start(directory, ["status", "--porcelain=v1", "-z", "--no-renames", *args], paths, env)


def _start(
    directory: Path | str, command: Sequence[str], paths: Sequence[str], env: Mapping[str, str] | None
) -> subprocess.Popen[bytes] | None:
    git = shutil.which("git")
    if git is None:
        return None
    try:
        return subprocess.Popen(
            [git, "--no-optional-locks", *command, "--", *(f":(top){p.rstrip('/')}" for p in paths)],
            cwd=directory,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError:
        return None


def finish_status(running: subprocess.Popen[bytes] | None) -> list[tuple[str, str]] | None:
    """(XY code, path) of every entry the started status lists — both paths of a rename — or None."""
    if running is None:
        return None
    stdout, _ = running.communicate()
    if running.returncode != 0:
        return None
    entries: list[tuple[str, str]] = []
    for field in stdout.decode("utf-8", "surrogateescape").split("\0"):
        if len(field) > 3 and field[2] == " ":
            entries.append((field[:2], field[3:]))
    return entries


def start_staged_paths(
    directory: Path | str, prefixes: Sequence[str] = GENERATED, env: Mapping[str, str] | None = None
) -> Callable[[], list[str] | None]:
    """Files under ``prefixes`` whose index entry is not HEAD's (`git diff-index --cached`), started
    now and answered (sorted, or None where the command line could not tell: no git, no commit yet)
    when the returned function is first called; later calls give the same answer. It stats no file
    of the work tree: the index's cache tree answers for every folder that did not change, where the
    status of the work tree would stat every file."""
    running = _start(directory, ["diff-index", "--cached", "--name-only", "-z", "--no-renames", "HEAD"], prefixes, env)
    answer: list[list[str] | None] = []

    def result() -> list[str] | None:
        if not answer:
            if running is None:
                answer.append(None)
            else:
                stdout, _ = running.communicate()
                listed = stdout.decode("utf-8", "surrogateescape").split("\0")
                answer.append(None if running.returncode != 0 else sorted({p for p in listed if p}))
        found = answer[0]
        return None if found is None else list(found)

    return result
