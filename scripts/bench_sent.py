#!/usr/bin/env python3
"""What a small change costs on the wire and, behind a prompt cache, uncached (R9, R14, R19). Prints
figures; asserts nothing.

On the Kubernetes corpus, after one batch compile of the baseline (offline engine, ~3-6 minutes on
two cores; kept in BASELINE and reused by later runs), each step runs on a copy of it, compiled by the
HTTP engine over real HTTP against a counting fake OpenAI-compatible server on loopback
(``tests/fake_openai.py``) that answers as the offline engine would and models a prompt cache: the
longest prefix a prompt shares with any earlier one counts as cached (``PrefixCache``).

The steps, each compared with LightRAG 1.5.7's prompt bytes for the same step:

- one edit: one paragraph (~311 characters) appended to replicaset.md (18,600 bytes);
- deleting architecture/nodes.md, whose concepts other sources cite;
- a 10-document deletion: ten docs drawn with a fixed seed, withdrawn in one compile.

For each: the calls, the bytes on the wire (the HTTP request bodies), the prompt bytes, the uncached
bytes with a cold cache (only the step's own earlier calls cached) and a warm one (the server has
answered both stages of an earlier compile, so the fixed instructions are cached), their ratios to the
changed sources' bytes, to the changed sources plus the fragments sent and to LightRAG's; the cached
tokens the trace recorded from the fake's usage (R32); the fixed part of each call (instructions,
schema); what each data block weighed; and how much of each context block the returned delta used
(a fragment quoted, an anchor, article or revoked object named).

  python scripts/bench_sent.py [BASELINE]      # default /tmp/wikigen-bench-sent/baseline
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygit2

from tests.corpora import commit_files, corpus_files
from tests.fake_openai import Captured, FakeOpenAI, PrefixCache
from wikigen.compiler.driver import compile_repo
from wikigen.engines.contract import STAGES
from wikigen.engines.http import prompts
from wikigen.engines.http.client import HttpEngine
from wikigen.engines.offline.engine import OfflineEngine
from wikigen.model.config import EngineSettings
from wikigen.model.snapshot import SNAPSHOT_PATH

K8S = "content/sources/knowledge/k8s"
EDITED = f"{K8S}/workloads/controllers/replicaset.md"
NODES = f"{K8S}/architecture/nodes.md"
# One paragraph of 311 characters, in the corpus's own voice, naming concepts the library knows.
PARAGRAPH = (
    "A ReplicaSet is often paired with a Horizontal Pod Autoscaler, which adjusts the number of "
    "replicas based on observed CPU use. When the autoscaler changes the desired count, the "
    "ReplicaSet controller creates or deletes Pods so that the number of running Pods matches it, "
    "and the scheduler then places new Pods."
)
DELETED = 10
SEED = 14
# LightRAG 1.5.7's prompt bytes for the same steps (its fake LLM returns one entity per chunk: a floor).
LIGHTRAG = {"one edit": 50_600, "delete nodes.md": 3_000, f"delete {DELETED} docs": 37_100}
CONTEXT_BLOCKS = ("fragments", "anchors", "articles", "relations", "revoked")


@dataclass
class Step:
    label: str
    changed_bytes: int  # the changed sources' bytes: edited or added as they are now, withdrawn as they were
    calls: list[Captured] = field(default_factory=list)
    answers: list[tuple[str, Mapping[str, Any], Mapping[str, Any]]] = field(default_factory=list)
    fragment_bytes: int = 0
    trace_cached: int | None = None
    seconds: float = 0.0

    @property
    def wire(self) -> int:
        return sum(c.wire for c in self.calls)

    def uncached(self, cache: PrefixCache) -> int:
        total = 0
        for call in self.calls:
            prompt, cached = cache.measure(call.body)
            total += prompt - cached
        return total


def build_baseline(baseline: Path) -> None:
    repo = pygit2.init_repository(str(baseline), initial_head="main")
    commit_files(repo, dict(corpus_files("k8s")))
    started = time.perf_counter()
    report = compile_repo(baseline, engine=OfflineEngine(), batch=True)
    print(f"baseline: {len(report.increments)} increments in {time.perf_counter() - started:.0f} s -> {baseline}")


def run_step(baseline: Path, step: Step, change: dict[str, bytes | None], offline: OfflineEngine) -> None:
    def answer(stage: str, request: Mapping[str, Any]) -> Mapping[str, Any]:
        delta = offline.run(stage, request, time.monotonic() + 600, threading.Event()).data
        step.answers.append((stage, request, delta))
        return delta

    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(answer, cache=PrefixCache()) as server:
        root = Path(tmp) / "repo"
        shutil.copytree(baseline, root, symlinks=True)
        commit_files(pygit2.Repository(str(root)), change, step.label)
        settings = EngineSettings(
            name="http", base_url=server.url, models=(("analyze", "bench"), ("recheck", "bench"))
        )
        started = time.perf_counter()
        report = compile_repo(root, engine=HttpEngine(settings), batch=True, allow_mass_withdrawal=True)
        step.seconds = time.perf_counter() - started
        step.calls = list(server.requests)
        step.fragment_bytes = sum(i.fragment_bytes for i in report.increments)
        trace = json.loads((root / SNAPSHOT_PATH).read_text())["compilationTrace"]
        step.trace_cached = (trace.get("usage") or {}).get("cached_input")


def warm_cache() -> PrefixCache:
    """A server that has answered both stages of an earlier compile: its fixed part is cached."""
    cache = PrefixCache()
    empty: dict[str, Any] = {"sources": [], "fragments": [], "anchors": [], "relations": []}
    for stage in STAGES:
        cache.prime({"messages": prompts.messages(stage, {**empty, "stage": stage})})
    return cache


def kb(n: float) -> str:
    return f"{n / 1000:.1f} KB"


def table(steps: list[Step]) -> None:
    print("\n| step | calls | changed sources | + fragments | wire | uncached cold | uncached warm "
          "| wire / changed | uncached warm / changed | wire / (changed + fragments) "
          "| LightRAG prompt | uncached cold / LightRAG | uncached warm / LightRAG |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for step in steps:
        cold, warm = step.uncached(PrefixCache()), step.uncached(warm_cache())
        light = LIGHTRAG[step.label]
        changed = max(step.changed_bytes, 1)
        print(f"| {step.label} | {len(step.calls)} | {kb(step.changed_bytes)} | {kb(step.fragment_bytes)} "
              f"| {kb(step.wire)} | {kb(cold)} | {kb(warm)} | {step.wire / changed:.2f} | {warm / changed:.2f} "
              f"| {step.wire / max(step.changed_bytes + step.fragment_bytes, 1):.2f} | {kb(light)} "
              f"| {cold / light:.2f} | {warm / light:.2f} |")


def details(step: Step) -> None:
    print(f"\n{step.label}: {len(step.calls)} call(s), {step.seconds:.1f} s; cached input tokens in the trace "
          f"(one per byte here): {step.trace_cached}")
    cache = PrefixCache()
    for call in step.calls:
        prompt, cached = cache.measure(call.body)
        system = len(call.system.encode())
        schema = len(json.dumps(call.body.get("response_format"), ensure_ascii=False).encode())
        blocks = {kind: len(prompts.data_block(kind, value).encode()) for kind, value in call.request.items()
                  if kind != "stage"}
        framing = len(call.user.encode()) - sum(blocks.values()) - 2 * max(len(blocks) - 1, 0)
        print(f"  {call.stage}: wire {call.wire:,}, prompt {prompt:,}, cached {cached:,}, uncached "
              f"{prompt - cached:,}; fixed part: system message {system:,}, response_format {schema:,}, "
              f"user framing {framing:,}")
        parts = ", ".join(f"{k} {v:,}" for k, v in sorted(blocks.items(), key=lambda kv: -kv[1]) if v > 40)
        print(f"    blocks: {parts}")


# -- what the delta used of the context blocks ------------------------------------------------------


def _quotes(value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping):
        if isinstance(value.get("source"), str) and isinstance(value.get("quote"), str):
            yield value["source"], value["quote"]
        for item in value.values():
            yield from _quotes(item)
    elif isinstance(value, list):
        for item in value:
            yield from _quotes(item)


def _names(delta: Mapping[str, Any]) -> set[str]:
    names: set[str] = set()
    for relation in delta.get("relations", []):
        names.update((relation["subject"], relation["object"]))
    for topic in delta.get("topics", []):
        names.update(topic.get("members", []))
    for concept in delta.get("concepts", []):
        names.update((concept["name"], *concept.get("aliases", [])))
    names.update(a["title"] for a in delta.get("articles", []))
    return {n.casefold() for n in names}


def _used(kind: str, item: Mapping[str, Any], quotes: list[tuple[str, str]], names: set[str]) -> bool:
    if kind == "fragments":
        return any(s == item["source"] and q in item["text"] for s, q in quotes)
    labels = [item.get("id"), item.get("name"), item.get("title"), item.get("label"), *item.get("aliases", [])]
    return any(isinstance(label, str) and label.casefold() in names for label in labels)


def usage(steps: list[Step]) -> None:
    print("\nWhat the deltas used of each context block (the offline engine answering; a relation of the "
          "relations block is sent so that it is not returned again, never to be named):")
    print("| step | stage | block | items sent | items used | bytes sent | bytes of used items |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    totals: dict[str, list[int]] = {}
    for step in steps:
        for stage, request, delta in step.answers:
            quotes, names = list(_quotes(delta)), _names(delta)
            for kind in CONTEXT_BLOCKS:
                items = request.get(kind) or []
                if not items:
                    continue
                used = [i for i in items if _used(kind, i, quotes, names)]
                sizes = [len(json.dumps(i, ensure_ascii=False).encode()) for i in items]
                used_bytes = sum(len(json.dumps(i, ensure_ascii=False).encode()) for i in used)
                print(f"| {step.label} | {stage} | {kind} | {len(items)} | {len(used)} | {sum(sizes):,} "
                      f"| {used_bytes:,} |")
                total = totals.setdefault(kind, [0, 0, 0, 0])
                for j, v in enumerate((len(items), len(used), sum(sizes), used_bytes)):
                    total[j] += v
    for kind, (sent, used, sent_bytes, used_bytes) in totals.items():
        print(f"  {kind}: {used} of {sent} items used ({used / max(sent, 1):.0%}), "
              f"{used_bytes:,} of {sent_bytes:,} bytes ({used_bytes / max(sent_bytes, 1):.0%})")
    for step in steps:
        for stage, request, _ in step.answers:
            if stage != "analyze" or not request.get("anchors"):
                continue
            # R14 names what an anchor needs (id, name) and the fragments its definition cites.
            texts = " ".join(" ".join(f["text"].split()) for f in request.get("fragments", []))
            definitions = [str(a["definition"]) for a in request["anchors"] if "definition" in a]
            if not definitions:
                print(f"  {step.label}: the anchors carry no definitions (R14: the fragments hold their lines)")
                continue
            weight = sum(len(json.dumps(d, ensure_ascii=False).encode()) for d in definitions)
            inside = sum(len(d.encode()) for d in definitions if d and " ".join(d.split()) in texts)
            print(f"  {step.label}: the anchors' definitions weigh {weight:,} bytes; {inside:,} bytes of them "
                  "are also, word for word, in the fragments sent")


def main() -> None:
    baseline = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/wikigen-bench-sent/baseline")
    if not (baseline / ".git").is_dir():
        baseline.parent.mkdir(parents=True, exist_ok=True)
        build_baseline(baseline)
    files = corpus_files("k8s")
    offline = OfflineEngine()
    edited = files[EDITED] + b"\n\n" + PARAGRAPH.encode() + b"\n"
    gone = sorted(random.Random(SEED).sample(sorted(p for p in files if p != EDITED), DELETED))
    print(f"one edit: {EDITED} ({len(files[EDITED]):,} bytes) + a paragraph of {len(PARAGRAPH)} characters")
    print(f"delete nodes.md: {NODES} ({len(files[NODES]):,} bytes)")
    print(f"delete {DELETED} docs: {', '.join(p.split('/k8s/', 1)[-1] for p in gone)}")
    plans: list[tuple[Step, dict[str, bytes | None]]] = [
        (Step("one edit", len(edited)), {EDITED: edited}),
        (Step("delete nodes.md", len(files[NODES])), {NODES: None}),
        (Step(f"delete {DELETED} docs", sum(len(files[p]) for p in gone)), dict.fromkeys(gone)),
    ]
    steps = []
    for step, change in plans:
        run_step(baseline, step, change, offline)
        steps.append(step)
    table(steps)
    for step in steps:
        details(step)
    usage(steps)


if __name__ == "__main__":
    main()
