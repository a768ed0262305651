#!/usr/bin/env python3
"""Benchmark: `wikigen plan` on the 6,643 tldr pages — the no-op and the one-edit case.

Prints figures and ratios; asserts nothing (tests assert the counts). Not run by .ci/run.
Usage: python scripts/bench_plan.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygit2

from tests.corpora import baseline_files, commit_files, corpus_files
from wikigen.store.workspace import Workspace


def cli(root: Path, *args: str) -> tuple[float, dict]:  # type: ignore[type-arg]
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "wikigen", "-C", str(root), *args], capture_output=True, text=True
    )
    return time.perf_counter() - started, json.loads(out.stdout)


def main() -> None:
    version = subprocess.run([sys.executable, "-m", "wikigen", "--version"], capture_output=True, text=True)
    print(version.stdout.strip())
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        repo = pygit2.init_repository(str(root), initial_head="main")
        files = corpus_files("tldr")
        commit_files(repo, dict(files))
        started = time.perf_counter()
        plan = Workspace.open(root).plan()
        first = time.perf_counter() - started
        data = baseline_files(repo, plan)
        commit_files(repo, data, "baseline")
        size = sum(len(b or b"") for b in data.values())
        print(f"sources: {len(files)}  manifest: {size:,} bytes in {len(data):,} files")
        print(f"first plan (reads every blob, in-process): {first:.3f} s, blobs read {plan.blobs_read}")

        rounds = 5
        noop = [cli(root, "plan", "--json") for _ in range(rounds)]
        noop_s = min(t for t, _ in noop)
        path = "content/sources/knowledge/tldr/linux/apx.md"
        commit_files(repo, {path: files[path] + b"\n- One more example:\n\n`apx help`\n"}, "edit")
        edit = [cli(root, "plan", "--json") for _ in range(rounds)]
        edit_s = min(t for t, _ in edit)
        print(f"no-op plan (CLI, best of {rounds}): {noop_s:.3f} s, blobs read {noop[0][1]['blobs_read']}")
        print(
            f"one-edit plan (CLI, best of {rounds}): {edit_s:.3f} s, blobs read {edit[0][1]['blobs_read']}, "
            f"updated {edit[0][1]['updated']}"
        )
        print(f"ratio one-edit / first full read: {edit_s / first:.2f}")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "wikigen", "--version"], capture_output=True)
        print(f"`wikigen --version` (interpreter start-up floor): {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
