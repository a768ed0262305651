"""Articles (R20): one per changed source, its summary and sections cited from ranked passages (E1).

The summary is the passages that rank best against the title and headings; each ``##``/``###``
heading gets the passages under it that rank best against the heading. :func:`fit` compacts the
articles until analyze's delta fits the pipeline's limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wikigen.engines.base import canonical_bytes
from wikigen.engines.documents import Document, Json, Scorer, claim
from wikigen.engines.text import sentences

SUMMARY_CLAIMS = 3
SECTION_CLAIMS = 2
DELTA_BYTES = 90_000  # under the pipeline's 100,000-byte limit on analyze's delta


@dataclass(frozen=True, slots=True)
class Plan:
    """What an article may cite, best first: summary passages and (heading, passages) sections."""

    document: Document
    summary: tuple[str, ...]
    sections: tuple[tuple[str, tuple[str, ...]], ...]


def queries(document: Document) -> list[str]:
    """The article query (title and headings) and one query per ``##``/``###`` heading."""
    headings = [h.text for h in document.headings if h.level in (2, 3)]
    return [". ".join([document.title, *headings]), *headings]


def article_plan(document: Document, scorer: Scorer) -> Plan | None:
    """One article per changed source: ranked summary, sections by heading (R20)."""
    prose = [p for p in document.passages if not p.text.startswith("|")] or list(document.passages)
    if not prose:
        quote = _fallback_quote(document.body)
        return None if quote is None else Plan(document, (quote,), ())  # an empty body cites nothing
    headings = [h for h in document.headings if h.level in (2, 3)]
    best = scorer.rank(queries(document)[0], prose, lambda p: p.text, lambda p: p.start)[:SUMMARY_CLAIMS]
    sections = []
    for index, heading in enumerate(headings):
        end = headings[index + 1].start if index + 1 < len(headings) else len(document.body)
        # A section cites its own best passages, even one the summary cites too.
        under = [p for p in prose if heading.start < p.start < end]
        top = scorer.rank(heading.text, under, lambda p: p.text, lambda p: p.start)[:SECTION_CLAIMS]
        if top:
            sections.append((heading.text, tuple(p.text for p in sorted(top, key=lambda p: p.start))))
    ordered = tuple(p.text for p in sorted(best, key=lambda p: p.start))
    return Plan(document, ordered, tuple(sections))


def _article(plan: Plan, level: int) -> Json:
    """The article of ``plan`` at a compaction level (0: as planned; see fit)."""
    source = plan.document.source
    article: Json = {
        "title": plan.document.title,
        "sources": [source],
        "summary": [claim(source, quote) for quote in plan.summary],
    }
    sections = []
    for heading, quotes in plan.sections:
        kept = quotes[:1] if level >= 1 else quotes
        if level >= 2:  # the passage's first sentence instead of the whole passage
            kept = tuple(_first_sentence(q) for q in kept)
        sections.append({"heading": heading, "claims": [claim(source, q) for q in kept]})
    if sections and level < 4:
        article["sections"] = sections
    return article


def _first_sentence(quote: str) -> str:
    found = sentences("", quote)
    return found[0].text if found else quote


def fit(plans: Sequence[Plan], delta: Json) -> None:
    """Articles at the least compaction that keeps the delta under DELTA_BYTES.

    The pipeline refuses an analyze delta over 100,000 bytes (it travels on to recheck), so a large
    increment cites fewer passages per heading, then sentences, then no sections, then one piece of
    evidence per concept and no topic summaries, rather than fail.
    """
    for level in range(5):
        delta["articles"] = [_article(plan, level) for plan in plans]
        if len(canonical_bytes(delta)) <= DELTA_BYTES:
            return
    for concept in delta["concepts"]:
        concept["evidence"] = concept["evidence"][:1]
    for topic in delta["topics"]:
        topic.pop("summary", None)


def _fallback_quote(body: str) -> str | None:
    """A source without passages is still covered: its trimmed body if short, else its longest line."""
    trimmed = body.strip()
    if not trimmed:
        return None
    if len(trimmed) <= 300:
        return trimmed
    return max((line.strip() for line in trimmed.splitlines()), key=len)
