"""One error base class; the exit-code map lives here and nowhere else."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

EXIT_OK = 0
EXIT_FAILURE = 1  # a user-facing failure: bad source, cap exceeded, validation, conflict
EXIT_USAGE = 2


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file, reported as ``path:line: message``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "message": self.message}


class WikigenError(Exception):
    """Base of every error a user may see. The message must say what to do."""

    exit_code = EXIT_FAILURE

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
    """An increment is over one of the caps of R15; nothing was trimmed or published."""


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


class ConflictError(WikigenError):
    """The snapshot or the sources moved while compiling (R30); the late result is rejected."""


class PreviousFailure(WikigenError):
    """The same sources failed before (R33); retried only on a change or with --retry."""


def exit_code_for(error: BaseException) -> int:
    if isinstance(error, WikigenError):
        return error.exit_code
    return EXIT_FAILURE
