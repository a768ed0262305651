"""scripts/live.py's report of a real server's prompt cache, checked against the fake server's model of
one (the real run, `make live`, needs llama-cpp-python built from source and is never run in CI)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from tests.fake_openai import FakeOpenAI, PrefixCache
from wikigen.compiler.driver import compile_repo
from wikigen.engines.http.client import HttpEngine
from wikigen.model.config import EngineSettings

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "live.py"
_spec = importlib.util.spec_from_file_location("live_script", SCRIPT)
assert _spec is not None and _spec.loader is not None
live: Any = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = live  # dataclasses look the module up by name while the class is made
_spec.loader.exec_module(live)

POD = "Intro line about pods.\n\nConcept Pod [type=resource]: a Pod is the smallest unit.\n"


def test_live_prints_the_cached_tokens_the_server_reports_on_the_recheck(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """R32: the recheck's cached prompt tokens, as the server's usage reports them, and the server
    log's prefix-match counts where it has them."""
    monkeypatch.delenv("WIKIGEN_API_KEY", raising=False)
    git_repo.commit({"content/sources/knowledge/pod.md": source(POD, title="Pods")})
    with FakeOpenAI(extract, cache=PrefixCache()) as server:
        proxy = live.Proxy(server.url.removesuffix("/v1"))
        settings = EngineSettings(name="http", base_url=proxy.start() + "/v1", models=(("analyze", "m"), ("recheck", "m")))
        assert compile_repo(git_repo.root, engine=HttpEngine(settings)).published
        recheck = server.requests[-1]
    assert [x.stage for x in proxy.exchanges] == ["analyze", "recheck"]
    assert proxy.exchanges[-1].cached == recheck.cached > 0
    log = "Llama.generate: 1234 prefix-match hit, 56 prompt tokens to eval\n"
    live.cache_report(proxy.exchanges, log)
    out = capsys.readouterr().out
    assert f"cached as the server reports: {recheck.cached:,}" in out
    assert "1,234 reused + 56 evaluated" in out
    live.cache_report([*proxy.exchanges[:-1], live.Exchange("recheck", "json_schema", 200, 1, 1, 0.0, {}, "")], "")
    assert "not reported" in capsys.readouterr().out
