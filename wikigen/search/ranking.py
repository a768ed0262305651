"""`wikigen search` (E4, E6): passages of the committed snapshot ranked for a question.

Lexical retrieval (SQLite FTS5, BM25, over the passages and the source titles) is fused with the
embedding model's cosine similarity by reciprocal-rank fusion, then reranked by the fused score with
the cosine as tie-break. Every hit is a verbatim passage of the cited version, so its citation is
checked like any other (E5). A token budget (counted with the model's own tokenizer) keeps the best
evidence that fits; what it drops is counted and left as source-level citations (E4).
"""

from __future__ import annotations

import importlib
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from wikigen.evidence.rerank import Ranker
from wikigen.model.errors import SnapshotError, UsageError
from wikigen.model.hashing import citation_id
from wikigen.search.index import Index, SyncReport
from wikigen.search.snapshots import At, resolve_snapshot
from wikigen.store.git import GitStore
from wikigen.store.privacy import private_now

DEFAULT_K = 5
LEXICAL_DEPTH = 100  # FTS hits taken into the fusion
RRF_K = 60  # reciprocal-rank fusion's constant (Cormack et al.)
TITLE_WEIGHT = 0.5  # a title hit counts for every passage of its source, so it weighs less
PER_SOURCE = 2  # at most this many passages of one source among the evidence
_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "i", "in", "is", "it", "of", "on", "or", "the", "this", "that", "to", "what", "when", "where", "which", "who", "why", "with", "you", "your"]
)


@dataclass(frozen=True, slots=True)
class _Matrix:
    """Every indexed passage of one snapshot, one row each, for the dense half of the fusion."""

    blob: str
    rowids: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]
    sources: tuple[tuple[str, ...], ...]  # per row: the ids of the sources with that body
    title_ids: tuple[str, ...]  # the searchable sources, in the order of title_vectors' rows
    title_vectors: npt.NDArray[np.float32]
    meta: dict[str, dict[str, Any]]  # the index's sources table, by id
    position_of: dict[int, int]  # passage rowid → its row in vectors


