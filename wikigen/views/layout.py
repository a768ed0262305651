"""Where every generated page lives: its ``src_uri`` (relative to ``docs_dir``, which is ``content/``)
and the relative URL from one page to another, following MkDocs' own rules (pure).

    index.md                          home: figures of the snapshot
    categories/<category>.md          one directory per category (R2)
    concepts.md, topics.md            the concept index A–Z, the topic list
    graph/index.md, graph/graph.json  the semantic graph page and its data (V2–V4)
    wiki/{articles,concepts,topics}/<name>.md   B and C, named by their text (never by the prefix
                                      folder their compiled file is kept in)
    sources/<source id>.md            a source, rendered
    sources/<source id>/raw.md        the exact body of its cited version, line-numbered
    assets/wikigen/...                the views' CSS and JS

Source pages keep the URL their own ``.md`` file would have had, so a link written by hand to
``sources/knowledge/pods.md`` still lands on the source's page. A compiled page's URL is made from
the text its id is made from (a concept's normalized name, the source id of a one-source article, a
topic's or synthesis' title, spaces written ``_`` as in ids) by ``escape_segment``, a reversible
escape that keeps letters, digits, ``_``, ``.`` and ``-`` as they are: ``concept/child_process-3f2a1c``
is at ``wiki/concepts/child_process/`` — no hash in a URL. Ids themselves never change (R25); only two
objects whose texts escape alike share a name, and the second (by id) gets a suffix.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from wikigen.model.hashing import short_hash
from wikigen.model.ids import kind_of, normalize_name, slugify

HOME = "index.md"
CONCEPT_INDEX = "concepts.md"
TOPIC_INDEX = "topics.md"
GRAPH_PAGE = "graph/index.md"
GRAPH_JSON = "graph/graph.json"
ASSETS = "assets/wikigen"
FOLDERS = {"article": "articles", "concept": "concepts", "topic": "topics"}
_INDEX_NAMES = {"index", "readme"}
_ESCAPED = re.compile(r"~([0-9A-F]{2})")
_MAX_SEGMENT = 120  # bytes of a file name stay far below 255 once MkDocs adds /index.html


def _kept(ch: str) -> bool:
    return ch in "_.-" or (ch.isalnum() and ch.isprintable())


def escape_segment(text: str) -> str:
    """``text`` as one readable, reversible path segment (``unescape_segment`` is its inverse).

    Letters, digits, ``_``, ``.`` and ``-`` stay; every other character (and ``~``, the escape) is
    ``~XX`` per UTF-8 byte. A leading ``.`` (``..``, hidden files) and the first letter of an index
    page's name (``index``, ``README``) are escaped too, so a segment is always a plain page name."""
    out = [ch if _kept(ch) else "".join(f"~{b:02X}" for b in ch.encode()) for ch in text]
    if out and (text.startswith(".") or text.casefold() in _INDEX_NAMES):
        out[0] = "".join(f"~{b:02X}" for b in text[0].encode())
    return "".join(out) or "~"


def unescape_segment(segment: str) -> str:
    if segment == "~":
        return ""
    data = _ESCAPED.sub(lambda m: f"\x00{m.group(1)}", segment)
    raw = bytearray()
    parts = data.split("\x00")
    raw += parts[0].encode()
    for part in parts[1:]:
        raw.append(int(part[:2], 16))
        raw += part[2:].encode()
    return raw.decode()


def safe_segment(segment: str) -> str:
    """A path segment that is a plain name, never ``..``, hidden, or an index page in disguise;
    reversible while short (a very long one is cut and given a short hash)."""
    escaped = escape_segment(segment)
    if len(escaped.encode()) <= _MAX_SEGMENT:
        return escaped
    return f"{slugify(segment, 48)}-{short_hash(segment, 6)}"


