"""After a compile: an existing search index is brought to the new snapshot (E6), so that the first
`wikigen search` after a compile embeds nothing. O(change): only the passages of the sources whose
body changed are embedded (see :meth:`wikigen.search.index.Index.sync`).

A repository that was never searched has no index and gets none: on a docs corpus embedding every
passage costs more than the compile itself, and a user who never searches should not pay it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from wikigen.search.index import Encoder, SyncReport, index_path
from wikigen.search.ranking import Searcher
from wikigen.store.git import GitStore


def refresh_index(
    root: Path | str, *, progress: Callable[[str], None] | None = None, ranker: Encoder | None = None
) -> SyncReport | None:
    """Bring the search index of the repo at ``root`` to the snapshot at HEAD; None when the repo has
    no index (nothing is built). ``ranker`` replaces the shared ranking model (tests count with it)."""
    if not index_path(GitStore(root)).is_file():
        return None
    searcher = Searcher(root, progress=progress, ranker=ranker)  # type: ignore[arg-type]
    try:
        searcher.at()
        return searcher.last_sync
    finally:
        searcher.index.close()
