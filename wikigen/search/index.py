"""The search index (E6): the passages of every compiled source (E1, each code block joined to the
paragraph that introduces it) and the compiled objects of one snapshot, in SQLite under
``.git/wikigen/search.sqlite``.

It lives outside the snapshot and is rebuilt from git alone. It follows the snapshot in O(change):
passages are segmented and embedded once per body hash, a source whose version changed re-indexes
only its own passages, a withdrawn one leaves the index, and an object is re-read only when its
``sha`` in the object index changed. It records the snapshot it reflects, and a query for any other
snapshot first brings it there (it never answers for a snapshot it was not built for).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from wikigen.evidence.passages import search_passages
from wikigen.model.config import Config, load_config
from wikigen.model.errors import SnapshotError, environmental
from wikigen.model.hashing import sha256_hex
from wikigen.model.ids import normalize_name
from wikigen.model.objects import label_of, object_citations, parse_object, relation_lines
from wikigen.search.snapshots import At
from wikigen.store.git import GitStore
from wikigen.store.sourceset import read_recorded

SCHEMA = 3
INDEX_FILE = "wikigen/search.sqlite"  # below the git dir

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (
  id TEXT PRIMARY KEY, version TEXT NOT NULL, content_hash TEXT NOT NULL, blob TEXT NOT NULL,
  path TEXT NOT NULL, title TEXT NOT NULL, category TEXT NOT NULL, private INTEGER NOT NULL,
  title_vector BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS sources_by_body ON sources (content_hash);
CREATE TABLE IF NOT EXISTS passages (
  rowid INTEGER PRIMARY KEY, content_hash TEXT NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
  line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL,
  tokens INTEGER NOT NULL, vector BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS passages_by_body ON passages (content_hash);
CREATE VIRTUAL TABLE IF NOT EXISTS passage_text USING fts5(text, heading, tokenize='porter unicode61');
CREATE VIRTUAL TABLE IF NOT EXISTS source_titles USING fts5(id UNINDEXED, title, tokenize='porter unicode61');
CREATE TABLE IF NOT EXISTS objects (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, label TEXT NOT NULL, sha TEXT NOT NULL, data TEXT NOT NULL,
  subject TEXT, object TEXT);
CREATE TABLE IF NOT EXISTS names (name TEXT NOT NULL, id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS names_by_name ON names (name);
CREATE TABLE IF NOT EXISTS cited (
  object_id TEXT NOT NULL, source TEXT NOT NULL, version TEXT NOT NULL, start INTEGER NOT NULL,
  "end" INTEGER NOT NULL, citation_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS cited_by_source ON cited (source, version);
CREATE INDEX IF NOT EXISTS cited_by_id ON cited (citation_id);
"""


class Encoder(Protocol):
    """The ranking model as the index needs it (``wikigen.evidence.rerank.Ranker``)."""

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, Any]: ...

    def count_tokens(self, text: str) -> int: ...


@dataclass(frozen=True, slots=True)
class SyncReport:
    """What one sync changed: sources (re-)indexed or dropped, passages embedded, objects re-read."""

    sources_indexed: int = 0
    sources_dropped: int = 0
    passages_indexed: int = 0
    passages_embedded: int = 0
    objects_read: int = 0
    objects_dropped: int = 0


PROGRESS_STEPS = 10  # lines of progress while the index is built from nothing


def index_path(store: GitStore) -> Path:
    return Path(store.repo.path) / INDEX_FILE


