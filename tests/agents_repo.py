"""A small knowledge repo compiled with the scripted engine, for the search, MCP and site tests (E6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine

K = "content/sources/knowledge"
PODS = """# Pods

Concept Pod: the smallest deployable unit, a group of containers that share storage and network.

REL Pod -groups-> Container.

A pod is scheduled onto a node by the scheduler, which scores every feasible node before binding.
"""
CONTAINERS = """# Containers

Concept Container: a packaged process with its own filesystem, started from an image.

Containers restart according to the restart policy of their pod when the process exits with an error.
"""
SECRETS = """# Secrets

Concept Vault Key: the passphrase that unlocks the production vault is kept off every shared host.

Rotate the vault passphrase every thirty days and never paste it into a chat window.
"""
PRIVATE_CONFIG = "private:\n  - knowledge/secrets*\n"


def compiled_repo(root: Path, *, mkdocs_yml: str | None = None) -> GitRepo:
    """Three sources (one private by the `private` setting), compiled into snapshot 1."""
    repo = GitRepo(root)
    files = {
        "wikigen.yml": PRIVATE_CONFIG,
        f"{K}/pods.md": source(PODS, title="Pods"),
        f"{K}/containers.md": source(CONTAINERS, title="Containers"),
        f"{K}/secrets.md": source(SECRETS, title="Secrets"),
    }
    if mkdocs_yml is not None:
        files |= {"mkdocs.yml": mkdocs_yml, ".gitignore": "site/\n"}
    repo.commit(files, message="sources")
    compile_repo(repo.root, engine=ScriptedEngine(extract))
    return repo


def payload(result: Any) -> dict[str, Any]:
    """An MCP tool result's structured content (or its JSON text), asserting it is no error."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    return dict(json.loads(result.content[0].text))


def error_text(result: Any) -> str:
    """An MCP tool error's text, asserting it is one."""
    assert result.is_error
    return " ".join(getattr(block, "text", "") for block in result.content)
