"""A lint finding as a value: its kind, severity, the file to change and what to do; the kinds and
their severities as data, and the order findings are listed in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

SEVERITIES = ("info", "warning", "error")  # in rising order; `--fail-on` names one of them

# Each kind: its severity and what it means (the manual's table and the site's page say the same).
# error: something is wrong in a source and its fix is certain; warning: something a person should
# look at; info: a hint whose fix is a judgement.
KINDS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "broken-link": ("error", "a link in a source to a file that does not exist"),
        "contradiction": ("warning", "a contradiction the compiler recorded (R27); never resolved by wikigen"),
        "duplicate": ("warning", "two concepts that are likely one: names equal up to a determiner, number or type parameter, or near-identical definitions"),
        "stale": ("warning", "a source whose newer version has been deferred or waiting longer than the stale age"),
        "open-question": ("info", "an open question the compiler recorded (R27); never answered by wikigen"),
        "missing-concept": ("info", "a term that several sources use and no concept is named by"),
        "orphan": ("info", "a concept with no relation that only one source mentions; often a relation the compiler missed, or no concept at all"),
        "no-concept": ("info", "a compiled source that yields no concept; often a page that introduces no term, or a definition the compiler missed"),
    }
)

# Hints about what the compiler made of the sources rather than about the sources: most of them
# need no change to the docs (a how-to page defines nothing; a vendor in a list relates to nothing;
# the compiler missed what a page states), so they are counted, listed on request (`--all`), and
# fail nothing unless listed.
QUIET_KINDS = frozenset({"orphan", "no-concept"})


def rank(severity: str) -> int:
    return SEVERITIES.index(severity)


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding: ``subject`` is what it is about (a concept id, a term, a link target, a source
    id), ``file`` the file a person changes to act on it (a source, or wikigen.yml), ``line`` the
    line in that file where there is one."""

    kind: str
    severity: str
    subject: str
    finding: str
    file: str
    action: str
    line: int | None = None

    def sort_key(self) -> tuple[int, str, str, int, str]:
        return (-rank(self.severity), self.kind, self.file, self.line or 0, self.subject)

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "subject": self.subject,
            "finding": self.finding,
            "file": self.file,
            "line": self.line,
            "action": self.action,
        }


@dataclass(frozen=True, slots=True)
class Report:
    """Every finding, sorted (severity, kind, file, line, subject); ``left_out`` counts the findings
    of a kind that its cap left out (missing concepts past the cap), never silently."""

    findings: tuple[Finding, ...]
    left_out: Mapping[str, int]

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(sorted(KINDS), 0)
        for finding in self.findings:
            counts[finding.kind] += 1
        for kind, more in self.left_out.items():
            counts[kind] += more
        return counts

    def worst(self, *, quiet: bool = False) -> str | None:
        """The highest severity among the findings (those left out count too, the quiet kinds only
        with ``quiet``); None when there are none."""
        severities = {f.severity for f in self.findings if quiet or f.kind not in QUIET_KINDS}
        severities |= {KINDS[k][0] for k, n in self.left_out.items() if n and (quiet or k not in QUIET_KINDS)}
        return max(severities, key=rank) if severities else None


def sorted_findings(findings: list[Finding]) -> tuple[Finding, ...]:
    return tuple(sorted(set(findings), key=Finding.sort_key))
