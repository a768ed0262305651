"""Private means private (R39): a source that turns private — by its frontmatter or by a new glob of
the `private` setting — is withdrawn at the next compile with no engine call, never reaches a remote
engine, and the read paths (search, MCP, site, llms.txt, objects.json, `--at`) leave it out even
before that compile. A `private` value that is not a YAML boolean is an invalid source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from tests.fake_openai import FakeOpenAI
from wikigen.compiler.driver import compile_repo
from wikigen.engines.http.client import HttpEngine
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.config import EngineSettings
from wikigen.model.errors import PrivacyError
from wikigen.search import Searcher, records

K = "content/sources/knowledge"
SECRET = "The vault passphrase is tangerine-umbrella-42 and lives in the basement safe."
VAULT = f"# Vault\n\nConcept Vault [type=place]: {SECRET}\n\nREL Vault -guards-> Ledger.\n"
LEDGER = "# Ledger\n\nConcept Ledger [type=record]: the Ledger is the book every payment is written into.\n"
MENTION = "# Audit\n\nThe Ledger and the Vault are both checked by the auditors once a year, in spring.\n"


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WIKIGEN_API_KEY", "sk-test-privacy")
    for var in ("WIKIGEN_BASE_URL", "WIKIGEN_MODEL", "WIKIGEN_ENGINE", "WIKIGEN_DEADLINE"):
        monkeypatch.delenv(var, raising=False)


def compiled(repo: GitRepo, files: dict[str, str | None]) -> None:
    repo.commit(files)
    compile_repo(repo.root, engine=ScriptedEngine(extract))


def http_engine(fake: FakeOpenAI) -> HttpEngine:
    settings = EngineSettings(name="http", base_url=fake.url, models={"analyze": "m", "recheck": "m"})
    return HttpEngine(settings, backoff_s=0.02)


def wiki_text(repo: GitRepo) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((repo.root / "content").rglob("*")) if p.is_file()
                     and "sources" not in p.parts)


@pytest.mark.parametrize("how", ["glob", "frontmatter"])
def test_a_source_that_turns_private_is_withdrawn_with_no_engine_call(git_repo: GitRepo, how: str):
    """R39, R29: private later → withdrawn like a removed source, 0 engine calls, its text gone."""
    compiled(git_repo, {f"{K}/vault.md": source(VAULT, title="Vault"), f"{K}/ledger.md": source(LEDGER, title="Ledger")})
    assert "tangerine" in wiki_text(git_repo)
    if how == "glob":
        git_repo.commit({"wikigen.yml": "private:\n  - knowledge/vault\n"})
    else:
        git_repo.commit({f"{K}/vault.md": source(VAULT, title="Vault", private=True)})
    report = compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert report.withdrawn == ["knowledge/vault"]
    assert sum(inc.engine_calls for inc in report.increments) == 0
    assert "tangerine" not in wiki_text(git_repo)
    assert "knowledge/vault" not in git_repo.snapshot().manifest
    # Nothing changed since: the next compile is a no-op (the setting is recorded in the snapshot).
    head = git_repo.head()
    assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published is False
    assert git_repo.head() == head


def test_a_glob_removed_again_compiles_the_source(git_repo: GitRepo):
    """R39: privacy is what the settings say now — a source no glob names any more is compiled."""
    compiled(git_repo, {"wikigen.yml": "private:\n  - knowledge/vault\n", f"{K}/vault.md": source(VAULT, title="Vault"),
                        f"{K}/ledger.md": source(LEDGER, title="Ledger")})
    assert "knowledge/vault" not in git_repo.snapshot().manifest
    git_repo.commit({"wikigen.yml": "private: []\n"})
    report = compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert report.added == ["knowledge/vault"]
    assert "tangerine" in wiki_text(git_repo)


def test_a_private_source_is_never_sent_to_the_http_engine_even_as_context(git_repo: GitRepo):
    """R39, R17: after a source turns private, a compile on a remote engine whose changed source
    mentions its concept sends none of its text (every request body recorded)."""
    compiled(git_repo, {f"{K}/vault.md": source(VAULT, title="Vault"), f"{K}/ledger.md": source(LEDGER, title="Ledger")})
    git_repo.commit({"wikigen.yml": "private:\n  - knowledge/vault*\n", f"{K}/audit.md": source(MENTION, title="Audit")})
    with FakeOpenAI(extract) as fake:
        compile_repo(git_repo.root, engine=http_engine(fake))
        bodies = [json.dumps(c.body) for c in fake.requests]
    assert bodies, "the added source was compiled on the HTTP engine"
    assert not any("tangerine" in b or "basement safe" in b for b in bodies)
    assert "knowledge/vault" not in git_repo.snapshot().manifest


@pytest.mark.parametrize("value", ['"true"', "1", "'yes'", "[true]"])
def test_a_private_value_that_is_not_a_boolean_is_an_invalid_source(git_repo: GitRepo, value: str):
    """R39, R5: `private` must be a YAML boolean; anything else names the file and line."""
    git_repo.commit({f"{K}/vault.md": f"---\ntitle: Vault\nprivate: {value}\n---\n{VAULT}"})
    result = git_repo.wikigen("check")
    assert result.code != 0
    assert f"{K}/vault.md:3:" in result.out + result.err and "private must be true or false" in result.out + result.err


def test_a_key_that_differs_from_private_only_by_case_is_refused(git_repo: GitRepo):
    """R39: `Private: true` is not silently public metadata."""
    git_repo.commit({f"{K}/vault.md": f"---\ntitle: Vault\nPrivate: true\n---\n{VAULT}"})
    result = git_repo.wikigen("check")
    assert result.code != 0 and f"{K}/vault.md:3:" in result.out + result.err and "'Private'" in result.out + result.err


def test_search_and_mcp_leave_out_a_source_private_at_head_before_the_compile(git_repo: GitRepo):
    """R39: the read paths filter by the privacy in force at HEAD, before the next compile and for an
    older snapshot (`--at`)."""
    compiled(git_repo, {f"{K}/vault.md": source(VAULT, title="Vault"), f"{K}/ledger.md": source(LEDGER, title="Ledger")})
    question = "where does the vault passphrase live"
    assert any(e["source"] == "knowledge/vault" for e in Searcher(git_repo.root).search(question)["evidence"])
    git_repo.commit({f"{K}/vault.md": source(VAULT, title="Vault", private=True)})  # not compiled yet
    searcher = Searcher(git_repo.root)
    found = searcher.search(question, k=10)
    assert all(e["source"] != "knowledge/vault" for e in found["evidence"])
    assert "tangerine" not in json.dumps(found)
    assert all(o["id"] != "concept/vault" for o in found["objects"])
    with pytest.raises(PrivacyError):
        records.get_object(searcher, "concept/vault")
    with pytest.raises(PrivacyError):
        records.excerpt(searcher, "knowledge/vault", 0, 40)
    old = searcher.search(question, k=10, at="1")
    assert "tangerine" not in json.dumps(old)
    # the CLI, the same
    result = git_repo.wikigen("search", "--json", question)
    assert result.code == 0 and "tangerine" not in result.out


def test_the_site_leaves_out_a_source_private_at_head(tmp_path: Path):
    """R39: `wikigen build` publishes no page, llms.txt line or objects.json entry of a source private
    at HEAD, nor of an object that cites it."""
    from tests.agents_repo import compiled_repo

    repo = compiled_repo(tmp_path / "repo", mkdocs_yml=_mkdocs_yml())
    repo.commit({f"{K}/pods.md": source("# Pods\n\nA Pod is a group of containers that share storage.\n",
                                        title="Pods", private=True)})
    result = repo.wikigen("build")
    assert result.code == 0, result.err
    site = repo.root / "site"
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in site.rglob("*") if p.is_file()
             and p.suffix in (".html", ".json", ".txt", ".md")]
    assert texts
    leaked = [t for t in texts if "smallest deployable" in t or "vault passphrase" in t]
    assert not leaked


def _mkdocs_yml() -> str:
    root = Path(__file__).resolve().parents[2]
    return (root / "mkdocs.yml").read_text(encoding="utf-8")
