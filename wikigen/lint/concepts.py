"""Concepts that stand alone and sources that yield none: orphans (no relation, mentioned by one
source at most) and compiled sources no concept cites. Both are hints about what the compiler made
of the sources, and their "what to do" says so: the docs may already state what it missed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wikigen.lint.cited import cited_sources, defining_source
from wikigen.lint.findings import Finding
from wikigen.lint.terms import names_of, term_key


def orphans(
    concepts: Mapping[str, Mapping[str, Any]],
    relations: Mapping[str, Mapping[str, Any]],
    mentioned: Mapping[str, set[str]],
    paths: Mapping[str, str],
) -> list[Finding]:
    """``mentioned``: term key → the sources whose text mentions it."""
    related = {str(r.get(end)) for r in relations.values() for end in ("subject", "object")}
    findings = []
    for oid, concept in concepts.items():
        if oid in related:
            continue
        sources: set[str] = set()
        for name in names_of(concept):
            sources |= mentioned.get(term_key(name), set())
        if len(sources) > 1:
            continue
        origin = defining_source(concept) or (sorted(sources)[0] if sources else "")
        name = str(concept.get("name") or oid)
        findings.append(
            Finding(
                kind="orphan",
                severity="info",
                subject=oid,
                finding=f"concept {name!r} has no relation, and {'only this source mentions' if sources else 'no source mentions'} it",
                file=paths.get(origin, origin),
                action=f"the compiler found no relation for {name!r}: if the source already states one, the "
                "compiler missed it and the source needs no change; if it is no concept (a product in a list, "
                f"an example name), nothing to do; if it is a term readers need and no relation is stated, "
                f"state one in a sentence with a verb (\"{name} uses …\")",
            )
        )
    return findings


def sources_without_concepts(
    concepts: Mapping[str, Mapping[str, Any]], compiled: Mapping[str, str], paths: Mapping[str, str]
) -> list[Finding]:
    cited = {sid for concept in concepts.values() for sid in cited_sources(concept)}
    return [
        Finding(
            kind="no-concept",
            severity="info",
            subject=source_id,
            finding=f"source {source_id} is compiled but yields no concept",
            file=paths.get(source_id, path),
            action="a page that introduces no term (a how-to, a changelog, a table) is fine as it is; if it "
            "defines a term plainly (\"X is …\", a glossary entry), the compiler missed it and the source "
            "needs no change; if it introduces a term without saying what it is, add that sentence",
        )
        for source_id, path in sorted(compiled.items())
        if source_id not in cited
    ]
