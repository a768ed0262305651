"""A source body read once with markdown-it: its prose (fenced code left out), the phrases its
author marks as terms (emphasis, short headings, CamelCase names), and its links with their lines."""

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
    phrase: str  # as written
    how: str  # "heading" | "emphasis" | "name" (a CamelCase word)
    line: int  # 1-based line of the body


@dataclass(frozen=True, slots=True)
class Document:
    prose: str
    marked: tuple[Marking, ...]  # in order
    links: tuple[Link, ...]


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
        if heading:
            marked.append(Marking(_phrase(text), "heading", start + 1))
            heading = False
        marked.extend(Marking(_phrase(m), "emphasis", start + 1) for m in _emphasized(token.children or []))
        marked.extend(Marking(m.group(0), "name", start + 1) for m in _CAMEL.finditer(text))
        for target in _targets(token.children or []):
            links.append(Link(target, _line_of(target, lines, start, end)))
    return Document("\n".join(prose), tuple(marked), tuple(links))


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


def _emphasized(children: list[Token]) -> list[str]:
    """The text of each outermost emphasis (``*x*``, ``**x**``, ``_x_``)."""
    found: list[str] = []
    depth = 0
    current: list[str] = []
    for child in children:
        if child.type in ("em_open", "strong_open"):
            depth += 1
            continue
        if child.type in ("em_close", "strong_close"):
            depth -= 1
            if depth == 0:
                found.append("".join(current).strip())
                current = []
            continue
        if depth and child.type in ("text", "code_inline"):
            current.append(child.content)
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
