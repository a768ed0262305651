"""`wikigen search` and its index (E1, E4–E6): ranked passages whose citations pass the same
check as `wikigen verify`; an index under .git/ that follows the snapshot in O(change); private
sources left out; the token budget reported, never silently cut."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agents_repo import CONTAINERS, PODS, K, compiled_repo
from tests.conftest import GitRepo, source
from wikigen.evidence.citations import Citation, check_citation
from wikigen.evidence.passages import search_passages
from wikigen.model.errors import NotFoundError, UsageError
from wikigen.model.hashing import citation_id
from wikigen.search import Searcher, SyncReport, records
from wikigen.search.index import index_path
from wikigen.search.refresh import refresh_index
from wikigen.store.git import GitStore
from wikigen.store.sourceset import read_recorded
from wikigen.store.workspace import Workspace

PODS_EDIT = PODS + "\nA pod that is evicted is not restarted on the same node; its controller makes a new one.\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    return compiled_repo(tmp_path_factory.mktemp("search") / "repo")


@pytest.fixture(scope="module")
def searcher(repo: GitRepo) -> Searcher:
    return Searcher(repo.root)


def body_at(root: Path, source_id: str, version: str) -> str:
    """The body of a compiled version, read from git as `wikigen verify` reads it (E5)."""
    ws = Workspace.open(root)
    entry = ws.baseline.manifest[source_id]
    assert entry.version == version
    parsed, why = read_recorded(ws.store, ws.config, entry.path, entry.blob, entry.content_hash)
    assert parsed is not None, why
    return parsed.body


def test_search_returns_e6_evidence_whose_citations_verify(repo: GitRepo, searcher: Searcher):
    result = searcher.search("which node does the scheduler bind a pod to", k=3)
    assert result["snapshot"]["version"] == 1
    evidence = result["evidence"]
    assert evidence and evidence[0]["source"] == "knowledge/pods"
    assert "scheduler" in evidence[0]["excerpt"]
    for item in evidence:
        assert set(item) >= {"title", "source", "version", "excerpt", "citation_id", "source_span", "lines", "score"}
        assert item["source"] != "knowledge/secrets"  # private: left out
    assert [c["citation_id"] for c in result["citations"]] == [e["citation_id"] for e in evidence]
    for citation in result["citations"]:
        body = body_at(repo.root, citation["source"], citation["version"])
        assert check_citation(Citation.from_json(citation), body) is None  # the check of `wikigen verify`
        # E1: every excerpt is a whole passage of at least 40 characters.
        assert any(p.start == citation["source_span"]["start"] and p.text == citation["quote"] for p in search_passages(body))
        assert len(citation["quote"]) >= 40
    supported = {o["id"] for o in result["objects"]}
    assert "concept/pod" in supported


def test_objects_are_the_ones_whose_citations_the_passages_support(searcher: Searcher):
    result = searcher.search("smallest deployable unit group of containers", k=2)
    top = result["evidence"][0]
    assert top["source"] == "knowledge/pods"
    concept = next(o for o in result["objects"] if o["id"] == "concept/pod")
    assert concept["kind"] == "concept" and concept["title"] == "Pod"
    assert 0 in concept["evidence"]


def test_budget_drops_are_counted_and_left_as_source_level_citations(searcher: Searcher):
    full = searcher.search("containers pods restart policy", k=3)
    first = full["evidence"][0]["tokens"]
    assert first == searcher.ranker.count_tokens(full["evidence"][0]["excerpt"])
    cut = searcher.search("containers pods restart policy", k=3, budget=first)
    assert len(cut["evidence"]) == 1
    report = cut["budget"]
    assert report["tokens"] == first and report["used"] == first
    assert report["dropped"] == len(full["evidence"]) - 1
    assert report["dropped_tokens"] == sum(e["tokens"] for e in full["evidence"][1:])
    # E4: a dropped passage leaves a citation of its source without a citation_id.
    source_level = [c for c in cut["citations"] if "citation_id" not in c]
    assert {c["source"] for c in source_level} == {e["source"] for e in full["evidence"][1:]}
    assert searcher.search("containers", k=3, budget=0)["evidence"] == []


def test_empty_query_and_bad_k_are_usage_errors(searcher: Searcher):
    with pytest.raises(UsageError, match="query is empty"):
        searcher.search("   ")
    with pytest.raises(UsageError):
        searcher.search("pods", k=0)


def test_a_private_source_is_never_searched_or_served(repo: GitRepo):
    """R39: a source private by the `private` setting is never compiled, searched or served."""
    question = "where is the vault passphrase kept"
    found = Searcher(repo.root).search(question)
    assert all(e["source"] != "knowledge/secrets" for e in found["evidence"])
    assert "private_included" not in found
    with pytest.raises(NotFoundError):
        records.get_object(Searcher(repo.root), "concept/vault_key")


def test_index_lives_under_git_and_records_its_snapshot(repo: GitRepo, searcher: Searcher):
    searcher.at()
    assert searcher.index.path == repo.root / ".git" / "wikigen" / "search.sqlite"
    assert searcher.index.snapshot_version == 1
    assert repo.git("status", "--porcelain").stdout == ""


def test_records_get_neighbors_excerpt_verify(repo: GitRepo, searcher: Searcher):
    pod = records.get_object(searcher, "Pod")
    assert pod["id"] == "concept/pod" and pod["citations"]
    assert records.get_object(searcher, "concept/pod") == pod
    related = records.neighbors(searcher, "concept/pod")["relations"]
    assert [(r["predicate"], r["other"]["id"], r["direction"]) for r in related] == [
        ("groups", "concept/container", "out")
    ]
    assert related[0]["evidence"][0]["quote"] == "REL Pod -groups-> Container."
    cited = pod["citations"][0]
    span = cited["source_span"]
    text = records.excerpt(searcher, cited["source"], span["start"], span["end"], version=cited["version"])
    assert text["quote"] == cited["quote"] and text["citation_id"] == cited["citation_id"]
    assert records.verify_citation(searcher, cited["citation_id"])["ok"] is True
    hit = searcher.search("scheduler scores feasible nodes", k=1)["evidence"][0]
    assert records.verify_citation(searcher, hit["citation_id"])["ok"] is True
    for call in (
        lambda: records.get_object(searcher, "concept/nothing"),
        lambda: records.verify_citation(searcher, "000000000000"),
        lambda: records.excerpt(searcher, "knowledge/none", 0, 10),
    ):
        with pytest.raises(NotFoundError):
            call()
    with pytest.raises(UsageError, match="outside the body"):
        records.excerpt(searcher, "knowledge/pods", 0, 10**6)


def test_index_follows_the_snapshot_in_o_change(tmp_path: Path):
    repo = GitRepo(tmp_path / "repo")
    bodies = {
        name: f"# {name}\n\nThe {name} paragraph is long enough to be one passage of its own.\n\n"
        f"A second {name} paragraph, also long enough to be indexed as a passage.\n"
        for name in ("alpha", "beta", "gamma")
    }
    repo.commit({f"{K}/{n}.md": source(b, title=n) for n, b in bodies.items()})
    repo.publish_baseline(1)
    searcher = Searcher(repo.root)
    searcher.at()
    assert searcher.last_sync.sources_indexed == 3 and searcher.last_sync.passages_embedded == 6
    searcher.at()
    assert searcher.last_sync.sources_indexed == 0 and searcher.last_sync.passages_embedded == 0  # nothing moved

    edited = bodies["beta"] + "\nA third beta paragraph about zebras, added by an edit of this source.\n"
    repo.commit({f"{K}/beta.md": source(edited, title="beta"), f"{K}/gamma.md": None})
    repo.publish_baseline(2)
    result = searcher.search("zebras", k=1)
    report = searcher.last_sync
    # Only the edited source is read and embedded again; the withdrawn one leaves the index.
    assert (report.sources_indexed, report.passages_embedded, report.sources_dropped) == (1, 3, 1)
    assert result["snapshot"]["version"] == 2 and result["evidence"][0]["source"] == "knowledge/beta"
    assert searcher.index.size()["sources"] == 2 and searcher.index.size()["passages"] == 5

    # --at answers for the snapshot asked for, never for the one the index happened to reflect.
    old = searcher.search("gamma paragraph", k=5, at="1")
    assert old["snapshot"]["version"] == 1 and "knowledge/gamma" in {e["source"] for e in old["evidence"]}
    assert "zebras" not in json.dumps(searcher.search("zebras", k=5, at="1")["evidence"])
    with pytest.raises(UsageError, match="no snapshot version 7"):
        searcher.search("gamma", at="7")

    # Rebuilt from git alone: a deleted index comes back.
    searcher.index.close()
    searcher.index.path.unlink()
    fresh = Searcher(repo.root).search("zebras", k=1)
    assert fresh["evidence"][0]["citation_id"] == citation_id("knowledge/beta", edited.index("A third"))


def test_cli_search_json_and_text(repo: GitRepo):
    result = repo.wikigen("search", "--k", "2", "--json", "what", "restarts", "containers")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["evidence"][0]["source"] == "knowledge/containers"
    text = repo.wikigen("search", "restart policy")
    assert text.code == 0 and "knowledge/containers" in text.out
    empty = repo.wikigen("search", " ")
    assert empty.code == 2 and "query is empty" in empty.err


def test_a_repo_with_no_snapshot_says_to_compile_first(tmp_path: Path):
    repo = GitRepo(tmp_path / "repo")
    repo.commit({f"{K}/alpha.md": source()})
    result = repo.wikigen("search", "anything")
    assert result.code == 1 and "wikigen compile" in result.err


def test_building_the_index_from_nothing_shows_progress_per_source(tmp_path: Path):
    """E4: the first search in a clone builds the index from nothing and says how far it is, source
    by source (a line per tenth of them, and the last); a later search builds nothing and says
    nothing."""
    compiled = compiled_repo(tmp_path / "repo")
    lines: list[str] = []
    searcher = Searcher(compiled.root, progress=lines.append)
    searcher.search("pods", k=1)
    assert lines[0].startswith("building the search index: 2 source(s)")
    assert [line.strip().split(" sources")[0] for line in lines[1:]] == ["1/2", "2/2"]
    assert "passages embedded" in lines[-1]
    lines.clear()
    Searcher(compiled.root, progress=lines.append).search("pods", k=1)
    assert lines == []



def test_a_compile_brings_an_existing_index_up_to_date_embedding_only_what_changed(tmp_path: Path):
    """E6: a repo never searched gets no index from a compile (no embedding paid for nothing); once it
    has one, `wikigen compile` brings it to the new snapshot, embedding the passages of the changed
    source alone, so that the next search embeds nothing."""
    repo = compiled_repo(tmp_path / "repo")
    repo.commit({f"{K}/containers.md": source(CONTAINERS + "\nAn image is pulled before the container starts.\n", title="Containers")})
    unsearched = repo.wikigen("compile", "--engine", "offline")
    assert unsearched.code == 0, unsearched.err
    assert "search index" not in unsearched.err and refresh_index(repo.root) is None
    assert not index_path(GitStore(repo.root)).exists()

    Searcher(repo.root).at()  # the index, built by a first search
    repo.commit({f"{K}/pods.md": source(PODS_EDIT, title="Pods")})
    result = repo.wikigen("compile", "--engine", "offline")
    assert result.code == 0, result.err
    expected = len(search_passages(PODS_EDIT))
    assert f"search index up to date: 1 source(s) indexed, {expected} passage(s) embedded" in result.err

    after = Searcher(repo.root)
    after.at()
    assert after.last_sync == SyncReport()  # nothing left for the first query to embed
    assert after.index.snapshot_version == 3


def test_a_how_do_i_question_finds_the_command_under_the_sentence_that_introduces_it(tmp_path: Path):
    """E6: search indexes each code block with the paragraph that introduces it, so a question in words
    reaches the command; the excerpt is still a verbatim span whose citation verifies."""
    repo = compiled_repo(tmp_path / "repo")
    guide = (
        "# Building the docs\n\nThe documentation is a static site built from the Markdown sources.\n\n"
        "To preview the documentation site on your own machine while you edit it, run:\n\n"
        "```sh\nmake docs-serve PORT=8000\n```\n\n"
        "Publishing happens in continuous integration after every merge to the main branch.\n"
    )
    repo.commit({f"{K}/docs.md": source(guide, title="Building the docs")})
    assert repo.wikigen("compile", "--engine", "offline").code == 0
    result = Searcher(repo.root).search("how do I preview the documentation site locally", k=1)
    top = result["evidence"][0]
    assert top["source"] == "knowledge/docs" and "make docs-serve PORT=8000" in top["excerpt"]
    citation = result["citations"][0]
    body = body_at(repo.root, citation["source"], citation["version"])
    assert check_citation(Citation.from_json(citation), body) is None
