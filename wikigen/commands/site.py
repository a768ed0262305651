"""`wikigen build` and `wikigen serve`: MkDocs on the repository's mkdocs.yml, in git's environment."""

from __future__ import annotations

import subprocess
import sys

from wikigen.store.git import GitStore


def run_mkdocs(directory: str, verb: str, args: list[str]) -> int:
    """Run `mkdocs VERB` with ``args`` on the repository ``directory`` lies in; its exit status."""
    store = GitStore(directory)
    root = store.root
    env = {**store.environment, "NO_MKDOCS_2_WARNING": "1"}  # R42: the plugin opens the same repository
    result = subprocess.run([sys.executable, "-m", "mkdocs", verb, "-f", str(root / "mkdocs.yml"), *args], env=env)
    return result.returncode
