"""What the offline engine's stages share: the documents it reads, the scorer that ranks their texts,
the claims that quote them, and the guard every step checks.

A document is a changed source's body or a fragment's text, cut into passages (E1) and sentences;
every claim quotes one of them verbatim (R22) and keeps the epistemic status of what it quotes
(R37).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from wikigen.engines.text import Sentence, display, sentences, status, visible
from wikigen.errors import EngineError
from wikigen.evidence.passages import Passage, passages
from wikigen.evidence.rerank import DIGITS, Ranker

HEADLINE_CHARS = 240

T = TypeVar("T")
Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Guard:
    """Checked between steps: a cancelled or overdue stage stops with an actionable error."""

    deadline: float
    cancel: threading.Event
    stage: str

    def check(self) -> None:
        if self.cancel.is_set():
            raise EngineError(f"the offline {self.stage} stage was cancelled; nothing was published")
        if time.monotonic() > self.deadline:
            raise EngineError(
                f"the offline {self.stage} stage ran past its deadline; split the change with --batch "
                "or raise engine.deadline_s (WIKIGEN_DEADLINE)"
            )


# ---------------------------------------------------------------------------------------------
# Documents: a changed source's body or a fragment's text, cut into passages and sentences.


@dataclass(frozen=True, slots=True)
class Heading:
    start: int
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class Document:
    source: str
    title: str
    body: str
    passages: tuple[Passage, ...]
    headings: tuple[Heading, ...]
    sentences: tuple[Sentence, ...]


_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")


def read_document(source: str, title: str, body: str) -> Document:
    found = passages(body)
    cut = tuple(s for p in found for s in sentences(source, p.text, p.start, p.heading))
    return Document(source, title, body, found, _headings(body), cut)


def _headings(body: str) -> tuple[Heading, ...]:
    found: list[Heading] = []
    fenced = False
    offset = 0
    for line in body.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(line.rstrip("\r\n"))):
            text = visible(match.group(2)).text
            if text:
                found.append(Heading(offset, len(match.group(1)), text))
        offset += len(line)
    return tuple(found)


def fragment_documents(request: Mapping[str, Any]) -> list[Document]:
    """Fragments as documents; one too short for a passage (E1) is read as one passage anyway, since
    it is exactly what an object cited (R13)."""
    documents = []
    for fragment in sorted(request.get("fragments", ()), key=lambda f: (f["source"], f["lines"]["start"])):
        document = read_document(fragment["source"], fragment.get("title", ""), fragment["text"])
        if not document.sentences:
            text = fragment["text"]
            start = len(text) - len(text.lstrip())
            cut = tuple(sentences(fragment["source"], text.strip(), start))
            document = Document(document.source, document.title, text, (), (), cut)
        documents.append(document)
    return documents


# ---------------------------------------------------------------------------------------------
# Ranking: one embedding per distinct text, batched; scores as Ranker.scores computes them.


class Scorer:
    def __init__(self, ranker: Ranker) -> None:
        self._ranker = ranker
        self._vectors: dict[str, npt.NDArray[np.float32]] = {}

    def prepare(self, texts: Iterable[str]) -> None:
        """Embed the texts not seen yet in one call; by length, so that batches pad little."""
        missing = sorted({t for t in texts if t not in self._vectors}, key=lambda t: (len(t), t))
        if missing:
            for text, vector in zip(missing, self._ranker.embed(missing), strict=True):
                self._vectors[text] = vector

    def rank(
        self, query: str, items: Sequence[T], text: Callable[[T], str], offset: Callable[[T], Any]
    ) -> list[T]:
        """``items`` best first; equal (rounded) scores keep their order by offset, as Ranker.rank does."""
        self.prepare([query, *(text(item) for item in items)])
        vector = self._vectors[query]
        scored = [(round(float(self._vectors[text(item)] @ vector), DIGITS), item) for item in items]
        return [item for _, item in sorted(scored, key=lambda pair: (-pair[0], offset(pair[1])))]


# ---------------------------------------------------------------------------------------------
# Claims: a quote and the text it is shown as.


def claim(source: str, quote: str) -> Json:
    """A claim citing ``quote`` verbatim; its text is the quote's first sentence, shown as read."""
    return {
        "text": _headline(quote),
        "status": status(quote),
        "quotes": [{"source": source, "quote": quote}],
    }


def _headline(quote: str) -> str:
    """The claim's text: the quote's first sentence, shortcodes rendered, cut at a word near 240."""
    shown = display(quote)
    first = sentences("", shown)
    text = " ".join((first[0].text if first else shown).split())
    if len(text) > HEADLINE_CHARS:
        cut = text.rfind(" ", 0, HEADLINE_CHARS)
        text = text[: cut if cut > 0 else HEADLINE_CHARS] + " …"
    return text
