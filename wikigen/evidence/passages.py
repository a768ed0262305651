"""E1: split a Markdown body into passages, the verbatim spans a citation may quote.

A passage is one leaf text block (a paragraph, also inside list items and blockquotes, or a whole
table). Its offsets come from markdown-it's line map, never from rebuilt text, so that
``body[p.start:p.end] == p.text`` always holds and a quote can be checked by slicing the source.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

MIN_CHARS = 40
MAX_LINK_SHARE = 0.5

# E1: markdown-it splits lines after turning "\r\n" and a lone "\r" into "\n" (its `normalize`
# rule), so the body's own line starts must be counted by the same three line endings.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# E1: container markers ("> ", "- ", "* ", "+ ", "1. ", "1) "), possibly nested ("> - "), at the start
# of a block's first line. A bullet must be followed by whitespace so that "*emphasis*" survives.
_CONTAINER_MARKERS = re.compile(r"(?:[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t\r\n]|$)))+")
_BARE_URL = re.compile(r"(?:https?|ftp)://[^\s<>]+|www\.[^\s<>]+")
_CONTAINERS = frozenset({"blockquote_open", "list_item_open"})
_LEAVES = {"paragraph_open": "paragraph_close", "table_open": "table_close"}

# Tables and strikethrough are GitHub-flavoured habits of real sources; linkify is left off because
# it needs an extra package, and bare URLs are measured by _BARE_URL instead.
_MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])


@dataclass(frozen=True, slots=True)
class Passage:
    """A verbatim span of a body: ``body[start:end] == text``; lines are 1-based and inclusive."""

    start: int
    end: int
    line_start: int
    line_end: int
    text: str
    heading: str


def line_starts(body: str) -> tuple[int, ...]:
    """The offset at which each line of ``body`` begins (line 1 begins at 0)."""
    return (0, *(match.end() for match in _LINE_BREAK.finditer(body)))


def lines_of_span(body: str, start: int, end: int) -> tuple[int, int]:
    """The 1-based, inclusive first and last line of ``body[start:end]``."""
    if not 0 <= start <= end <= len(body):
        raise ValueError(f"span {start}:{end} is outside a body of {len(body)} characters")
    starts = line_starts(body)
    # An empty span sits on the line of its start; otherwise the last line holds end - 1.
    return bisect_right(starts, start), bisect_right(starts, max(start, end - 1))


def passages(body: str) -> tuple[Passage, ...]:
    """The passages of ``body`` in document order (E1)."""
    tokens = _MARKDOWN.parse(body)
    starts = line_starts(body)
    found: list[Passage] = []
    heading = ""
    depth = 0  # how many blockquotes and list items enclose the current token
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type in _CONTAINERS:
            depth += 1
        elif token.type in ("blockquote_close", "list_item_close"):
            depth -= 1
        elif token.type == "heading_open":
            heading = _visible(tokens[index + 1].children or [])[0].strip()
        elif token.type in _LEAVES and token.map is not None:
            close = _closing(tokens, index, _LEAVES[token.type])
            passage = _passage(body, starts, token.map, depth > 0, heading, tokens[index:close])
            if passage is not None:
                found.append(passage)
            index = close
        index += 1
    return tuple(sorted(found, key=lambda passage: passage.start))


def _closing(tokens: Sequence[Token], index: int, closing_type: str) -> int:
    level = tokens[index].level
    for later in range(index + 1, len(tokens)):
        if tokens[later].type == closing_type and tokens[later].level == level:
            return later
    return len(tokens) - 1


def _passage(
    body: str,
    starts: tuple[int, ...],
    line_map: Sequence[int],
    contained: bool,
    heading: str,
    block: Sequence[Token],
) -> Passage | None:
    first, after_last = line_map[0], line_map[1]
    start = starts[first]
    end = starts[after_last] if after_last < len(starts) else len(body)
    if contained:
        # E1: drop the container markers of the first line only; later lines keep theirs so the
        # text stays one contiguous verbatim substring.
        marker = _CONTAINER_MARKERS.match(body, start, end)
        if marker is not None:
            start = marker.end()
    while start < end and body[start].isspace():
        start += 1
    while end > start and body[end - 1].isspace():
        end -= 1
    text = body[start:end]
    if len(text) < MIN_CHARS or _link_share(block) > MAX_LINK_SHARE:
        return None
    line_start, line_end = lines_of_span(body, start, end)
    return Passage(start, end, line_start, line_end, text, heading)


def _link_share(block: Sequence[Token]) -> float:
    """E1: link density, the share of a block's visible characters that are link text."""
    visible = linked = 0
    for token in block:
        if token.type == "inline":
            shown, in_links = _visible(token.children or [])
            visible += len(shown)
            linked += in_links
    return linked / visible if visible else 0.0


def _visible(children: Sequence[Token]) -> tuple[str, int]:
    """The text a reader sees of an inline run, and how many of its characters are link text.

    Inline links and autolinks show their label; a bare URL in plain text shows itself. All three
    count as link text, as in the usual link-density measure of boilerplate removal.
    """
    parts: list[str] = []
    linked = 0
    in_link = 0
    for child in children:
        if child.type == "link_open":
            in_link += 1
        elif child.type == "link_close":
            in_link -= 1
        elif child.type in ("text", "code_inline", "image", "softbreak", "hardbreak"):
            shown = " " if child.type.endswith("break") else child.content
            parts.append(shown)
            if in_link:
                linked += len(shown)
            elif child.type == "text":
                linked += sum(len(url) for url in _BARE_URL.findall(shown))
    return "".join(parts), linked
