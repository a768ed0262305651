"""Stale sources: a newer version deferred (R4) or waiting (R35, R36) for longer than the stale age,
measured from the commit times in git to the time the inputs name (HEAD's commit, unless told)."""

from __future__ import annotations

from collections.abc import Iterable

from wikigen.lint.findings import Finding
from wikigen.lint.inputs import DAY, WaitingSource

# What each reason asks of a person: the way out that `wikigen status` and the manual name.
ACTIONS = {
    "deferred": "its category's auto_archive switch is off: `wikigen compile --include-deferred` compiles "
    "it, or set `categories.auto_archive.{category}: true` in wikigen.yml",
    "waiting": "the task has not reached a checkpoint (status accepted, final, failed, cancelled, blocked "
    "or reverify): move it on, or compile it with `wikigen compile --include-deferred`",
    "baseline": "recorded when wikigen first ran and never compiled: `wikigen compile --include-deferred` "
    "compiles it",
    "subtask": "it waits for its parent task's checkpoint: move the parent task on, or compile with "
    "`wikigen compile --include-deferred`",
    "duplicate-checkpoint": "it repeats a checkpoint already compiled: `wikigen compile --include-deferred` "
    "records it",
}


def stale_sources(waiting: Iterable[WaitingSource], now: int, stale_days: int) -> list[Finding]:
    findings = []
    for source in waiting:
        days = (now - source.since) // DAY
        if days < stale_days:
            continue
        action = ACTIONS.get(source.reason, "`wikigen compile --include-deferred` compiles it")
        findings.append(
            Finding(
                kind="stale",
                severity="warning",
                subject=source.id,
                finding=f"source {source.id} has waited {days} days ({source.reason}; over {stale_days}), "
                "so the wiki shows an older version of it or none",
                file=source.path,
                action=action.format(category=source.category),
            )
        )
    return findings
