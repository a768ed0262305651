"""Every source too large to compile with its context, found before any engine call (R5, R15).

A source is measured as the request of an increment holding it alone, with the context the
current snapshot gives it: its own revoked objects, the concepts and articles its text names
(anchors and article hits, with the fragments they cite) and the relations among those anchors.
``check``, ``plan`` and ``compile`` all use this one measure, so a source that ``check`` passes is
never refused by a compile from the same snapshot.

What it cannot know: within one ``--batch`` run, later increments also see the concepts and
articles that earlier increments of the same run created, and which those are only the engine
says. The measure is the least context a source gets; the driver keeps a batch going past a
source that its grown context makes too large (:func:`wikigen.compiler.increments.dependents`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from wikigen.compiler.increments import request_context
from wikigen.compiler.lookup import Lookup
from wikigen.compiler.sizes import alone_bytes, context_problem, size_problem
from wikigen.model.errors import Problem, WikigenError
from wikigen.model.sources import Source
from wikigen.store.baseline import baseline_lookup
from wikigen.store.workspace import Workspace


def to_compile(ws: Workspace, sources: Iterable[Source]) -> list[Source]:
    """The sources a compile may send: those whose version is not the compiled one (R3), neither
    private (R39) nor rejected (R6). A superset of a plan's changed sources on purpose: a source that
    now waits (a deferred category, a task before its checkpoint) is measured too, since a later
    compile sends it, and ``check`` says so before it is committed rather than when it is due."""
    manifest = ws.baseline.manifest
    return [
        s
        for s in sources
        if not s.private
        and s.verification != "rejected"
        and ((entry := manifest.get(s.id)) is None or entry.version != s.version)
    ]


def over_caps(
    ws: Workspace,
    sources: Sequence[Source],
    *,
    bodies: dict[tuple[str, str, str], str] | None = None,
    lookup: Lookup | None = None,
    strict: bool = True,
) -> list[Problem]:
    """R15 before any engine call: every source of ``sources`` (changed against the baseline) that
    fits alone but whose request with the context the current snapshot gives it is over a cap, as
    a problem naming the file, the caps and both ways out. A source too large alone is left to
    :func:`wikigen.compiler.sizes.size_problem`.

    Without ``strict`` a source whose context cannot be read (a compiled version missing from a
    shallow clone) is measured alone only, instead of failing the whole measure."""
    caps = ws.config.caps
    todo = [s for s in sources if size_problem(s, caps) is None]
    if not todo:
        return []
    if lookup is None:
        made = baseline_lookup(ws)
        try:
            return over_caps(ws, sources, bodies=bodies, lookup=made, strict=strict)
        finally:
            made.close()
    manifest = ws.baseline.manifest

    def used(changed: Sequence[Source]) -> dict[str, tuple[int, int]] | None:
        touched = [s.id for s in changed if s.id in manifest]  # R12: its compiled objects are revoked
        try:
            _, ctx = request_context(ws, changed, touched, [], lookup=lookup, enforce=False, bodies=bodies)
        except WikigenError:
            if strict:
                raise
            return None
        return dict(ctx.caps)

    if len(todo) > 1 and sum(alone_bytes(s) for s in todo) <= caps.input_bytes:
        # One source's context is part of a larger increment's: its anchors, hits and relations are
        # among that increment's, its fragments among that one's or inside a source it sends whole.
        # So when the whole change fits, every source of it does. (A change whose sources alone
        # pass the cap never fits whole: it is measured source by source at once.)
        whole = used(todo)
        if whole is not None and all(value <= limit for value, limit in whole.values()):
            return []
    problems = []
    for source in todo:
        alone = used([source])
        problem = context_problem(source, alone) if alone is not None else None
        if problem is not None:
            problems.append(problem)
    return problems
