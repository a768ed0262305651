"""compile(): the one linear driver. Plan → invalidate → context → engine (analyze, recheck) →
validate → merge → publish, once per increment.

R9: nothing changed → no engine call and no commit. A failed increment keeps the previous snapshot,
is recorded as a git note (R33), and never falls back to a full rebuild.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from wikigen.compiler.increment_run import run_increment
from wikigen.compiler.increments import (
    batch_order,
    dependents,
    next_increment,
    title_mentions,
)
from wikigen.compiler.lookup import Lookup
from wikigen.compiler.plan import Plan
from wikigen.compiler.plan_edges import refuse_mass_withdrawal
from wikigen.compiler.preflight import over_caps
from wikigen.compiler.report import (
    CompileReport,
    IncrementReport,
    RunBudget,
    listed,
    not_compiled,
    refusal,
    unfinished_batch,
)
from wikigen.compiler.sizes import raises
from wikigen.engines import Engine, make_engine
from wikigen.model.config import Config
from wikigen.model.errors import (
    CapExceeded,
    Interrupted,
    SourceError,
    WikigenError,
)
from wikigen.model.hashing import json_sha256
from wikigen.model.ids import article_id
from wikigen.model.objects import object_path
from wikigen.model.shards import Overlay
from wikigen.model.snapshot import with_settings
from wikigen.store.baseline import baseline_lookup
from wikigen.store.drift import reconcile
from wikigen.store.migration import move_to_shards
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

# (sources done, sources in all, what happens now, the increment just published or None)
Progress = Callable[[int, int, str, "IncrementReport | None"], None]


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
    """R15–R16: what to do about a cap breach — a matter of the invocation when --batch
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
        "of the knowledge it mentions): split it into smaller sources, or "
        + (raises(error.over) or "raise the cap named above (caps.* in wikigen.yml, or WIKIGEN_CAPS_*)")
        + "."
    )


