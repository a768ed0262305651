"""`wikigen answer` (wikigen.commands.answer): an answer filed back from the shell is written only when
every quote is verbatim in the committed version of its source, never for a private source, never
over another file, and never committed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.conftest import GitRepo, source

K = "content/sources/knowledge"
PODS = (
    "# Pods\n\nA Pod is the smallest deployable unit, a group of containers that share storage and network.\n\n"
    "A pod is scheduled onto a node by the scheduler, which scores every feasible node before binding.\n"
)
VAULT = "# Vault\n\nThe vault passphrase is kept in the tangerine safe on the third floor of the building.\n"
QUOTE = "a group of containers that share storage and network"
SECRET_QUOTE = "The vault passphrase is kept in the tangerine safe"
ANSWER = f"{K}/answers/what-is-a-pod.md"


def ask(repo: GitRepo, *cites: str, question: str = "What is a Pod?", answer: str = "A Pod groups containers."):
    args = ["answer", "--question", question, "--answer", answer]
    for cite in cites:
        args += ["--cite", cite]
    return repo.wikigen(*args)


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit({
        "wikigen.yml": "private:\n  - knowledge/locked*\n",
        f"{K}/pods.md": source(PODS, title="Pods"),
        f"{K}/vault.md": source(VAULT, title="Vault", private=True),
        f"{K}/locked.md": source(VAULT, title="Locked"),
    })
    return git_repo


def test_an_answer_is_written_only_when_every_quote_is_verbatim_at_head(repo: GitRepo):
    """R22: one quote not in its source refuses the whole answer, naming it; nothing is written."""
    result = ask(repo, f"knowledge/pods:{QUOTE}", "knowledge/pods:A Pod is the largest unit there is, by far")
    assert result.code == 1
    assert "1 of 2 citation(s) refused" in result.err and "citation 2 (knowledge/pods)" in result.err
    assert "not verbatim in knowledge/pods as committed at HEAD" in result.err
    assert not (repo.root / ANSWER).exists() and repo.git("status", "--porcelain").stdout == ""

    head = repo.head()
    result = ask(repo, f"knowledge/pods:{QUOTE}", f"{K}/pods.md:scores every feasible node before binding")
    assert result.code == 0, result.err
    assert f"wrote {ANSWER}" in result.out and "Nothing is committed" in result.out
    text = repo.read(ANSWER)
    assert "question: What is a Pod?\norigin: agent\nverification: unverified\n" in text
    assert f"> {QUOTE}\n" in text and "> scores every feasible node before binding\n" in text
    assert repo.head() == head and repo.git("status", "--porcelain").stdout == f"?? {K}/answers/\n"
    assert repo.wikigen("check").code == 0


def test_a_quote_only_in_the_work_tree_is_refused_until_its_source_is_committed(repo: GitRepo):
    """R22: quotes are checked against the committed blob, never against the work tree."""
    repo.write({f"{K}/pods.md": source(PODS + "\nPods are replaced, never repaired, when their node fails.\n", title="Pods")})
    quote = "Pods are replaced, never repaired, when their node fails."
    result = ask(repo, f"knowledge/pods:{quote}")
    assert result.code == 1 and "the work tree has it, uncommitted: commit the source first" in result.err
    assert not (repo.root / ANSWER).exists()
    repo.write({f"{K}/new.md": source("# New\n\nA brand new source that nobody has committed yet at all.\n")})
    result = ask(repo, "knowledge/new:A brand new source that nobody has committed")
    assert result.code == 1 and "knowledge/new is not committed" in result.err
    repo.commit({f"{K}/pods.md": repo.read(f"{K}/pods.md")})
    assert ask(repo, f"knowledge/pods:{quote}").code == 0


def test_a_private_source_cannot_be_cited(repo: GitRepo):
    """R39: a source private by its frontmatter, by a glob, or marked private in the work tree since
    its commit is never quoted; the refusal is the same for a true and a made-up quote, so it tells
    nothing of the private text."""
    for cite in (f"knowledge/vault:{SECRET_QUOTE}", "knowledge/vault:The vault passphrase is written on a note",
                 f"knowledge/locked:{SECRET_QUOTE}"):
        result = ask(repo, cite)
        name = cite.split(":")[0]
        assert result.code == 1 and f"{name} is private" in result.err, result.err
        assert "verbatim" not in result.err.split("\n")[1]
    repo.write({f"{K}/pods.md": source(PODS, title="Pods", private=True)})  # turned private, not committed
    result = ask(repo, f"knowledge/pods:{QUOTE}")
    assert result.code == 1 and "knowledge/pods is private" in result.err
    assert not (repo.root / ANSWER).exists()
    assert "tangerine" not in repo.git("status", "--porcelain", "--untracked-files=all").stdout


def test_a_rejected_source_cannot_be_cited(repo: GitRepo):
    """R6: a rejected source is no knowledge, so no answer rests on it."""
    repo.commit({f"{K}/pods.md": source(PODS, title="Pods", verification="rejected")})
    result = ask(repo, f"knowledge/pods:{QUOTE}")
    assert result.code == 1 and "knowledge/pods is rejected" in result.err


def test_another_answer_at_the_same_file_is_refused_never_overwritten(repo: GitRepo):
    """R40: the file is named by the question; the same answer again changes nothing, another
    answer to the same question (or one in the same words) is refused."""
    assert ask(repo, f"knowledge/pods:{QUOTE}").code == 0
    before = repo.read(ANSWER)
    again = ask(repo, f"knowledge/pods:{QUOTE}")
    assert again.code == 0 and f"unchanged: {ANSWER}" in again.out
    other = ask(repo, f"knowledge/pods:{QUOTE}", answer="A Pod is a unit of scheduling.")
    assert other.code == 1 and "already holds another text" in other.err
    same_words = ask(repo, f"knowledge/pods:{QUOTE}", question="what is a pod")
    assert same_words.code == 1 and "already holds another text" in same_words.err
    assert repo.read(ANSWER) == before


def test_an_answer_from_a_json_file_or_stdin_is_the_mcp_tools_arguments(repo: GitRepo, monkeypatch, tmp_path: Path):
    """E6: `--from-json` takes what the MCP tool `file_answer` takes; `--answer-file -` reads stdin."""
    request = {"question": "What is a Pod?", "answer": "A Pod groups containers.",
               "citations": [{"source": "knowledge/pods", "quote": QUOTE}]}
    (tmp_path / "answer.json").write_text(json.dumps(request))
    result = repo.json("answer", "--from-json", str(tmp_path / "answer.json"))
    assert result["written"] is True and result["path"] == ANSWER
    assert result["citations"][0]["quote"] == QUOTE and result["citations"][0]["source"] == "knowledge/pods"
    (repo.root / ANSWER).unlink()
    monkeypatch.setattr("sys.stdin", io.StringIO("A Pod groups containers."))
    result = repo.wikigen("answer", "--question", "What is a Pod?", "--answer-file", "-", "--cite", f"knowledge/pods:{QUOTE}")
    assert result.code == 0 and (repo.root / ANSWER).exists()

    refused = repo.json("answer", "--question", "Q?", "--answer", "A.", "--cite", "knowledge/pods:not in the source at all, surely")
    assert refused["written"] is False and refused["failed"][0]["citation"] == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--answer", "A."], "--question TEXT"),
        (["--question", "Q?"], "--answer TEXT or --answer-file FILE"),
        (["--question", "Q?", "--answer", "A."], "at least one citation"),
        (["--question", "Q?", "--answer", "A.", "--cite", "knowledge/pods"], "neither SOURCE:QUOTE"),
        (["--from-json", "-", "--question", "Q?"], "either as --from-json"),
    ],
)
def test_a_malformed_answer_command_says_what_to_give(repo: GitRepo, args: list[str], words: str):
    """R5's way with bad input: a clear message, exit 2, nothing written."""
    result = repo.wikigen("answer", *args)
    assert result.code == 2 and words in result.err and "Traceback" not in result.err
    assert repo.git("status", "--porcelain").stdout == ""


