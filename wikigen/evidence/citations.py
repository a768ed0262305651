"""Citations (E2–E3): a verbatim quote located in a body at a character span, never trusted from outside."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wikigen.evidence.passages import lines_of_span
from wikigen.model.hashing import citation_id


@dataclass(frozen=True, slots=True)
class Citation:
    """``body[start:end] == quote`` in the body of ``source`` at ``version`` (E2)."""

    citation_id: str
    source: str
    version: str
    start: int
    end: int
    line_start: int
    line_end: int
    quote: str

    def as_json(self) -> dict[str, Any]:
        return {
            "citation_id": self.citation_id,
            "source": self.source,
            "version": self.version,
            "source_span": {"start": self.start, "end": self.end},
            "lines": {"start": self.line_start, "end": self.line_end},
            "quote": self.quote,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Citation:
        return cls(
            citation_id=data["citation_id"],
            source=data["source"],
            version=data["version"],
            start=int(data["source_span"]["start"]),
            end=int(data["source_span"]["end"]),
            line_start=int(data["lines"]["start"]),
            line_end=int(data["lines"]["end"]),
            quote=data["quote"],
        )


def make_citation(source: str, version: str, body: str, start: int, end: int) -> Citation:
    """A citation of ``body[start:end]``; the id depends only on the source and the start (E3)."""
    line_start, line_end = lines_of_span(body, start, end)
    return Citation(
        citation_id=citation_id(source, start),
        source=source,
        version=version,
        start=start,
        end=end,
        line_start=line_start,
        line_end=line_end,
        quote=body[start:end],
    )


def locate(quote: str, body: str, allowed: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """The first span of ``quote`` verbatim in ``body`` lying wholly inside one allowed range (R22)."""
    if not quote:
        return None
    for start, end in sorted(allowed):
        found = body.find(quote, start, end)
        if found >= 0:
            return found, found + len(quote)
    return None


def check_citation(citation: Citation, body: str) -> str | None:
    """None when the citation still holds in ``body``; otherwise what is wrong."""
    if citation.end > len(body) or body[citation.start : citation.end] != citation.quote:
        return (
            f"citation {citation.citation_id} of {citation.source}@{citation.version}: the quote is not at "
            f"[{citation.start}:{citation.end}] in that version's body"
        )
    if citation.citation_id != citation_id(citation.source, citation.start):
        return f"citation {citation.citation_id} of {citation.source}: its id does not match its span"
    return None
