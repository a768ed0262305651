"""Where each object's document lies in the bundle: ``concepts/<name>.md``, ``articles/<name>.md``,
``topics/<name>.md``, named by the same readable text as the object's site page (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wikigen.model.hashing import short_hash
from wikigen.model.ids import kind_of
from wikigen.views.layout import FOLDERS, readable_names, safe_segment

# File names with a meaning of their own in a bundle (OKF §3.1), and those common readers skip.
RESERVED = frozenset({"index", "log", "readme", "agents"})


def document_paths(objects: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Object id → its bundle path, for every article, concept and topic among ``objects``.

    Ids are claimed in sorted order, so the same objects get the same paths; a name already taken
    (compared case-folded, as a case-insensitive file system would) or reserved gets a short hash of
    the object's id."""
    names = readable_names(objects)
    taken: set[str] = set()
    paths: dict[str, str] = {}
    for object_id in sorted(objects):
        folder = FOLDERS.get(kind_of(object_id))
        if folder is None:
            continue
        stem = safe_segment(names.get(object_id) or object_id.split("/", 1)[-1])
        candidate, attempt = f"{folder}/{stem}.md", 0
        while candidate.casefold() in taken or (attempt == 0 and stem.casefold() in RESERVED):
            attempt += 1
            candidate = f"{folder}/{stem}-{short_hash([object_id, attempt], 6)}.md"
        taken.add(candidate.casefold())
        paths[object_id] = candidate
    return paths
