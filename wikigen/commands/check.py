"""`wikigen check`: parse and validate sources, no model, no network (the pre-commit entry point)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from wikigen.compiler.preflight import over_caps, to_compile
from wikigen.compiler.sizes import size_problem
from wikigen.model.errors import Problem, UsageError, WikigenError
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.model.sources import (
    CONTENT_DIR,
    Source,
    is_source_path,
    parse_source,
)
from wikigen.model.tree_problems import asset_problem, duplicate_id_problems, link_problem
from wikigen.store.unread_markdown import unread_at, unread_note
from wikigen.store.workspace import Workspace


def _link_on_disk(root: Path, rel: str) -> Problem | None:
    """The link problem of ``rel`` (under content/ or the sources folder) or of the linked folder
    above it; None if no link."""
    parts = rel.split("/")
    for end in range(1, len(parts) + 1):
        full = root.joinpath(*parts[:end])
        if full.is_symlink():
            return link_problem("/".join(parts[:end]), os.readlink(full))
    return None


def _relative(root: Path, path: Path) -> str | None:
    """``path`` relative to the repo root, without following a link on the way: a link is judged as
    the link it is, not as what it points at. None when it lies outside the repository."""
    full = Path(os.path.abspath(path if path.is_absolute() else Path.cwd() / path))
    resolved = root.resolve()
    for candidate, base in ((full, root), (full, resolved), (full.parent.resolve() / full.name, resolved)):
        try:
            return candidate.relative_to(base).as_posix()
        except ValueError:
            continue
    return None


def _named_sources(
    root: Path, files: Sequence[str], folder: str
) -> tuple[list[str], list[str], list[Problem]]:
    """The sources the files named on the command line are (a folder of sources: each .md in it), the
    assets among them, and the link problems among them; ``folder`` is the sources folder. A name
    that is no source is a UsageError naming every such name, so that `wikigen check README.md` never
    passes by checking nothing."""
    wanted: list[str] = []
    assets: list[str] = []
    problems: list[Problem] = []
    refused: list[str] = []
    for name in files:
        rel = _relative(root, Path(name))
        if rel is None:
            refused.append(f"{name} is outside the repository ({root})")
            continue
        inside = rel == folder or rel.startswith(folder + "/")
        linked = _link_on_disk(root, rel) if rel.startswith(CONTENT_DIR + "/") or inside else None
        if linked is not None:
            problems.append(linked)
        elif is_source_path(rel, folder):
            if not (root / rel).is_file():
                refused.append(f"{name} does not exist")
            wanted.append(rel)
        elif (root / rel).is_dir() and (inside or rel == "." or folder.startswith(rel + "/")):
            found = _files_under(root, rel if inside else folder)
            wanted.extend(p for p in found if is_source_path(p, folder))
            assets.extend(p for p in found if not is_source_path(p, folder))
        elif not inside:
            refused.append(f"{name} is not a source: sources are the *.md files under {folder}/")
        elif (root / rel).is_file():
            assets.append(rel)  # an asset beside the sources: no source to parse, checked as an asset (R41)
    if refused:
        raise UsageError(
            "; ".join(refused) + ". Name source files or folders under "
            f"{folder}/, or run `wikigen check` alone to check every source."
        )
    return wanted, assets, problems


def _files_under(root: Path, rel: str) -> list[str]:
    """Every file under the folder ``rel`` that is not reached through a symbolic link."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in (root / rel).rglob("*")
        if p.is_file() and _link_on_disk(root, p.relative_to(root).as_posix()) is None
    )


def _asset_problems(ws: Workspace, paths: Sequence[str]) -> list[Problem]:
    """R41: the files beside sources that the site would not publish; an ignored file is never
    committed, so it is left alone."""
    found = [problem for problem in (asset_problem(p, ws.sources_dir) for p in paths) if problem is not None]
    return [problem for problem in found if not ws.store.repo.path_is_ignored(problem.path)]


