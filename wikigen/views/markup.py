"""HTML building blocks of the views (pure): escaping, safe Markdown, the raw view, UTF-16 offsets.

Every piece of text that comes from a source or a compiled object goes through ``esc`` or through
markdown-it with raw HTML disabled, so a ``<script>`` in a source is shown, never run, and only
http(s), mailto and relative links become live links (never ``javascript:``).
"""

from __future__ import annotations

import html
import posixpath
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

_NON_WORD = re.compile(r"[^\w]+", flags=re.UNICODE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the compiler's own line rule (evidence.passages)
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_SAFE_DATA_IMAGE = re.compile(r"^data:image/(?:gif|png|jpeg|webp);", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def esc(text: object) -> str:
    """Text → HTML text or attribute value."""
    return html.escape(str(text), quote=True)


def utf16_offsets(text: str) -> Callable[[int], int]:
    """A function turning a code-point offset into ``text`` into a UTF-16 offset (what browsers count).

    Each astral character (above U+FFFF, such as most emoji) is one code point but two UTF-16 units.
    """
    astral = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]

    def convert(index: int) -> int:
        return index + bisect_left(astral, index)

    return convert


def line_starts(body: str) -> list[int]:
    return [0, *(m.end() for m in _LINE_BREAK.finditer(body))]


def link_kind(url: str) -> str:
    """``"relative"``, ``"external"`` (http, https, mailto, //host), ``"root"`` (/path), ``"anchor"``
    (#frag) or ``"unsafe"`` (javascript:, data:, vbscript:, file: and any other scheme)."""
    cleaned = _CONTROL.sub("", url).strip()
    if cleaned.startswith("#"):
        return "anchor"
    if cleaned.startswith("//"):
        return "external"
    match = _SCHEME.match(cleaned)
    if match:
        return "external" if match.group(1).lower() in _SAFE_SCHEMES else "unsafe"
    if cleaned.startswith("/"):
        return "root"
    return "relative"


@dataclass(frozen=True, slots=True)
class LinkContext:
    """How a source's relative links resolve: ``base`` is the folder of the source file (relative to
    ``docs_dir``); ``resolve(path, fragment)`` gives the URL from the page for a docs path, or None."""

    base: str
    resolve: Callable[[str, str], str | None]


def _md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    return md


_MARKDOWN = _md()


def render_markdown(text: str, links: LinkContext | None = None, *, shift_headings: int = 1) -> str:
    """A source body → safe HTML: raw HTML escaped, unsafe links made text, images from other hosts
    made links (so that a page never loads anything from another host), headings shifted down."""
    tokens = _MARKDOWN.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close") and shift_headings:
            level = min(6, int(token.tag[1]) + shift_headings)
            token.tag = f"h{level}"
        if token.children:
            token.children = _safe_inline(token.children, links)
    return str(_MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {}))


def link_references(body: str) -> Mapping[str, Any]:
    """The link reference definitions of a source body (``[label]: url``), for its quotes' links."""
    env: dict[str, Any] = {}
    _MARKDOWN.parse(body, env)
    return MappingProxyType(dict(env.get("references") or {}))


def render_inline(
    text: str, links: LinkContext | None = None, references: Mapping[str, Any] | None = None
) -> str:
    """A claim, definition or quote → safe inline HTML: code spans, emphasis and links rendered,
    reference links resolved from ``references`` (the cited source's own definitions) or left as
    text, raw HTML escaped, unsafe links made text. Never a block: ``# x`` or ``- x`` stay text."""
    env: dict[str, Any] = {"references": dict(references or {})}
    tokens = _MARKDOWN.parseInline(text, env)
    for token in tokens:
        if token.children:
            token.children = _safe_inline(token.children, links)
    return str(_MARKDOWN.renderer.render(tokens, _MARKDOWN.options, env)).strip("\n")


def line_range(lines: Mapping[str, Any]) -> str:
    """``line 106`` or ``lines 106–110`` for a citation's body lines."""
    start, end = lines.get("start", "?"), lines.get("end", "?")
    return f"line {start}" if start == end else f"lines {start}–{end}"


def _resolve(url: str, links: LinkContext | None) -> str | None:
    kind = link_kind(url)
    if kind == "unsafe":
        return None
    if kind != "relative" or links is None:
        return url
    parts = urlsplit(url)
    if parts.query:
        return url
    target = posixpath.normpath(posixpath.join(links.base, unquote(parts.path))) if parts.path else ""
    if target.startswith("../") or target == "..":
        return url  # outside docs_dir: leave it as written (it resolves nowhere on the site)
    resolved = links.resolve(target, parts.fragment)
    return url if resolved is None else resolved