class Searcher:
    """A repo's search index and the model, kept across queries (the MCP server holds one)."""

    def __init__(
        self,
        root: Path | str = ".",
        *,
        progress: Callable[[str], None] | None = None,
        ranker: Ranker | None = None,
    ) -> None:
        self.store = GitStore(root)
        self.index = Index(self.store)
        self.progress = progress
        self._ranker = ranker
        self._matrix: _Matrix | None = None
        self._lock = threading.Lock()
        self.last_sync = SyncReport()
        self._model_id: str | None = None
        self._hidden_for: tuple[str | None, str | None] | None = None  # (HEAD, snapshot blob) of index.hidden

    @property
    def ranker(self) -> Ranker:
        if self._ranker is None:
            self._ranker = Ranker.shared()
        return self._ranker

    def model_id(self) -> str:
        """Which model made the vectors: another model's vectors are never compared with this one's."""
        if self._model_id is None:
            from wikigen.evidence.rerank import MODEL_PACKAGE

            package = importlib.import_module(MODEL_PACKAGE)
            self._model_id = f"{MODEL_PACKAGE}:{getattr(package, 'SHA256', getattr(package, '__version__', ''))}"
        return self._model_id

    def at(self, at: str | None = None) -> At:
        """The snapshot asked for, with the index brought to it (O(change))."""
        snapshot = resolve_snapshot(self.store, at)
        with self._lock:
            self.last_sync = self.index.sync(snapshot, self.ranker, self.model_id(), self.progress)
            # R39: what is private at HEAD stays out, even of a snapshot compiled before it turned private.
            # It changes only with HEAD or the snapshot asked for: asked once per pair, not per query.
            key = (self.store.head_commit(), snapshot.blob)
            if key != self._hidden_for:
                before, self.index.hidden = self.index.hidden, frozenset()
                indexed = self.index.sources()
                hidden = private_now(
                    self.store,
                    self.index.config,
                    ((sid, str(meta["path"]), bool(meta["private"])) for sid, meta in indexed.items()),
                    snapshot.snapshot.sources_tree if snapshot.blob else None,
                )
                if hidden != before:
                    self._matrix = None
                self.index.hidden, self._hidden_for = hidden, key
        return snapshot

    def _load_matrix(self, blob: str) -> _Matrix:
        if self._matrix is not None and self._matrix.blob == blob:
            return self._matrix
        db = self.index.db
        owners: dict[str, list[str]] = {}
        titles: dict[str, npt.NDArray[np.float32]] = {}
        for sid, body_hash, private, title_vector in db.execute(
            "SELECT id, content_hash, private, title_vector FROM sources ORDER BY id"
        ):
            if private or sid in self.index.hidden:
                continue
            owners.setdefault(body_hash, []).append(sid)
            titles[sid] = np.frombuffer(title_vector, dtype=np.float32)
        rowids: list[int] = []
        vectors: list[bytes] = []
        sources: list[tuple[str, ...]] = []
        for rowid, body_hash, vector in db.execute("SELECT rowid, content_hash, vector FROM passages ORDER BY rowid"):
            if body_hash in owners:
                rowids.append(rowid)
                vectors.append(vector)
                sources.append(tuple(owners[body_hash]))
        width = len(vectors[0]) // 4 if vectors else 0
        matrix = np.frombuffer(b"".join(vectors), dtype=np.float32).reshape(len(vectors), width)
        title_ids = tuple(titles)
        title_matrix = (
            np.stack([titles[sid] for sid in title_ids]) if title_ids else np.zeros((0, width), dtype=np.float32)
        )
        self._matrix = _Matrix(
            blob, np.array(rowids, dtype=np.int64), matrix, tuple(sources), title_ids, title_matrix,
            self.index.sources(), {rowid: row for row, rowid in enumerate(rowids)},
        )
        return self._matrix

    def search(self, query: str, *, k: int = DEFAULT_K, budget: int | None = None, at: str | None = None) -> dict[str, Any]:
        """E6's shape: ``evidence[]``, ``citations[]`` and ``objects[]``, plus what a budget dropped (E4)."""
        if not query.strip():
            raise UsageError("the query is empty; ask a question, e.g. `wikigen search \"how is a citation checked\"`")
        if k < 1:
            raise UsageError("--k must be at least 1")
        if budget is not None and budget < 0:
            raise UsageError("--budget must be a number of tokens, 0 or more")
        started = time.perf_counter()
        snapshot = self.at(at)
        if snapshot.blob is None:
            raise SnapshotError(
                "there is no compiled snapshot to search yet; run `wikigen compile` and commit first"
            )
        # Keyed by the index's generation: another process may have moved the index in between.
        matrix = self._load_matrix(f"{snapshot.blob}:{self.index.meta('generation')}")
        hits = self._rank(query, matrix, k)
        sources = matrix.meta
        evidence: list[dict[str, Any]] = []
        citations: list[dict[str, Any]] = []
        dropped: list[dict[str, Any]] = []
        used = 0
        spans: list[tuple[str, str, int, int]] = []
        for source_id, row, score in hits:
            meta = sources[source_id]
            start, end, line_start, line_end, text, tokens = row
            if budget is not None and used + tokens > budget:
                dropped.append({"source": source_id, "version": meta["version"], "title": meta["title"],
                                "tokens": tokens, "score": score})
                continue
            used += tokens
            cid = citation_id(source_id, start)
            evidence.append({
                "title": meta["title"],
                "source": source_id,
                "version": meta["version"],
                "excerpt": text,
                "citation_id": cid,
                "source_span": {"start": start, "end": end},
                "lines": {"start": line_start, "end": line_end},
                "score": score,
                "tokens": tokens,
            })
            citations.append({
                "citation_id": cid,
                "source": source_id,
                "version": meta["version"],
                "source_span": {"start": start, "end": end},
                "lines": {"start": line_start, "end": line_end},
                "quote": text,
            })
            spans.append((source_id, str(meta["version"]), start, end))
        # E4: evidence the budget dropped leaves a source-level citation, without a citation_id.
        for item in dropped:
            if not any(c["source"] == item["source"] and "citation_id" not in c for c in citations):
                citations.append({"source": item["source"], "version": item["version"], "title": item["title"]})
        return {
            "query": query,
            "snapshot": {"version": self.index.snapshot_version, "commit": snapshot.commit},
            "k": k,
            "evidence": evidence,
            "citations": citations,
            "objects": self._objects(spans, [e["score"] for e in evidence]),
            "budget": None if budget is None else {
                "tokens": budget,
                "used": used,
                "dropped": len(dropped),
                "dropped_tokens": sum(d["tokens"] for d in dropped),
                "tokenizer": "all-MiniLM-L6-v2 WordPiece (the ranking model's own)",
            },
            "seconds": round(time.perf_counter() - started, 4),
        }

    def _rank(self, query: str, matrix: _Matrix, k: int) -> list[tuple[str, tuple[int, int, int, int, str, int], float]]:
        if not len(matrix.rowids):
            return []
        query_vector = self.ranker.embed([query])[0]
        cosine = matrix.vectors @ query_vector
        depth = min(LEXICAL_DEPTH, len(cosine))
        top = np.argpartition(-cosine, depth - 1)[:depth]
        # Ties broken by row, so that the same index always gives the same order.
        dense_order = sorted((int(p) for p in top), key=lambda p: (-float(cosine[p]), p))
        fused: dict[int, float] = {}
        for rank, position in enumerate(dense_order):
            fused[position] = 1.0 / (RRF_K + rank + 1)
        for rank, rowid in enumerate(self._lexical(query)):
            found = matrix.position_of.get(rowid)
            if found is not None:
                fused[found] = fused.get(found, 0.0) + 1.0 / (RRF_K + rank + 1)
        title_rank = self._titles(query, query_vector, matrix)
        for position in list(fused):
            best = min((title_rank[s] for s in matrix.sources[position] if s in title_rank), default=None)
            if best is not None:
                fused[position] += TITLE_WEIGHT / (RRF_K + best + 1)
        order = sorted(fused, key=lambda p: (-fused[p], -float(cosine[p]), int(matrix.rowids[p])))
        chosen: list[tuple[str, int, float]] = []
        per_source: dict[str, int] = {}
        for position in order:
            source_id = matrix.sources[position][0]
            if per_source.get(source_id, 0) >= PER_SOURCE:
                continue
            per_source[source_id] = per_source.get(source_id, 0) + 1
            chosen.append((source_id, int(matrix.rowids[position]), round(fused[position] * 100, 4)))
            if len(chosen) == k:
                break
        rows = {
            int(r[0]): (int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5]), int(r[6]))
            for r in self.index.db.execute(
                f'SELECT rowid, start, "end", line_start, line_end, text, tokens FROM passages WHERE rowid IN '
                f"({','.join('?' * len(chosen))})",
                [rowid for _, rowid, _ in chosen],
            )
        }
        return [(sid, rows[rowid], score) for sid, rowid, score in chosen]

    def _lexical(self, query: str) -> list[int]:
        match = _fts_query(query)
        if not match:
            return []
        rows = self.index.db.execute(
            "SELECT rowid FROM passage_text WHERE passage_text MATCH ? ORDER BY bm25(passage_text, 1.0, 0.5) LIMIT ?",
            (match, LEXICAL_DEPTH),
        )
        return [int(r[0]) for r in rows]

    def _titles(self, query: str, query_vector: npt.NDArray[np.float32], matrix: _Matrix) -> dict[str, int]:
        """Sources ranked by their title: BM25 hits first, then the closest titles by the model."""
        ranked: dict[str, int] = {}
        match = _fts_query(query)
        if match:
            for (sid,) in self.index.db.execute(
                "SELECT id FROM source_titles WHERE source_titles MATCH ? ORDER BY bm25(source_titles) LIMIT 20",
                (match,),
            ):
                if sid in matrix.meta and not matrix.meta[sid]["private"]:
                    ranked.setdefault(str(sid), len(ranked))
        if matrix.title_ids:
            scores = matrix.title_vectors @ query_vector
            for position in np.argsort(-scores, kind="stable")[:20]:
                ranked.setdefault(matrix.title_ids[int(position)], len(ranked))
        return ranked

    def _objects(self, spans: Sequence[tuple[str, str, int, int]], scores: Sequence[float]) -> list[dict[str, Any]]:
        found = self.index.objects_citing(spans)
        objects: list[dict[str, Any]] = []
        for oid, entry in found.items():
            if entry["private"]:
                continue
            numbers = sorted({number for number, _ in entry["hits"]})
            objects.append({
                "id": oid,
                "kind": entry["kind"],
                "title": entry["label"],
                "supported_by": sorted({cid for _, cid in entry["hits"]}),
                "evidence": numbers,
                "score": round(sum(scores[n] for n in numbers), 4),
            })
        objects.sort(key=lambda o: (-o["score"], o["id"]))
        return objects


def _fts_query(query: str) -> str:
    words = [w for w in _WORD.findall(query.casefold()) if w not in _STOP]
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(words))

__all__ = ["DEFAULT_K", "Searcher"]
