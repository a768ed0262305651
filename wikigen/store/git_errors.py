"""pygit2's errors translated into wikigen's, with a message a user can act on: the machine's fault
(a lock, a full disk, no permission) told apart from git's."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pygit2

from wikigen.model.errors import EnvironmentalError, GitStoreError, environmental

LOW_SPACE = 1 << 20  # bytes free under which a failed write is put down to a full disk


@contextmanager
def translated(action: str, git_dir: str | None = None) -> Iterator[None]:
    # pygit2 raises OSError for libgit2's file-system errors (a lock, a full disk) and GitError for
    # the rest; both may be the machine's fault, which the user fixes differently.
    try:
        yield
    except (pygit2.GitError, OSError) as exc:
        raise environmental(action, exc, git_dir) or low_on_space(action, exc, git_dir) or GitStoreError(
            f"git failed while {action}: {exc}"
        ) from None
    except KeyError as exc:
        raise GitStoreError(f"git object not found while {action}: {exc}") from None


def low_on_space(action: str, error: BaseException, git_dir: str | None) -> EnvironmentalError | None:
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