def _safe_inline(children: Sequence[Token], links: LinkContext | None) -> list[Token]:
    out: list[Token] = []
    dropped_link = 0  # nesting depth of link_open tokens we removed
    for token in children:
        if token.type == "link_open":
            href = str(token.attrGet("href") or "")
            resolved = _resolve(href, links)
            if resolved is None or dropped_link:
                dropped_link += 1
                continue
            token.attrSet("href", resolved)
            if link_kind(href) == "external":
                token.attrSet("rel", "noopener noreferrer nofollow")
        elif token.type == "link_close" and dropped_link:
            dropped_link -= 1
            continue
        elif token.type == "image":
            src = str(token.attrGet("src") or "")
            kind = link_kind(src)
            if kind == "unsafe" and not _SAFE_DATA_IMAGE.match(src):
                out.append(_text(f"[image: {token.content}]"))
                continue
            if kind in ("external", "root"):
                # Offline guarantee: the page itself never fetches from another host.
                out.extend(_link_tokens(src, f"[image: {token.content or src}]"))
                continue
            token.attrSet("src", _resolve(src, links) or src)
        out.append(token)
    return out


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _link_tokens(href: str, label: str) -> list[Token]:
    opening = Token("link_open", "a", 1)
    opening.attrSet("href", href)
    opening.attrSet("rel", "noopener noreferrer nofollow")
    return [opening, _text(label), Token("link_close", "a", -1)]


# -- the raw view ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Anchor:
    """An anchor on a cited span: ``body[start:end]`` in code points; ``name`` is the element id."""

    name: str
    start: int
    end: int
    citation_id: str


def raw_view(body: str, anchors: Iterable[Anchor]) -> str:
    """The body, byte for byte, as line-numbered HTML with an empty ``<a id>`` at each cited span.

    The text content of the ``<code>`` element equals ``body`` exactly (line numbers are CSS
    counters, anchors are empty), and each anchor carries its span in UTF-16 units for the browser.
    """
    to16 = utf16_offsets(body)
    starts = line_starts(body)
    by_offset: dict[int, list[Anchor]] = {}
    for anchor in sorted(anchors, key=lambda a: (a.start, a.end, a.name)):
        by_offset.setdefault(anchor.start, []).append(anchor)
    out = ['<pre class="wikigen-raw" data-search-exclude><code class="wikigen-raw__body">']
    for number, start in enumerate(starts, start=1):
        end = starts[number] if number < len(starts) else len(body)
        if start == end and number > 1 and start not in by_offset:
            continue  # the empty line after a final line break
        out.append(f'<span class="wikigen-raw__line" id="L{number}" data-line="{number}">')
        cursor = start
        last = number == len(starts)
        for offset in sorted(o for o in by_offset if start <= o < end or (last and o == end)):
            out.append(_raw_text(body[cursor:offset]))
            for anchor in by_offset[offset]:
                out.append(
                    f'<a class="wikigen-raw__anchor" id="{esc(anchor.name)}" '
                    f'data-citation-id="{esc(anchor.citation_id)}" '
                    f'data-start="{to16(anchor.start)}" data-end="{to16(anchor.end)}" '
                    f'data-cp-start="{anchor.start}" data-cp-end="{anchor.end}"></a>'
                )
            cursor = offset
        out.append(_raw_text(body[cursor:end]))
        out.append("</span>")
    out.append("</code></pre>")
    return "".join(out)


def _raw_text(text: str) -> str:
    # The HTML parser turns a literal CR (and CRLF) into LF; a character reference keeps it exact.
    return html.escape(text, quote=False).replace("\r", "&#13;")


# -- pages ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Page:
    """One generated page: its place, its plain-text title, its HTML content and table of contents."""

    src_uri: str
    title: str
    html: str
    toc: tuple[tuple[int, str, str], ...] = ()  # (level, anchor id, text)
    meta: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class PageSpec:
    """A page before it is written: what the navigation and the page's stub need (its place, title and
    meta) and how to write it. The site writes each page only when MkDocs renders it, so a build holds
    one page's HTML at a time instead of the whole site's. ``make()`` returns a page with this place,
    title and meta."""

    src_uri: str
    title: str
    make: Callable[[], Page]
    meta: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


class Doc:
    """A page being written: HTML parts plus the headings for its table of contents."""

    def __init__(self, src_uri: str) -> None:
        self.src_uri = src_uri
        self.parts: list[str] = []
        self.toc: list[tuple[int, str, str]] = []
        self._ids: set[str] = set()

    def add(self, *html: str) -> None:
        self.parts.extend(h for h in html if h)

    def heading(self, level: int, text: str, anchor: str | None = None) -> None:
        base = anchor or _NON_WORD.sub("-", text.casefold()).strip("-") or "section"
        name, n = base, 1
        while name in self._ids:
            n += 1
            name = f"{base}-{n}"
        self._ids.add(name)
        if level > 1:
            self.toc.append((level, name, text))
        self.parts.append(f'<h{level} id="{esc(name)}">{esc(text)}</h{level}>')

    def page(self, title: str, **meta: Any) -> Page:
        return Page(self.src_uri, title, "\n".join(self.parts), tuple(self.toc), MappingProxyType(meta))
