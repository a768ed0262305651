"""One increment of a compile, before any engine call (R16): the order ``--batch`` compiles the
changed sources in, the prefix of them that fits the caps, that prefix's revocation and bounded
request (:func:`preview`, also what ``plan --json`` reports), and the manifest and sources tree the
increment compiled. The driver, :func:`wikigen.compiler.driver.compile_repo`, runs the engine on it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from wikigen.compiler.context import Context, build_context, name_index, names_in
from wikigen.compiler.lookup import Lookup, name_tokens
from wikigen.compiler.plan import Plan
from wikigen.compiler.plan_edges import nothing_to_compile
from wikigen.compiler.revocation import revoke
from wikigen.compiler.topics import is_derived
from wikigen.model.ids import kind_of
from wikigen.model.shards import Overlay
from wikigen.model.snapshot import ManifestEntry, Snapshot
from wikigen.model.sources import Source
from wikigen.store.baseline import Bodies, Compiled, Titles, baseline_lookup
from wikigen.store.workspace import Workspace


def title_mentions(plan: Plan) -> dict[str, set[str]]:
    """R16: for each changed source, the other changed sources whose title its text names — by any
    of the title's names ("Modules and functions", "Labels and Selectors"), in either number. A
    source that names another's title links to what that one defines. A name that several titles
    share is the title of the page it is the whole title of, where there is one: "CLI Options", not
    "CLI Options with Help", a page on a narrower topic."""
    titles = {sid: _title_names(plan.sources[sid].title) for sid in plan.changed}
    owners: dict[tuple[str, ...], list[str]] = {}
    for sid, names in titles.items():
        for name in names:
            owners.setdefault(name, []).append(sid)
    whole = {
        sid: _numbers(tokens) for sid in plan.changed if (tokens := name_tokens(plan.sources[sid].title))
    }
    for name, sids in owners.items():
        owners[name] = [sid for sid in sids if name in whole.get(sid, ())] or sids
    by_first = name_index(owners)
    return {
        sid: {other for name in names_in(plan.sources[sid].body, by_first) for other in owners[name]} - {sid}
        for sid in plan.changed
    }


def batch_order(plan: Plan) -> dict[str, int]:
    """R16: the order --batch compiles in — sources whose titles the other changed sources mention
    most come first, so that later increments can link to what they define (ties by id)."""
    mentions = dict.fromkeys(plan.changed, 0)
    for named in title_mentions(plan).values():
        for other in named:  # each other source counted once per text that mentions it
            mentions[other] += 1
    ordered = sorted(plan.changed, key=lambda sid: (-mentions[sid], sid))
    return {sid: i for i, sid in enumerate(ordered)}


def dependents(refused: str, mentions: Mapping[str, set[str]], left: Collection[str]) -> dict[str, str]:
    """R16: the sources of ``left`` that a --batch run no longer compiles once ``refused`` is: those
    that name its title, then those that name theirs, and so on (``mentions``:
    :func:`title_mentions`). Each would link to knowledge this run does not create; left for a
    later compile, it is compiled with it. Source id → why, for the failure note."""
    why: dict[str, str] = {}
    frontier = [refused]
    while frontier:
        named = frontier.pop()
        for sid in sorted(left):
            if sid not in why and sid != refused and named in mentions.get(sid, ()):
                why[sid] = f"it names the title of {named}, which was not compiled"
                frontier.append(sid)
    return why


_TITLE_PARTS = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*)\s*", re.IGNORECASE)

# A title's subject comes before its first preposition: "DNS for Services and Pods" is about DNS, not
# about Pods; "Communication between Nodes and the Control Plane" about communication.
_TITLE_PREPOSITION = re.compile(
    r"\s+(?:for|of|in|on|with|to|from|by|into|between|via|across|about|under|over|within)\s+.*$",
    re.IGNORECASE | re.DOTALL,
)


def _numbers(tokens: tuple[str, ...]) -> set[tuple[str, ...]]:
    """Name tokens as written and with the last word in the other number ("CLI Options", "CLI Option")."""
    last = tokens[-1]
    other = last[:-1] if last.endswith("s") and len(last) > 3 else last + "s"
    return {tokens, (*tokens[:-1], other)}


def _title_names(title: str) -> set[tuple[str, ...]]:
    """The names a title is made of, as name tokens, each also with its last word in the other number
    (a one-word name of two letters, "if", "IO", is left out: prose uses it as a word). A title with a
    preposition names its subject (what comes before the preposition) and itself as a whole."""
    names: set[tuple[str, ...]] = set()
    head = _TITLE_PREPOSITION.sub("", title)
    parts = _TITLE_PARTS.split(head) + ([title] if head != title else [])
    for part in parts:
        tokens = name_tokens(part)
        if not tokens or (len(tokens) == 1 and len(tokens[0]) < 3):
            continue
        names |= _numbers(tokens)
    return names


def next_increment(
    ws: Workspace,
    plan: Plan,
    batch: bool,
    order: Mapping[str, int] | None = None,
    bodies: dict[tuple[str, str, str], str] | None = None,
    lookup: Lookup | None = None,
    skip: Collection[str] = (),
) -> list[str]:
    """The changed sources of the next increment: all of them, or with --batch a prefix that fits (R16).
    ``skip``: sources this --batch run no longer compiles (refused, or depending on one refused).

    A first guess fills a quarter of the byte cap with whole sources — an extractive engine's delta
    quotes them, and analyze's delta has its own 100,000-byte limit —; the real request (fragments,
    anchors, hits) is then measured and the prefix halved until every cap holds. A single source that
    still does not fit is left to fail with its own message.
    """
    changed = [sid for sid in plan.changed if sid not in skip]
    if not batch:
        return changed
    if order:
        changed.sort(key=lambda sid: (order.get(sid, len(order)), sid))
    caps = ws.config.caps
    budget = caps.input_bytes // 4
    chosen: list[str] = []
    used = 0
    for sid in changed:
        size = plan.sources[sid].body_bytes + 300
        if chosen and (used + size > budget or len(chosen) >= max(1, caps.articles // 2)):
            break
        chosen.append(sid)
        used += size
    withdrawn = plan.withdrawn
    while len(chosen) > 1:
        _, ctx = preview(ws, plan, chosen, withdrawn, enforce=False, bodies=bodies, lookup=lookup)
        if all(used <= limit for used, limit in ctx.caps.values()):
            break
        chosen = chosen[: len(chosen) // 2]
    return chosen


def increment_manifest(
    baseline: Snapshot, plan: Plan, selected: Sequence[str]
) -> dict[str, ManifestEntry] | Overlay[ManifestEntry]:
    """The manifest after this increment: selected sources compiled, later increments' ones as before
    (an overlay of the baseline's when the plan was made from the diff)."""
    manifest: dict[str, ManifestEntry] | Overlay[ManifestEntry] = (
        plan.manifest.copy() if isinstance(plan.manifest, Overlay) else dict(plan.manifest)
    )
    for sid in set(plan.changed) - set(selected):
        old = baseline.manifest.get(sid)
        if old is None:
            manifest.pop(sid, None)
        else:
            manifest[sid] = old
    return manifest


def increment_tree(ws: Workspace, plan: Plan, selected: Sequence[str]) -> str:
    """The sources tree this increment compiled: the current one with later increments' sources reverted."""
    rest = sorted(set(plan.changed) - set(selected))
    if not rest:
        return plan.sources_tree
    base = ws.store.commit_tree(ws.head)
    changes: dict[str, bytes | str | None] = {}
    for sid in rest:
        new = plan.sources[sid]
        old = ws.baseline.manifest.get(sid)
        changes[new.path] = None
        if old is not None:
            blob = old.pending.blob if old.pending else old.blob
            path = old.pending.path if old.pending else old.path
            if blob is not None:
                changes[path] = blob
    tree = ws.store.build_tree(base, changes)
    return ws.store.subtree(tree, ws.sources_dir)


def preview(
    ws: Workspace,
    plan: Plan,
    selected: Sequence[str],
    withdrawn: Sequence[str],
    *,
    enforce: bool = True,
    bodies: dict[tuple[str, str, str], str] | None = None,
    lookup: Lookup | None = None,
) -> tuple[dict[str, str], Context]:
    """Revocation and the bounded request of one increment, before any engine call (also for `plan`).
    ``bodies``: the compiled bodies read so far in this run (:class:`wikigen.store.baseline.Bodies`), shared between calls;
    ``lookup``: the baseline index's (:func:`baseline_lookup`), made here when not given."""
    if lookup is None:
        made = baseline_lookup(ws)
        try:
            return preview(ws, plan, selected, withdrawn, enforce=enforce, bodies=bodies, lookup=made)
        finally:
            made.close()
    touched = [sid for sid in selected if sid in plan.updated] + list(withdrawn)
    changed = [plan.sources[sid] for sid in selected]
    return request_context(ws, changed, touched, withdrawn, enforce=enforce, bodies=bodies, lookup=lookup)


def request_context(
    ws: Workspace,
    changed: Sequence[Source],
    touched: Sequence[str],
    withdrawn: Sequence[str],
    *,
    lookup: Lookup,
    enforce: bool = True,
    bodies: dict[tuple[str, str, str], str] | None = None,
) -> tuple[dict[str, str], Context]:
    """The revocation and the bounded request of an increment that sends ``changed`` whole against
    the baseline snapshot; ``touched``: the ids whose compiled objects it revokes (the updated
    sources among ``changed``, and ``withdrawn``)."""
    baseline = ws.baseline
    revoked = revoke(baseline.objects, touched, lookup)
    # R29: a derived topic is rebuilt by the compiler after merge, locally; it is never a reason to
    # call the engine, nor context to send it.
    asked = {oid: why for oid, why in revoked.items() if not is_derived(baseline.objects.get(oid, {}))}
    ctx = build_context(
        changed=changed,
        withdrawn=list(withdrawn),
        index=baseline.objects,
        revoked=asked,
        compiled=Compiled(baseline.manifest, frozenset(touched)),
        titles=Titles(baseline.manifest),
        read_body=Bodies(ws.store, baseline.manifest, ws.config, bodies),
        caps=ws.config.caps,
        enforce=enforce,
        lookup=lookup,
    )
    return revoked, ctx


def plan_figures(ws: Workspace, plan: Plan) -> dict[str, Any]:
    """What `plan --json` adds: revoked objects, fragments, anchors, input bytes against caps, calls."""
    if not plan.needs_compile:
        return nothing_to_compile()
    revoked, ctx = preview(ws, plan, plan.changed, plan.withdrawn, enforce=False)
    counts = {k: 0 for k in ("article", "concept", "relation", "topic")}
    for oid in revoked:
        counts[kind_of(oid)] += 1
    caps = {k: [v[0], v[1]] for k, v in ctx.caps.items()}
    return {
        "revoked": counts,
        "fragments": len(ctx.fragments),
        "anchors": len(ctx.anchors),
        "input_bytes": ctx.input_bytes,
        "caps": caps,
        "over_caps": sorted(k for k, (used, limit) in caps.items() if used > limit),
        "engine_calls": 2 if ctx.needs_engine else 0,
    }
