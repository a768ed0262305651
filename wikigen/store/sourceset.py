"""Git tree + baseline manifest → the current sources (the I/O edge of planning).

R7: an identical tree id reads no blob; otherwise the tree diff names the changed paths and only
those blobs are read. Unchanged sources are known from the manifest alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from wikigen.compiler.sizes import size_problem
from wikigen.model.config import Config
from wikigen.model.errors import Problem
from wikigen.model.hashing import sha256_hex
from wikigen.model.snapshot import EMPTY_TREE, ManifestEntry, Snapshot
from wikigen.model.sources import (
    Source,
    SourceSet,
    is_source_path,
    parse_source,
)
from wikigen.model.tree_problems import asset_problem, duplicate_id_problems, link_problem
from wikigen.store.git import GitStore


def read_sources(
    store: GitStore,
    baseline: Snapshot,
    tree: str,
    config: Config,
    *,
    include_deferred: bool = False,
    parsed_cache: dict[tuple[str, str], Source | list[Problem]] | None = None,
    links: Sequence[tuple[str, str]] | None = None,
    every: bool = False,
) -> SourceSet:
    """Read the sources of ``tree`` (the id of the sources folder, ``config.sources_dir``) against
    ``baseline``.

    ``links`` are the (path, target) symbolic links under content/ and the sources folder
    (``GitStore.links``); by default those under the sources folder. Each is a problem (R41) and none
    is parsed as a source.
    ``every`` reads every source, as for a legacy snapshot (R39: the `private` setting changed).
    """
    before = store.blobs_read
    folder = config.sources_dir
    parsed: dict[str, Source] = {}
    if links is None:
        links = store.links(tree, folder)
    problems: list[Problem] = [link_problem(path, target) for path, target in links]
    linked = {path for path, _ in links}
    renames: list[tuple[str, str]] = []

    def read(path: str, blob: str) -> None:
        if path in linked:
            return  # its blob is the link's target text, not a source
        if not is_source_path(path, folder):
            refused = asset_problem(path, folder)  # R41: an asset the site would not publish
            if refused is not None:
                problems.append(refused)
            return
        # A --batch run plans again after every increment: a blob already parsed is not read twice.
        result = parsed_cache.get((path, blob)) if parsed_cache is not None else None
        if result is None:
            result = parse_source(path, store.read_blob(blob), blob, config)
            too_large = size_problem(result, config.caps) if isinstance(result, Source) else None
            if too_large is not None:
                result = [too_large]  # R5: the rule check applies, measured once per blob
            if parsed_cache is not None:
                parsed_cache[(path, blob)] = result
        if isinstance(result, Source):
            parsed[path] = result
        else:
            problems.extend(result)

    if every or baseline.legacy is not None or not baseline.exists:
        # R10: a legacy snapshot has no manifest to trust, so every source is read once.
        known: dict[str, ManifestEntry] = {}
        for path, blob in sorted(store.blobs(tree, folder)):
            read(path, blob)
    else:
        known = dict(baseline.by_path)
        for change in store.diff(baseline.sources_tree, tree, folder):
            if change.old_path is not None:
                known.pop(change.old_path, None)
            if change.status == "renamed" and change.old_path and change.new_path:
                renames.append((change.old_path, change.new_path))
            if change.new_path is not None and change.new_blob is not None:
                known.pop(change.new_path, None)
                read(change.new_path, change.new_blob)

    pending_read: dict[str, Source] = {}
    if include_deferred or any(s.category == "tasks" for s in parsed.values()):
        # Deferred versions (R4) and waiting subtasks (R36) may compile now: read only those blobs.
        for path, entry in known.items():
            pending = entry.pending
            if pending is None:
                continue
            if not include_deferred and pending.reason != "subtask":
                continue
            result = parse_source(path, store.read_blob(pending.blob), pending.blob, config)
            too_large = size_problem(result, config.caps) if isinstance(result, Source) else None
            if too_large is not None:
                problems.append(too_large)
            elif isinstance(result, Source):
                pending_read[result.id] = result
            else:
                problems.extend(result)

    ids = [(s.path, s.id, s.id_line) for s in parsed.values()]
    ids += [(path, entry.id, 1) for path, entry in known.items()]
    problems.extend(duplicate_id_problems(ids))
    return SourceSet(
        tree=tree,
        parsed=MappingProxyType(parsed),
        known=MappingProxyType(known),
        pending_read=MappingProxyType(pending_read),
        problems=tuple(sorted(problems, key=lambda p: (p.path, p.line, p.message))),
        blobs_read=store.blobs_read - before,
        renames=tuple(renames),
    )


def read_recorded(
    store: GitStore, config: Config, path: str, blob: str | None, content_hash: str | None
) -> tuple[Source | None, str]:
    """The source at a blob the manifest recorded, its body checked against the recorded hash (E5, R13).

    Returns ``(source, "")``, or ``(None, why)`` when the blob is missing, no longer parses, or holds
    another body. With ``content_hash`` None (a version never compiled) the body is not checked.
    """
    if blob is None or blob == EMPTY_TREE or not store.has_object(blob):
        return None, f"the blob {blob} of this version is not in the repository"
    parsed = parse_source(path, store.read_blob(blob), blob, config)
    if not isinstance(parsed, Source):
        return None, f"blob {blob} no longer parses as a source"
    if content_hash is not None and sha256_hex(parsed.body) != content_hash:
        return None, f"blob {blob} does not hold the body whose hash the manifest records"
    return parsed, ""