class Index:
    """The SQLite file and the queries the search and the MCP tools make of it."""

    def __init__(self, store: GitStore, config: Config | None = None, path: Path | None = None) -> None:
        self.store = store
        self.config = config if config is not None else load_config(store.root)
        self.path = path if path is not None else index_path(store)
        self.hidden: frozenset[str] = frozenset()  # R39: sources private at HEAD, whatever was indexed
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, timeout=60)
            tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            if "meta" in tables and self.meta("schema") != str(SCHEMA):
                # An index of another layout is rebuilt from git, never migrated.
                for table in ("meta", "sources", "passages", "passage_text", "source_titles", "objects", "names", "cited"):
                    self.db.execute(f"DROP TABLE IF EXISTS {table}")
            self.db.executescript(_TABLES)
            if self.meta("schema") is None:
                with self.db:
                    self._set_meta({"schema": str(SCHEMA)})
        except (OSError, sqlite3.Error) as exc:
            raise _translated(exc, f"opening the search index {self.path}") from None

    def close(self) -> None:
        self.db.close()

    # -- meta ----------------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, values: Mapping[str, str]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", sorted(values.items()))

    @property
    def snapshot_blob(self) -> str | None:
        return self.meta("snapshot_blob")

    @property
    def snapshot_version(self) -> int:
        return int(self.meta("snapshot_version") or 0)

    def _clear(self) -> None:
        with self.db:
            for table in ("meta", "sources", "passages", "passage_text", "source_titles", "objects", "names", "cited"):
                self.db.execute(f"DELETE FROM {table}")
            self._set_meta({"schema": str(SCHEMA)})

    # -- sync ----------------------------------------------------------------------------------------

    def sync(
        self,
        at: At,
        encoder: Encoder,
        model: str,
        progress: Callable[[str], None] | None = None,
    ) -> SyncReport:
        """Bring the index to the snapshot ``at``: only what changed since the one it reflects."""
        if self.snapshot_blob == (at.blob or "") and self.meta("model") == model:
            return SyncReport()
        if self.meta("model") not in (None, model):
            self._clear()  # vectors of another model do not compare with this one's
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                report = self._sync(at, encoder, progress)
                self._set_meta(
                    {
                        "snapshot_blob": at.blob or "",
                        "snapshot_version": str(at.snapshot.version),
                        "snapshot_commit": at.commit or "",
                        "model": model,
                        "generation": str(int(self.meta("generation") or 0) + 1),
                    }
                )
        except sqlite3.Error as exc:
            raise _translated(exc, f"updating the search index {self.path}") from None
        return report

    def _sync(
        self, at: At, encoder: Encoder, progress: Callable[[str], None] | None
    ) -> SyncReport:
        snapshot = at.snapshot
        wanted = {
            sid: entry
            for sid, entry in snapshot.manifest.items()
            if entry.version is not None and entry.blob is not None and entry.content_hash is not None
        }
        have = {row[0]: (row[1], row[2]) for row in self.db.execute("SELECT id, version, blob FROM sources")}
        dropped = [sid for sid in have if sid not in wanted]
        changed = [sid for sid, e in sorted(wanted.items()) if have.get(sid) != (e.version, e.blob)]
        for sid in dropped:
            self._drop_source(sid)
        building = bool(changed) and progress is not None and not have
        if building and progress is not None:
            progress(f"building the search index: {len(changed)} source(s), first use in this clone")
        step = max(1, len(changed) // PROGRESS_STEPS)  # a line per tenth of the sources, and the last
        bodies = {row[0] for row in self.db.execute("SELECT DISTINCT content_hash FROM passages")}
        passages_indexed = passages_embedded = 0
        titles: list[tuple[str, str]] = []
        for sid in changed:
            self._drop_source(sid)
            entry = wanted[sid]
            source, why = read_recorded(
                self.store, self.config, entry.compiled_path or entry.path, entry.blob, entry.content_hash
            )
            if source is None:
                raise SnapshotError(
                    f"{sid}@{entry.version}: {why}; the search index cannot be built from this snapshot "
                    "(`wikigen verify` says more)"
                )
            body_hash = str(entry.content_hash)
            if body_hash not in bodies:
                found = search_passages(source.body)
                texts = [f"{p.heading}: {p.text}" if p.heading else p.text for p in found]
                vectors = encoder.embed(texts) if texts else np.zeros((0, 0), dtype=np.float32)
                for passage, vector in zip(found, vectors, strict=True):
                    cursor = self.db.execute(
                        'INSERT INTO passages (content_hash, start, "end", line_start, line_end, heading, text, '
                        "tokens, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (body_hash, passage.start, passage.end, passage.line_start, passage.line_end,
                         passage.heading, passage.text, encoder.count_tokens(passage.text),
                         np.asarray(vector, np.float32).tobytes()),
                    )
                    self.db.execute(
                        "INSERT INTO passage_text (rowid, text, heading) VALUES (?, ?, ?)",
                        (cursor.lastrowid, passage.text, passage.heading),
                    )
                bodies.add(body_hash)
                passages_embedded += len(found)
            passages_indexed += int(
                self.db.execute("SELECT count(*) FROM passages WHERE content_hash = ?", (body_hash,)).fetchone()[0]
            )
            title = entry.title or source.title or sid
            titles.append((sid, title))
            self.db.execute(
                "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (sid, entry.version, body_hash, entry.blob, entry.compiled_path or entry.path, title,
                 entry.category, int(entry.private), b""),
            )
            self.db.execute("INSERT INTO source_titles (id, title) VALUES (?, ?)", (sid, f"{title} {sid}"))
            done = len(titles)
            if building and progress is not None and (done % step == 0 or done == len(changed)):
                progress(f"  {done}/{len(changed)} sources indexed, {passages_embedded} passages embedded")
        if titles:
            vectors = encoder.embed([title for _, title in titles])
            self.db.executemany(
                "UPDATE sources SET title_vector = ? WHERE id = ?",
                [(np.asarray(v, np.float32).tobytes(), sid) for (sid, _), v in zip(titles, vectors, strict=True)],
            )
        self._drop_orphan_passages()
        read, gone = self._sync_objects(at)
        return SyncReport(len(changed), len(dropped), passages_indexed, passages_embedded, read, gone)

    def _drop_source(self, source_id: str) -> None:
        self.db.execute("DELETE FROM sources WHERE id = ?", (source_id,))
        self.db.execute("DELETE FROM source_titles WHERE id = ?", (source_id,))

    def _drop_orphan_passages(self) -> None:
        orphan = "SELECT rowid FROM passages WHERE content_hash NOT IN (SELECT content_hash FROM sources)"
        self.db.execute(f"DELETE FROM passage_text WHERE rowid IN ({orphan})")
        self.db.execute(f"DELETE FROM passages WHERE rowid IN ({orphan})")

    def _sync_objects(self, at: At) -> tuple[int, int]:
        index = at.snapshot.objects
        have = dict(self.db.execute("SELECT id, sha FROM objects").fetchall())
        gone = [oid for oid in have if oid not in index]
        changed = [oid for oid in sorted(index) if have.get(oid) != str(index[oid].get("sha", ""))]
        for oid in gone + changed:
            self.db.execute("DELETE FROM objects WHERE id = ?", (oid,))
            self.db.execute("DELETE FROM names WHERE id = ?", (oid,))
            self.db.execute("DELETE FROM cited WHERE object_id = ?", (oid,))
        if not changed:
            return 0, len(gone)
        assert at.commit is not None
        tree = self.store.commit_tree(at.commit)
        relations = relation_lines(lambda path: self.store.read_file(tree, path), ((o, index[o]) for o in changed))
        for oid in changed:
            entry = index[oid]
            if entry.get("kind") == "relation":
                line = relations.get(oid)
                if line is None:
                    continue
                obj = {**json.loads(line), "kind": "relation"}
            else:
                raw = self.store.read_file(tree, str(entry.get("file", "")))
                if raw is None:
                    continue
                try:
                    obj = parse_object(raw)
                except (ValueError, UnicodeDecodeError):
                    continue  # `wikigen verify` names it; search shows what can be read
            self._add_object(oid, str(entry.get("sha", "")), obj)
        return len(changed), len(gone)

    def _add_object(self, oid: str, sha: str, obj: Mapping[str, Any]) -> None:
        kind = str(obj.get("kind", ""))
        self.db.execute(
            "INSERT INTO objects VALUES (?, ?, ?, ?, ?, ?, ?)",
            (oid, kind, label_of(obj), sha, json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str),
             obj.get("subject"), obj.get("object")),
        )
        names = {normalize_name(oid), normalize_name(label_of(obj))}
        names.update(normalize_name(str(a)) for a in obj.get("aliases") or [])
        self.db.executemany("INSERT INTO names VALUES (?, ?)", [(n, oid) for n in sorted(names)])
        rows = []
        for citation in object_citations(obj):
            try:
                span = citation["source_span"]
                rows.append((oid, citation["source"], citation["version"], int(span["start"]), int(span["end"]),
                             citation["citation_id"]))
            except (KeyError, TypeError, ValueError):
                continue
        self.db.executemany("INSERT INTO cited VALUES (?, ?, ?, ?, ?, ?)", rows)

    # -- reading -------------------------------------------------------------------------------------

    def size(self) -> dict[str, int]:
        count = self.db.execute
        return {
            "sources": int(count("SELECT count(*) FROM sources").fetchone()[0]),
            "passages": int(count("SELECT count(*) FROM passages").fetchone()[0]),
            "objects": int(count("SELECT count(*) FROM objects").fetchone()[0]),
            "bytes": self.path.stat().st_size if self.path.exists() else 0,
        }

    def sources(self) -> dict[str, dict[str, Any]]:
        """The indexed sources by id; ``private`` also holds for the ids of :attr:`hidden` (R39)."""
        rows = self.db.execute("SELECT id, version, content_hash, blob, path, title, category, private FROM sources")
        keys = ("id", "version", "content_hash", "blob", "path", "title", "category", "private")
        found = {row[0]: dict(zip(keys, row, strict=True)) for row in rows}
        for sid, meta in found.items():
            meta["private"] = bool(meta["private"]) or sid in self.hidden
        return found

    def objects_by_name(self, name: str) -> list[str]:
        rows = self.db.execute("SELECT DISTINCT id FROM names WHERE name = ? ORDER BY id", (normalize_name(name),))
        return [str(r[0]) for r in rows]

    def object(self, object_id: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT data FROM objects WHERE id = ?", (object_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def relations_of(self, concept_id: str) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT data FROM objects WHERE kind = 'relation' AND (subject = ? OR object = ?) ORDER BY id",
            (concept_id, concept_id),
        )
        return [dict(json.loads(r[0])) for r in rows]

    def objects_citing(self, spans: Iterable[tuple[str, str, int, int]]) -> dict[str, dict[str, Any]]:
        """{object id: {kind, label, private, hits: [(index of the span, citation id)]}} for the article,
        concept and topic citations inside each (source, version, start, end) span."""
        found: dict[str, dict[str, Any]] = {}
        for number, (source, version, start, end) in enumerate(spans):
            rows = self.db.execute(
                "SELECT c.object_id, c.citation_id, o.kind, o.label, EXISTS (SELECT 1 FROM cited p JOIN sources s "
                "ON s.id = p.source WHERE p.object_id = o.id AND s.private = 1), (SELECT group_concat(p.source, "
                "char(31)) FROM cited p WHERE p.object_id = o.id) FROM cited c JOIN objects o "
                'ON o.id = c.object_id WHERE c.source = ? AND c.version = ? AND c.start < ? AND c."end" > ? '
                "AND o.kind != 'relation'",
                (source, version, end, start),
            )
            for oid, cid, kind, label, private, cited in rows:
                private = bool(private) or bool(self.hidden & set(str(cited or "").split("\x1f")))
                entry = found.setdefault(str(oid), {"kind": kind, "label": label, "private": private, "hits": []})
                entry["hits"].append((number, str(cid)))
        return found

    def citation(self, citation_id: str) -> list[dict[str, Any]]:
        """Every object citation with this id."""
        rows = self.db.execute(
            "SELECT DISTINCT o.data FROM cited c JOIN objects o ON o.id = c.object_id WHERE c.citation_id = ?",
            (citation_id,),
        )
        found = []
        for (data,) in rows:
            for citation in object_citations(json.loads(data)):
                if citation.get("citation_id") == citation_id:
                    found.append(dict(citation))
        return found


def body_hash_of(body: str) -> str:
    return sha256_hex(body)


def _translated(exc: BaseException, action: str) -> Exception:
    machine = environmental(action, exc)
    if machine is not None:
        return machine
    return SnapshotError(
        f"{action} failed ({exc}); the index is rebuilt from git alone, so delete it and run again"
    )
