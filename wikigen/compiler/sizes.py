"""How large a source is for the engine: the request bytes of an increment holding it alone, and the
problems of a source too large to fit one increment under the caps in force — alone (R5) or with
the context the current snapshot gives it (R15).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from wikigen.compiler.context import breached, breaches, input_bytes_of, source_entry
from wikigen.model.config import Caps
from wikigen.model.errors import Problem
from wikigen.model.sources import Source

# What each cap counts, for a message about one source's request
CAP_WORDS = {
    "input_bytes": "bytes",
    "anchors": "concept anchors",
    "articles": "article hits",
    "relations": "relations",
    "fragments": "fragments",
}


def alone_bytes(source: Source) -> int:
    """The input bytes of an increment holding ``source`` alone: no fragments, anchors or other
    sources — the least any compile of it can send (R5)."""
    return input_bytes_of({"sources": [source_entry(source)]})


def raise_cap(name: str, value: int) -> str:
    """The other way out of a cap breach: the setting, and the value that would fit."""
    return (
        f"raise caps.{name} to at least {value:,} (wikigen.yml `caps: {{{name}: N}}` or "
        f"WIKIGEN_CAPS_{name.upper()})"
    )


def raises(over: Iterable[tuple[str, int, int]]) -> str:
    """Each breached cap's way out, joined: ``raise caps.anchors to at least 120 (…) and …``."""
    return " and ".join(raise_cap(name, value) for name, value, _ in over)


def size_problem(source: Source, caps: Caps) -> Problem | None:
    """R5 with R15's measure: a source that cannot fit one increment on its own, under the caps in
    force, can never be compiled; ``check``, ``plan`` and ``compile`` all refuse it with this."""
    size = alone_bytes(source)
    if size <= caps.input_bytes:
        return None
    over = size - caps.input_bytes
    room = source.body_bytes - over
    # the two ways out: a smaller source, or a larger cap (a compile adds context to this least size)
    larger = f"{raise_cap('input_bytes', size)}, more where the source is compiled with context"
    advice = (
        f"split this file into smaller sources (by section), each body under about {room:,} bytes, or {larger}"
        if room > 0
        else f"caps.input_bytes is smaller than a request's fixed part: {larger}"
    )
    return Problem(
        source.path,
        source.body_line,
        f"too large to compile: the body is {source.body_bytes:,} bytes, and a request holding this source "
        f"alone is {size:,} bytes, {over:,} over caps.input_bytes ({caps.input_bytes:,}). No split of the "
        f"change can help: {advice}",
    )


def context_problem(source: Source, used: Mapping[str, tuple[int, int]]) -> Problem | None:
    """R15 before any engine call: ``source`` fits alone, but the request of an increment holding it
    with the context the current snapshot gives it (``used``: cap → (used, limit), as
    :class:`wikigen.compiler.context.Context` counts them) is over a cap. No split of the change
    can help; the message names both ways out, with the value of each cap that would fit."""
    over = breached(used)
    if not over:
        return None
    counts = ", ".join(
        f"{used[name][0]:,} {CAP_WORDS[name]}" for name in ("anchors", "fragments", "articles", "relations")
        if name in used and used[name][0]
    )
    return Problem(
        source.path,
        source.body_line,
        f"too large to compile with its context: a request holding this source and the context the current "
        f"snapshot gives it ({counts or 'no context'}) is over its caps — {breaches(over)}. No split of the change "
        f"can help: split this file into smaller sources (by section), each naming fewer known concepts and "
        f"articles, or {raises(over)}",
    )
