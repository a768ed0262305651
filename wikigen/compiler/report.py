"""What a compile run reports and spends: the per-run budget, per-increment and per-run reports,
and what a --batch run that failed did not compile."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wikigen.compiler.context import breaches
from wikigen.compiler.sizes import raises
from wikigen.model.errors import BudgetExceeded, CapExceeded


@dataclass
class RunBudget:
    """Per compile run, across --batch increments (budget.* in wikigen.yml)."""

    max_sent_bytes: int | None
    max_engine_calls: int | None
    sent_bytes: int = 0
    engine_calls: int = 0

    def charge(self, size: int, stage: str) -> None:
        if self.max_engine_calls is not None and self.engine_calls + 1 > self.max_engine_calls:
            raise BudgetExceeded(
                f"budget.max_engine_calls ({self.max_engine_calls}) would be passed by the {stage} call; "
                f"{self.engine_calls} call(s) made in this run. Increments already published are kept."
            )
        if self.max_sent_bytes is not None and self.sent_bytes + size > self.max_sent_bytes:
            raise BudgetExceeded(
                f"budget.max_sent_bytes ({self.max_sent_bytes:,}) would be passed by the {stage} call "
                f"({self.sent_bytes:,} sent so far + {size:,}). Increments already published are kept."
            )
        self.engine_calls += 1
        self.sent_bytes += size


@dataclass
class IncrementReport:
    version: int
    commit: str | None
    sources: list[str]
    withdrawn: list[str]
    engine_calls: int = 0
    input_bytes: int = 0
    sent_bytes: dict[str, int] = field(default_factory=lambda: {"analyze": 0, "recheck": 0, "total": 0})
    revoked: dict[str, int] = field(default_factory=dict)
    objects: dict[str, dict[str, int]] = field(default_factory=dict)
    caps: dict[str, list[int]] = field(default_factory=dict)
    fragments: int = 0
    fragment_bytes: int = 0
    anchors: int = 0
    warnings: list[str] = field(default_factory=list)  # published, but something after it failed
    interrupted: bool = False


@dataclass
class CompileReport:
    published: bool = False
    version: int = 0
    commit: str | None = None
    bookkeeping: bool = False
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    increments: list[IncrementReport] = field(default_factory=list)
    message: str = ""
    warnings: list[str] = field(default_factory=list)  # R31: what did not follow a publish, and its repair

    def as_json(self) -> dict[str, Any]:
        sent = {"analyze": 0, "recheck": 0, "total": 0}
        revoked: dict[str, int] = {k: 0 for k in ("article", "concept", "relation", "topic")}
        objects: dict[str, dict[str, int]] = {}
        caps: dict[str, list[int]] = {}
        for inc in self.increments:
            for k in sent:
                sent[k] += inc.sent_bytes.get(k, 0)
            for k, v in inc.revoked.items():
                revoked[k] = revoked.get(k, 0) + v
            for kind, counts in inc.objects.items():
                target = objects.setdefault(kind, {"added": 0, "updated": 0, "removed": 0})
                for k, v in counts.items():
                    target[k] += v
            for name, (used, limit) in inc.caps.items():
                caps[name] = [max(used, caps.get(name, [0, limit])[0]), limit]
        return {
            "published": self.published,
            "version": self.version,
            "commit": self.commit,
            "bookkeeping": self.bookkeeping,
            "engine_calls": sum(i.engine_calls for i in self.increments),
            "input_bytes": sum(i.input_bytes for i in self.increments),
            "sent_bytes": sent,
            "added": self.added,
            "updated": self.updated,
            "withdrawn": self.withdrawn,
            "revoked": revoked,
            "objects": objects,
            "caps": caps,
            "increments": [
                {
                    "version": i.version,
                    "commit": i.commit,
                    "sources": i.sources,
                    "withdrawn": i.withdrawn,
                    "engine_calls": i.engine_calls,
                    "input_bytes": i.input_bytes,
                    "fragments": i.fragments,
                    "anchors": i.anchors,
                }
                for i in self.increments
            ],
            "message": self.message,
            "warnings": self.warnings,
        }


def refusal(error: CapExceeded) -> str:
    """Why --batch refused one source its grown context made too large, and the ways out (R15)."""
    return (
        f"too large with the context this run's earlier increments gave it ({breaches(error.over)}): split it "
        f"into smaller sources, or {raises(error.over)}"
    )


def not_compiled(left: list[str], selected: list[str], left_out: Mapping[str, str]) -> dict[str, str]:
    """R33: each source a failed run did not compile, and why."""
    why = dict(left_out)
    for sid in left:
        why[sid] = "its increment failed" if sid in selected else "after the failure, the run stopped"
    return dict(sorted(why.items()))


NAMED = 10  # sources named in a message; the note names all


def listed(why: Mapping[str, str]) -> str:
    """One line per source and why, the first few of them; the note holds every one."""
    lines = [f"  {sid}: {reason}" for sid, reason in list(why.items())[:NAMED]]
    if len(why) > NAMED:
        lines.append(f"  and {len(why) - NAMED:,} more (the note under refs/notes/wikigen lists them all)")
    return "\n".join(lines)


def unfinished_batch(report: CompileReport, refused: list[CapExceeded], left_out: Mapping[str, str]) -> CapExceeded:
    """R15–R16: a --batch run that refused sources on its way; what it published stays."""
    published = (
        f"snapshot {report.version} of this run's other increments stays published"
        if report.published
        else "nothing was published"
    )
    return CapExceeded(
        f"{len(left_out)} source(s) of this batch were not compiled; {published}:\n{listed(dict(sorted(left_out.items())))}\n"
        "Once the refused ones fit, compile again: the rest compiles with them, and every source is "
        "measured with its context before any engine call.",
        sources=[sid for error in refused for sid in error.sources],
        over=[over for error in refused for over in error.over],
    )
