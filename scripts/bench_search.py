#!/usr/bin/env python3
"""Benchmark: `wikigen search` (E6) on the shared corpora.

For k8s-concepts and elixir-guide it answers the hand-written questions in tests/data/search/ (each
names the file or files that answer it) and prints recall@5 of an answering source, MRR (over the top
10), p50/p95 query latency with the index built, the index build time and size, and how many passages
one edited source re-indexes. With --tldr it also times queries on the 6,643 tldr pages.
Prints figures; asserts nothing. Not run by .ci/run.

Usage: python scripts/bench_search.py [--tldr] [--corpus k8s|elixir|tldr] [--synthetic]
(--synthetic indexes random vectors and embeds only the queries: a latency figure for tldr, whose
37,171 passages take over an hour to embed on two busy cores)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pygit2

from tests.corpora import REPO_ROOT, baseline_files, commit_files, shared_dir
from wikigen.evidence.rerank import Ranker
from wikigen.search import Searcher
from wikigen.store.workspace import Workspace

CORPORA = {
    # name: (folder in shared/, where its files go below content/sources/, the questions)
    "k8s": ("corpora/k8s-concepts/content/en/docs/concepts", "knowledge/k8s", "k8s-concepts.tsv"),
    "elixir": ("corpora/elixir-guide/content", "knowledge/elixir", "elixir-guide.tsv"),
    "tldr": ("corpora/tldr-pages/pages", "knowledge/tldr", None),
}
TLDR_QUERIES = [
    "extract a tar archive", "list open network ports", "change file permissions recursively",
    "show disk usage of a directory", "find files by name", "copy files over ssh", "compress a folder to zip",
    "kill a process by name", "show the git log as a graph", "download a file with a URL",
    "resize an image", "count lines in a file", "replace text in a file", "create a python virtual environment",
    "list docker containers", "mount a usb drive", "check memory usage", "schedule a recurring job",
    "convert a video to mp4", "search text in files recursively",
]


def build_repo(root: Path, name: str) -> dict[str, bytes]:
    folder, prefix, _ = CORPORA[name]
    source_root = shared_dir() / folder
    files = {
        f"content/sources/{prefix}/{p.relative_to(source_root).as_posix()}": p.read_bytes()
        for p in sorted(source_root.rglob("*.md"))
    }
    repo = pygit2.init_repository(str(root), initial_head="main")
    commit_files(repo, dict(files))
    publish(root, repo, 1)
    return files


def publish(root: Path, repo: pygit2.Repository, version: int) -> None:
    """Record the current sources as compiled, with the snapshot module's own writer (no compile)."""
    plan = Workspace.open(root).plan()
    assert not plan.invalid, plan.invalid[:3]
    commit_files(repo, baseline_files(repo, plan, version), f"snapshot {version}")


def questions(name: str) -> list[tuple[str, set[str]]]:
    _, prefix, table = CORPORA[name]
    assert table is not None
    found = []
    for line in (REPO_ROOT / "tests/data/search" / table).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, files = line.split("\t")
            found.append((question, {f"{prefix}/{f.strip().removesuffix('.md')}" for f in files.split(",")}))
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class SyntheticVectors:
    """The real model for queries, random unit vectors for indexing: times the query path on a corpus
    whose index takes too long to embed on a small machine (--synthetic). Rankings are meaningless."""

    def __init__(self) -> None:
        self.model = Ranker.shared()
        self.random = np.random.default_rng(0)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 1:
            return self.model.embed(texts)
        vectors = self.random.standard_normal((len(texts), 384)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)  # type: ignore[no-any-return]

    def count_tokens(self, text: str) -> int:
        return self.model.count_tokens(text)


def bench(name: str, synthetic: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        files = build_repo(root, name)
        searcher = Searcher(root, ranker=SyntheticVectors() if synthetic else None)  # type: ignore[arg-type]
        if synthetic:
            print("\n(synthetic: random passage vectors, real query embedding; latency only, the build time "
                  "and rankings mean nothing)")
        searcher.ranker  # noqa: B018 — load the model outside the build time
        started = time.perf_counter()
        searcher.at()
        build = time.perf_counter() - started
        size = searcher.index.size()
        print(f"\n== {name}: {len(files)} sources, {size['passages']} passages")
        print(f"index build: {build:.1f} s, {size['bytes'] / 1e6:.1f} MB ({searcher.index.path.name} under .git/)")

        latencies: list[float] = []
        if CORPORA[name][2] is None:
            searcher.search("warm up", k=5)
            for query in TLDR_QUERIES * 3:
                started = time.perf_counter()
                searcher.search(query, k=5)
                latencies.append(time.perf_counter() - started)
        else:
            asked = questions(name)
            searcher.search("warm up", k=5)
            hits5 = 0
            reciprocal = 0.0
            misses = []
            for question, answers in asked:
                started = time.perf_counter()
                result = searcher.search(question, k=10)
                latencies.append(time.perf_counter() - started)
                ranked = [e["source"] for e in result["evidence"]]
                rank = next((i + 1 for i, s in enumerate(ranked) if s in answers), None)
                hits5 += rank is not None and rank <= 5
                reciprocal += 1 / rank if rank else 0.0
                if rank is None or rank > 5:
                    misses.append(f"  miss (rank {rank}): {question} → {sorted(answers)}; got {ranked[:3]}")
            print(f"questions: {len(asked)}  recall@5: {hits5 / len(asked):.3f}  MRR@10: {reciprocal / len(asked):.3f}")
            for line in misses:
                print(line)
        print(
            f"query latency (in-process, index built): p50 {statistics.median(latencies) * 1000:.0f} ms, "
            f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms over {len(latencies)} queries"
        )

        # One edited source: only its own passages are segmented and embedded again.
        path = sorted(files)[len(files) // 2]
        edited = files[path] + b"\n\nOne more paragraph added by the benchmark, long enough to be a passage.\n"
        repo = pygit2.Repository(str(root))
        commit_files(repo, {path: edited}, "edit one source")
        publish(root, repo, 2)
        started = time.perf_counter()
        searcher.at()
        report = searcher.last_sync
        print(
            f"one edited source ({path.rsplit('/', 1)[-1]}): {report.sources_indexed} source re-indexed, "
            f"{report.passages_embedded} passages embedded (its own: {report.passages_indexed}) in "
            f"{time.perf_counter() - started:.2f} s; objects re-read {report.objects_read}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tldr", action="store_true", help="also time queries on the 6,643 tldr pages")
    parser.add_argument("--corpus", choices=sorted(CORPORA), action="append")
    parser.add_argument("--synthetic", action="store_true", help="random passage vectors (latency only)")
    args = parser.parse_args()
    names = args.corpus or ["k8s", "elixir", *(["tldr"] if args.tldr else [])]
    for name in names:
        bench(name, synthetic=args.synthetic)


if __name__ == "__main__":
    main()
