"""R21: the API key is scrubbed from anything printed, logged or committed — a key placed in the
base URL's userinfo (`http://user:KEY@host/v1`) included, and a key the server echoes into an object
or into the model name it reports.

Before the fix, `plan --engine http` printed the userinfo (`route: http at user:KEY@host`), and a
key the server wrote into a summary or a title was committed into the article file.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping
from typing import Any

import pytest

from tests.conftest import GIT_ENV, GitRepo, source
from tests.engines import extract
from tests.fake_openai import Captured, FakeOpenAI, Reply, completion
from wikigen.model.objects import object_path

K = "content/sources/knowledge"
ENV_KEY = "sk-env-SECRET-4f9a1c"
URL_KEY = "sk-url-SECRET-77b2e0"
POD = "Intro line about pods.\n\nConcept Pod [type=resource]: a Pod is the smallest unit.\n"


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("WIKIGEN_BASE_URL", "WIKIGEN_MODEL", "WIKIGEN_ENGINE", "WIKIGEN_DEADLINE", "WIKIGEN_API_KEY"):
        monkeypatch.delenv(var, raising=False)


def with_userinfo(url: str, user: str = "user", password: str | None = URL_KEY) -> str:
    scheme, rest = url.split("://", 1)
    info = f"{user}:{password}" if password is not None else user
    return f"{scheme}://{info}@{rest}"


def everything_in(repo: GitRepo) -> bytes:
    """Every file of the work tree and every git object (commits, trees, blobs, notes)."""
    files = b"".join(p.read_bytes() for p in repo.root.rglob("*") if p.is_file() and ".git" not in p.parts)
    objects = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"],
        cwd=repo.root, capture_output=True, check=True, env={**os.environ, **GIT_ENV},
    ).stdout
    return files + objects


@pytest.mark.parametrize("password", [URL_KEY, None], ids=["user-and-password", "token-as-user"])
def test_plan_never_prints_the_base_url_userinfo(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, password: str | None
):
    """R11, R21: `plan --engine http` (text and --json) shows the host, not the key."""
    user = "user" if password else URL_KEY
    monkeypatch.setenv("WIKIGEN_BASE_URL", with_userinfo("http://127.0.0.1:9/v1", user, password))
    monkeypatch.setenv("WIKIGEN_MODEL", "m")
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    for args in (("plan", "--engine", "http"), ("plan", "--engine", "http", "--json")):
        result = git_repo.wikigen(*args)
        assert result.code == 0, result
        assert URL_KEY not in result.out + result.err and "127.0.0.1:9" in result.out


def test_a_bad_base_url_is_refused_without_showing_it(git_repo: GitRepo, monkeypatch):
    """R21: a base URL without its scheme is a config error that does not repeat the URL."""
    monkeypatch.setenv("WIKIGEN_BASE_URL", f"user:{URL_KEY}@models.example/v1")
    result = git_repo.wikigen("plan", "--engine", "http")
    assert result.code == 1 and "the environment variable WIKIGEN_BASE_URL must start with http://" in result.err
    assert URL_KEY not in result.out + result.err


def echo_keys(delta: Mapping[str, Any]) -> dict[str, Any]:
    """A hostile server: both keys written into every summary text and title of the delta."""

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            out = {k: walk(v) for k, v in value.items()}
            for field in ("title", "text"):
                if isinstance(out.get(field), str):
                    out[field] = f"{out[field]} (key {ENV_KEY}, url key {URL_KEY})"
            return out
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(dict(delta))


def test_keys_echoed_by_the_server_reach_no_file_commit_or_output(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """R21: the env key and a key in the base URL's userinfo, echoed by the server into an
    error, into the objects of the delta and into the reported model name, are scrubbed before
    anything is printed, traced or committed; the compile still publishes."""

    def hostile(captured: Captured) -> Reply:
        request = captured.request
        return Reply(200, completion(echo_keys(extract(request["stage"], request)), model=f"m-{URL_KEY}"))

    with FakeOpenAI() as server:
        server.push(Reply(500, {"error": {"message": f"upstream failed for {URL_KEY} and {ENV_KEY}"}}),
                    hostile, hostile)
        monkeypatch.setenv("WIKIGEN_BASE_URL", with_userinfo(server.url))
        monkeypatch.setenv("WIKIGEN_MODEL", "m")
        monkeypatch.setenv("WIKIGEN_API_KEY", ENV_KEY)
        git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
        outputs = [git_repo.wikigen("plan", "--engine", "http")]
        outputs.append(git_repo.wikigen("compile", "--engine", "http", "--json"))
        assert outputs[-1].code == 0, outputs[-1]
        assert len(server.requests) == 3
    report = json.loads(outputs[-1].out)
    assert report["published"]
    article = git_repo.read(object_path("article/knowledge--pod"))
    assert "(key ***, url key ***)" in article  # the echo was there, and was scrubbed
    for result in outputs:
        assert ENV_KEY not in result.out + result.err and URL_KEY not in result.out + result.err
    stored = everything_in(git_repo)
    assert ENV_KEY.encode() not in stored and URL_KEY.encode() not in stored
