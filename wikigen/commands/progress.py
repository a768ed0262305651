"""The progress of a compile on stderr: a rich bar in a terminal (not with --json), else one line per
increment, so that CI logs and redirected output show a long compile moving."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from wikigen.commands.printers import echo


class CompileProgress:
    """A context manager that gives the compile its ``progress`` callback (None: nothing shown)."""

    def __init__(self, enabled: bool, bar: bool = True) -> None:
        self.enabled = enabled
        self.terminal = sys.stderr.isatty()
        self.with_bar = bar
        self.bar: Any = None
        self.task: Any = None
        self.started = time.monotonic()
        self.calls = 0
        self.sent = 0

    def __enter__(self) -> Callable[[int, int, str, Any], None] | None:
        if not self.enabled or (self.terminal and not self.with_bar):
            return None
        if not self.terminal:
            return self.line
        from rich.progress import Progress

        self.bar = Progress(transient=True)
        self.bar.start()
        self.task = self.bar.add_task("compiling", total=None)

        def update(done: int, total: int, what: str, increment: Any) -> None:
            self.bar.update(self.task, completed=done, total=total, description=what)

        return update

    def line(self, done: int, total: int, what: str, increment: Any) -> None:
        if increment is None:
            if done == 0 and self.calls == 0 and what != "done":
                echo(f"wikigen: compiling {total} changed source(s)…", err=True)
            return
        self.calls += increment.engine_calls
        self.sent += increment.sent_bytes["total"]
        elapsed = int(time.monotonic() - self.started)
        left = total - done
        echo(
            f"wikigen: snapshot {increment.version}: {len(increment.sources)} source(s) compiled"
            + (f", {len(increment.withdrawn)} withdrawn" if increment.withdrawn else "")
            + f"; {increment.engine_calls} engine call(s), {increment.sent_bytes['total']:,} bytes sent "
            f"({self.calls} call(s), {self.sent:,} bytes in this run); {elapsed // 60}m{elapsed % 60:02d}s elapsed; "
            + (f"{left} source(s) left" if left else "nothing left"),
            err=True,
        )

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
