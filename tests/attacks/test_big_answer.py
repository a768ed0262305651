"""R15, R16: a server's 20 MB answer to one small source is no change that "split the change with
--batch" could help, so the advice names the model and the server; --batch stays the advice only for
a large delta in proportion to several sources.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from tests.fake_openai import Captured, FakeOpenAI, Reply, completion

K = "content/sources/knowledge"
POD = "Intro line about pods.\n\nConcept Pod [type=resource]: a Pod is the smallest unit.\n"


def huge(captured: Captured) -> Reply:
    request = captured.request
    delta = extract(request["stage"], request)
    delta["articles"][0]["summary"][0]["text"] += " padding" * 2_500_000  # 20 MB
    return Reply(200, completion(delta))


def test_a_20_mb_answer_is_not_advised_to_batch(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch):
    """R15: one source, a 20 MB delta: the compile fails, nothing is published, and the message
    says to check the model and the server — not to split with --batch."""
    for var in ("WIKIGEN_ENGINE", "WIKIGEN_DEADLINE", "WIKIGEN_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    head = git_repo.head()
    with FakeOpenAI() as server:
        server.push(huge)
        monkeypatch.setenv("WIKIGEN_BASE_URL", server.url)
        monkeypatch.setenv("WIKIGEN_MODEL", "m")
        result = git_repo.wikigen("compile", "--engine", "http")
    assert result.code == 1 and git_repo.head() == head, result
    assert "over the 100,000-byte limit" in result.err
    assert "--batch" not in result.err and "engine.models.analyze" in result.err and "engine.base_url" in result.err