def readable_names(objects: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Object id → the text its page is named by: what the id itself is made from (R25's id
    convention), with spaces written ``_`` as ids write them, never a hash."""
    names: dict[str, str] = {}
    for oid, obj in objects.items():
        kind = kind_of(oid)
        sources = [str(s) for s in obj.get("sources", []) or []] if kind == "article" else []
        if kind == "article" and len(sources) == 1:
            text = sources[0].replace("/", "--")
        elif kind == "concept":
            text = str(obj.get("name") or "")
        elif kind in ("article", "topic"):
            text = str(obj.get("title") or "")
        else:
            continue
        text = normalize_name(text).replace(" ", "_")
        if text:
            names[oid] = text
    return names


def id_path(identifier: str) -> str:
    return "/".join(safe_segment(part) for part in identifier.split("/")) or "x"


class Layout:
    """The src_uri of every generated page, unique even when ids would collide."""

    def __init__(
        self,
        *,
        source_ids: Iterable[str],
        object_files: Mapping[str, str],
        use_directory_urls: bool = True,
        home: str = HOME,
        names: Mapping[str, str] | None = None,
    ) -> None:
        """``names``: object id → readable text its page is named by (``readable_names``); an object
        without one is named by its compiled file."""
        self.use_directory_urls = use_directory_urls
        self.home = home
        taken = {home, CONCEPT_INDEX, TOPIC_INDEX, GRAPH_PAGE}
        self._objects: dict[str, str] = {}
        for object_id in sorted(object_files):
            name = (names or {}).get(object_id)
            uri = (
                f"wiki/{FOLDERS.get(kind_of(object_id), 'objects')}/{safe_segment(name)}.md"
                if name
                else self._object_uri(object_id, object_files[object_id])
            )
            self._objects[object_id] = self._claim(uri, taken)
        self._sources: dict[str, str] = {}
        for source_id in sorted(source_ids):
            base = self._claim(f"sources/{id_path(source_id)}.md", taken, also=("/raw.md",))
            self._sources[source_id] = base

    @staticmethod
    def _object_uri(object_id: str, file: str) -> str:
        folder = FOLDERS.get(kind_of(object_id), "objects")
        expected = f"content/wiki/{folder}/"
        # The prefix folders a compiled file is kept in are never part of its URL.
        name = posixpath.basename(file) if file.startswith(expected) else ""
        if not name.endswith(".md") or "/" in name or not name[:-3]:
            name = object_id.split("/", 1)[-1].replace("/", "-") + ".md"
        return f"wiki/{folder}/{safe_segment(name[:-3])}.md"

    @staticmethod
    def _claim(uri: str, taken: set[str], also: tuple[str, ...] = ()) -> str:
        def uris(candidate: str) -> list[str]:
            return [candidate] + [candidate[:-3] + suffix for suffix in also]

        candidate = uri
        attempt = 0
        while any(u.casefold() in taken for u in uris(candidate)):
            attempt += 1
            candidate = f"{uri[:-3]}-{short_hash([uri, attempt], 6)}.md"
        taken.update(u.casefold() for u in uris(candidate))
        return candidate

    # -- where things are --------------------------------------------------------------------------

    def object(self, object_id: str) -> str | None:
        return self._objects.get(object_id)

    def source(self, source_id: str) -> str | None:
        return self._sources.get(source_id)

    def raw(self, source_id: str) -> str | None:
        page = self._sources.get(source_id)
        return None if page is None else page[:-3] + "/raw.md"

    @staticmethod
    def category(category: str) -> str:
        return f"categories/{safe_segment(category)}.md"

    @staticmethod
    def asset(name: str) -> str:
        return f"{ASSETS}/{name}"

    # -- URLs ----------------------------------------------------------------------------------------

    def url(self, src_uri: str) -> str:
        """The site-relative URL of a file, exactly as MkDocs' ``File.url`` computes it."""
        if not src_uri.endswith(".md"):
            return quote(src_uri)
        parent, name = posixpath.split(src_uri[:-3])
        if name == "README":
            name = "index"
        if not self.use_directory_urls:
            return quote(posixpath.join(parent, name + ".html"))
        path = parent if name == "index" else posixpath.join(parent, name)
        return quote(path + "/") if path else "./"

    def href(self, page: str, target: str, fragment: str = "") -> str:
        """A relative URL from the page at ``page`` to ``target`` (both src_uris)."""
        here = self.url(page)
        there = self.url(target)
        rel = relative_url(there, here)
        return rel + (f"#{quote(fragment, safe='')}" if fragment else "")


def relative_url(url: str, other: str) -> str:
    """``url`` relative to the page at ``other`` (MkDocs' ``get_relative_url``, kept pure here)."""
    dirname, _, basename = other.rpartition("/")
    if "." in basename:
        other = dirname
    other_parts = [p for p in other.split("/") if p not in ("", ".")]
    dest_parts = [p for p in url.split("/") if p not in ("", ".")]
    common = 0
    for a, b in zip(other_parts, dest_parts, strict=False):
        if a != b:
            break
        common += 1
    rel = "/".join([".."] * (len(other_parts) - common) + dest_parts[common:]) or "."
    return rel + "/" if url.endswith("/") else rel
