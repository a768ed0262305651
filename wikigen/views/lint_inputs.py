"""What ``wikigen lint`` and the site's lint page read (the I/O edge of :mod:`wikigen.lint`): the
snapshot's objects as the site shows them (private ones left out, R39), every source as committed at
HEAD, the waiting sources with the commit time they wait since, and every file tracked at HEAD.
Nothing is written and no model is called."""

from __future__ import annotations

from pathlib import Path

from wikigen.lint import LintInputs, SourceText, WaitingSource
from wikigen.model.snapshot import ManifestEntry
from wikigen.model.sources import Source, is_source_path, parse_source
from wikigen.store.snapshot import read_waiting, waiting_of
from wikigen.store.waiting_since import waiting_since
from wikigen.store.workspace import Workspace
from wikigen.views.knowledge import Knowledge, load_knowledge


def read_lint_inputs(root: Path | str, *, knowledge: Knowledge | None = None, now: int | None = None) -> LintInputs:
    """The inputs of lint for the repo at ``root``; ``now`` (seconds) defaults to HEAD's commit time,
    so that one commit always gives the same findings."""
    knowledge = knowledge if knowledge is not None else load_knowledge(root)
    ws = Workspace.open(root, history=False)
    store, head = ws.store, ws.head
    if head is None:
        return LintInputs(objects=knowledge.objects, now=now or 0)
    tree = store.commit_tree(head)
    blobs = dict(store.blobs(tree, ""))
    shown = knowledge.sources  # R39: what the site shows, private sources left out
    sources = []
    for path, blob in sorted(blobs.items()):
        if not is_source_path(path, ws.config.sources_dir):
            continue
        text = store.read_blob(blob)
        parsed = parse_source(path, text, blob, ws.config)
        if not isinstance(parsed, Source) or parsed.private or parsed.id not in shown:
            continue  # `wikigen check` reports an invalid source
        sources.append(SourceText(parsed.id, path, parsed.body, parsed.body_line))

    baseline = ws.baseline
    recorded = read_waiting(store, baseline)
    waiting_ids = sorted(recorded) if recorded is not None else sorted(waiting_of(baseline.manifest))
    entries: dict[str, ManifestEntry] = {}
    for source_id in waiting_ids:
        entry = baseline.manifest.get(source_id)
        if entry is not None and entry.pending is not None and source_id in shown:
            entries[source_id] = entry
    pending_paths = {e.pending.path: e.blob for e in entries.values() if e.pending is not None}
    since = waiting_since(store, head, pending_paths, ws.config.sources_dir) if pending_paths else {}
    waiting = tuple(
        WaitingSource(sid, e.pending.path, e.category, e.pending.reason, since[e.pending.path])
        for sid, e in sorted(entries.items())
        if e.pending is not None
    )
    return LintInputs(
        objects=knowledge.objects,
        sources=tuple(sources),
        compiled={sid: view.path for sid, view in sorted(shown.items()) if view.compiled_version is not None},
        waiting=waiting,
        files=frozenset(blobs),
        now=now if now is not None else store.commit_time(head),
    )
