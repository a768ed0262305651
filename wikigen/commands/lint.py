"""`wikigen lint`: the findings of :mod:`wikigen.lint` for the committed snapshot and the sources at
HEAD, printed one per line with the file to change and what to do, or as one JSON object. No model
is called and nothing is written."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from wikigen.commands.printers import echo
from wikigen.lint import KINDS, SEVERITIES, LintSettings, Report, lint
from wikigen.lint.findings import rank
from wikigen.views.lint_inputs import read_lint_inputs

FAIL_ON = (*SEVERITIES, "never")


def lint_report(
    root: Path | str, *, settings: LintSettings, as_of: datetime | None = None
) -> tuple[Report, dict[str, Any]]:
    """The report and its JSON form; ages are measured to ``as_of`` (naive: UTC), else to HEAD's
    commit time."""
    now = None if as_of is None else int(as_of.replace(tzinfo=as_of.tzinfo or timezone.utc).timestamp())
    inputs = read_lint_inputs(root, now=now)
    report = lint(inputs, settings)
    data = {
        "as_of": datetime.fromtimestamp(inputs.now, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "settings": {
            "min_sources": settings.min_sources,
            "stale_days": settings.stale_days,
            "missing_concepts_listed": settings.term_cap,
        },
        "counts": report.counts(),
        "left_out": dict(sorted(report.left_out.items())),
        "findings": [finding.as_json() for finding in report.findings],
    }
    return report, data


def fails(report: Report, fail_on: str) -> bool:
    """Whether a finding at or above ``fail_on`` is present (`never`: no finding fails)."""
    worst = report.worst()
    return fail_on != "never" and worst is not None and rank(worst) >= rank(fail_on)


def print_lint(data: dict[str, Any]) -> None:
    for finding in data["findings"]:
        where = f"{finding['file']}:{finding['line']}" if finding["line"] else finding["file"]
        echo(f"{where}: {finding['severity']} {finding['kind']}: {finding['finding']}")
        echo(f"    what to do: {finding['action']}")
    for kind, more in data["left_out"].items():
        echo(
            f"… and {more} more {kind} finding(s), not listed: the {data['settings']['missing_concepts_listed']} "
            "marked as a term by the most sources are (raise --min-sources to see fewer terms)"
        )
    counts = {severity: 0 for severity in reversed(SEVERITIES)}
    for finding in data["findings"]:
        counts[finding["severity"]] += 1
    for kind, more in data["left_out"].items():
        counts[KINDS[kind][0]] += more
    total = sum(counts.values())
    summary = ", ".join(f"{n} {severity}" for severity, n in counts.items())
    echo(f"{total} finding(s) ({summary}); ages as of {data['as_of']}")
