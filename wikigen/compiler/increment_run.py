"""One increment, run: its request sent to the engine (analyze, then recheck), the deltas resolved
against what the request provided, merged into the baseline's objects, and published as one commit.
The driver (:mod:`wikigen.compiler.driver`) runs one after another."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from wikigen.compiler.context import recheck_request
from wikigen.compiler.increments import (
    increment_manifest,
    increment_tree,
    preview,
)
from wikigen.compiler.lookup import Lookup
from wikigen.compiler.merge import merge
from wikigen.compiler.plan import Plan
from wikigen.compiler.report import IncrementReport, RunBudget
from wikigen.compiler.resolve import Resolved, resolve
from wikigen.compiler.topics import TOPIC_ROUTE
from wikigen.engines import Delta, Engine, Usage
from wikigen.model.errors import (
    EngineError,
    PrivacyError,
    ValidationError,
)
from wikigen.model.hashing import canonical_bytes
from wikigen.model.ids import kind_of
from wikigen.model.shards import Overlay
from wikigen.model.snapshot import RULES, Snapshot, with_settings
from wikigen.store.baseline import Compiled, baseline_lookup
from wikigen.store.communities import read_record
from wikigen.store.plan_from_diff import manifest_fingerprint
from wikigen.store.publish import (
    StartedFrom,
    commit_message,
    publish,
)
from wikigen.store.workspace import Workspace

MAX_DELTA_BYTES = 100_000  # analyze's delta, sent on to recheck, has its own limit
DELTA_PER_INPUT = 10  # a delta quoting its sources stays within this many times their bytes


def derives_topics(engine: Engine) -> bool:
    """Whether the compiler derives the topics from the objects (wikigen.compiler.topics) for this engine,
    instead of taking the topics its deltas return."""
    return bool(getattr(engine, "derives_topics", False))


def _call(
    engine: Engine,
    stage: str,
    request: Mapping[str, Any],
    deadline: float,
    cancel: threading.Event,
    budget: RunBudget,
    inc: IncrementReport,
) -> Delta:
    size = len(canonical_bytes(request))
    budget.charge(size, stage)  # a run budget stops before the call, never after
    if time.monotonic() > deadline:
        raise EngineError(f"the deadline passed before the {stage} call; nothing was published")
    delta = engine.run(stage, request, deadline, cancel)
    inc.engine_calls += 1
    inc.sent_bytes[stage] = size
    inc.sent_bytes["total"] += size
    return delta


def _sum_usage(usages: Sequence[Usage]) -> dict[str, int | None]:
    total: dict[str, int | None] = {}
    for key in ("input", "cached_input", "output", "reasoning"):
        values = [getattr(u, key) for u in usages]
        # R32: a count the service did not report stays null, never 0.
        total[key] = (
            None if not values or any(v is None for v in values) else sum(v for v in values if v is not None)
        )
    return total


def run_increment(
    ws: Workspace,
    plan: Plan,
    selected: Sequence[str],
    engine: Engine,
    budget: RunBudget,
    cancel: threading.Event,
    first: bool,
    bodies: dict[tuple[str, str, str], str] | None = None,
    lookup: Lookup | None = None,
) -> IncrementReport:
    baseline = ws.baseline
    withdrawn = list(plan.withdrawn) if first else []
    changed = [plan.sources[sid] for sid in selected]
    if engine.remote:
        private = sorted(s.id for s in changed if s.private)
        if private:
            raise PrivacyError(
                f"private source(s) {', '.join(private)} would be sent to the {engine.name} engine; "
                "compile them with the offline engine or remove `private`"
            )
    if lookup is None:
        made = baseline_lookup(ws)
        try:
            return run_increment(ws, plan, selected, engine, budget, cancel, first, bodies, made)
        finally:
            made.close()
    revoked, ctx = preview(ws, plan, selected, withdrawn, bodies=bodies, lookup=lookup)
    if engine.remote:
        private_fragments = sorted(
            {
                f.source
                for f in ctx.fragments
                if (e := baseline.manifest.get(f.source)) is not None and e.private
            }
        )
        if private_fragments:
            raise PrivacyError(
                f"fragments of private source(s) {', '.join(private_fragments)} would be sent to the {engine.name} "
                "engine; compile with the offline engine"
            )
    version = baseline.version + 1
    inc = IncrementReport(version=version, commit=None, sources=list(selected), withdrawn=withdrawn)
    inc.input_bytes = ctx.input_bytes
    inc.fragments = len(ctx.fragments)
    inc.fragment_bytes = sum(len(f.text.encode("utf-8")) for f in ctx.fragments)
    inc.anchors = len(ctx.anchors)
    inc.caps = {k: [v[0], v[1]] for k, v in ctx.caps.items()}
    revoked_counts = {k: 0 for k in ("article", "concept", "relation", "topic")}
    for oid in revoked:
        revoked_counts[kind_of(oid)] += 1
    inc.revoked = revoked_counts
    index = baseline.objects

    deltas: list[Delta] = []
    resolved = Resolved()
    routes: dict[str, str] = {}
    if ctx.needs_engine:
        deadline = time.monotonic() + ws.config.engine.deadline_s
        analyze = _call(engine, "analyze", ctx.request, deadline, cancel, budget, inc)
        deltas.append(analyze)
        delta_bytes = len(analyze.to_bytes())
        if delta_bytes > MAX_DELTA_BYTES:
            # --batch helps only a delta in proportion to its sources; a 20 MB answer to one
            # small source is the server's doing, and no split would change it.
            batch_helps = len(selected) > 1 and delta_bytes <= DELTA_PER_INPUT * ctx.input_bytes
            advice = (
                "split the change with --batch"
                if batch_helps
                else f"that is far more than {len(selected)} source(s) of {ctx.input_bytes:,} bytes warrant, and "
                "splitting the change would not help: check the model (engine.models.analyze) and the server "
                "(engine.base_url)"
            )
            raise ValidationError(
                [
                    f"analyze returned {delta_bytes:,} bytes, over the {MAX_DELTA_BYTES:,}-byte limit for the recheck "
                    f"request; {advice}"
                ]
            )
        # R19: recheck is sent what it checks, not analyze's request again.
        rechecked = recheck_request(ctx.request, analyze.data)
        recheck = _call(engine, "recheck", rechecked, deadline, cancel, budget, inc)
        deltas.append(recheck)
        routes = {"analyze": analyze.route, "recheck": recheck.route}
        resolved = resolve(
            [("analyze", analyze.data), ("recheck", recheck.data)], ctx, index, lambda i: i not in revoked, lookup
        )
        if resolved.problems:
            raise ValidationError(resolved.problems)

    manifest = increment_manifest(baseline, plan, selected)
    compiled_after = Compiled(manifest, frozenset())
    head_tree = ws.store.commit_tree(ws.head)
    provenance = {"snapshot": version, "route": routes.get("analyze", "local")}
    merged = merge(
        baseline_index=index,
        revoked=revoked,
        resolved=resolved,
        read_file=lambda p: ws.store.read_file(head_tree, p),
        compiled=compiled_after,
        provenance=provenance,
        communities=read_record(ws.store, head_tree),
        derive_topics=derives_topics(engine),
        # the baseline's topics are the rule's whole output when the rule made the baseline (R32 traces it)
        topics_complete=dict(baseline.trace.get("topics") or {}).get("route") == TOPIC_ROUTE,
        lookup=lookup,
        recompiled=[*selected, *withdrawn],
    )
    if merged.problems:
        raise ValidationError(merged.problems, what="new snapshot")
    inc.objects = merged.counts

    trace = {
        "snapshot": version,
        "rules": RULES,
        "engine": engine.name if ctx.needs_engine else "local",
        "routes": routes,
        "changed": sorted(selected),
        "withdrawn": sorted(withdrawn),
        "revoked": revoked_counts,
        "engineCalls": inc.engine_calls,
        "inputBytes": inc.input_bytes,
        "sentBytes": dict(inc.sent_bytes),
        "calls": [
            {
                "stage": stage,
                "route": d.route,
                "model": d.model,
                "usage": d.usage.as_json(),
                "http": list(d.calls),
            }
            for stage, d in zip(("analyze", "recheck"), deltas, strict=False)
        ],
        "usage": _sum_usage([d.usage for d in deltas]),
    }
    if derives_topics(engine):
        # R32: derived topics are the compiler's topic rule's work, never the engine route's.
        trace["topics"] = {"route": TOPIC_ROUTE, **merged.counts["topic"]}
    snapshot = Snapshot(
        version=version,
        sources_tree=increment_tree(ws, plan, selected),
        fingerprint=manifest_fingerprint(ws.store, baseline, manifest),
        manifest=manifest if isinstance(manifest, Overlay) else MappingProxyType(manifest),
        objects=merged.index,
        trace=MappingProxyType(trace),
        exists=True,
        extra=with_settings(baseline.extra, ws.config),
        stored=baseline.stored,  # only the shards that differ from the baseline's are written
        summary=baseline.summary,  # the root record's counts, brought forward by what changed
    )
    summary = (
        f"wikigen: snapshot {version} — {len(selected)} source(s) compiled, {len(withdrawn)} withdrawn, "
        f"{inc.engine_calls} engine call(s)"
    )
    message = commit_message(
        summary,
        {
            "Wikigen-Snapshot": version,
            "Wikigen-Sources-Changed": len(selected) + len(withdrawn),
            "Wikigen-Engine-Calls": inc.engine_calls,
            "Wikigen-Route": routes.get("analyze", "local"),
        },
    )
    started = StartedFrom(ws.head, baseline.version, plan.sources_tree, ws.sources_dir)
    published = publish(ws.store, started, merged.files, snapshot, message)
    inc.commit = published.commit
    inc.warnings = list(published.warnings)
    inc.interrupted = published.interrupted
    return inc
