"""compile(): the one linear driver. Plan → invalidate → context → engine (analyze, recheck) →
validate → merge → publish, once per increment.

R9: nothing changed → no engine call and no commit. A failed increment keeps the previous snapshot,
is recorded as a git note (R33), and never falls back to a full rebuild.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

from wikigen.compiler.context import recheck_request
from wikigen.compiler.increments import (
    batch_order,
    increment_manifest,
    increment_tree,
    next_increment,
    preview,
)
from wikigen.compiler.lookup import Lookup
from wikigen.compiler.merge import merge
from wikigen.compiler.plan import Plan, refuse_mass_withdrawal
from wikigen.compiler.report import CompileReport, IncrementReport, RunBudget
from wikigen.compiler.resolve import Resolved, resolve
from wikigen.compiler.topics import TOPIC_ROUTE
from wikigen.engines import Delta, Engine, Usage, make_engine
from wikigen.model.config import Config
from wikigen.model.errors import (
    CapExceeded,
    EngineError,
    Interrupted,
    PrivacyError,
    SourceError,
    ValidationError,
    WikigenError,
)
from wikigen.model.hashing import canonical_bytes, json_sha256
from wikigen.model.ids import article_id, kind_of
from wikigen.model.objects import object_path
from wikigen.model.shards import Overlay
from wikigen.model.snapshot import RULES, Snapshot, private_globs_of, with_private_globs
from wikigen.store.baseline import Compiled, baseline_lookup
from wikigen.store.communities import read_record
from wikigen.store.drift import reconcile
from wikigen.store.migration import move_to_shards
from wikigen.store.plan_from_diff import manifest_fingerprint
from wikigen.store.publish import (
    StartedFrom,
    commit_message,
    previous_failure,
    publish,
    record_failure,
    record_outcome,
    refuse_retry,
    start_dirty_check,
)
from wikigen.store.uncommitted import uncommitted_note, uncommitted_sources
from wikigen.store.workspace import Workspace

MAX_DELTA_BYTES = 100_000  # analyze's delta, sent on to recheck, has its own limit
DELTA_PER_INPUT = 10  # a delta quoting its sources stays within this many times their bytes


# (sources done, sources in all, what happens now, the increment just published or None)
Progress = Callable[[int, int, str, "IncrementReport | None"], None]


def derives_topics(engine: Engine) -> bool:
    """Whether the compiler derives the topics from the objects (wikigen.compiler.topics) for this engine,
    instead of taking the topics its deltas return."""
    return bool(getattr(engine, "derives_topics", False))


def config_key(config: Config) -> str:
    """What makes a retry of the same sources meaningful: the caps and the engine route (R33)."""
    return json_sha256({"caps": repr(config.caps), "engine": repr(config.engine)})[:12]


def compile_mode(*, batch: bool, include_deferred: bool) -> str:
    """R33: the mode a failure is recorded under; a different mode is a different attempt."""
    return ("batch" if batch else "single") + ("+deferred" if include_deferred else "")


def invocation(
    *, batch: bool, include_deferred: bool, engine_name: str | None = None, allow_mass_withdrawal: bool = False
) -> str:
    """The `wikigen compile` command line of these options, for messages that tell what to run."""
    words = ["wikigen", "compile"]
    words += ["--batch"] if batch else []
    words += ["--include-deferred"] if include_deferred else []
    words += ["--engine", engine_name] if engine_name else []
    words += ["--allow-mass-withdrawal"] if allow_mass_withdrawal else []
    return " ".join(words)


def cap_advice(error: CapExceeded, *, batch: bool, batch_command: str) -> str:
    """Issue 11, item 1: what to do about a cap breach — a matter of the invocation when --batch
    would split the change, of the one source when it cannot be split further."""
    if not batch and len(error.sources) > 1:
        return (
            f"\nThis is about how compile was run, not about the sources: `{batch_command}` compiles the "
            "change in increments that each fit the caps."
        )
    if len(error.sources) != 1:
        return "\nRaise the cap named above (caps.* in wikigen.yml, or WIKIGEN_CAPS_*) to publish this increment."
    return (
        "\nThis source does not fit one increment together with the context it needs (fragments and anchors "
        "of the knowledge it mentions): split it into smaller sources, or raise the cap named above (caps.* "
        "in wikigen.yml, or WIKIGEN_CAPS_*)."
    )


def compile_repo(
    path: Path | str = ".",
    *,
    engine: Engine | None = None,
    overrides: Mapping[str, Any] | None = None,
    batch: bool = False,
    retry: bool = False,
    include_deferred: bool = False,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    allow_mass_withdrawal: bool = False,
    dirty_status: Callable[[], list[str] | None] | None = None,
) -> CompileReport:
    """Compile the sources committed at HEAD into a new snapshot (or several, with ``batch``).

    ``dirty_status``: the generated files staged against HEAD in ``path``'s repository, asked by the
    caller (:func:`wikigen.store.git_cli.start_staged_paths`), else asked here."""
    try:
        ws = Workspace.open(path, overrides=overrides)
        engine = engine or make_engine(ws.config)
    except BaseException:
        if dirty_status is not None:
            dirty_status()  # the command it started is waited for, not left running
        raise
    cancel = cancel or threading.Event()
    # The index is read while the plan is (issue 14), and answered before anything is written or
    # sent: local edits to generated files the compile writes would be lost, so they are refused first.
    refuse_dirty = start_dirty_check(ws.store, dirty_status)
    try:
        # Issue 15.6–15.7: generated files a merge brought are reconciled first; hand edits are refused.
        reconciled = reconcile(ws.store, ws.head, ws.baseline, refuse_dirty)
        if reconciled is not None:
            ws = Workspace.open(path, overrides=overrides)
        # Issue 14, R9: a schema-1 snapshot moves to the sharded layout first, in its own bookkeeping commit.
        relaid = move_to_shards(ws.store, ws.head, ws.baseline, refuse_dirty)
        if relaid is not None:
            ws = Workspace.open(path, overrides=overrides)
        parsed_cache: dict[Any, Any] = {}
        plan = ws.plan(include_deferred=include_deferred, parsed_cache=parsed_cache)
    except BaseException:
        with contextlib.suppress(WikigenError):
            refuse_dirty()  # waits for the index's answer; the first error is the one reported
        raise
    # the articles of the changed sources are rewritten: a local change there is refused now
    refuse_dirty(object_path(article_id([sid], "")) for sid in (*plan.added, *plan.updated, *plan.withdrawn))
    if plan.invalid:
        raise SourceError(plan.invalid)  # R5: nothing is published
    if not allow_mass_withdrawal:
        refuse_mass_withdrawal(plan, ws.baseline)
    key = config_key(ws.config)
    mode = compile_mode(batch=batch, include_deferred=include_deferred)
    command = partial(
        invocation,
        include_deferred=include_deferred,
        engine_name=(overrides or {}).get("engine.name"),
        allow_mass_withdrawal=allow_mass_withdrawal,
    )
    if not retry:
        failure = previous_failure(ws.store, ws.head, plan.sources_tree, key, mode)
        if failure is not None and plan.needs_compile:
            refuse_retry(failure, command(batch=batch))
    report = CompileReport(added=list(plan.added), updated=list(plan.updated), withdrawn=list(plan.withdrawn))
    report.version = ws.baseline.version
    for done_first in (reconciled, relaid):
        if done_first is not None:
            report.commit, report.published = done_first.commit, True
            report.warnings += done_first.warnings

    if not plan.needs_compile:
        if isinstance(plan.manifest, Overlay) and plan.manifest.base is ws.baseline.manifest:
            differs = bool(plan.manifest.touched())  # planned from the diff (issue 14)
        else:
            differs = dict(plan.manifest) != dict(ws.baseline.manifest)
        manifest_changed = (plan.manifest is not ws.baseline.manifest and (differs or plan.backfill)) or any(
            sid == "(settings)" for sid, _ in plan.bookkeeping
        )
        if not manifest_changed:
            report.message = (
                "generated files reconciled after a merge; nothing else to compile"
                if reconciled is not None
                else "snapshot moved to the sharded storage layout (no engine call); nothing else to compile"
                if relaid is not None
                else "nothing to compile: no engine call, no commit"
            )
            left_out = uncommitted_note(uncommitted_sources(ws.store))
            if left_out:
                report.message += f"; {left_out}"  # issue 11, item 5: never ignored silently
            return report
        # A bookkeeping commit: the manifest alone, version unchanged, no engine call.
        snapshot = replace(
            ws.baseline,
            sources_tree=plan.sources_tree,
            fingerprint=plan.fingerprint,
            manifest=plan.manifest,
            legacy=None,
            exists=True,
            extra=with_private_globs(ws.baseline.extra, private_globs_of(ws.config)),
        )
        started = StartedFrom(ws.head, ws.baseline.version, plan.sources_tree)
        reasons = sorted({r.split(":")[0] for _, r in plan.bookkeeping}) or ["manifest"]
        message = commit_message(
            f"wikigen: record {', '.join(reasons)} (snapshot {snapshot.version}, no engine call)",
            {"Wikigen-Snapshot": snapshot.version, "Wikigen-Sources-Changed": 0, "Wikigen-Engine-Calls": 0},
        )
        published = publish(ws.store, started, {}, snapshot, message)
        report.commit = published.commit
        report.warnings += published.warnings
        report.published = True
        report.bookkeeping = True
        report.message = "bookkeeping commit of the manifest alone"
        return report

    budget = RunBudget(ws.config.budget.max_sent_bytes, ws.config.budget.max_engine_calls)
    first = True
    total = len(plan.changed) + len(plan.withdrawn)
    order = batch_order(plan) if batch else None
    bodies: dict[tuple[str, str, str], str] = {}  # compiled bodies read for context, across increments
    done = 0
    while True:
        lookup: Lookup | None = None
        try:
            lookup = baseline_lookup(ws)
            selected = next_increment(ws, plan, batch, order, bodies, lookup)
            if progress is not None:
                progress(done, total, f"increment of {len(selected)} source(s)", None)
            inc = _run_increment(ws, plan, selected, engine, budget, cancel, first, bodies, lookup)
        except (Exception, KeyboardInterrupt) as exc:
            # R33: every failure writes the note the manual promises, Ctrl-C and internal errors too.
            error = _interrupted(report) if isinstance(exc, KeyboardInterrupt) else exc
            if isinstance(error, CapExceeded):
                error.message += cap_advice(error, batch=batch, batch_command=command(batch=True))
            if report.published and not isinstance(error, Interrupted) and isinstance(error, WikigenError):
                # Issue 15.3: this run did publish; the failing increment's "nothing was published" is its own.
                error.message += f"\nSnapshot {report.version} of this run's earlier increments stays published."
            record_failure(
                ws.store,
                ws.head,
                {
                    "sourcesTree": plan.sources_tree,
                    "fingerprint": plan.fingerprint,
                    "configKey": key,
                    "mode": mode,
                    "engineCalls": budget.engine_calls,
                    "baselineVersion": ws.baseline.version,
                },
                error,
            )
            if error is exc:
                raise
            raise error from None
        finally:
            if lookup is not None:
                lookup.close()
        # The source commit also records what its compile cost (R32), so CI pushes one notes ref.
        unwritten = record_outcome(ws.store, ws.head, {"status": "ok", "snapshot": inc.version, "commit": inc.commit,
                                                       "engineCalls": inc.engine_calls,
                                                       "sentBytes": inc.sent_bytes["total"],
                                                       "sourcesTree": plan.sources_tree})
        report.warnings += [*inc.warnings, *([unwritten] if unwritten else [])]
        report.increments.append(inc)
        report.published = True
        report.version = inc.version
        report.commit = inc.commit
        done += len(inc.sources) + len(inc.withdrawn)
        if progress is not None:
            progress(done, total, f"published snapshot {inc.version}", inc)
        first = False
        if inc.interrupted:
            break  # Ctrl-C after this increment published: it stays, the batch stops
        if not batch:
            break  # one increment took everything: no plan again (0.25 s at 100,000 sources, issue 14)
        ws = Workspace.open(path, overrides=overrides)
        plan = ws.plan(include_deferred=include_deferred, parsed_cache=parsed_cache)
        if not plan.needs_compile:
            break
    if progress is not None:
        progress(total, total, "done", None)
    report.message = f"published snapshot {report.version} in {len(report.increments)} increment(s)"
    return report


def _interrupted(report: CompileReport) -> Interrupted:
    if report.published:
        return Interrupted(
            f"interrupted (Ctrl-C); snapshot {report.version} of the earlier increments stays published, "
            "the rest was not published — compile again to continue"
        )
    return Interrupted("interrupted (Ctrl-C); nothing was published — compile again to continue")


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
    budget.charge(size, stage)  # R5-of-issue-5: stop before the call, never after
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


def _run_increment(
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
            return _run_increment(ws, plan, selected, engine, budget, cancel, first, bodies, made)
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
            # Issue 15.7: --batch helps only a delta in proportion to its sources; a 20 MB answer to one
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
        # R19: recheck is sent what it checks, not analyze's request again (issue 14, item 4).
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
        extra=with_private_globs(baseline.extra, private_globs_of(ws.config)),
        stored=baseline.stored,  # issue 14: only the shards that differ from the baseline's are written
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
    started = StartedFrom(ws.head, baseline.version, plan.sources_tree)
    published = publish(ws.store, started, merged.files, snapshot, message)
    inc.commit = published.commit
    inc.warnings = list(published.warnings)
    inc.interrupted = published.interrupted
    return inc
