"""`wikigen build` and `wikigen serve`: MkDocs on the wiki's config file, in git's environment.

The wiki's config file is ``mkdocs.wikigen.yml`` where the repository has one — `wikigen init` writes
it beside a ``mkdocs.yml`` that belongs to the repository's own site — else ``mkdocs.yml``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType

from wikigen.store.git import GitStore

WIKI_CONFIG = "mkdocs.wikigen.yml"  # the wiki's site, beside a repository's own mkdocs.yml
SITE_CONFIG = "mkdocs.yml"

# How long a stopped `mkdocs serve` gets to exit after SIGTERM before it is killed.
GRACE_SECONDS = 5.0
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _Stopped(Exception):
    """Raised by the signal handler to leave the wait on the server; carries the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def site_config(root: Path) -> Path:
    """The config file the wiki's site is built from: :data:`WIKI_CONFIG` if there is one, else
    :data:`SITE_CONFIG`."""
    wiki = root / WIKI_CONFIG
    return wiki if wiki.is_file() else root / SITE_CONFIG


def run_mkdocs(directory: str, verb: str, args: list[str]) -> int:
    """Run `mkdocs VERB` with ``args`` on the repository ``directory`` lies in; its exit status."""
    store = GitStore(directory)
    root = store.root
    env = {**store.environment, "NO_MKDOCS_2_WARNING": "1"}  # R42: the plugin opens the same repository
    command = [sys.executable, "-m", "mkdocs", verb, "-f", str(site_config(root)), *args]
    if verb == "serve":
        return serve_until_stopped(command, env)
    return subprocess.run(command, env=env).returncode


def serve_until_stopped(command: list[str], env: dict[str, str]) -> int:
    """Run the server ``command`` until it exits or wikigen gets SIGINT or SIGTERM; the server is
    stopped whichever way wikigen leaves. Its exit status, or 128 + the signal number."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Stopped(signum)

    # Its own process group: the server and anything it starts are signalled together, and a
    # Ctrl-C in the terminal reaches wikigen only, which then stops the group.
    child = subprocess.Popen(command, env=env, start_new_session=True)
    previous = {signum: signal.signal(signum, stop) for signum in STOP_SIGNALS}
    try:
        return child.wait()
    except _Stopped as stopped:
        return 128 + stopped.signum
    finally:
        for signum in STOP_SIGNALS:  # a second signal during the shutdown does not cut it short
            signal.signal(signum, signal.SIG_IGN)
        _stop_group(child)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _stop_group(child: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the child's process group, SIGKILL after GRACE_SECONDS; waits for the child."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(child.pid, signum)
        except ProcessLookupError:  # the group is gone already
            break
        try:
            child.wait(timeout=GRACE_SECONDS)
            break
        except subprocess.TimeoutExpired:
            continue
    child.wait()
