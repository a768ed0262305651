"""`wikigen status`: the snapshot version, sources per category, pending and deferred changes."""

from __future__ import annotations

from typing import Any

from wikigen.model.config import CATEGORIES
from wikigen.store.snapshot import waiting_of
from wikigen.store.uncommitted import uncommitted_sources
from wikigen.store.unread_markdown import unread_at
from wikigen.store.workspace import Workspace


def status_report(ws: Workspace) -> dict[str, Any]:
    baseline = ws.baseline
    plan = ws.plan()
    per_category = dict.fromkeys(CATEGORIES, 0)
    summary = baseline.summary
    recorded = plan.waiting
    if recorded is not None:
        # Nothing changed, so the root record's counts say it all — no shard is read.
        per_category |= summary["perCategory"]
        waiting = {sid: dict(w) for sid, w in recorded.items()}
        objects = int(summary["objects"])
    else:
        for entry in plan.manifest.values():
            per_category[entry.category] = per_category.get(entry.category, 0) + 1
        waiting = waiting_of(plan.manifest)
        # the baseline's objects, counted by its root record when it has one (never the whole index)
        objects = int(summary["objects"]) if "objects" in summary else len(baseline.objects)
    return {
        "snapshot_version": baseline.version,
        "legacy_snapshot": baseline.legacy is not None,
        "rules": baseline.rules,
        "sources": sum(per_category.values()),
        "sources_per_category": per_category,
        "auto_archive": dict(ws.config.auto_archive),
        "objects": objects,
        "pending_changes": {
            "added": list(plan.added),
            "updated": list(plan.updated),
            "withdrawn": list(plan.withdrawn),
            "bookkeeping": [sid for sid, _ in plan.bookkeeping],
        },
        "deferred": [sid for sid, w in waiting.items() if w["reason"] == "deferred"],
        "waiting": {sid: w for sid, w in waiting.items() if w["reason"] != "deferred"},
        "invalid": [p.as_dict() for p in plan.invalid],
        "uncommitted": uncommitted_sources(ws.store, ws.sources_dir),
        "sources_dir": ws.sources_dir,
        "unread_markdown": unread_at(ws.store, ws.head, ws.sources_dir).as_json(),
    }
