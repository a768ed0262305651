"""The two edges of a plan: a sources tree identical to the baseline's, planned from the root record
alone with nothing to compile (R7), and a compile that would withdraw most compiled sources at once,
which is refused (R29).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from wikigen.compiler.plan import Plan
from wikigen.model.config import DEFAULT_SOURCES_DIR
from wikigen.model.errors import MassWithdrawal
from wikigen.model.snapshot import Snapshot, recorded_sources_dir

# R29: withdrawing more than this many sources at once, and more than half of them, is refused without
# --allow-mass-withdrawal (a renamed sources folder withdraws every source).
MASS_WITHDRAWAL = 10


def nothing_to_compile() -> dict[str, Any]:
    """What `plan --json` adds (``wikigen.compiler.increments.plan_figures``) when there is nothing to compile."""
    return {
        "revoked": {k: 0 for k in ("article", "concept", "relation", "topic")},
        "fragments": 0,
        "anchors": 0,
        "input_bytes": 0,
        "caps": {},
        "engine_calls": 0,
        "over_caps": [],
    }


def unchanged_plan(baseline: Snapshot, tree: str, waiting: Mapping[str, Mapping[str, Any]] | None) -> Plan | None:
    """R7: the plan of a sources tree identical to the baseline's, from the root record and the
    ``waiting`` sources alone — no source blob and no manifest shard is read. None when the snapshot
    cannot answer so (a schema-1 or legacy snapshot, or none): then the full plan runs."""
    summary = baseline.summary
    if tree != baseline.sources_tree or not baseline.sharded or waiting is None or "sources" not in summary:
        return None
    return Plan(
        baseline_version=baseline.version,
        baseline_tree=baseline.sources_tree,
        sources_tree=tree,
        added=(),
        updated=(),
        withdrawn=(),
        deferred=tuple(sorted(sid for sid, w in waiting.items() if w["reason"] == "deferred")),
        pending=tuple(sorted(sid for sid, w in waiting.items() if w["reason"] != "deferred")),
        unchanged=int(summary["sources"]) - len(waiting),
        invalid=(),
        bookkeeping=(),
        reasons=MappingProxyType({sid: str(w["reason"]) for sid, w in waiting.items()}),
        sources=MappingProxyType({}),
        manifest=baseline.manifest,  # the baseline's own, read only if someone looks
        fingerprint=baseline.fingerprint,
        blobs_read=0,
        waiting=MappingProxyType(dict(waiting)),
    )


def refuse_mass_withdrawal(plan: Plan, baseline: Snapshot, sources_dir: str) -> None:
    """R29: a compile that would withdraw more than half of the compiled sources, and more than
    ``MASS_WITHDRAWAL`` at once, is refused — it is more often a moved folder than a decision.
    ``sources_dir`` is the sources folder in force (``paths.sources``)."""
    withdrawn = len(plan.withdrawn)
    if withdrawn <= MASS_WITHDRAWAL:
        return  # the usual case, decided without counting the manifest
    compiled = sum(1 for e in baseline.manifest.values() if e.version is not None)
    if 2 * withdrawn <= compiled:
        return
    folders = sorted({baseline.manifest[sid].path.rsplit("/", 1)[0] for sid in plan.withdrawn})
    listing = ", ".join(folders[:3]) + (" …" if len(folders) > 3 else "")
    raise MassWithdrawal(
        f"this compile would withdraw {withdrawn} of the {compiled} compiled sources (from {listing}) and "
        "revoke everything derived from them; a renamed or moved sources folder looks like this. If the "
        "sources are meant to go, run `wikigen compile --allow-mass-withdrawal`; otherwise put them back "
        f"under {sources_dir}/{'<category>/' if sources_dir == DEFAULT_SOURCES_DIR else ''} and commit"
        f"{_folder_moved(baseline, sources_dir)}. Nothing was published."
    )


def _folder_moved(baseline: Snapshot, sources_dir: str) -> str:
    """A clause naming a change of ``paths.sources`` since the snapshot, or ""."""
    recorded = recorded_sources_dir(baseline)
    if recorded == sources_dir:
        return ""
    return (
        f" (the sources folder is {sources_dir}/ by `paths.sources` in wikigen.yml, and the snapshot was "
        f"compiled from {recorded}/: a source without a frontmatter `id` is known by its path below the "
        "sources folder, so it gets a new id)"
    )
