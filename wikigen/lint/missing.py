"""Missing concepts: a phrase an author marks as a term (emphasis, a short heading, a CamelCase
name) that at least ``min_sources`` sources use, and that no concept is named by (name or alias,
compared by :func:`~wikigen.lint.terms.term_key`).

Ranked by the number of sources that mark the term, then by the number that use it, then by the
term; only the first ``term_cap`` are listed and the rest counted, so a large corpus never floods."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from wikigen.lint.document import Marking
from wikigen.lint.findings import Finding
from wikigen.lint.inputs import SourceText
from wikigen.lint.terms import is_term, term_key

SHOWN_SOURCES = 3  # sources named in a finding's text; the rest are counted
PLAIN_WORD_MARKS = 2  # sources that must mark a plain lowercase word before it is a candidate
_PLAIN_WORD = re.compile(r"^[a-z]+$")


@dataclass(slots=True)
class Candidate:
    written: str  # the first way it is written, in source order
    first: tuple[str, int]  # the source and body line of that first marking
    marked_by: set[str] = field(default_factory=set)


def candidates(marked: Mapping[str, tuple[Marking, ...]]) -> dict[str, Candidate]:
    """term key → its candidate, from each source's markings (source id → markings). A heading of
    one word names a section ("Limits", "Decision") more often than a term, so it marks nothing; a
    plain lowercase word ("defaults", "feature") is a candidate once two sources mark it."""
    found: dict[str, Candidate] = {}
    for source_id, markings in sorted(marked.items()):
        for marking in markings:
            phrase = marking.phrase
            if not is_term(phrase) or (marking.how == "heading" and len(phrase.split()) < 2):
                continue
            key = term_key(phrase)
            if key:
                found.setdefault(key, Candidate(" ".join(phrase.split()), (source_id, marking.line)))
                found[key].marked_by.add(source_id)
    return {
        key: c for key, c in found.items() if len(c.marked_by) >= PLAIN_WORD_MARKS or not _PLAIN_WORD.match(c.written)
    }


def missing_concepts(
    found: Mapping[str, Candidate],
    mentioned: Mapping[str, set[str]],
    named: Mapping[str, object],
    sources: Mapping[str, SourceText],
    *,
    min_sources: int,
    cap: int,
) -> tuple[list[Finding], int]:
    """The findings within the cap, and how many more there are. ``named``: the concepts' keys."""
    ranked = sorted(
        (
            (-len(c.marked_by), -len(mentioned.get(key, set()) | c.marked_by), key)
            for key, c in found.items()
            if key not in named and len(mentioned.get(key, set()) | c.marked_by) >= min_sources
        )
    )
    findings = []
    for _, _, key in ranked[:cap]:
        candidate = found[key]
        users = sorted(mentioned.get(key, set()) | candidate.marked_by)
        first, line = candidate.first
        shown = ", ".join(users[:SHOWN_SOURCES]) + (f" and {len(users) - SHOWN_SOURCES} more" if len(users) > SHOWN_SOURCES else "")
        findings.append(
            Finding(
                kind="missing-concept",
                severity="info",
                subject=candidate.written,
                finding=f"{candidate.written!r} is used in {len(users)} sources ({shown}) and marked as a "
                f"term in {len(candidate.marked_by)}, but no concept is named by it",
                file=sources[first].path,
                line=sources[first].first_line + line - 1,
                action=f"define {candidate.written!r} where it is introduced, in a sentence such as "
                f"\"{candidate.written} is …\" or a glossary entry, so that the compiler makes it a concept",
            )
        )
    return findings, max(0, len(ranked) - cap)