@dataclass
class _Run:
    """What one compile run carries from stage to stage: how it was asked for, and what it reads."""

    path: Path | str
    overrides: Mapping[str, Any] | None
    engine: Engine
    cancel: threading.Event
    progress: Progress | None
    batch: bool
    include_deferred: bool
    command: Callable[..., str]  # the `wikigen compile` line of these options, for messages
    key: str  # R33: what makes a retry meaningful
    mode: str  # R33: the mode a failure is recorded under
    parsed_cache: dict[Any, Any] = field(default_factory=dict)  # sources parsed, across --batch plans
    # compiled bodies read for context, by the preflight and across increments
    bodies: dict[tuple[str, str, str], str] = field(default_factory=dict)


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

    The stages in order: open the store, bring the generated files and the layout up to date, plan,
    refuse what must not be compiled, then either record the manifest alone (no engine call) or
    compile increment by increment — request, engine, validation, merge, publish.

    ``dirty_status``: the generated files staged against HEAD in ``path``'s repository, asked by the
    caller (:func:`wikigen.store.git_cli.start_staged_paths`), else asked here."""
    ws, engine = _open(path, overrides, engine, dirty_status)
    run = _Run(
        path=path,
        overrides=overrides,
        engine=engine,
        cancel=cancel or threading.Event(),
        progress=progress,
        batch=batch,
        include_deferred=include_deferred,
        command=partial(
            invocation,
            include_deferred=include_deferred,
            engine_name=(overrides or {}).get("engine.name"),
            allow_mass_withdrawal=allow_mass_withdrawal,
        ),
        key=config_key(ws.config),
        mode=compile_mode(batch=batch, include_deferred=include_deferred),
    )
    ws, plan, done_first = _plan(ws, run, dirty_status)
    _refuse(ws, plan, run, retry=retry, allow_mass_withdrawal=allow_mass_withdrawal)
    report = CompileReport(added=list(plan.added), updated=list(plan.updated), withdrawn=list(plan.withdrawn))
    report.version = ws.baseline.version
    for done in done_first.values():
        report.commit, report.published = done.commit, True
        report.warnings += done.warnings
    if not plan.needs_compile:
        return _record_without_engine(ws, plan, report, done_first)
    return _compile_increments(ws, plan, run, report)


def _open(
    path: Path | str,
    overrides: Mapping[str, Any] | None,
    engine: Engine | None,
    dirty_status: Callable[[], list[str] | None] | None,
) -> tuple[Workspace, Engine]:
    """The store, the settings and the baseline snapshot, and the engine they name."""
    try:
        ws = Workspace.open(path, overrides=overrides)
        return ws, engine or make_engine(ws.config)
    except BaseException:
        if dirty_status is not None:
            dirty_status()  # the command it started is waited for, not left running
        raise


def _plan(
    ws: Workspace, run: _Run, dirty_status: Callable[[], list[str] | None] | None
) -> tuple[Workspace, Plan, dict[str, Any]]:
    """Reconcile the generated files a merge brought, move an old layout, then plan. The index is
    read while the plan is, and answered before anything is written or sent: local edits to the
    generated files this compile writes would be lost, so they are refused first."""
    refuse_dirty = start_dirty_check(ws.store, dirty_status)
    try:
        # Generated files a merge brought are reconciled first; hand edits are refused.
        reconciled = reconcile(ws.store, ws.head, ws.baseline, refuse_dirty)
        if reconciled is not None:
            ws = Workspace.open(run.path, overrides=run.overrides)
        # R9: a schema-1 snapshot moves to the sharded layout first, in its own bookkeeping commit.
        relaid = move_to_shards(ws.store, ws.head, ws.baseline, refuse_dirty)
        if relaid is not None:
            ws = Workspace.open(run.path, overrides=run.overrides)
        plan = ws.plan(include_deferred=run.include_deferred, parsed_cache=run.parsed_cache)
    except BaseException:
        with contextlib.suppress(WikigenError):
            refuse_dirty()  # waits for the index's answer; the first error is the one reported
        raise
    # the articles of the changed sources are rewritten: a local change there is refused now
    refuse_dirty(object_path(article_id([sid], "")) for sid in (*plan.added, *plan.updated, *plan.withdrawn))
    done_first = {"reconciled": reconciled, "relaid": relaid}
    return ws, plan, {what: done for what, done in done_first.items() if done is not None}


def _refuse(ws: Workspace, plan: Plan, run: _Run, *, retry: bool, allow_mass_withdrawal: bool) -> None:
    """What must not be compiled: invalid sources (R5), sources too large with their context (R15),
    a mass withdrawal, a retry of a failure with nothing relevant changed (R33)."""
    # R15: every source over a cap with the context the snapshot gives it, listed with the invalid
    # ones before any engine call — never found by a batch halfway, after it published part of it.
    too_large = over_caps(ws, [plan.sources[sid] for sid in plan.changed], bodies=run.bodies)
    if plan.invalid or too_large:
        raise SourceError(sorted([*plan.invalid, *too_large], key=lambda p: (p.path, p.line)))  # R5
    if not allow_mass_withdrawal:
        refuse_mass_withdrawal(plan, ws.baseline, ws.sources_dir)
    if not retry:
        failure = previous_failure(
            ws.store, ws.head, plan.sources_tree, run.key, run.mode, sources_dir=ws.sources_dir
        )
        if failure is not None and plan.needs_compile:
            refuse_retry(failure, run.command(batch=run.batch))


def _record_without_engine(
    ws: Workspace, plan: Plan, report: CompileReport, done_first: Mapping[str, Any]
) -> CompileReport:
    """R9: nothing to compile — no commit, or a bookkeeping commit of the manifest alone."""
    if isinstance(plan.manifest, Overlay) and plan.manifest.base is ws.baseline.manifest:
        differs = bool(plan.manifest.touched())  # planned from the diff
    else:
        differs = dict(plan.manifest) != dict(ws.baseline.manifest)
    manifest_changed = (
        plan.manifest is not ws.baseline.manifest and (differs or plan.backfill)
    ) or plan.settings_changed
    if not manifest_changed:
        report.message = (
            "generated files reconciled after a merge; nothing else to compile"
            if "reconciled" in done_first
            else "snapshot moved to the sharded storage layout (no engine call); nothing else to compile"
            if "relaid" in done_first
            else "nothing to compile: no engine call, no commit"
        )
        left_out = uncommitted_note(uncommitted_sources(ws.store, ws.sources_dir))
        if left_out:
            report.message += f"; {left_out}"  # never ignored silently
        return report
    # A bookkeeping commit: the manifest alone, version unchanged, no engine call.
    snapshot = replace(
        ws.baseline,
        sources_tree=plan.sources_tree,
        fingerprint=plan.fingerprint,
        manifest=plan.manifest,
        legacy=None,
        exists=True,
        extra=with_settings(ws.baseline.extra, ws.config),
    )
    started = StartedFrom(ws.head, ws.baseline.version, plan.sources_tree, ws.sources_dir)
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


def _compile_increments(ws: Workspace, plan: Plan, run: _Run, report: CompileReport) -> CompileReport:
    """One increment after another (all of the change at once without ``batch``), each published
    before the next is planned; a failure is recorded as a note (R33) and keeps what was published.

    With ``batch``, a source that its context, grown by this run's earlier increments, makes too
    large is refused alone: the sources that name its title are left for a later compile with it,
    the others go on; the run then fails, listing every source it did not compile and why."""
    budget = RunBudget(ws.config.budget.max_sent_bytes, ws.config.budget.max_engine_calls)
    first = True
    total = len(plan.changed) + len(plan.withdrawn)
    order = batch_order(plan) if run.batch else None
    mentions = title_mentions(plan) if run.batch else {}
    left_out: dict[str, str] = {}  # source id → why this run does not compile it
    refused: list[CapExceeded] = []
    bodies = run.bodies
    done = 0
    while True:
        left = [sid for sid in plan.changed if sid not in left_out]
        if not left and not (first and plan.withdrawn):
            break
        lookup: Lookup | None = None
        selected: list[str] = []
        try:
            lookup = baseline_lookup(ws)
            selected = next_increment(ws, plan, run.batch, order, bodies, lookup, skip=left_out)
            if run.progress is not None:
                run.progress(done, total, f"increment of {len(selected)} source(s)", None)
            inc = run_increment(ws, plan, selected, run.engine, budget, run.cancel, first, bodies, lookup)
        except (Exception, KeyboardInterrupt) as exc:
            if run.batch and isinstance(exc, CapExceeded) and len(selected) == 1:
                # Refused alone: what does not depend on it still compiles in this run.
                (sid,) = selected
                left_out[sid] = refusal(exc)
                left_out.update(dependents(sid, mentions, [s for s in left if s not in left_out]))
                refused.append(exc)
                continue
            error = _recorded_failure(ws, plan, run, report, budget, exc, not_compiled(left, selected, left_out))
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
        if run.progress is not None:
            run.progress(done, total, f"published snapshot {inc.version}", inc)
        first = False
        if inc.interrupted:
            break  # Ctrl-C after this increment published: it stays, the batch stops
        if not run.batch:
            break  # one increment took everything: no plan again
        ws = Workspace.open(run.path, overrides=run.overrides)
        plan = ws.plan(include_deferred=run.include_deferred, parsed_cache=run.parsed_cache)
        if not plan.needs_compile:
            break
    if refused:
        left_out |= _measured_now(ws, plan, [sid for e in refused for sid in e.sources], bodies)
        error = unfinished_batch(report, refused, left_out)
        _recorded_failure(ws, plan, run, report, budget, error, left_out, advise=False)
        raise error
    if run.progress is not None:
        run.progress(total, total, "done", None)
    report.message = f"published snapshot {report.version} in {len(report.increments)} increment(s)"
    return report


def _measured_now(
    ws: Workspace, plan: Plan, refused: list[str], bodies: dict[tuple[str, str, str], str]
) -> dict[str, str]:
    """R15: why each source --batch refused is not compiled, measured against the snapshot the run
    published last — what ``check`` and the next compile will say. A source whose context cannot be
    read keeps the reason it was refused with."""
    sources = [plan.sources[sid] for sid in refused if sid in plan.sources]
    try:
        problems = {p.path: p.message for p in over_caps(ws, sources, bodies=bodies)}
    except WikigenError:
        return {}
    fits = "it was too large with the context of this run's earlier increments, and fits with the context published now"
    return {s.id: problems.get(s.path, fits) for s in sources}


def _recorded_failure(
    ws: Workspace,
    plan: Plan,
    run: _Run,
    report: CompileReport,
    budget: RunBudget,
    exc: BaseException,
    uncompiled: Mapping[str, str],
    *,
    advise: bool = True,
) -> BaseException:
    """R33: every failure writes the note the manual promises, Ctrl-C and internal errors too; the
    error to raise, with what to do about it. With --batch the note and the message list every
    source the run did not compile, and why. ``advise``: False for an error that already says all that."""
    error = _interrupted(report) if isinstance(exc, KeyboardInterrupt) else exc
    if isinstance(error, CapExceeded) and advise:
        error.message += cap_advice(error, batch=run.batch, batch_command=run.command(batch=True))
    if report.published and advise and not isinstance(error, Interrupted) and isinstance(error, WikigenError):
        # This run did publish; the failing increment's "nothing was published" is its own.
        error.message += f"\nSnapshot {report.version} of this run's earlier increments stays published."
    if run.batch and advise and isinstance(error, WikigenError):
        error.message += f"\nNot compiled in this run:\n{listed(uncompiled)}"
    record = {
        "sourcesTree": plan.sources_tree,
        "fingerprint": plan.fingerprint,
        "configKey": run.key,
        "mode": run.mode,
        "engineCalls": budget.engine_calls,
        "baselineVersion": ws.baseline.version,
    }
    if run.batch:
        record["notCompiled"] = dict(uncompiled)
    record_failure(ws.store, ws.head, record, error)
    return error


def _interrupted(report: CompileReport) -> Interrupted:
    if report.published:
        return Interrupted(
            f"interrupted (Ctrl-C); snapshot {report.version} of the earlier increments stays published, "
            "the rest was not published — compile again to continue"
        )
    return Interrupted("interrupted (Ctrl-C); nothing was published — compile again to continue")


