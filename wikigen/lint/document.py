"""A source body read once with markdown-it: its prose (fenced code left out), its headings, the
phrases its author marks (emphasis, headings, CamelCase names) with where each stands, and its links
with their lines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

# `ConfigMap`, `GenServer`, `StatefulSet`: a type's name, written as one word with inner capitals
_CAMEL = re.compile(r"(?<![\w.])[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+(?![\w(])")
_SKIPPED_BLOCKS = frozenset({"fence", "code_block", "html_block"})


@dataclass(frozen=True, slots=True)
class Link:
    target: str  # as written (reference links resolved)
    line: int  # 1-based line of the body


@dataclass(frozen=True, slots=True)
class Marking:
    """A marked phrase. ``where``: "prose"; "heading" (inside a heading); "link" (inside a link's
    text); "label" (an emphasis that opens its paragraph or list item and ends with a colon,
    "**Portable:** …"); "code" (a CamelCase word inside inline code)."""

    phrase: str  # as written
    how: str  # "heading" | "emphasis" | "name" (a CamelCase word)
    line: int  # 1-based line of the body
    where: str = "prose"


@dataclass(frozen=True, slots=True)
class Document:
    prose: str
    marked: tuple[Marking, ...]  # in order
    links: tuple[Link, ...]
    headings: tuple[str, ...] = ()  # every heading's phrase, in order


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # HTML is recognised (never rendered) so that comments and tags are neither prose nor terms.
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    return md


def read_document(body: str) -> Document:
    tokens = _parser().parse(body)
    lines = body.splitlines()
    prose: list[str] = []
    marked: list[Marking] = []
    links: list[Link] = []
    headings: list[str] = []
    heading = False
    for token in tokens:
        if token.type in _SKIPPED_BLOCKS:
            continue
        if token.type == "heading_open":
            heading = True
            continue
        if token.type != "inline":
            continue
        text = _text(token.children or [])
        prose.append(text)
        start = token.map[0] if token.map else 0
        end = token.map[1] if token.map else start + 1
        children = token.children or []
        if heading:
            marked.append(Marking(_phrase(text), "heading", start + 1, "heading"))
            headings.append(_phrase(text))
        for phrase, where in _emphasized(children):
            marked.append(Marking(_phrase(phrase), "emphasis", start + 1, "heading" if heading else where))
        for name, where in _names(children):
            marked.append(Marking(name, "name", start + 1, "heading" if heading else where))
        heading = False
        for target in _targets(children):
            links.append(Link(target, _line_of(target, lines, start, end)))
    return Document("\n".join(prose), tuple(marked), tuple(links), tuple(headings))


def _phrase(text: str) -> str:
    """A marked phrase without the punctuation that ends a label ("**Portable:**", "## Limits.")."""
    return text.strip().rstrip(":.,;!").strip()


def _text(children: list[Token]) -> str:
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def _emphasized(children: list[Token]) -> list[tuple[str, str]]:
    """The text of each outermost emphasis (``*x*``, ``**x**``, ``_x_``) and where it stands:
    "link" inside a link's text, "label" when it opens the inline text and a colon ends it or
    follows it, else "prose"."""
    found: list[tuple[str, str]] = []
    depth = 0
    links = 0
    current: list[str] = []
    before = ""  # the text written before the current emphasis opened
    opened_in_link = False
    for index, child in enumerate(children):
        if child.type == "link_open":
            links += 1
        elif child.type == "link_close":
            links -= 1
        if child.type in ("em_open", "strong_open"):
            if depth == 0:
                opened_in_link = links > 0
            depth += 1
            continue
        if child.type in ("em_close", "strong_close"):
            depth -= 1
            if depth == 0:
                phrase = "".join(current).strip()
                after = _text(children[index + 1 :]).lstrip()
                if opened_in_link or links:
                    where = "link"
                elif not before.strip() and (phrase.endswith(":") or after.startswith(":")):
                    where = "label"
                else:
                    where = "prose"
                found.append((phrase, where))
                current = []
            continue
        if child.type in ("text", "code_inline"):
            if depth:
                current.append(child.content)
            else:
                before += child.content
    return found


def _names(children: list[Token]) -> list[tuple[str, str]]:
    """The CamelCase words of the inline text and where each stands: "code", "link" or "prose"."""
    found: list[tuple[str, str]] = []
    links = 0
    for child in children:
        if child.type == "link_open":
            links += 1
        elif child.type == "link_close":
            links -= 1
        elif child.type in ("text", "code_inline"):
            where = "code" if child.type == "code_inline" else "link" if links else "prose"
            found.extend((m.group(0), where) for m in _CAMEL.finditer(child.content))
    return found


def _targets(children: list[Token]) -> list[str]:
    targets = []
    for child in children:
        if child.type == "link_open" and child.info != "auto":  # an autolink is always a URL
            targets.append(str(child.attrs.get("href") or ""))
        elif child.type == "image":
            targets.append(str(child.attrs.get("src") or ""))
    return targets


def _line_of(target: str, lines: list[str], start: int, end: int) -> int:
    """The body line (1-based) of a link in the block of lines [start, end): the first that holds it."""
    for number in range(start, min(end, len(lines))):
        if target in lines[number]:
            return number + 1
    return start + 1
