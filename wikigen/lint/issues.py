"""The contradictions and open questions the compiler recorded on articles and topics (R27), listed
as they are: wikigen never resolves them, and has no general semantic-conflict detector."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wikigen.lint.cited import first_source
from wikigen.lint.findings import Finding
from wikigen.model.objects import label_of

_KINDS = (
    (
        "contradictions",
        "contradiction",
        "warning",
        "check the versions it names and correct, or scope, the source that is wrong; the next compile "
        "records what the sources then say",
    ),
    (
        "open_questions",
        "open-question",
        "info",
        "answer the question in a source (or in the one that raises it); the next compile records it",
    ),
)


def recorded_issues(objects: Mapping[str, Mapping[str, Any]], paths: Mapping[str, str]) -> list[Finding]:
    findings = []
    for oid, obj in objects.items():
        if obj.get("kind") not in ("article", "topic"):
            continue
        for field, kind, severity, action in _KINDS:
            for issue in obj.get(field) or []:
                if not isinstance(issue, Mapping):
                    continue
                text = " ".join(str(issue.get("text") or "").split())
                details = "".join(
                    f"; {name}: {issue[name]}" for name in ("scope", "uncertainty") if issue.get(name)
                )
                origin = first_source(obj, issue.get("citations") or []) or ""
                findings.append(
                    Finding(
                        kind=kind,
                        severity=severity,
                        subject=oid,
                        finding=f"{label_of(obj)!r} records: {text}{details}",
                        file=paths.get(origin, origin),
                        action=action,
                    )
                )
    return findings
