#!/usr/bin/env python3
"""Bytes sent to the engine per stage against the request's input bytes (R19). Prints figures; asserts
nothing.

On the Kubernetes corpus, after one batch compile of the baseline (offline engine, ~3-6 minutes on
two cores; kept in BASELINE and reused by later runs), each experiment runs on a copy of it:

- one edit: one paragraph (~311 characters) appended to replicaset.md (18,600 bytes);
- a 10-document deletion: ten docs drawn with a fixed seed, withdrawn in one compile.

For each: input bytes, sent bytes per stage, their ratio, and what each key of each stage's request
weighed.

  python scripts/bench_sent.py [BASELINE]      # default /tmp/wikigen-bench-sent/baseline
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygit2

from tests.corpora import commit_files, corpus_files
from wikigen.compiler.driver import compile_repo
from wikigen.engines.contract import Delta
from wikigen.engines.offline.engine import OfflineEngine
from wikigen.model.hashing import canonical_bytes

EDITED = "content/sources/knowledge/k8s/workloads/controllers/replicaset.md"
# One paragraph of 311 characters, in the corpus's own voice, naming concepts the library knows.
PARAGRAPH = (
    "A ReplicaSet is often paired with a Horizontal Pod Autoscaler, which adjusts the number of "
    "replicas based on observed CPU use. When the autoscaler changes the desired count, the "
    "ReplicaSet controller creates or deletes Pods so that the number of running Pods matches it, "
    "and the scheduler then places new Pods."
)
DELETED = 10
SEED = 14


class Recording:
    """The offline engine, recording the size of every key of every request it is sent."""

    def __init__(self, engine: OfflineEngine) -> None:
        self.engine = engine
        self.name = engine.name
        self.remote = engine.remote
        self.derives_topics = engine.derives_topics
        self.requests: list[tuple[str, dict[str, int]]] = []
        # What recheck would weigh if it were sent analyze's whole request again, plus its delta.
        self.whole_again = 0
        self.same_answer = True
        self.relations = 0  # what recheck returned
        self._analyze: Mapping[str, Any] = {}

    def route(self, stage: str) -> str:
        return self.engine.route(stage)

    def run(self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event) -> Delta:
        self.requests.append((stage, {k: len(canonical_bytes(v)) for k, v in request.items()}))
        delta = self.engine.run(stage, request, deadline, cancel)
        if stage == "analyze":
            self._analyze = {**request, "stage": "recheck", "delta": delta.data}
            self.whole_again += len(canonical_bytes(self._analyze))
        elif self._analyze:
            # The offline recheck reads nothing that the smaller request left out: same answer.
            again = self.engine.run(stage, self._analyze, deadline, cancel)
            self.same_answer &= canonical_bytes(again.data) == canonical_bytes(delta.data)
            self.relations += len(delta.data.get("relations", []))
        return delta


def build_baseline(baseline: Path) -> None:
    repo = pygit2.init_repository(str(baseline), initial_head="main")
    commit_files(repo, dict(corpus_files("k8s")))
    started = time.perf_counter()
    report = compile_repo(baseline, engine=OfflineEngine(), batch=True)
    print(f"baseline: {len(report.increments)} increments in {time.perf_counter() - started:.0f} s -> {baseline}")


def experiment(baseline: Path, label: str, change: dict[str, bytes | None], engine: OfflineEngine) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(baseline, root, symlinks=True)
        commit_files(pygit2.Repository(str(root)), change, label)
        recording = Recording(engine)
        started = time.perf_counter()
        report = compile_repo(root, engine=recording, batch=True, allow_mass_withdrawal=True)  # type: ignore[arg-type]
        seconds = time.perf_counter() - started
    data = report.as_json()
    sent, input_bytes = data["sent_bytes"], data["input_bytes"]
    ratio = sent["total"] / input_bytes if input_bytes else 0.0
    print(f"\n{label}: {len(report.increments)} increment(s), {data['engine_calls']} engine call(s), {seconds:.1f} s")
    print(f"  input bytes {input_bytes:,}; sent: analyze {sent['analyze']:,} "
          f"({sent['analyze'] / max(input_bytes, 1):.2f}x), recheck {sent['recheck']:,} "
          f"({sent['recheck'] / max(input_bytes, 1):.2f}x), total {sent['total']:,} -> {ratio:.2f}x input")
    if recording.whole_again:
        was = sent["analyze"] + recording.whole_again
        print(f"  had recheck been sent analyze's whole request again plus its delta: recheck "
              f"{recording.whole_again:,}, total {was:,} -> {was / max(input_bytes, 1):.2f}x input")
        print(f"  recheck returned {recording.relations} relation(s); the same answer on the whole request "
              f"again: {'yes' if recording.same_answer else 'NO'}")
    for stage, sizes in recording.requests:
        parts = ", ".join(f"{k} {v:,}" for k, v in sorted(sizes.items(), key=lambda kv: -kv[1]) if v > 2)
        print(f"  {stage} request by key: {parts}")


def main() -> None:
    baseline = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/wikigen-bench-sent/baseline")
    if not (baseline / ".git").is_dir():
        baseline.parent.mkdir(parents=True, exist_ok=True)
        build_baseline(baseline)
    files = corpus_files("k8s")
    engine = OfflineEngine()
    edited = files[EDITED] + b"\n\n" + PARAGRAPH.encode() + b"\n"
    print(f"one edit: {EDITED} ({len(files[EDITED]):,} bytes) + a paragraph of {len(PARAGRAPH)} characters")
    experiment(baseline, "one edit", {EDITED: edited}, engine)
    gone = sorted(random.Random(SEED).sample(sorted(p for p in files if p != EDITED), DELETED))
    print(f"\n{DELETED}-document deletion: {', '.join(p.split('/k8s/', 1)[-1] for p in gone)}")
    experiment(baseline, f"{DELETED}-document deletion", dict.fromkeys(gone), engine)


if __name__ == "__main__":
    main()
