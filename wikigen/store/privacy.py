"""Which sources are private now (R39), for the read paths: search, MCP, the site and its agent files.

A compile withdraws a source that turned private; until it runs — and for any older snapshot read
with ``--at`` — the readers ask here. Private now means: named by a glob of the `private` setting in
force, marked `private: true` in its file at HEAD, or recorded private by the snapshot.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from wikigen.model.config import Config
from wikigen.model.sources import Source, is_source_path, matches_private, parse_source
from wikigen.store.git import GitStore

# A frontmatter `private` key with a value that is not plainly false: a file that fails to parse for
# another reason still keeps the privacy its author asked for.
_PRIVATE_LINE = re.compile(r"^private\s*:\s*(?P<value>.*?)\s*$", re.IGNORECASE | re.MULTILINE)
_FALSE = frozenset({"false", "no", "off", "n", ""})


def private_now(
    store: GitStore,
    config: Config,
    sources: Iterable[tuple[str, str, bool]],
    compiled_tree: str | None,
) -> frozenset[str]:
    """The ids among ``sources`` — (id, path, recorded private) of one snapshot, whose sources were
    compiled from ``compiled_tree`` — that are private at HEAD. Reads only the blobs that changed
    since ``compiled_tree``."""
    known = list(sources)
    hidden = {sid for sid, path, recorded in known if recorded or matches_private(path, sid, config.private)}
    head = store.head_commit()
    if head is None:
        return frozenset(hidden)
    folder = config.sources_dir
    tree = store.subtree(store.commit_tree(head), folder)
    if compiled_tree is None or compiled_tree == tree:
        return frozenset(hidden)
    by_path = {path: sid for sid, path, _ in known}
    for change in store.diff(compiled_tree, tree, folder):
        path, blob = change.new_path, change.new_blob
        if path is None or blob is None or not is_source_path(path, folder):
            continue
        data = store.read_blob(blob)
        parsed = parse_source(path, data, blob, config)
        if isinstance(parsed, Source):
            if parsed.private:
                hidden.add(parsed.id)
        elif path in by_path and marks_private(data):
            hidden.add(by_path[path])
    return frozenset(hidden)


def marks_private(data: bytes) -> bool:
    """Whether a source file's frontmatter has a `private` key (any case) whose value is not false."""
    text = data.decode("utf-8", errors="replace")
    if not text.lstrip("\ufeff").startswith("---"):
        return False
    head = text.split("\n---", 2)[0] if "\n---" in text else text
    return any(m.group("value").strip("'\"").casefold() not in _FALSE for m in _PRIVATE_LINE.finditer(head))
