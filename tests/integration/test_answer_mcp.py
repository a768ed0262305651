"""An answer filed back through `wikigen mcp`, driven by the official MCP SDK's client over stdio: the
agent searches, files an answer citing two quotes, is refused for a made-up quote with nothing
written, and once a person commits the answer and compiles (offline engine), its concept is found by
search."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.agents_repo import CONTAINERS, PODS, PRIVATE_CONFIG, SECRETS, error_text, payload
from tests.conftest import GIT_ENV, GitRepo, source
from wikigen.model.agent_record import MCP_TOOLS

pytestmark = pytest.mark.integration

K = "content/sources/knowledge"
QUESTION = "What decides whether a failed container is started again?"
ANSWER = (
    "A **Restart Policy** is the pod setting that decides whether a container whose process exits with an "
    "error is started again by the kubelet on the same node.\n"
)
MADE_UP = "Containers are never restarted once their process has exited with an error."
ANSWER_PATH = f"{K}/answers/what-decides-whether-a-failed-container-is-started-again.md"


async def session(root: Path) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "wikigen", "-C", str(root), "mcp"], env={**os.environ, **GIT_ENV}
    )
    seen: dict[str, Any] = {}
    async with Client(params, read_timeout_seconds=240) as client:
        seen["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
        seen["search"] = payload(await client.call_tool("search", {"query": "what restarts a container", "k": 3}))
        hit = next(e for e in seen["search"]["evidence"] if e["source"] == "knowledge/containers")
        seen["made_up"] = error_text(await client.call_tool("file_answer", {
            "question": QUESTION, "answer": ANSWER,
            "citations": [{"citation_id": hit["citation_id"]}, {"source": "knowledge/containers", "quote": MADE_UP}],
        }))
        seen["written_after_refusal"] = (root / ANSWER_PATH).exists()
        seen["private"] = error_text(await client.call_tool("file_answer", {
            "question": QUESTION, "answer": ANSWER,
            "citations": [{"source": "knowledge/secrets", "quote": "Rotate the vault passphrase every thirty days"}],
        }))
        arguments = {
            "question": QUESTION, "answer": ANSWER,
            "citations": [
                {"citation_id": hit["citation_id"]},
                {"source": f"{K}/pods.md", "quote": "a group of containers that share storage and network"},
            ],
        }
        seen["filed"] = payload(await client.call_tool("file_answer", arguments))
        seen["again"] = payload(await client.call_tool("file_answer", arguments))
    return seen


def test_an_agent_files_an_answer_over_mcp_that_compiles_into_searchable_knowledge(tmp_path: Path):
    """E6, R22, R39: a filed answer is written only when each quote is verbatim at HEAD; never
    committed by the server; once committed and compiled, its concept is found by search."""
    repo = GitRepo(tmp_path / "repo")
    repo.commit({
        "wikigen.yml": PRIVATE_CONFIG,
        f"{K}/pods.md": source(PODS, title="Pods"),
        f"{K}/containers.md": source(CONTAINERS, title="Containers"),
        f"{K}/secrets.md": source(SECRETS, title="Secrets"),
    }, message="sources")
    assert repo.wikigen("compile", "--engine", "offline", "--quiet").code == 0
    head = repo.head()

    seen = anyio.run(session, repo.root)

    assert set(seen["tools"]) == set(MCP_TOOLS)
    tool = seen["tools"]["file_answer"]
    annotations = tool.annotations
    assert annotations.read_only_hint is False and annotations.destructive_hint is False
    assert annotations.idempotent_hint is True
    assert seen["tools"]["search"].annotations.read_only_hint is True
    # the made-up quote: refused, named, nothing written
    assert "1 of 2 citation(s) refused" in seen["made_up"] and "citation 2 (knowledge/containers)" in seen["made_up"]
    assert "nothing was written" in seen["made_up"] and seen["written_after_refusal"] is False
    assert "knowledge/secrets is private" in seen["private"] and "Traceback" not in seen["private"]
    filed = seen["filed"]
    assert filed["written"] is True and filed["committed"] is False and filed["path"] == ANSWER_PATH
    assert [c["source"] for c in filed["citations"]] == ["knowledge/containers", "knowledge/pods"]
    assert seen["again"]["written"] is False  # the same call again writes nothing more
    text = repo.read(ANSWER_PATH)
    assert f"question: {QUESTION}" in text and "origin: agent" in text and "verification: unverified" in text
    for citation in filed["citations"]:
        assert f"> {citation['quote']}" in text and f"`{citation['source']}`" in text
    # never committed by the server
    assert repo.head() == head
    assert repo.git("status", "--porcelain").stdout.split() == ["??", f"{K}/answers/"]

    assert repo.wikigen("check").code == 0
    repo.git("add", ANSWER_PATH)
    repo.git("commit", "-q", "-m", "An answer filed back by an agent")
    compiled = repo.wikigen("compile", "--engine", "offline", "--quiet")
    assert compiled.code == 0, compiled.err

    found = repo.json("search", "restart policy of a pod")
    assert any(o["id"] == "concept/restart_policy" for o in found["objects"]), found["objects"]
    assert any(e["source"] == "knowledge/answers/what-decides-whether-a-failed-container-is-started-again"
               for e in found["evidence"])
    assert repo.wikigen("verify").code == 0
