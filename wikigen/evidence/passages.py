"""E1: split a Markdown body into passages, the verbatim spans a citation may quote.

A passage is one leaf text block (a paragraph, also inside list items and blockquotes, or a whole
table). Its offsets come from markdown-it's line map, never from rebuilt text, so that
``body[p.start:p.end] == p.text`` always holds and a quote can be checked by slicing the source.

Markup is not prose (E1): raw HTML blocks, code blocks and reference-link definitions are not leaf
text blocks at all; a paragraph whose every visible character sits inside inline HTML, an image or
a Hugo shortcode (an anchor ``<a id="x"></a>``, a ``<span class="caption">``, an image, a figure) is
dropped, and so are image captions, and lists and tables whose text is mostly links. Leading
anchors and images and trailing reference definitions are trimmed off a passage's span, which stays
verbatim. A passage is one block: it never crosses a block boundary.
"""

from __future__ import annotations

import functools
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
_LISTS = {"bullet_list_open": "bullet_list_close", "ordered_list_open": "ordered_list_close"}
# E1: markup that may open a paragraph without being prose: an empty element (an anchor), a void or
# self-closing tag, an HTML comment or an image; each is trimmed off the start of a passage's span.
_LEADING_MARKUP = re.compile(
    r"(?:<(?P<tag>[a-zA-Z][\w-]*)\b[^<>]*>\s*</(?P=tag)\s*>"
    r"|<[a-zA-Z][\w-]*\b[^<>]*/>|<(?:br|hr|img|wbr)\b[^<>]*>|<!--.*?-->"
    r"|!\[[^\]]*\]\([^)]*\))\s*",
    re.DOTALL,
)
# E1: a reference-link definition ("[x]: https://…") that a paragraph swallowed (it cannot interrupt one).
_REFERENCE_LINE = re.compile(r"\n[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+[^\n]*$")
# E6: a paragraph that is one code span and nothing else, as tldr pages write a command line.
_CODE_SPAN_ONLY = re.compile(r"^(`+)(?:(?!\1).)+\1$", re.DOTALL)
_SHORTCODE = re.compile(r"\{\{[<%].*?[>%]\}\}", re.DOTALL)
_VOID_TAGS = frozenset(
    {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
_TAG_NAME = re.compile(r"<(/?)([a-zA-Z][\w-]*)")
_FIGURE = re.compile(r"\{\{[<%]\s*(?:figure|img|image)\b", re.IGNORECASE)
_CAPTION = re.compile(r"(?:fig(?:ure)?\.?|image|diagram|source)\s*\d*\s*[:.]", re.IGNORECASE)

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


@functools.lru_cache(maxsize=64)
def line_starts(body: str) -> tuple[int, ...]:
    """The offset at which each line of ``body`` begins (line 1 begins at 0); kept for the last
    bodies asked about, since every passage and citation of a body asks again."""
    return (0, *(match.end() for match in _LINE_BREAK.finditer(body)))


def lines_of_span(body: str, start: int, end: int) -> tuple[int, int]:
    """The 1-based, inclusive first and last line of ``body[start:end]``."""
    if not 0 <= start <= end <= len(body):
        raise ValueError(f"span {start}:{end} is outside a body of {len(body)} characters")
    starts = line_starts(body)
    # An empty span sits on the line of its start; otherwise the last line holds end - 1.
    return bisect_right(starts, start), bisect_right(starts, max(start, end - 1))


@dataclass(frozen=True, slots=True)
class HeadingLine:
    """A heading outside lists and blockquotes: where its line starts, its level, its inline Markdown."""

    start: int
    level: int
    text: str


def passages(body: str) -> tuple[Passage, ...]:
    """The passages of ``body`` in document order (E1)."""
    return outline(body)[0]


def outline(body: str, tokens: Sequence[Token] | None = None) -> tuple[tuple[Passage, ...], tuple[HeadingLine, ...]]:
    """The passages of ``body`` (E1) and its top-level headings, both in document order, from one parse
    (``tokens``, when the caller parsed ``body`` already)."""
    tokens = _MARKDOWN.parse(body) if tokens is None else tokens
    starts = line_starts(body)
    found: list[Passage] = []
    headings: list[HeadingLine] = []
    heading = ""
    depth = 0  # how many blockquotes and list items enclose the current token
    after_image = False  # E1: the previous block was an image or figure, so a caption may follow
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type in _CONTAINERS:
            depth += 1
        elif token.type in ("blockquote_close", "list_item_close"):
            depth -= 1
        elif token.type == "heading_open":
            inline = tokens[index + 1]
            heading = _visible(inline.children or [])[0].strip()
            if depth == 0 and token.map is not None and inline.content.strip():
                headings.append(HeadingLine(starts[token.map[0]], int(token.tag[1:]), inline.content.strip()))
            after_image = False
        elif token.type in _LISTS and _link_share(
            tokens[index : _closing(tokens, index, _LISTS[token.type])]
        ) > (MAX_LINK_SHARE):
            index = _closing(tokens, index, _LISTS[token.type])  # E1: a list of links is navigation
        elif token.type == "html_block":
            after_image = bool(re.search(r"<(?:img|figure|picture|svg)\b", token.content, re.IGNORECASE))
        elif token.type in _LEAVES and token.map is not None:
            close = _closing(tokens, index, _LEAVES[token.type])
            block = tokens[index:close]
            kind = _markup(block, after_image)
            after_image = kind == "image"
            if kind is None:
                passage = _passage(body, starts, token.map, depth > 0, heading, block)
                if passage is not None:
                    found.append(passage)
            index = close
        elif token.type in ("fence", "code_block", "hr"):
            after_image = False
        index += 1
    return tuple(sorted(found, key=lambda passage: passage.start)), tuple(headings)


def block_tokens(body: str) -> list[Token]:
    """``body`` parsed once, for :func:`outline` and :func:`numbered_items` to share."""
    return _MARKDOWN.parse(body)


def numbered_items(body: str, tokens: Sequence[Token] | None = None) -> tuple[tuple[int, int], ...]:
    """The spans of ``body``'s ordered-list items, nested lists included ("1. The kubelet tells the
    API server to remove the `Pod` resource."): the steps of a procedure, in document order; from
    ``tokens`` when the caller parsed ``body`` already."""
    starts = line_starts(body)
    return tuple(
        (starts[token.map[0]], starts[token.map[1]] if token.map[1] < len(starts) else len(body))
        for token in (_MARKDOWN.parse(body) if tokens is None else tokens)
        if token.type == "list_item_open" and token.markup in (".", ")") and token.map is not None
    )


def search_passages(body: str) -> tuple[Passage, ...]:
    """The passages search indexes (E6): those of E1, with each code block joined to the paragraph that
    introduces it, so that "how do I install it" finds the command under "To install it, run:".

    A code block is a fenced or indented block, or a paragraph that is one code span (a tldr page's
    command line). It takes in the paragraph right before it when only blank space lies between,
    however short that paragraph is, and a block right after it joins too; a block with nothing
    before it is a passage of its own under its heading, if it has ``MIN_CHARS``. Claims never quote
    a code block (:func:`passages` holds none); each span is still verbatim:
    ``body[p.start:p.end] == p.text``.
    """
    tokens = _MARKDOWN.parse(body)
    prose = [(p, False, False) for p in outline(body, tokens)[0] if not _CODE_SPAN_ONLY.match(p.text)]
    joined: list[Passage | None] = []
    units = sorted(prose + _code_blocks(body, tokens), key=lambda unit: (unit[0].start, unit[1]))
    for passage, code, introduced in units:
        before = joined[-1] if joined else None
        if code and before is not None and (
            passage.start <= before.start  # the paragraph it takes in is the passage before
            or (not introduced and _adjacent(body, before.end, passage.start))
        ):
            start, end = min(before.start, passage.start), max(before.end, passage.end)
            joined[-1] = Passage(start, end, *lines_of_span(body, start, end), body[start:end], before.heading)
        else:
            joined.append(passage if not code or introduced or len(passage.text) >= MIN_CHARS else None)
    return tuple(p for p in joined if p is not None)


def _code_blocks(body: str, tokens: Sequence[Token]) -> list[tuple[Passage, bool, bool]]:
    """The code blocks of ``body`` that hold any text (see :func:`search_passages`), each as a verbatim
    span from the start of the paragraph that introduces it (container markers left out), under its
    heading; with True (a code block) and whether a paragraph introduces it."""
    starts = line_starts(body)
    found = []
    heading = ""
    intro: int | None = None  # where the paragraph right before this block starts
    after = 0  # where the last block ended
    for index, token in enumerate(tokens):
        if token.map is None or token.nesting == -1 or token.type == "inline":
            continue
        start, end = _block_span(body, starts, token.map)
        if token.type == "heading_open":
            heading = _visible(tokens[index + 1].children or [])[0].strip()
            intro = None
        elif token.type == "paragraph_open" and _CODE_SPAN_ONLY.match(tokens[index + 1].content.strip()):
            found.append(_code_passage(body, start, end, intro, after, heading))
        elif token.type == "paragraph_open":
            intro = start
        elif token.type in ("fence", "code_block") and token.content.strip():
            found.append(_code_passage(body, start, end, intro, after, heading))
        elif token.type not in _CONTAINERS and token.type not in _LISTS:
            intro = None
        after = end if token.type in ("paragraph_open", "fence", "code_block") else after
    return found


def _block_span(body: str, starts: tuple[int, ...], line_map: Sequence[int], *, markers: bool = True) -> tuple[int, int]:
    """The span of a block's lines, whitespace trimmed; with ``markers``, the container markers of its
    first line dropped too (E1: later lines keep theirs, so the text stays one verbatim substring)."""
    start = starts[line_map[0]]
    end = starts[line_map[1]] if line_map[1] < len(starts) else len(body)
    marker = _CONTAINER_MARKERS.match(body, start, end) if markers else None
    start = marker.end() if marker is not None else start
    while start < end and body[start].isspace():
        start += 1
    while end > start and body[end - 1].isspace():
        end -= 1
    return start, end


def _adjacent(body: str, end: int, start: int) -> bool:
    """Only blank lines (and blockquote markers) lie between ``end`` and ``start``."""
    return not body[end:start].strip(" \t\r\n>")


def _code_passage(
    body: str, start: int, end: int, intro: int | None, after: int, heading: str
) -> tuple[Passage, bool, bool]:
    introduced = intro is not None and _adjacent(body, after, start)
    if introduced and intro is not None:
        start = intro
    return Passage(start, end, *lines_of_span(body, start, end), body[start:end], heading), True, introduced


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
    start, end = _block_span(body, starts, line_map, markers=contained)
    # E1: anchors and images before the prose, and reference definitions after it, are markup.
    while (lead := _LEADING_MARKUP.match(body, start, end)) is not None and lead.end() > start:
        start = lead.end()
    while (reference := _REFERENCE_LINE.search(body, start, end)) is not None:
        end = reference.start()
        while end > start and body[end - 1].isspace():
            end -= 1
    text = body[start:end]
    if len(text) < MIN_CHARS or _link_share(block) > MAX_LINK_SHARE:
        return None
    line_start, line_end = lines_of_span(body, start, end)
    return Passage(start, end, line_start, line_end, text, heading)


def _markup(block: Sequence[Token], after_image: bool) -> str | None:
    """E1: why a leaf block is markup rather than prose ("image", "html", "caption"), or None for prose.

    Prose is the text a reader sees outside inline HTML elements, images and Hugo shortcodes. A
    paragraph with none (an anchor, a caption ``<span>``, an image, a figure shortcode) is markup; so
    is a caption: emphasized-only text next to an image, or text that follows an image and opens with
    "Figure 2:".
    """
    prose: list[str] = []
    emphasized: list[str] = []
    images = 0
    html_depth = 0
    emphasis = 0
    figure = False
    outside_shortcodes = ""  # a shortcode's arguments are never prose, emphasized or not
    for token in block:
        if token.type != "inline":
            continue
        figure = figure or _FIGURE.search(token.content) is not None
        outside_shortcodes += _SHORTCODE.sub(" ", token.content)
        for child in token.children or []:
            if child.type == "html_inline":
                html_depth = max(0, html_depth + _tag_depth(child.content))
            elif child.type == "image":
                images += 1
            elif child.type in ("em_open", "strong_open"):
                emphasis += 1
            elif child.type in ("em_close", "strong_close"):
                emphasis -= 1
            elif child.type in ("text", "code_inline", "softbreak", "hardbreak") and html_depth == 0:
                shown = " " if child.type.endswith("break") else child.content
                (emphasized if emphasis > 0 else prose).append(shown)
    plain = _SHORTCODE.sub(" ", "".join(prose))
    marked = _SHORTCODE.sub(" ", "".join(emphasized))
    if not re.search(r"\w", plain + marked) or not re.search(r"\w", outside_shortcodes):
        return "image" if images or figure else "html"
    if (images or after_image) and not re.search(r"\w", plain):
        return "caption"
    if (images or after_image) and _CAPTION.match(plain.lstrip() or marked.lstrip()):
        return "caption"
    return None


def _tag_depth(tag: str) -> int:
    """+1 for an opening tag, -1 for a closing one, 0 for a void, self-closing tag or a comment."""
    match = _TAG_NAME.match(tag)
    if match is None or tag.rstrip().endswith("/>") or match.group(2).casefold() in _VOID_TAGS:
        return 0
    return -1 if match.group(1) else 1


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
