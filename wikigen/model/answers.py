"""An answer filed back as a source (pure): where its file goes, what its citations look like, and
the Markdown text written for it.

An agent's answer is knowledge like any other once a person commits it: a source under
``knowledge/answers/`` of the sources folder whose frontmatter says where it came from (``question``,
``origin: agent``, ``verification: unverified``, ``cites``) and whose body ends with every quote it
rests on, each as a blockquote attributed to its source, so that the article compiled from it cites
those words like any other passage (E1).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from wikigen.model.errors import UsageError
from wikigen.model.hashing import short_hash
from wikigen.model.ids import MAX_SLUG_BYTES, cut_utf8

ANSWERS_FOLDER = "answers"  # below the knowledge folder: answers are knowledge (R2)
ORIGIN = "agent"
MAX_SLUG_CHARS = 80  # a readable file name; a longer question is cut at a word and ends in a hash
# A short quote is found by chance in almost any source, so it proves nothing.
MIN_QUOTE_CHARS = 20
MAX_QUOTE_CHARS = 20_000
MAX_CITATIONS = 100
CITATION_KEYS = frozenset({"source", "quote", "citation_id"})
_CITATION_ID = re.compile(r"[0-9a-f]{12}")
_NON_WORD = re.compile(r"[^\w]+", flags=re.UNICODE)


@dataclass(frozen=True, slots=True)
class Cited:
    """One citation as asked for: a source (its id or its path) and a quote, or a ``citation_id``
    from `search` with an optional quote inside the passage it names."""

    source: str | None = None
    quote: str | None = None
    citation_id: str | None = None

    def label(self) -> str:
        return self.source if self.source is not None else f"citation {self.citation_id}"

    @classmethod
    def from_json(cls, data: Any, number: int) -> Cited:
        """``{"source": ..., "quote": ...}`` or ``{"citation_id": ..., "quote"?: ...}``; ``number`` (1-based)
        names it in the message of a malformed one."""
        where = f"citation {number}"
        if isinstance(data, str):
            return cls.from_flag(data, number)
        if not isinstance(data, Mapping):
            raise UsageError(f'{where} must be an object {{"source": ..., "quote": ...}}, got {type(data).__name__}')
        unknown = sorted(str(k) for k in data if k not in CITATION_KEYS)
        if unknown:
            raise UsageError(f"{where} has unknown key(s) {', '.join(unknown)}; its keys are source, quote, citation_id")
        values = {}
        for key in CITATION_KEYS:
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise UsageError(f"{where}: {key} must be a string, got {type(value).__name__}")
            values[key] = value.strip() if isinstance(value, str) and value.strip() else None
        cited = cls(source=values["source"], quote=values["quote"], citation_id=values["citation_id"])
        return cited.checked(number)

    @classmethod
    def from_flag(cls, text: str, number: int) -> Cited:
        """``SOURCE:QUOTE`` (split at the first colon), or a citation id alone (12 hexadecimal digits)."""
        text = text.strip()
        if _CITATION_ID.fullmatch(text):
            return cls(citation_id=text)
        source, colon, quote = text.partition(":")
        if not colon:
            raise UsageError(
                f"citation {number} ({text[:60]!r}) is neither SOURCE:QUOTE nor a citation id "
                "(12 hexadecimal digits from `wikigen search --json`)"
            )
        return cls(source=source.strip() or None, quote=quote.strip() or None).checked(number)

    def checked(self, number: int) -> Cited:
        where = f"citation {number}"
        if self.citation_id is not None:
            if not _CITATION_ID.fullmatch(self.citation_id):
                raise UsageError(f"{where}: citation_id must be 12 hexadecimal digits (from `search`), got {self.citation_id!r}")
            if self.source is not None:
                raise UsageError(f"{where}: give a source or a citation_id, not both (the id names its source)")
        elif self.source is None or self.quote is None:
            raise UsageError(f"{where} needs a source and a quote (or a citation_id from `search`)")
        if self.quote is not None and not MIN_QUOTE_CHARS <= len(self.quote) <= MAX_QUOTE_CHARS:
            raise UsageError(
                f"{where}: a quote is {MIN_QUOTE_CHARS} to {MAX_QUOTE_CHARS:,} characters copied verbatim from "
                f"its source, got {len(self.quote):,}; a shorter one is found by chance and proves nothing"
            )
        return self


@dataclass(frozen=True, slots=True)
class Quote:
    """A quote found verbatim in the committed version of its source."""

    source: str  # the source's id
    path: str  # its file
    version: str
    text: str


def parse_citations(raw: Iterable[Any]) -> tuple[Cited, ...]:
    """The citations asked for, each checked for shape, duplicates dropped; at least one."""
    found: list[Cited] = []
    for number, item in enumerate(raw, 1):
        cited = item if isinstance(item, Cited) else Cited.from_json(item, number)
        if cited not in found:
            found.append(cited)
    if not found:
        raise UsageError(
            "an answer is filed with at least one citation: a source and a quote copied verbatim from it "
            "(or a citation_id from `search`)"
        )
    if len(found) > MAX_CITATIONS:
        raise UsageError(f"at most {MAX_CITATIONS} citations per answer, got {len(found)}")
    return tuple(found)


def question_text(question: str) -> str:
    """The question on one line; refused when empty."""
    text = " ".join(question.split())
    if not text:
        raise UsageError("the question is empty; give the question the answer answers")
    return text


def answer_slug(question: str) -> str:
    """The file name's stem for a question: its words, lower case, joined by ``-``, at most
    ``MAX_SLUG_CHARS`` characters and ``MAX_SLUG_BYTES`` UTF-8 bytes (R40) — cut at a word and ended
    with a short hash of the question when longer. The same question always gives the same slug."""
    words = _NON_WORD.sub(" ", unicodedata.normalize("NFKC", question_text(question)).casefold()).split()
    words = [w.strip("_") for w in words if w.strip("_")]
    slug = "-".join(words)
    if slug and len(slug) <= MAX_SLUG_CHARS and len(slug.encode("utf-8")) <= MAX_SLUG_BYTES:
        return slug
    digest = short_hash(question_text(question), 8)
    room = len(digest) + 1
    cut = cut_utf8(slug[: MAX_SLUG_CHARS - room], MAX_SLUG_BYTES - room).rsplit("-", 1)[0] if slug else ""
    return f"{cut}-{digest}" if cut else f"answer-{digest}"


def answer_path(question: str, sources_dir: str, folder_categories: bool = True) -> str:
    """Where the answer to ``question`` is filed, below the sources folder ``sources_dir``: in its
    ``knowledge/`` folder where the first folder is the category (R2), else in ``answers/`` at its top
    (a folder adopted in place, where a source without a category is knowledge)."""
    category = "knowledge/" if folder_categories else ""
    return f"{sources_dir}/{category}{ANSWERS_FOLDER}/{answer_slug(question)}.md"


def answer_text(question: str, answer: str, quotes: Sequence[Quote]) -> str:
    """The source's Markdown: frontmatter, the answer, then its quotes as attributed blockquotes."""
    asked = question_text(question)
    body = answer.strip()
    if not body:
        raise UsageError("the answer is empty; give the answer's text")
    front = {
        "title": asked,
        "question": asked,
        "origin": ORIGIN,
        "verification": "unverified",
        "cites": [{"source": q.source, "version": q.version} for q in _unique_versions(quotes)],
    }
    head = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1_000_000)
    parts = [f"---\n{head}---\n{body}\n", "\n## Quotes\n"]
    for quote in quotes:
        parts.append(f"\n{_blockquote(quote.text)}\n\n— `{quote.source}` (`{quote.path}`, version `{quote.version}`)\n")
    return "".join(parts)


def _blockquote(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.splitlines())


def _unique_versions(quotes: Sequence[Quote]) -> list[Quote]:
    seen: dict[tuple[str, str], Quote] = {}
    for quote in quotes:
        seen.setdefault((quote.source, quote.version), quote)
    return list(seen.values())
