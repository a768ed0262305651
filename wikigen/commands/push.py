"""`wikigen push`: compile, then push the compiler's commit and refs/notes/wikigen — the CI checkpoint.

If the push is rejected because the branch moved, the local compiler commit is dropped, the new
remote head fetched, and the compile runs again against the new baseline: a bounded number of
times, never a force-push. Uses the git CLI, which carries the credentials CI configured.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikigen.compiler.driver import compile_repo
from wikigen.compiler.report import CompileReport
from wikigen.model.errors import GitStoreError, WikigenError
from wikigen.store.git import GitStore
from wikigen.store.notes import NOTES_REF

REMOTE_NOTES = "refs/notes/wikigen-remote"


@dataclass
class PushReport:
    attempts: int = 0
    pushed: bool = False
    reports: list[CompileReport] = field(default_factory=list)
    notes_pushed: bool = False

    def as_json(self) -> dict[str, Any]:
        last = self.reports[-1].as_json() if self.reports else {}
        return {"attempts": self.attempts, "pushed": self.pushed, "notes_pushed": self.notes_pushed,
                "published": bool(last.get("published")), "version": last.get("version"),
                "commit": last.get("commit"), "engine_calls": sum(r.as_json()["engine_calls"] for r in self.reports)}


def _git(store: GitStore, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    # R42: in the repository, work tree and index the store opened, whatever git's environment says
    result = subprocess.run(["git", *args], cwd=store.root, env=store.environment, text=True, capture_output=True)
    if check and result.returncode != 0:
        raise GitStoreError(f"`git {' '.join(args)}` failed: {result.stderr.strip() or result.stdout.strip()}")
    return result


def _rejected_because_moved(result: subprocess.CompletedProcess[str]) -> bool:
    text = (result.stderr + result.stdout).lower()
    return result.returncode != 0 and any(
        word in text for word in ("non-fast-forward", "fetch first", "rejected", "stale info", "cannot lock ref")
    )


def push_notes(store: GitStore, remote: str, attempts: int = 3) -> bool:
    """Push refs/notes/wikigen, merging the remote's notes first when they moved (never forced)."""
    if _git(store, "rev-parse", "--verify", "-q", NOTES_REF, check=False).returncode != 0:
        return False
    for _ in range(attempts):
        result = _git(store, "push", remote, f"{NOTES_REF}:{NOTES_REF}", check=False)
        if result.returncode == 0:
            return True
        if not _rejected_because_moved(result):
            raise GitStoreError(f"pushing {NOTES_REF} failed: {result.stderr.strip()}")
        _git(store, "fetch", remote, f"+{NOTES_REF}:{REMOTE_NOTES}")
        _git(store, "notes", f"--ref={NOTES_REF}", "merge", "-q", "-s", "cat_sort_uniq", REMOTE_NOTES)
    raise GitStoreError(f"{NOTES_REF} kept moving on {remote}; push it again later")


def push(
    path: Path | str = ".",
    *,
    remote: str = "origin",
    attempts: int = 3,
    compile_options: Mapping[str, Any] | None = None,
    compiler: Callable[..., CompileReport] = compile_repo,
) -> PushReport:
    """Compile and push, re-compiling against the new baseline when the branch moved meanwhile."""
    store = GitStore(path)
    store.refuse_shallow()  # before compiling or pushing anything
    branch = store.head_ref().removeprefix("refs/heads/")
    report = PushReport()
    options = dict(compile_options or {})
    for attempt in range(1, attempts + 1):
        report.attempts = attempt
        started = store.head_commit()
        try:
            result = compiler(path, **options)  # R42: opened from where the store was
        except WikigenError:
            # R33: the failure note travels to the remote too, so the next run sees it.
            report.notes_pushed = push_notes(store, remote)
            raise
        report.reports.append(result)
        if not result.published:
            report.notes_pushed = push_notes(store, remote)
            return report
        pushed = _git(store, "push", remote, f"HEAD:refs/heads/{branch}", check=False)
        if pushed.returncode == 0:
            report.pushed = True
            report.notes_pushed = push_notes(store, remote)
            return report
        if not _rejected_because_moved(pushed):
            raise GitStoreError(f"pushing {branch} to {remote} failed: {pushed.stderr.strip()}")
        # The branch moved: drop the local compiler commit(s), take the new remote head, compile again.
        _git(store, "fetch", remote, branch)
        fetched = _git(store, "rev-parse", "FETCH_HEAD").stdout.strip()
        if started and _git(store, "merge-base", "--is-ancestor", started, fetched, check=False).returncode != 0:
            raise GitStoreError(
                f"local {branch} has commits that {remote} does not have; pull or rebase them first (never force-pushed)"
            )
        _git(store, "reset", "--hard", "-q", fetched)
        store = GitStore(path)
        options["retry"] = True  # a moved baseline is a relevant change
    raise GitStoreError(f"{remote}/{branch} kept moving; gave up after {attempts} attempts without force-pushing")
