"""Where every generated page lives: its ``src_uri`` (relative to ``docs_dir``, which is ``content/``)
and the relative URL from one page to another, following MkDocs' own rules (pure).

    index.md                          home: figures of the snapshot
    categories/<category>.md          one directory per category (R2)
    concepts.md, topics.md            the concept index A–Z, the topic list
    graph/index.md, graph/graph.json  the semantic graph page and its data (V2–V4)
    wiki/{articles,concepts,topics}/<slug>.md   B and C, at the path of their compiled file
    sources/<source id>.md            a source, rendered
    sources/<source id>/raw.md        the exact body of its cited version, line-numbered
    assets/wikigen/...                the views' CSS and JS

Compiled files and source files keep the URL their own ``.md`` file would have had, so a link
written by hand to ``sources/knowledge/pods.md`` still lands on the source's page.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from urllib.parse import quote

from wikigen.hashing import short_hash
from wikigen.ids import kind_of, slugify

HOME = "index.md"
CONCEPT_INDEX = "concepts.md"
TOPIC_INDEX = "topics.md"
GRAPH_PAGE = "graph/index.md"
GRAPH_JSON = "graph/graph.json"
ASSETS = "assets/wikigen"
FOLDERS = {"article": "articles", "concept": "concepts", "topic": "topics"}
_SAFE_SEGMENT = re.compile(r"[\w\-]+(?:\.[\w\-]+)*", flags=re.UNICODE)
_INDEX_NAMES = {"index", "readme"}


def safe_segment(segment: str) -> str:
    """A path segment that is a plain name, never ``..``, hidden, or an index page in disguise."""
    if _SAFE_SEGMENT.fullmatch(segment) and segment.casefold() not in _INDEX_NAMES:
        return segment
    return f"{slugify(segment, 48)}-{short_hash(segment, 6)}"


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
    ) -> None:
        self.use_directory_urls = use_directory_urls
        self.home = home
        taken = {home, CONCEPT_INDEX, TOPIC_INDEX, GRAPH_PAGE}
        self._objects: dict[str, str] = {}
        for object_id in sorted(object_files):
            self._objects[object_id] = self._claim(
                self._object_uri(object_id, object_files[object_id]), taken
            )
        self._sources: dict[str, str] = {}
        for source_id in sorted(source_ids):
            base = self._claim(f"sources/{id_path(source_id)}.md", taken, also=("/raw.md",))
            self._sources[source_id] = base

    @staticmethod
    def _object_uri(object_id: str, file: str) -> str:
        folder = FOLDERS.get(kind_of(object_id), "objects")
        expected = f"content/wiki/{folder}/"
        name = file[len(expected) :] if file.startswith(expected) else ""
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
