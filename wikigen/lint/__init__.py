"""``wikigen lint``: deterministic findings from the committed snapshot and the sources, each with
the file to change and what to do — never a model call, never a change. Pure: the inputs are read by
:mod:`wikigen.views.lint_inputs`, printed by the command and shown on the site's lint page."""

from __future__ import annotations

import re

from wikigen.lint.concepts import orphans, sources_without_concepts
from wikigen.lint.document import read_document
from wikigen.lint.duplicates import duplicates
from wikigen.lint.findings import KINDS, QUIET_KINDS, SEVERITIES, Finding, Report, sorted_findings
from wikigen.lint.inputs import LintInputs, LintSettings, SourceText, WaitingSource
from wikigen.lint.issues import recorded_issues
from wikigen.lint.links import broken_links, folders_of
from wikigen.lint.missing import Known, candidates, missing_concepts
from wikigen.lint.terms import concept_keys, mentions, stem_key, term_key
from wikigen.lint.waiting import stale_sources

_LOWERCASE_WORD = re.compile(r"\b[a-z]+\b")

__all__ = [
    "KINDS",
    "QUIET_KINDS",
    "SEVERITIES",
    "Finding",
    "LintInputs",
    "LintSettings",
    "Report",
    "SourceText",
    "WaitingSource",
    "lint",
]


def lint(inputs: LintInputs, settings: LintSettings | None = None) -> Report:
    """Every finding of every kind for ``inputs``; the same inputs always give the same report."""
    settings = settings or LintSettings()
    paths = inputs.paths()
    concepts = inputs.of_kind("concept")
    relations = inputs.of_kind("relation")
    documents = {source.id: read_document(source.body) for source in inputs.sources}

    findings: list[Finding] = []
    files = inputs.files
    folders = folders_of(files)
    for source in inputs.sources:
        findings += broken_links(source, documents[source.id], files, folders)

    named = concept_keys(concepts)
    found = candidates({sid: doc.marked for sid, doc in documents.items()})
    mentioned = mentions(((sid, doc.prose) for sid, doc in sorted(documents.items())), set(named) | set(found))
    known = Known(
        headings=frozenset(term_key(h) for doc in documents.values() for h in doc.headings),
        concept_stems=frozenset(stem_key(key) for key in named),
        lowercase=frozenset(
            term_key(w) for w in {w for doc in documents.values() for w in _LOWERCASE_WORD.findall(doc.prose)}
        ),
    )
    listed, more = missing_concepts(
        found,
        mentioned,
        named,
        {s.id: s for s in inputs.sources},
        min_sources=settings.min_sources,
        cap=settings.term_cap,
        known=known,
    )
    findings += listed
    findings += orphans(concepts, relations, mentioned, paths)
    findings += duplicates(concepts, paths)
    findings += sources_without_concepts(concepts, inputs.compiled, paths)
    findings += stale_sources(inputs.waiting, inputs.now, settings.stale_days)
    findings += recorded_issues(inputs.objects, paths)
    return Report(sorted_findings(findings), {"missing-concept": more} if more else {})