def test_a_source_is_cited_by_its_frontmatter_id_or_its_path(git_repo: GitRepo):
    """R1: a source's id is its frontmatter `id` where it has one; the snapshot says where it lives."""
    git_repo.commit({f"{K}/pods.md": source(PODS, title="Pods", id="pods-guide")})
    git_repo.publish_baseline()
    result = git_repo.json("answer", "--question", "What is a Pod?", "--answer", "A Pod groups containers.",
                           "--cite", f"pods-guide:{QUOTE}", "--cite", f"knowledge/pods.md:{QUOTE[:30]}")
    assert result["written"] is True, result
    assert [c["source"] for c in result["citations"]] == ["pods-guide", "pods-guide"]
    refused = git_repo.wikigen("answer", "--question", "Q?", "--answer", "A.", "--cite", f"../../etc/passwd:{QUOTE}")
    assert refused.code == 1 and "is not a source name" in refused.err


def test_a_citation_id_keeps_the_place_it_names_when_its_text_occurs_twice(git_repo: GitRepo):
    """E3/R22: an answer that cites a search passage by its id quotes that passage where it stands, not
    the first place its text occurs: the citation the answer records is the one the agent was given."""
    from wikigen.commands.answer import file_answer, passages_of_search
    from wikigen.evidence.passages import passages
    from wikigen.model.hashing import citation_id
    from wikigen.search import Searcher

    twice = "Restart the scheduler after every upgrade so that it reads the new configuration file."
    body = f"# Upgrades\n\n## Control plane\n\n{twice}\n\n## Workers\n\n{twice}\n"
    git_repo.commit({f"{K}/upgrades.md": source(body, title="Upgrades")})
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    second = [p for p in passages(body) if p.text == twice][1]
    cid = citation_id("knowledge/upgrades", second.start)

    filed = file_answer(
        git_repo.root, "When is the scheduler restarted?", "After every upgrade.", [{"citation_id": cid}],
        passage_of=passages_of_search(Searcher(git_repo.root)),
    )
    assert [(c.start, c.citation_id) for c in filed.citations] == [(second.start, cid)]