def disk_links(root: Path, folder: str) -> list[Problem]:
    """R41: every symbolic link under content/ in the work tree, ignored files included, since MkDocs
    copies whatever the docs folder holds (and follows linked folders); and under the sources
    ``folder`` where it lies outside content/."""
    problems = []
    for top in (CONTENT_DIR, *([] if folder.startswith(CONTENT_DIR + "/") else [folder])):
        linked = _link_on_disk(root, top)
        if linked is not None:
            problems.append(linked)
            continue
        for dirpath, dirnames, filenames in os.walk(root / top):  # never into a linked folder
            for name in sorted(dirnames + filenames):
                full = Path(dirpath) / name
                if full.is_symlink():
                    problems.append(link_problem(full.relative_to(root).as_posix(), os.readlink(full)))
    return problems


def _compiled_blobs(ws: Workspace) -> dict[str, str]:
    """Path → blob of every source in the tree the snapshot was compiled from: a file still at its
    blob is known to the manifest as it was, and is not measured again. Empty where that tree is not
    at hand (no snapshot, a shallow clone): every source is then looked up in the manifest."""
    if not ws.baseline.exists or ws.baseline.sources_tree == EMPTY_TREE:
        return {}
    try:
        return dict(ws.store.blobs(ws.baseline.sources_tree, ws.sources_dir))
    except WikigenError:
        return {}


def check_sources(ws: Workspace, *, staged: bool = False, files: Sequence[str] = ()) -> list[Problem]:
    """Every problem in the sources: the index with ``staged``, else the work tree (or just ``files``).
    R15: a changed source is also measured with the context the committed snapshot gives it, as
    compile measures it before its first engine call."""
    if staged:
        read = ws.read(staged=True)
        changed = to_compile(ws, [*read.parsed.values(), *read.pending_read.values()])
        with_context = over_caps(ws, changed, strict=False)
        return sorted([*read.problems, *with_context], key=lambda p: (p.path, p.line, p.message))
    root, folder = ws.root, ws.sources_dir
    if files:
        wanted, assets, problems = _named_sources(root, files, folder)
        wanted = sorted(set(wanted))
    else:
        problems = disk_links(root, folder)
        found = _files_under(root, folder) if (root / folder).is_dir() else []
        wanted = [rel for rel in found if is_source_path(rel, folder)]
        assets = [rel for rel in found if not is_source_path(rel, folder)]
    problems.extend(_asset_problems(ws, sorted(set(assets))))

    ids: list[tuple[str, str, int]] = []
    parsed: list[Source] = []  # the sources a compile may send: not at the blob the snapshot compiled
    compiled_blobs = _compiled_blobs(ws)
    for rel in wanted:
        full = root / rel
        if not full.is_file():
            continue
        data = full.read_bytes()
        result = parse_source(rel, data, EMPTY_TREE, ws.config)
        if isinstance(result, Source):
            ids.append((rel, result.id, result.id_line))
            too_large = size_problem(result, ws.config.caps)  # R5: the rule compile applies
            if too_large is not None:
                problems.append(too_large)
            elif compiled_blobs.get(rel) != ws.store.blob_id(data):
                parsed.append(result)
        else:
            problems.extend(result)
    if files:
        # Other sources are known from the committed manifest; a file checked here overrides its entry.
        checked = set(wanted)
        for known_path, entry in ws.baseline.by_path.items():
            if known_path not in checked and (root / known_path).is_file():
                ids.append((known_path, entry.id, 1))
    problems.extend(duplicate_id_problems(ids))
    # R15: measured against the snapshot at HEAD; a compiled version a shallow clone lacks leaves
    # its source measured alone (compile, which needs the history, measures it whole, and reports a
    # snapshot it cannot read)
    problems.extend(over_caps(ws, to_compile(ws, parsed), strict=False))
    return sorted(set(problems), key=lambda p: (p.path, p.line, p.message))


def unread_sentence(ws: Workspace, *, staged: bool = False) -> str:
    """The note on Markdown that lies outside the sources folder, or "" (see
    :mod:`wikigen.store.unread_markdown`)."""
    return unread_note(unread_at(ws.store, ws.head, ws.sources_dir, staged=staged), ws.sources_dir)
