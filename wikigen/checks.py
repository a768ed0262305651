"""`wikigen check`: parse and validate sources, no model, no network (the pre-commit entry point)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from wikigen.errors import Problem
from wikigen.gitstore import EMPTY_TREE
from wikigen.sources import SOURCES_DIR, Source, duplicate_id_problems, is_source_path, parse_source
from wikigen.workspace import Workspace


def check_sources(ws: Workspace, *, staged: bool = False, files: Sequence[str] = ()) -> list[Problem]:
    """Every problem in the sources: the index with ``staged``, else the work tree (or just ``files``)."""
    if staged:
        return list(ws.read(staged=True).problems)
    root = ws.root
    wanted: list[str] = []
    if files:
        for name in files:
            path = Path(name)
            full = path if path.is_absolute() else (Path.cwd() / path)
            try:
                rel = full.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                rel = path.as_posix()
            if is_source_path(rel):
                wanted.append(rel)
    else:
        base = root / SOURCES_DIR
        wanted = (
            sorted(p.relative_to(root).as_posix() for p in base.rglob("*.md") if p.is_file())
            if base.is_dir()
            else []
        )

    problems: list[Problem] = []
    ids: list[tuple[str, str, int]] = []
    for rel in wanted:
        full = root / rel
        if not full.is_file():
            continue
        result = parse_source(rel, full.read_bytes(), EMPTY_TREE, ws.config)
        if isinstance(result, Source):
            ids.append((rel, result.id, result.id_line))
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
