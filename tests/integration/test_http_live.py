"""The HTTP engine against a real OpenAI-compatible server (vLLM, Ollama, llama.cpp, LiteLLM, OpenAI).

Runs only when ``WIKIGEN_TEST_BASE_URL`` is set (e.g. ``http://localhost:11434/v1``); optional
``WIKIGEN_TEST_MODEL`` (default: the first model the server lists) and ``WIKIGEN_TEST_API_KEY``.
Neither CI nor the development machines can reach such a server, so there it is skipped with the
reason printed (``pytest -rs``).
"""

from __future__ import annotations

import json
import os
import threading
import time

import httpx
import pytest

from tests.conftest import GitRepo, source
from wikigen.compiler.driver import compile_repo
from wikigen.engines.http.client import HttpEngine
from wikigen.model.config import EngineSettings
from wikigen.model.snapshot import SNAPSHOT_PATH
from wikigen.schemas import schema_problems

pytestmark = pytest.mark.integration

BASE_URL = os.environ.get("WIKIGEN_TEST_BASE_URL", "").strip()
DEADLINE_S = float(os.environ.get("WIKIGEN_TEST_DEADLINE", "600"))
SKIP = "no live OpenAI-compatible server: set WIKIGEN_TEST_BASE_URL to run"

POD = """# Pods

A Pod is the smallest deployable unit of computing in Kubernetes.

A Pod runs on a Node.
"""
NODE = """# Nodes

A Node is a worker machine in Kubernetes.

The kubelet runs on every Node.
"""


@pytest.fixture
def live_settings(monkeypatch: pytest.MonkeyPatch) -> EngineSettings:
    if not BASE_URL:
        pytest.skip(SKIP)
    key = os.environ.get("WIKIGEN_TEST_API_KEY")
    if key:
        monkeypatch.setenv("WIKIGEN_API_KEY", key)
    else:
        monkeypatch.delenv("WIKIGEN_API_KEY", raising=False)
    model = os.environ.get("WIKIGEN_TEST_MODEL") or first_model(BASE_URL, key)
    return EngineSettings(
        name="http",
        base_url=BASE_URL,
        models=(("analyze", model), ("recheck", model)),
        deadline_s=DEADLINE_S,
    )


def first_model(base_url: str, key: str | None) -> str:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = httpx.get(base_url.rstrip("/") + "/models", headers=headers, timeout=30)
    response.raise_for_status()
    models = [m["id"] for m in response.json().get("data", [])]
    if not models:
        pytest.fail(f"{base_url}/models lists no model; set WIKIGEN_TEST_MODEL")
    return str(models[0])


def test_live_server_returns_a_schema_valid_delta(live_settings: EngineSettings):
    request = {
        "stage": "analyze",
        "rules": "wikigen-rules/1",
        "sources": [
            {
                "id": "knowledge/pod",
                "version": "v1",
                "title": "Pods",
                "category": "knowledge",
                "verification": "unverified",
                "body": POD,
            }
        ],
        "fragments": [],
        "anchors": [],
        "articles": [],
        "relations": [],
        "revoked": [],
        "withdrawn": [],
    }
    delta = HttpEngine(live_settings).run(
        "analyze", request, time.monotonic() + DEADLINE_S, threading.Event()
    )
    assert schema_problems(delta.data, "analyze") == []
    assert delta.calls and delta.calls[-1]["status"] == 200
    for count in (delta.usage.input, delta.usage.cached_input, delta.usage.output, delta.usage.reasoning):
        assert count is None or (isinstance(count, int) and count >= 0)  # R32: null when not reported


def test_live_small_compile_publishes_a_verified_snapshot(git_repo: GitRepo, live_settings: EngineSettings):
    git_repo.commit(
        {
            "content/sources/knowledge/pod.md": source(POD, title="Pods"),
            "content/sources/knowledge/node.md": source(NODE, title="Nodes"),
        }
    )
    report = compile_repo(
        git_repo.root,
        engine=HttpEngine(live_settings),
        overrides={"engine.deadline_s": DEADLINE_S},
    )
    assert report.published and report.version == 1
    trace = json.loads(git_repo.read(SNAPSHOT_PATH))["compilationTrace"]
    assert trace["engine"] == "http" and len(trace["calls"]) == 2
    assert all(call["http"][-1]["status"] == 200 for call in trace["calls"])
    assert git_repo.wikigen("verify").code == 0
    key = os.environ.get("WIKIGEN_TEST_API_KEY")
    if key:
        for path in git_repo.root.rglob("*"):
            if path.is_file():
                assert key.encode() not in path.read_bytes(), path
