"""What lint reads, as values: the snapshot's objects, the sources as committed at HEAD, the waiting
sources with the time they have waited since, the tracked files — and its settings. The I/O that
fills them is :mod:`wikigen.views.lint_inputs`'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

DAY = 86_400

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source as committed at HEAD: ``path`` from the repo root, ``first_line`` the file's line
    number of the body's first line (after the frontmatter)."""

    id: str
    path: str
    body: str
    first_line: int = 1


@dataclass(frozen=True, slots=True)
class WaitingSource:
    """A source whose newer version waits (R4, R35, R36): ``since`` is the commit time (seconds) of
    the first commit, back from HEAD, whose version of the file the snapshot has not compiled."""

    id: str
    path: str
    category: str
    reason: str  # "deferred" | "waiting" | "baseline" | "subtask" | "duplicate-checkpoint"
    since: int


@dataclass(frozen=True, slots=True)
class LintInputs:
    """``objects``: the snapshot's articles, concepts, topics and relations by id (private ones left
    out); ``compiled``: source id → path of every source with a compiled version; ``files``: every
    path tracked at HEAD; ``now``: the time ages are measured to (seconds)."""

    objects: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _EMPTY)
    sources: tuple[SourceText, ...] = ()
    compiled: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    waiting: tuple[WaitingSource, ...] = ()
    files: frozenset[str] = frozenset()
    now: int = 0

    def of_kind(self, kind: str) -> dict[str, Mapping[str, Any]]:
        return {oid: obj for oid, obj in sorted(self.objects.items()) if obj.get("kind") == kind}

    def paths(self) -> dict[str, str]:
        """Source id → its file: its path at HEAD, else the path it was compiled from."""
        return {**self.compiled, **{source.id: source.path for source in self.sources}}


@dataclass(frozen=True, slots=True)
class LintSettings:
    """``min_sources``: how many sources must use a term for a missing concept; ``stale_days``: the
    age past which a waiting source is stale; ``term_cap``: the most missing concepts listed (the
    rest are counted)."""

    min_sources: int = 3
    stale_days: int = 30
    term_cap: int = 50
