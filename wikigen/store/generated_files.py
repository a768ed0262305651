"""Reads of the files the compiler writes (the snapshot's shards), counted apart from the sources."""

from __future__ import annotations

from collections.abc import Iterator

from wikigen.store.git_errors import translated
from wikigen.store.trees import TreeReader


class GeneratedFiles(TreeReader):
    """Reads of compiler-written files, mixed into :class:`wikigen.store.git.GitStore`; their bytes are
    counted in ``generated_bytes_read``."""

    generated_bytes_read: int

    def read_generated(self, tree: str, path: str) -> bytes | None:
        """A compiler-written file inside ``tree`` (a snapshot shard), counted in ``generated_bytes_read``."""
        data = self._read_path(tree, path)
        self.generated_bytes_read += len(data or b"")
        return data

    def read_generated_blob(self, blob: str) -> bytes:
        """A compiler-written blob by id, counted in ``generated_bytes_read``."""
        with translated(f"reading blob {blob}"):
            data = bytes(self.repo[blob].read_raw())
        self.generated_bytes_read += len(data)
        return data

    def generated_files(self, tree: str) -> Iterator[tuple[str, bytes]]:
        """(path, bytes) of every file below ``tree``, counted in ``generated_bytes_read``."""
        with translated("reading the snapshot's shards"):
            for path, entry in self._walk(tree, ""):
                if entry.type_str == "blob":
                    data = bytes(self.repo[entry.id].read_raw())
                    self.generated_bytes_read += len(data)
                    yield path, data
