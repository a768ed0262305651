"""One error base class; the exit-code map lives here and nowhere else."""

from __future__ import annotations

import errno
import os
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from wikigen.model.terminal import visible

EXIT_OK = 0
EXIT_FAILURE = 1  # a user-facing failure: bad source, cap exceeded, validation, conflict
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # the shell's code for SIGINT


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file, reported as ``path:line: message``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        # R41: a file name or an id quoted in the message may hold escape sequences.
        return visible(f"{self.path}:{self.line}: {self.message}")

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "message": self.message}


class WikigenError(Exception):
    """Base of every error a user may see. The message must say what to do."""

    exit_code = EXIT_FAILURE
    # R33: a failure that says nothing about the sources (a race lost, Ctrl-C, a full disk) is
    # recorded in the note but never makes the next compile of the same sources refuse.
    retryable = False

    def __init__(self, message: str) -> None:
        if not message.strip():
            raise ValueError("WikigenError needs an actionable message")
        super().__init__(message)
        self.message = message


class UsageError(WikigenError):
    exit_code = EXIT_USAGE


class ConfigError(WikigenError):
    """wikigen.yml is invalid; the message lists every problem."""


class SourceError(WikigenError):
    """One or more sources are invalid (R5); every problem is listed."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(str(p) for p in self.problems)
        super().__init__(f"{lines}\n{len(self.problems)} problem(s) in sources; nothing was published.")


class GitStoreError(WikigenError):
    """A git operation failed; translated from pygit2 at the boundary."""


class SnapshotError(WikigenError):
    """The committed snapshot manifest cannot be read."""


class CapExceeded(WikigenError):
    """An increment is over one of the caps of R15; nothing was trimmed or published.

    R33: a cap breach judges how compile was run (one increment or --batch), not the sources, so it
    never makes a later compile of the same sources refuse.
    """

    retryable = True

    def __init__(
        self, message: str, *, sources: Iterable[str] = (), over: Iterable[tuple[str, int, int]] = ()
    ) -> None:
        super().__init__(message)
        self.sources = tuple(sources)
        self.over = tuple(over)  # (cap name, used, limit) of each cap exceeded


class BudgetExceeded(WikigenError):
    """A compile run would pass `budget.max_sent_bytes` or `budget.max_engine_calls`."""


class ValidationError(WikigenError):
    """A delta or a snapshot failed validation (R22, R26, R28); every problem is listed."""

    def __init__(self, problems: Iterable[str], what: str = "delta") -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"- {p}" for p in self.problems)
        super().__init__(
            f"the {what} failed validation with {len(self.problems)} problem(s):\n{lines}\n"
            "The previous snapshot is kept."
        )


class EngineError(WikigenError):
    """An engine call failed (transport, deadline, cancellation, malformed output)."""


class PrivacyError(WikigenError):
    """A private source would reach an engine that leaves this machine."""


class NotFoundError(WikigenError):
    """An id, name, version or span that the snapshot does not have (search, mcp); says what exists."""


class AnswerRefused(WikigenError):
    """An answer filed back was not written: a citation not found verbatim in the committed version of
    its source, a private source cited (R39), or another answer already at its file. ``failed`` lists
    the citations refused, each ``{"citation": n, "source": ..., "problem": ...}``."""

    def __init__(self, message: str, failed: Iterable[dict[str, object]] = ()) -> None:
        super().__init__(message)
        self.failed = tuple(failed)


class ConflictError(WikigenError):
    """The snapshot or the sources moved while compiling (R30); the late result is rejected."""

    retryable = True


class EnvironmentalError(WikigenError):
    """The machine, not wikigen or the sources, stopped the run: a full disk, a read-only file system,
    missing permissions, a lock left by another process. The message says what to fix."""

    retryable = True


class LockHeld(EnvironmentalError):
    """A git lock file is there: another writer holds it this moment, or a killed one left it."""


class Interrupted(WikigenError):
    """Ctrl-C (SIGINT) stopped the compile; the failure note records it."""

    exit_code = EXIT_INTERRUPTED
    retryable = True


class PreviousFailure(WikigenError):
    """The same sources failed before (R33); retried only on a change or with --retry."""


class LocalChangesError(WikigenError):
    """Generated files in the work tree or the index differ from HEAD where a compile would write;
    the message names them and their restore. It judges no source (R33): restored, the same compile
    runs again without --retry."""

    retryable = True


class HandEditError(WikigenError):
    """A generated file was committed by hand; the message names it and its restore."""


class MassWithdrawal(WikigenError):
    """A compile would withdraw most sources at once (a renamed folder?); needs --allow-mass-withdrawal."""


_LOCK = re.compile(r"'([^']+\.lock)'")
_CAUSES = (
    # (errno values, words libgit2 and the OS use, what to do)
    (
        (errno.ENOSPC, errno.EDQUOT, errno.EFBIG),
        (os.strerror(errno.ENOSPC), os.strerror(errno.EDQUOT), os.strerror(errno.EFBIG)),
        "the disk is full (or a quota or file-size limit was reached); free space where the repository "
        "lives and run again",
    ),
    (
        (errno.EROFS,),
        (os.strerror(errno.EROFS),),
        "the repository is on a read-only file system; run wikigen in a writable clone",
    ),
    (
        (errno.EACCES, errno.EPERM),
        (os.strerror(errno.EACCES), os.strerror(errno.EPERM)),
        "permission denied; run as a user who may write to the repository (and its .git folder), or fix "
        "their permissions",
    ),
)


def environmental(action: str, error: BaseException, git_dir: str | None = None) -> EnvironmentalError | None:
    """An OS or git error caused by the machine (full disk, read-only, permissions, a stale lock) as
    an EnvironmentalError that says what to fix; None when it is something else."""
    text = str(error)
    code = getattr(error, "errno", None)
    where = getattr(error, "filename", None)
    for codes, words, fix in _CAUSES:
        if code in codes or any(word in text for word in words):
            place = f" ({where})" if where and str(where) not in text else ""
            return EnvironmentalError(f"{fix}. The error came while {action}{place}: {text.rstrip(' .:')}.")
    found = _LOCK.search(text)
    if found:
        lock = found.group(1)
    elif "index is locked" in text:
        lock = os.path.join(git_dir or ".git", "index.lock")
    else:
        return None
    return LockHeld(
        f"{lock} exists while {action}: another git command holds it, or one was killed and left it. "
        f"If no git or wikigen command is running, remove it (`rm {shlex.quote(lock)}`) and run again."
    )


def exit_code_for(error: BaseException) -> int:
    if isinstance(error, WikigenError):
        return error.exit_code
    return EXIT_FAILURE
