"""Sources changed in the work tree or the index but not committed: a compile reads commits only,
so `status` and a compile with nothing to do name them."""

from __future__ import annotations

from wikigen.model.sources import is_source_path
from wikigen.store.git import GitStore


def uncommitted_sources(store: GitStore, folder: str) -> dict[str, list[str]]:
    """Source files of the sources ``folder`` changed, staged or untracked but not committed: compile
    reads commits only, so `status` and a compile with nothing to do name them."""
    found = store.uncommitted(folder)
    return {key: [p for p in paths if is_source_path(p, folder)] for key, paths in found.items()}


def uncommitted_note(found: dict[str, list[str]]) -> str:
    """One sentence naming the uncommitted sources and what to do, or "" when there are none."""
    parts = [f"{key}: {', '.join(paths)}" for key, paths in found.items() if paths]
    if not parts:
        return ""
    return (
        f"not committed, so not compiled ({'; '.join(parts)}) — compile reads commits only: "
        "`git add` and `git commit` them, then compile"
    )
