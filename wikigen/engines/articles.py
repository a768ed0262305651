"""Articles (R20): one per changed source, its summary and sections cited from ranked passages (E1).

The summary is the passages that rank best against the title and headings; each ``##``/``###``
heading gets the passages under it that rank best against the heading. An article depends on its
own source only (:func:`fit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wikigen.engines.documents import Document, Json, Scorer, claim
from wikigen.hashing import canonical_bytes

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


def _article(plan: Plan) -> Json:
    """The article of ``plan``: its summary claims, then one section per heading."""
    source = plan.document.source
    article: Json = {
        "title": plan.document.title,
        "sources": [source],
        "summary": [claim(source, quote) for quote in plan.summary],
    }
    sections = []
    for heading, quotes in plan.sections:
        sections.append({"heading": heading, "claims": [claim(source, q) for q in quotes]})
    if sections:
        article["sections"] = sections
    return article


def fit(plans: Sequence[Plan], delta: Json) -> None:
    """The articles, each a function of its own source only; cross-source objects give way if needed.

    An article never depends on what else is in its increment (issue 4: compiled alone, in a batch or
    after any history, its file is byte-identical). The pipeline refuses an analyze delta over
    100,000 bytes, so when the delta is too big the concepts keep one piece of evidence and topics
    drop their summaries; what still does not fit fails in the pipeline and is split with --batch,
    whose increments are sized well below that limit.
    """
    delta["articles"] = [_article(plan) for plan in plans]
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
