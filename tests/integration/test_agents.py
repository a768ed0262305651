"""`wikigen mcp` as a real stdio subprocess, driven by the official MCP SDK's own client (E6):
it lists its tools, answers each read-only one, and gives a tool error — no crash, no traceback — for an
unknown id and for an empty query. Private sources stay out of every answer."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.agents_repo import compiled_repo, error_text, payload
from tests.conftest import GIT_ENV
from wikigen.evidence.citations import Citation, check_citation
from wikigen.model.agent_record import MCP_TOOLS
from wikigen.store.sourceset import read_recorded
from wikigen.store.workspace import Workspace

pytestmark = pytest.mark.integration

TOOLS = set(MCP_TOOLS)


async def session(root: Path) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "wikigen", "-C", str(root), "mcp"],
        env={**os.environ, **GIT_ENV},
    )
    seen: dict[str, Any] = {}
    async with Client(params, read_timeout_seconds=240) as client:
        seen["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
        seen["search"] = payload(await client.call_tool("search", {"query": "what restarts a container", "k": 3}))
        seen["private"] = payload(await client.call_tool("search", {"query": "vault passphrase", "k": 5}))
        seen["get"] = payload(await client.call_tool("get", {"id": "Pod"}))
        seen["neighbors"] = payload(await client.call_tool("neighbors", {"concept": "concept/pod"}))
        cited = seen["get"]["citations"][0]
        seen["excerpt"] = payload(
            await client.call_tool(
                "excerpt",
                {"source": cited["source"], "version": cited["version"],
                 "start": cited["source_span"]["start"], "end": cited["source_span"]["end"]},
            )
        )
        hit = seen["search"]["evidence"][0]["citation_id"]
        seen["verify"] = payload(await client.call_tool("verify", {"citation_id": hit}))
        seen["unknown"] = error_text(await client.call_tool("get", {"id": "concept/no-such-thing"}))
        seen["unknown_citation"] = error_text(await client.call_tool("verify", {"citation_id": "000000000000"}))
        seen["empty"] = error_text(await client.call_tool("search", {"query": ""}))
        seen["private_get"] = error_text(await client.call_tool("get", {"id": "concept/vault_key"}))
        # Still serving after the errors.
        seen["after"] = payload(await client.call_tool("search", {"query": "pod", "k": 1}))
    return seen


def test_mcp_server_over_stdio_with_the_sdk_client(tmp_path: Path):
    repo = compiled_repo(tmp_path / "repo")
    head = repo.head()
    seen = anyio.run(session, repo.root)

    assert set(seen["tools"]) == TOOLS
    assert all(tool.description for tool in seen["tools"].values())
    found = seen["search"]
    assert found["evidence"][0]["source"] == "knowledge/containers"
    ws = Workspace.open(repo.root)
    for citation in found["citations"]:
        entry = ws.baseline.manifest[citation["source"]]
        parsed, why = read_recorded(ws.store, ws.config, entry.path, entry.blob, entry.content_hash)
        assert parsed is not None, why
        assert check_citation(Citation.from_json(citation), parsed.body) is None  # as `wikigen verify`
    assert all(e["source"] != "knowledge/secrets" for e in seen["private"]["evidence"])
    assert seen["get"]["id"] == "concept/pod" and seen["get"]["citations"]
    assert [r["other"]["id"] for r in seen["neighbors"]["relations"]] == ["concept/container"]
    assert seen["excerpt"]["quote"] == seen["get"]["citations"][0]["quote"]
    assert seen["verify"]["ok"] is True
    assert "concept/no-such-thing" in seen["unknown"] and "search" in seen["unknown"]
    assert "000000000000" in seen["unknown_citation"]
    assert "query is empty" in seen["empty"]
    assert "concept/vault_key" in seen["private_get"] and "passphrase" not in seen["private_get"]  # R39: never compiled
    for text in (seen["unknown"], seen["empty"]):
        assert "Traceback" not in text
    assert seen["after"]["evidence"]
    # Read-only: no commit, nothing written in the work tree.
    assert repo.head() == head
    assert repo.git("status", "--porcelain").stdout == ""
