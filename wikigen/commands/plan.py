"""`wikigen plan`: what a compile would do, without calling a model, and the `plan --json` format."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from wikigen.compiler.plan_edges import nothing_to_compile
from wikigen.engines.route import route_of
from wikigen.store.unread_markdown import unread_at

if TYPE_CHECKING:
    from wikigen.compiler.plan import Plan
    from wikigen.store.workspace import Workspace


def plan_json(plan: Plan) -> dict[str, Any]:
    """The `plan --json` contract (snake_case); later stages add their figures."""
    return {
        "baseline_version": plan.baseline_version,
        "baseline_tree": plan.baseline_tree,
        "sources_tree": plan.sources_tree,
        "added": list(plan.added),
        "updated": list(plan.updated),
        "withdrawn": list(plan.withdrawn),
        "deferred": list(plan.deferred),
        "pending": list(plan.pending),
        "unchanged": plan.unchanged,
        "invalid": [p.as_dict() for p in plan.invalid],
        "bookkeeping": [{"source": s, "reason": r} for s, r in plan.bookkeeping],
        "reasons": dict(sorted(plan.reasons.items())),
        "fingerprint": plan.fingerprint,
        "blobs_read": plan.blobs_read,
        "backfill": plan.backfill,
    }


def plan_report(ws: Workspace, *, staged: bool, include_deferred: bool) -> tuple[Plan, dict[str, Any]]:
    """The plan from HEAD (or the index), and its `plan --json` object with the next compile's
    figures and the engine's route. A source too large with its context (R15, measured as compile
    measures it before its first engine call) is invalid here as in compile."""
    result = ws.plan(staged=staged, include_deferred=include_deferred)
    figures = nothing_to_compile()
    # R9: a plan with nothing to compile never loads the compile driver.
    if result.needs_compile:
        from wikigen.compiler.increments import plan_figures
        from wikigen.compiler.preflight import over_caps

        if not result.invalid:
            figures = plan_figures(ws, result)
        # only a change over its caps can hold a source over them
        measure = result.invalid or figures["over_caps"]
        too_large = over_caps(ws, [result.sources[sid] for sid in result.changed]) if measure else []
        if too_large:
            invalid = sorted([*result.invalid, *too_large], key=lambda p: (p.path, p.line))
            result = replace(result, invalid=tuple(invalid))
    data = plan_json(result)
    if not result.invalid:
        data |= figures
    data["route"] = route_of(ws.config)
    data["sources_dir"] = ws.sources_dir
    data["unread_markdown"] = unread_at(ws.store, ws.head, ws.sources_dir, staged=staged).as_json()
    return result, data
