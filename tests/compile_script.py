"""Run a compile with the scripted test engine in its own process (for race and crash tests).

Usage: python -m tests.compile_script REPO [SLEEP_SECONDS]
Exit codes follow the CLI: 0 published or nothing to do, 1 a user-facing failure.
With WIKIGEN_TEST_CLI=1 it runs the real CLI (`wikigen compile`, its messages and exit codes) with
the scripted engine in place of the configured one. With WIKIGEN_TEST_READY=PATH it creates PATH
when the engine is first called (a test then knows the compile is in flight), and with
WIKIGEN_TEST_STARTED=PATH it creates PATH once its imports are done.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.errors import WikigenError


def main() -> int:
    repo = sys.argv[1]
    pause = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    ready = os.environ.get("WIKIGEN_TEST_READY")

    def slow(stage, request):  # type: ignore[no-untyped-def]
        if ready:
            Path(ready).touch()
        time.sleep(pause)
        return extract(stage, request)

    if os.environ.get("WIKIGEN_TEST_CLI"):
        import wikigen.compiler.driver
        from wikigen.cli import main as cli

        wikigen.compiler.driver.make_engine = lambda config: ScriptedEngine(slow)  # type: ignore[assignment]
        if os.environ.get("WIKIGEN_TEST_STARTED"):  # imports done: a signal now reaches wikigen's handlers
            Path(os.environ["WIKIGEN_TEST_STARTED"]).touch()
        code = cli(["-C", repo, "compile"])
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # as wikigen.cli.main does for the program
        return code
    try:
        report = compile_repo(repo, engine=ScriptedEngine(slow), retry=True)
    except WikigenError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(report.commit or "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
