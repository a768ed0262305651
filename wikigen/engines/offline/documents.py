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
from markdown_it.token import Token

from wikigen.engines.offline import markup
from wikigen.engines.offline.lexicon import DEFINING_KEYWORDS, alternation
from wikigen.engines.offline.text import Sentence, display, sentences, status, visible
from wikigen.evidence.passages import HeadingLine, Passage, block_tokens, numbered_items, outline
from wikigen.evidence.rerank import DIGITS, Ranker
from wikigen.model.errors import EngineError

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
    text: str  # what a reader sees
    markdown: str = ""  # the inline Markdown as written, as R1 takes a title from a heading


@dataclass(frozen=True, slots=True)
class Document:
    source: str
    title: str
    body: str
    passages: tuple[Passage, ...]
    headings: tuple[Heading, ...]
    sentences: tuple[Sentence, ...]
    steps: tuple[tuple[int, int], ...] = ()  # the spans of its ordered-list items
    example_names: frozenset[str] = frozenset()  # the names its code blocks define (`Size`, `main`)

    def is_step(self, sentence: Sentence) -> bool:
        """The sentence lies in an ordered-list item: one step of a procedure."""
        return any(start <= sentence.start < end for start, end in self.steps)


def read_document(source: str, title: str, body: str) -> Document:
    tokens = block_tokens(body)
    found, lines = outline(body, tokens)
    cut = tuple(s for p in found for s in sentences(source, p.text, p.start, p.heading))
    return Document(
        source, title, body, found, _headings(lines), cut, numbered_items(body, tokens), _example_names(tokens)
    )


# "defprotocol Size do", "def main(name: str):": a defining keyword, then the name it defines
_DEFINED = re.compile(r"(?<![\w.])(?:" + alternation(DEFINING_KEYWORDS) + r")[ \t]+([A-Za-z_][\w.]*[?!]?)")


def _example_names(tokens: Sequence[Token]) -> frozenset[str]:
    """The names the code blocks among ``tokens`` define: an example's own protocol, module or
    function (`Size`, `Greeter`, `main`)."""
    return frozenset(
        match.group(1)
        for token in tokens
        if token.type in ("fence", "code_block")
        for match in _DEFINED.finditer(token.content)
    )


def _headings(lines: Sequence[HeadingLine]) -> tuple[Heading, ...]:
    """The top-level headings as markdown-it parsed them (none inside code, HTML, lists or quotes)."""
    found = ((line, HEADING_ATTRIBUTES.sub("", line.text)) for line in lines)
    shown = ((line, markdown, visible(markdown).text) for line, markdown in found)
    return tuple(Heading(line.start, line.level, text, markdown) for line, markdown, text in shown if text)


# A heading's attribute block ("## Usage {#usage}", "## Learn More { #learn-more }", "#### Warning
# {: .warning}") names an anchor or a style for the renderer; the reader never sees it.
HEADING_ATTRIBUTES = re.compile(r"\s*\{\s*[:#.][^{}\n]*\}\s*$")


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

    def similarity(self, first: str, second: str) -> float:
        """The cosine of two texts' embeddings, rounded as ``rank`` rounds (the vectors are unit length)."""
        self.prepare([first, second])
        return round(float(self._vectors[first] @ self._vectors[second]), DIGITS)


# ---------------------------------------------------------------------------------------------
# Claims: a quote and the text it is shown as.


def claim(source: str, quote: str, whole: bool = False) -> Json:
    """A claim citing ``quote`` verbatim; its text is the quote's first sentence, shown as read, or with
    ``whole`` every sentence of it ("Growers sort crates by size. This is known as grading." says what
    grading is only together).

    R37: the status is that sentence's own, never its paragraph's. The quote keeps the sentences
    after it only while they share that status, so a hedge or a proposal later in the paragraph is
    neither put on this claim nor cited as stated. R22: a quote that holds doc-tool markup
    (:data:`markup.FORMS`) ends before it, so the markup falls outside the claim.
    """
    quote = _same_status_run(quote)
    text = _headline(quote, whole)
    said = _status(quote)
    if said == "stated" and _HEDGE_WORDS.search(quote):
        said = status(quote)  # R37: whatever the cut, a stated claim never cites a hedge
    return {"text": text, "status": said, "quotes": [{"source": source, "quote": quote}]}


# R37: what the compiler's validation reads as a hedge anywhere in a quote (wikigen.compiler.resolve), link
# targets included; text.status reads each of these as a hypothesis or a suggestion.
_HEDGE_WORDS = re.compile(
    r"hypothes|unconfirmed|not (?:yet )?(?:done|implemented)|suggested improvement", re.I
)
_HTML_TAG = re.compile(r"</?[a-zA-Z][\w-]*(?:\s[^<>]*)?/?>")
_BREAKING_TAG = re.compile(r"</?(?:br|p|div|li|ul|ol|tr|td|th|table|hr|h[1-6])\b", re.IGNORECASE)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)


def shown(quote: str) -> str:
    """What a reader sees of a quote (E1): shortcodes rendered, comments and inline HTML tags dropped.

    Code spans keep their text (`` `Box<T>` ``); the quote itself stays verbatim (E2), only its
    displayed text loses the tags.
    """
    displayed = display(quote)
    kept = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(displayed)]

    def drop(match: re.Match[str]) -> str:
        if any(start <= match.start() < end for start, end in kept):
            return match.group()
        return " " if _BREAKING_TAG.match(match.group()) else ""

    stripped = _HTML_TAG.sub(drop, displayed)
    return re.sub(r"[ \t]{2,}", " ", stripped).strip() or displayed


def _first_sentence(quote: str) -> str:
    text = shown(quote)
    first = sentences("", text, keep_markup=True)
    return " ".join((first[0].text if first else text).split())


def _status(quote: str) -> str:
    """R37: the status of the quote's first sentence, read as words: link targets are not language."""
    return status(visible(_first_sentence(quote)).text)


def _same_status_run(quote: str) -> str:
    """``quote`` up to the end of the leading sentences that share its first sentence's status (R37)
    and, where it holds markup, hold none, nor does the text between them (R22)."""
    cut = sentences("", quote, keep_markup=True)
    marked = markup.holds(quote, pointers=False)
    if not cut or (len(cut) < 2 and not marked):
        return quote
    first = _status(cut[0].text)
    end = cut[0].start + len(cut[0].text)
    for sentence in cut[1:]:
        following = sentence.start + len(sentence.text)
        if _status(sentence.text) != first or (marked and markup.holds(quote[end:following], pointers=False)):
            return quote[:end]
        end = following
    return quote[:end] if marked else quote


def _headline(quote: str, whole: bool = False) -> str:
    """The claim's text: the quote's first sentence as read (see :func:`shown`), cut at a word near 240
    characters a reader reads, or the whole quote as read, cut near twice that. Link targets are
    not read, so they take none of the length, and a cut never falls inside a link or a code span."""
    text = " ".join(shown(quote).split()) if whole else _first_sentence(quote)
    limit = HEADLINE_CHARS * (2 if whole else 1)
    read = visible(text).text
    if len(read) > limit:
        text = text[: _cut(text, read, limit)] + " …"
    return text


def _cut(text: str, read: str, limit: int) -> int:
    """The last space of ``text`` before which a reader reads at most ``limit`` characters, the
    start of what ``text`` reads as ``read`` (not inside "[a link"'s text or a `code span`)."""
    cut = 0
    for space in re.finditer(" ", text):
        before = visible(text[: space.start()]).text
        if len(before) > limit:
            break
        if read.startswith(before):
            cut = space.start()
    return cut or text.rfind(" ", 0, limit)
