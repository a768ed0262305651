"""The site's lint page (pure): the findings of :mod:`wikigen.lint` for the committed snapshot, as
`wikigen lint` prints them — ages measured to HEAD's commit time, so a commit always builds the same
page. Listed, never acted on: no finding changes the wiki. The quiet kinds (hints about what the
compiler made of the sources) are listed folded, under their count."""

from __future__ import annotations

from datetime import datetime, timezone

from wikigen.lint import KINDS, QUIET_KINDS, Report
from wikigen.views.markup import Doc, Page, esc

LINT_PAGE = "lint.md"


def lint_page(report: Report, as_of: int) -> Page:
    doc = Doc(LINT_PAGE)
    doc.heading(1, "Lint")
    when = datetime.fromtimestamp(as_of, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    counts = report.counts()
    doc.add(
        f'<p class="wikigen-lead">{sum(counts.values())} finding(s) on the committed snapshot and sources, '
        f"ages as of {esc(when)} (the time of the commit this site was built from). Each names the file to "
        "change and what to do; <code>wikigen lint</code> prints the same list, and "
        "<code>wikigen lint --fail-on error</code> fails a CI job on the errors.</p>"
    )
    doc.add(
        '<div class="wikigen-figures"><table><thead><tr><th>Kind</th><th>Severity</th><th>Findings</th>'
        "<th>What it means</th></tr></thead><tbody>"
    )
    for kind, (severity, meaning) in sorted(KINDS.items()):
        doc.add(
            f'<tr data-kind="{esc(kind)}"><td><a href="#{esc(kind)}">{esc(kind)}</a></td><td>{esc(severity)}</td>'
            f'<td class="wikigen-num">{counts[kind]}</td><td>{esc(meaning)}</td></tr>'
        )
    doc.add("</tbody></table></div>")
    for kind in sorted(KINDS):
        findings = [f for f in report.findings if f.kind == kind]
        more = report.left_out.get(kind, 0)
        if not findings and not more:
            continue
        doc.heading(2, kind, kind)
        quiet = kind in QUIET_KINDS
        if quiet:
            doc.add(
                f"<details><summary>{len(findings)} hint(s) about what the compiler made of the sources; "
                "most need no change to them</summary>"
            )
        rows = []
        for f in findings:
            where = f"{f.file}:{f.line}" if f.line else f.file
            rows.append(
                f'<tr data-severity="{esc(f.severity)}"><td>{esc(f.finding)}</td><td><code>{esc(where)}</code></td>'
                f"<td>{esc(f.action)}</td></tr>"
            )
        doc.add(
            '<div class="wikigen-directory"><table><thead><tr><th>Finding</th><th>File</th><th>What to do</th>'
            "</tr></thead><tbody>",
            *rows,
            "</tbody></table></div>",
        )
        if quiet:
            doc.add("</details>")
        if more:
            doc.add(f"<p>… and {more} more, not listed: those marked as a term by the most sources are.</p>")
    return doc.page("Lint")
