"""Run a compile with the scripted test engine in its own process (for race and crash tests).

Usage: python -m tests.compile_script REPO [SLEEP_SECONDS]
Exit codes follow the CLI: 0 published or nothing to do, 1 a user-facing failure.
"""

from __future__ import annotations

import sys
import time

from tests.engines import extract
from wikigen.engines.scripted import ScriptedEngine
from wikigen.errors import WikigenError
from wikigen.pipeline import compile_repo


def main() -> int:
    repo = sys.argv[1]
    pause = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0

    def slow(stage, request):  # type: ignore[no-untyped-def]
        time.sleep(pause)
        return extract(stage, request)

    try:
        report = compile_repo(repo, engine=ScriptedEngine(slow), retry=True)
    except WikigenError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    print(report.commit or "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
