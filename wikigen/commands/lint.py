"""`wikigen lint`: the findings of :mod:`wikigen.lint` for the committed snapshot and the sources at
HEAD, printed one per line with the file to change and what to do, or as one JSON object (every
finding). The quiet kinds are counted in the text and listed with ``--all``. No model is called and
nothing is written."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from wikigen.commands.printers import echo
from wikigen.lint import KINDS, QUIET_KINDS, SEVERITIES, LintSettings, Report, lint
from wikigen.lint.findings import rank
from wikigen.views.lint_inputs import read_lint_inputs

FAIL_ON = (*SEVERITIES, "never")


def lint_report(
    root: Path | str, *, settings: LintSettings, as_of: datetime | None = None, everything: bool = False
) -> tuple[Report, dict[str, Any]]:
    """The report and its JSON form (every finding; ``settings.quiet_kinds`` names the kinds the
    text leaves unlisted, none with ``everything``); ages are measured to ``as_of`` (naive: UTC),
    else to HEAD's commit time."""
    now = None if as_of is None else int(as_of.replace(tzinfo=as_of.tzinfo or timezone.utc).timestamp())
    inputs = read_lint_inputs(root, now=now)
    report = lint(inputs, settings)
    data = {
        "as_of": datetime.fromtimestamp(inputs.now, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "settings": {
            "min_sources": settings.min_sources,
            "stale_days": settings.stale_days,
            "missing_concepts_listed": settings.term_cap,
            "quiet_kinds": [] if everything else sorted(QUIET_KINDS),
        },
        "counts": report.counts(),
        "left_out": dict(sorted(report.left_out.items())),
        "findings": [finding.as_json() for finding in report.findings],
    }
    return report, data


def fails(report: Report, fail_on: str, *, everything: bool = False) -> bool:
    """Whether a finding at or above ``fail_on`` is present (`never`: no finding fails); the quiet
    kinds count only with ``everything``."""
    worst = report.worst(quiet=everything)
    return fail_on != "never" and worst is not None and rank(worst) >= rank(fail_on)


def print_lint(data: dict[str, Any]) -> None:
    """Each finding but those of the quiet kinds, which are counted on one line."""
    quiet = set(data["settings"]["quiet_kinds"])
    for finding in data["findings"]:
        if finding["kind"] in quiet:
            continue
        where = f"{finding['file']}:{finding['line']}" if finding["line"] else finding["file"]
        echo(f"{where}: {finding['severity']} {finding['kind']}: {finding['finding']}")
        echo(f"    what to do: {finding['action']}")
    for kind, more in data["left_out"].items():
        echo(
            f"… and {more} more {kind} finding(s), not listed: the {data['settings']['missing_concepts_listed']} "
            "marked as a term by the most sources are (raise --min-sources to see fewer terms)"
        )
    unlisted = {kind: n for kind, n in data["counts"].items() if kind in quiet and n}
    if unlisted:
        kinds = " and ".join(f"{n} {kind}" for kind, n in sorted(unlisted.items()))
        echo(
            f"… and {kinds} hint(s), not listed: what the compiler made of the sources, most often "
            "needing no change to them (wikigen lint --all lists them)"
        )
    counts = {severity: 0 for severity in reversed(SEVERITIES)}
    for finding in data["findings"]:
        counts[finding["severity"]] += 1
    for kind, more in data["left_out"].items():
        counts[KINDS[kind][0]] += more
    total = sum(counts.values())
    summary = ", ".join(f"{n} {severity}" for severity, n in counts.items())
    echo(f"{total} finding(s) ({summary}); ages as of {data['as_of']}")
