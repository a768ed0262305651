"""The communities cache (``communities.sqlite``): each concept's community and each community's
members, from the communities record stored in one tree (:mod:`wikigen.store.tree_cache`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wikigen.model.shards import decode_shard
from wikigen.model.snapshot import EMPTY_TREE
from wikigen.store.tree_cache import TreeCache, rows_for


class CommunityMirror(TreeCache):
    """The communities record stored in one tree (its folder, ``content/.wikigen/communities``): each
    concept's community and each community's members, what a local update of the partition asks of
    the parent record without reading every shard (:mod:`wikigen.compiler.communities`)."""

    SCHEMA = "1"
    FILE = "communities.sqlite"
    TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS assignment (id TEXT PRIMARY KEY, community TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS assignment_by_community ON assignment (community);
"""
    PER_RECORD = ("assignment",)

    def _records(self, blob: str | None) -> dict[str, Any]:
        try:
            return super()._records(blob)
        except (ValueError, UnicodeDecodeError):
            return {}  # an unreadable shard: its concepts start alone, as community_record.load_record says

    def _rebuild(self, tree: str) -> None:
        self.rebuilt = True
        self.db.execute("DELETE FROM assignment")
        if tree == EMPTY_TREE:
            return
        for _, data in self.store.generated_files(tree):
            self.shards_read += 1
            try:
                self._insert(decode_shard(data))
            except (ValueError, UnicodeDecodeError):
                continue

    def _insert(self, records: Mapping[str, Any]) -> None:
        rows = [(str(cid), str(name)) for cid, name in records.items()]
        self.db.executemany("INSERT OR REPLACE INTO assignment VALUES (?, ?)", rows)

    def names_of(self, concepts: Iterable[str]) -> dict[str, str]:
        """Concept → its recorded community, for those of ``concepts`` that have one."""
        rows = rows_for(self.db, "SELECT id, community FROM assignment WHERE id IN ({ids})", concepts)
        return {str(c): str(n) for c, n in rows}

    def members(self, name: str) -> list[str]:
        """The concepts recorded in community ``name``, by id."""
        rows = self.db.execute("SELECT id FROM assignment WHERE community = ? ORDER BY id", (name,))
        return [str(r[0]) for r in rows]

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM assignment").fetchone()[0])
