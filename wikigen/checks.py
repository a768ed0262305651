"""`wikigen check`: parse and validate sources, no model, no network (the pre-commit entry point)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from wikigen.context import size_problem
from wikigen.errors import Problem
from wikigen.gitstore import EMPTY_TREE
from wikigen.sources import (
    CONTENT_DIR,
    SOURCES_DIR,
    Source,
    asset_problem,
    duplicate_id_problems,
    is_source_path,
    link_problem,
    parse_source,
)
from wikigen.workspace import Workspace


def _link_on_disk(root: Path, rel: str) -> Problem | None:
    """The link problem of ``rel`` (under content/) or of the linked folder above it; None if no link."""
    parts = rel.split("/")
    for end in range(1, len(parts) + 1):
        full = root.joinpath(*parts[:end])
        if full.is_symlink():
            return link_problem("/".join(parts[:end]), os.readlink(full))
    return None


def _relative(root: Path, path: Path) -> str:
    """``path`` relative to the repo root, without following a link on the way: a link is judged as
    the link it is, not as what it points at."""
    full = Path(os.path.abspath(path if path.is_absolute() else Path.cwd() / path))
    resolved = root.resolve()
    for candidate, base in ((full, root), (full, resolved), (full.parent.resolve() / full.name, resolved)):
        try:
            return candidate.relative_to(base).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def disk_links(root: Path) -> list[Problem]:
    """Issue 15.1: every symbolic link under content/ in the work tree, ignored files included,
    since MkDocs copies whatever the docs folder holds (and follows linked folders)."""
    content = root / CONTENT_DIR
    if content.is_symlink():
        return [link_problem(CONTENT_DIR, os.readlink(content))]
    problems = []
    for dirpath, dirnames, filenames in os.walk(content):  # never into a linked folder
        for name in sorted(dirnames + filenames):
            full = Path(dirpath) / name
            if full.is_symlink():
                problems.append(link_problem(full.relative_to(root).as_posix(), os.readlink(full)))
    return problems


def _asset_problems(ws: Workspace, paths: Sequence[str]) -> list[Problem]:
    """R41: the files beside sources that the site would not publish; an ignored file is never
    committed, so it is left alone."""
    found = [problem for problem in map(asset_problem, paths) if problem is not None]
    return [problem for problem in found if not ws.store.repo.path_is_ignored(problem.path)]


def check_sources(ws: Workspace, *, staged: bool = False, files: Sequence[str] = ()) -> list[Problem]:
    """Every problem in the sources: the index with ``staged``, else the work tree (or just ``files``)."""
    if staged:
        return list(ws.read(staged=True).problems)
    root = ws.root
    wanted: list[str] = []
    problems: list[Problem] = []
    if files:
        for name in files:
            rel = _relative(root, Path(name))
            linked = _link_on_disk(root, rel) if rel.startswith(CONTENT_DIR + "/") else None
            if linked is not None:
                problems.append(linked)
            elif is_source_path(rel):
                wanted.append(rel)
            elif rel.startswith(SOURCES_DIR + "/") and (root / rel).is_file():
                problems.extend(_asset_problems(ws, [rel]))
    else:
        problems.extend(disk_links(root))
        base = root / SOURCES_DIR
        found = (
            sorted(
                p.relative_to(root).as_posix()
                for p in base.rglob("*")
                if p.is_file() and _link_on_disk(root, p.relative_to(root).as_posix()) is None
            )
            if base.is_dir()
            else []
        )
        wanted = [rel for rel in found if is_source_path(rel)]
        problems.extend(_asset_problems(ws, [rel for rel in found if not is_source_path(rel)]))

    ids: list[tuple[str, str, int]] = []
    for rel in wanted:
        full = root / rel
        if not full.is_file():
            continue
        result = parse_source(rel, full.read_bytes(), EMPTY_TREE, ws.config)
        if isinstance(result, Source):
            ids.append((rel, result.id, result.id_line))
            too_large = size_problem(result, ws.config.caps)  # the rule compile applies (issue 11, item 2)
            if too_large is not None:
                problems.append(too_large)
        else:
            problems.extend(result)
    if files:
        # Other sources are known from the committed manifest; a file checked here overrides its entry.
        checked = set(wanted)
        for known_path, entry in ws.baseline.by_path.items():
            if known_path not in checked and (root / known_path).is_file():
                ids.append((known_path, entry.id, 1))
    problems.extend(duplicate_id_problems(ids))
    return sorted(set(problems), key=lambda p: (p.path, p.line, p.message))
