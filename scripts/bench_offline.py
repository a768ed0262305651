#!/usr/bin/env python3
"""Benchmark of the offline engine (R20) through the real pipeline. Prints figures; asserts nothing.

  python scripts/bench_offline.py k8s     # 115 Kubernetes concept docs: batch compile, sample, one edit
  python scripts/bench_offline.py tldr    # 6,643 tldr pages: batch compile, no-op, one edit, withdrawal
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygit2

from tests.corpora import commit_files, corpus_files
from wikigen.compiler.driver import compile_repo
from wikigen.engines.offline.engine import OfflineEngine
from wikigen.evidence.rerank import Ranker
from wikigen.model.objects import relation_lines
from wikigen.model.snapshot import SNAPSHOT_PATH
from wikigen.store.git import GitStore
from wikigen.store.snapshot import load_snapshot


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = fn()
    print(f"{label}: {time.perf_counter() - started:.1f} s, peak RSS {rss_mb():.0f} MB")
    return result


def snapshot(repo: pygit2.Repository):  # type: ignore[no-untyped-def]
    store = GitStore(repo.workdir)
    return load_snapshot(repo.revparse_single(f"HEAD:{SNAPSHOT_PATH}").data, store)


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True).stdout


def k8s(root: Path, repo: pygit2.Repository, engine: OfflineEngine) -> None:
    files = corpus_files("k8s")
    corpus_bytes = sum(len(v) for v in files.values())
    commit_files(repo, dict(files))
    ranker = Ranker.shared()
    before = ranker.passages_embedded
    started = time.perf_counter()
    report = timed("k8s: compile --batch from empty", lambda: compile_repo(root, engine=engine, batch=True))
    elapsed = time.perf_counter() - started
    embedded = ranker.passages_embedded - before
    print(f"  increments {len(report.increments)}, engine calls {report.as_json()['engine_calls']}, "
          f"passages embedded {embedded} ({embedded / elapsed:.1f}/s over the whole compile)")
    snap = snapshot(repo)
    kinds: dict[str, int] = {}
    for entry in snap.objects.values():
        kinds[entry["kind"]] = kinds.get(entry["kind"], 0) + 1
    lines = relation_lines(lambda path: (root / path).read_bytes(), snap.objects.items())
    relations = [json.loads(lines[k]) for k in sorted(lines)]
    concepts = {oid: e for oid, e in snap.objects.items() if e["kind"] == "concept"}

    def first_source(cid: str) -> str:
        return min(concepts[cid]["sources"]) if cid in concepts else ""

    cross = [r for r in relations if first_source(r["subject"]) != first_source(r["object"])]
    print(f"  objects {kinds}; relations with evidence {sum(1 for r in relations if r['evidence'])}; "
          f"cross-source (endpoints first defined in different sources) {len(cross)}")
    verify = subprocess.run([sys.executable, "-m", "wikigen", "-C", str(root), "verify"], capture_output=True, text=True)
    print(f"  verify: exit {verify.returncode}: {verify.stdout.strip().splitlines()[-1]}")

    rng = random.Random(7)
    print("\n  sample of 30 concepts (name [type]: defining quote):")
    for cid in rng.sample(sorted(concepts), min(30, len(concepts))):
        text = (root / concepts[cid]["file"]).read_text()
        quote = text.split("quote: ", 1)[1].splitlines()[0][:150] if "quote: " in text else ""
        print(f"   - {concepts[cid]['label']} [{concepts[cid].get('type')}]: {quote}")
    print("\n  sample of 30 relations (subject —predicate→ object: evidence sentence):")
    for rel in rng.sample(relations, min(30, len(relations))):
        s, o = concepts.get(rel["subject"], {}).get("label"), concepts.get(rel["object"], {}).get("label")
        print(f"   - {s} —{rel['predicate']}→ {o}: {rel['evidence'][0]['quote'][:170]}")

    path = "content/sources/knowledge/k8s/workloads/controllers/replicaset.md"
    if path not in files:
        path = sorted(files)[0]
    commit_files(repo, {path: files[path] + b"\n\nA Pod is the unit that the kubelet runs on a node.\n"}, "edit one doc")
    report = timed("\nk8s: one edited doc", lambda: compile_repo(root, engine=engine))
    data = report.as_json()
    inc = report.increments[0]
    print(f"  engine calls {data['engine_calls']}, input bytes {data['input_bytes']:,} "
          f"({data['input_bytes'] / corpus_bytes:.1%} of the corpus's {corpus_bytes:,} bytes), "
          f"doc {len(files[path]):,} bytes, fragments {inc.fragments} ({inc.fragment_bytes:,} bytes), anchors {inc.anchors}, revoked {data['revoked']}")
    print("  git diff --stat HEAD~1 HEAD:")
    print("   " + git(root, "diff", "--stat", "HEAD~1", "HEAD").replace("\n", "\n   "))


def tldr(root: Path, repo: pygit2.Repository, engine: OfflineEngine) -> None:
    files = corpus_files("tldr")
    commit_files(repo, dict(files))
    report = timed("tldr: compile --batch from empty", lambda: compile_repo(root, engine=engine, batch=True))
    print(f"  increments {len(report.increments)}, engine calls {report.as_json()['engine_calls']}")
    snap = snapshot(repo)
    kinds: dict[str, int] = {}
    for entry in snap.objects.values():
        kinds[entry["kind"]] = kinds.get(entry["kind"], 0) + 1
    print(f"  objects {kinds}")
    report = timed("tldr: no-op compile", lambda: compile_repo(root, engine=engine))
    print(f"  engine calls {report.as_json()['engine_calls']}, published {report.published}")
    path = "content/sources/knowledge/tldr/linux/apx.md"
    commit_files(repo, {path: files[path] + b"\n- Show help:\n\n`apx --help`\n"}, "edit")
    report = timed("tldr: one edit", lambda: compile_repo(root, engine=engine))
    print(f"  engine calls {report.as_json()['engine_calls']}, input bytes {report.as_json()['input_bytes']:,}")
    commit_files(repo, {"content/sources/knowledge/tldr/common/tar.md": None}, "withdraw")
    report = timed("tldr: one withdrawal", lambda: compile_repo(root, engine=engine))
    print(f"  engine calls {report.as_json()['engine_calls']}, revoked {report.as_json()['revoked']}")


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "k8s"
    engine = OfflineEngine()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        repo = pygit2.init_repository(str(root), initial_head="main")
        (k8s if which == "k8s" else tldr)(root, repo, engine)


if __name__ == "__main__":
    main()
