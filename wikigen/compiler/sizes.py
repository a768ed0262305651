"""How large a source is for the engine: the request bytes of an increment holding it alone, and the
problem of a source too large to fit one increment under the caps in force (R5, R15).
"""

from __future__ import annotations

from wikigen.compiler.context import input_bytes_of, source_entry
from wikigen.model.config import Caps
from wikigen.model.errors import Problem
from wikigen.model.sources import Source


def alone_bytes(source: Source) -> int:
    """The input bytes of an increment holding ``source`` alone: no fragments, anchors or other
    sources — the least any compile of it can send (R5)."""
    return input_bytes_of({"sources": [source_entry(source)]})


def size_problem(source: Source, caps: Caps) -> Problem | None:
    """R5 with R15's measure: a source that cannot fit one increment on its own, under the caps in
    force, can never be compiled; ``check``, ``plan`` and ``compile`` all refuse it with this."""
    size = alone_bytes(source)
    if size <= caps.input_bytes:
        return None
    over = size - caps.input_bytes
    room = source.body_bytes - over
    # the two ways out: a smaller source, or a larger cap (a compile adds context to this least size)
    raise_cap = (
        f"raise caps.input_bytes to at least {size:,} (wikigen.yml `caps: {{input_bytes: N}}` or "
        "WIKIGEN_CAPS_INPUT_BYTES), more where the source is compiled with context"
    )
    advice = (
        f"split this file into smaller sources (by section), each body under about {room:,} bytes, or "
        f"{raise_cap}"
        if room > 0
        else f"caps.input_bytes is smaller than a request's fixed part: {raise_cap}"
    )
    return Problem(
        source.path,
        source.body_line,
        f"too large to compile: the body is {source.body_bytes:,} bytes, and a request holding this source "
        f"alone is {size:,} bytes, {over:,} over caps.input_bytes ({caps.input_bytes:,}). No split of the "
        f"change can help: {advice}",
    )
