"""The compile pipeline on real temporary git repos, driven by a scripted engine (R9–R33, E1–E5)."""

from __future__ import annotations

import json
import re

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.contract import empty_delta
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.errors import (
    CapExceeded,
    ConflictError,
    LocalChangesError,
    PreviousFailure,
    SourceError,
    ValidationError,
    WikigenError,
)
from wikigen.model.hashing import canonical_bytes
from wikigen.model.objects import RELATIONS_DIR, object_path
from wikigen.model.snapshot import MANIFEST_DIR, SNAPSHOT_PATH
from wikigen.schemas import load_schema

K = "content/sources/knowledge"


def snapshot_at(repo: GitRepo, rev: str = "HEAD"):  # type: ignore[no-untyped-def]
    return repo.snapshot(rev)


def compiled(repo: GitRepo, engine: ScriptedEngine | None = None, **kw):  # type: ignore[no-untyped-def]
    return compile_repo(repo.root, engine=engine or ScriptedEngine(extract), **kw)


POD = "Intro line about pods.\n\nConcept Pod [type=resource]: a Pod is the smallest unit.\n\nREL Pod -runs on-> Node.\n"
NODE = "Intro line about nodes.\n\nConcept Node [type=resource]: a Node is a worker machine.\n"
NODE2 = "Another page.\n\nConcept Node [type=resource]: a Node also hosts Pods in this other page.\n"


def test_first_compile_writes_objects_and_commit_by_wikigen(git_repo: GitRepo):
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods"), f"{K}/node.md": source(NODE, title="Nodes")})
    report = compiled(git_repo)
    assert report.published and report.version == 1
    assert git_repo.repo.revparse_single("HEAD").author.name == "wikigen"
    changed = git_repo.git("show", "--name-only", "--format=", "HEAD").stdout.split()
    assert all(p.startswith(("content/wiki/", "content/.wikigen/")) for p in changed)  # R31
    snap = snapshot_at(git_repo)
    assert set(snap.objects) >= {"article/knowledge--pod", "concept/pod", "concept/node"}
    rel = [o for o in snap.objects if o.startswith("relation/")]
    assert len(rel) == 1 and snap.objects[rel[0]]["predicate"] == "runs on"
    assert git_repo.git("status", "--porcelain").stdout == ""  # work tree updated
    assert git_repo.wikigen("verify").code == 0
    trailers = git_repo.git("log", "-1", "--format=%B").stdout
    assert "Wikigen-Snapshot: 1" in trailers and "Wikigen-Engine-Calls: 2" in trailers


def test_no_diff_duplicate_and_recompile_make_no_call_and_no_commit(git_repo: GitRepo):
    """R9."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    compiled(git_repo)
    head = git_repo.head()
    engine = ScriptedEngine(extract)
    assert not compiled(git_repo, engine).published
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")}, "duplicate upload")  # same content
    report = compiled(git_repo, engine, retry=True)
    assert engine.calls == 0 and not report.published
    assert (
        git_repo.git("rev-list", "--count", f"{head}..HEAD").stdout.strip() == "1"
    )  # only the user's commit


def test_verification_change_is_a_bookkeeping_commit_without_engine(git_repo: GitRepo):
    """R3."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    compiled(git_repo)
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods", verification="verified")})
    engine = ScriptedEngine(extract)
    report = compiled(git_repo, engine)
    assert engine.calls == 0 and report.bookkeeping and report.version == 1
    # The root record and the one manifest shard of that source, nothing else.
    changed = git_repo.changed_paths()
    assert len(changed) == 2 and SNAPSHOT_PATH in changed and changed[0].startswith(MANIFEST_DIR + "/")
    assert snapshot_at(git_repo).manifest["knowledge/pod"].verification == "verified"
    assert not compiled(git_repo, engine).published  # and then nothing more to do


def two_source_article(stage, request):  # type: ignore[no-untyped-def]
    if stage != "analyze":
        return empty_delta()
    ids = [s["id"] for s in request["sources"]] + sorted({f["source"] for f in request["fragments"]})
    quotes = []
    for s in request["sources"]:
        quotes.append({"source": s["id"], "quote": s["body"].splitlines()[2]})
    for f in request["fragments"]:
        quotes.append({"source": f["source"], "quote": f["text"].strip()})
    return {
        **empty_delta(),
        "articles": [
            {
                "title": "Pods and nodes",
                "sources": sorted(set(ids)),
                "summary": [{"text": "joined", "quotes": quotes}],
            }
        ],
    }


def test_editing_one_source_revokes_two_source_article_and_sends_fragments(git_repo: GitRepo):
    """R12, R13."""
    a = "Top.\n\nLine three of A, cited.\n\nmore\n"
    b = "Top.\n\nLine three of B, cited.\n\nmore\n"
    git_repo.commit({f"{K}/a.md": source(a, title="A"), f"{K}/b.md": source(b, title="B")})
    compiled(git_repo, ScriptedEngine(two_source_article))
    before = snapshot_at(git_repo)
    (article,) = [o for o in before.objects if o.startswith("article/")]
    git_repo.commit({f"{K}/a.md": source(a.replace("more", "changed"), title="A")})
    engine = ScriptedEngine(two_source_article)
    report = compiled(git_repo, engine)
    assert report.as_json()["revoked"]["article"] == 1
    _stage, request = engine.requests[0]
    assert [s["id"] for s in request["sources"]] == ["knowledge/a"]
    assert request["fragments"] == [
        {
            "source": "knowledge/b",
            "version": before.manifest["knowledge/b"].version,
            "title": "B",
            "lines": {"start": 3, "end": 3},
            "text": "Line three of B, cited.\n",
        }
    ]
    assert {r["id"] for r in request["revoked"]} == {article}
    after = snapshot_at(git_repo)
    assert article in after.objects  # same sources → same id, rebuilt
    assert after.objects[article]["sources"]["knowledge/a"] == after.manifest["knowledge/a"].version


def test_concept_from_two_sources_survives_withdrawal_of_one_with_same_id(git_repo: GitRepo):
    """R25."""
    git_repo.commit(
        {
            f"{K}/pod.md": source(POD, title="Pods"),
            f"{K}/node.md": source(NODE, title="Nodes"),
            f"{K}/node2.md": source(NODE2, title="More nodes"),
        }
    )
    compiled(git_repo)
    before = snapshot_at(git_repo)
    assert set(before.objects["concept/node"]["sources"]) == {"knowledge/node", "knowledge/node2"}
    relations_before = git_repo.relations()
    git_repo.commit({f"{K}/node.md": None})
    engine = ScriptedEngine(extract)
    compiled(git_repo, engine)
    after = snapshot_at(git_repo)
    assert "concept/node" in after.objects  # rebuilt, same id (R25)
    assert set(after.objects["concept/node"]["sources"]) == {"knowledge/node2"}
    request = engine.requests[0][1]
    assert {f["source"] for f in request["fragments"]} >= {"knowledge/node2"}
    # The relation Pod -runs on-> Node lost its endpoint, was revoked, and was rebuilt from the fragment.
    assert len(git_repo.relations()) == len(relations_before)


def test_relation_whose_endpoint_is_revoked_is_gone_and_diff_is_that_line(git_repo: GitRepo):
    """R12."""
    git_repo.commit(
        {
            f"{K}/pod.md": source(POD, title="Pods"),
            f"{K}/node.md": source(NODE, title="Nodes"),
            f"{K}/other.md": source("Other.\n\nConcept Cat: a cat.\n\nREL Cat -sits on-> Node.\n", title="O"),
        }
    )
    compiled(git_repo)
    assert len(git_repo.relations()) == 2
    git_repo.commit({f"{K}/pod.md": None})  # withdraws Pod: its relation to Node goes
    compiled(git_repo)
    diff = git_repo.git("diff", "HEAD~1", "HEAD", "--", RELATIONS_DIR).stdout
    removed = [ln for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    added = [ln for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert len(removed) == 1 and '"predicate":"runs on"' in removed[0] and added == []


def test_independent_withdrawal_is_local_and_last_withdrawal_is_empty_snapshot(git_repo: GitRepo):
    """R29."""
    git_repo.commit(
        {f"{K}/a.md": source("Alpha text.\n", title="A"), f"{K}/b.md": source("Beta text.\n", title="B")}
    )
    compiled(git_repo)
    engine = ScriptedEngine(extract)
    git_repo.commit({f"{K}/a.md": None})
    report = compiled(git_repo, engine)
    assert engine.calls == 0 and report.published and report.version == 2
    git_repo.commit({f"{K}/b.md": None})
    report = compiled(git_repo, engine)
    assert engine.calls == 0 and report.version == 3
    snap = snapshot_at(git_repo)
    assert snap.objects == {} and dict(snap.manifest) == {}
    assert not (git_repo.root / "content/wiki/articles").exists()


@pytest.mark.parametrize(
    ("cap", "expected"),
    [
        ("input_bytes", "> 300"),  # the source alone fits (R5); its context does not
        ("anchors", "2 > 1"),
        ("articles", "2 > 1"),
        ("relations", "2 > 1"),
        ("fragments", "> 1"),
    ],
)
def test_each_cap_exceeded_fails_and_keeps_head(git_repo: GitRepo, cap: str, expected: str):
    """R15: a source over a cap with its context is refused before any engine call, naming the cap,
    the value and the file."""
    pod = POD + "\nREL Node -hosts-> Pod.\n"
    git_repo.commit({f"{K}/pod.md": source(pod, title="Pod"), f"{K}/node.md": source(NODE, title="Node")})
    compiled(git_repo)
    git_repo.commit({f"{K}/b.md": source("Mentions Pod and Node together.\n", title="B")})
    head = git_repo.head()
    engine = ScriptedEngine(extract)
    with pytest.raises(SourceError) as caught:
        compile_repo(git_repo.root, engine=engine, overrides={f"caps.{cap}": 300 if cap == "input_bytes" else 1})
    assert f"caps.{cap}: " in caught.value.message and expected in caught.value.message
    assert f"{K}/b.md" in caught.value.message and "nothing was published" in caught.value.message
    assert f"raise caps.{cap} to at least" in caught.value.message
    assert git_repo.head() == head and engine.calls == 0
    assert compile_repo(git_repo.root, engine=engine, retry=True).published  # default caps: fits


def test_cap_exceeded_cli_exit_1_names_cap_and_value(git_repo: GitRepo, monkeypatch):
    """R15."""
    git_repo.commit({f"{K}/a.md": source("x" * 500, title="A")})
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", "600")
    head = git_repo.head()
    result = git_repo.wikigen("compile")
    assert result.code == 1 and "over caps.input_bytes (600)" in result.err
    assert "too large to compile" in result.err and "knowledge/a" in result.err  # R5 with R15's measure
    # both ways out: split the file, or raise the cap to a value that fits the source alone
    assert "split this file" in result.err and "raise caps.input_bytes to at least" in result.err
    assert git_repo.head() == head


def test_cap_breach_names_the_command_that_works_and_never_refuses_it(git_repo: GitRepo, monkeypatch):
    """R15, R33: a plain compile over a cap says `wikigen compile --batch`; that command runs
    without --retry, and so does the plain compile again (a cap breach judges the invocation)."""
    files = {f"{K}/s{i}.md": source(f"Body of source number {i} with some words.\n" * 3, title=f"S{i}") for i in range(6)}
    git_repo.commit(files)
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", "1500")
    result = git_repo.wikigen("compile", "--engine", "offline")
    assert result.code == 1 and "`wikigen compile --batch --engine offline`" in result.err, result.err
    assert "not about the sources" in result.err and "--retry" not in result.err
    note = json.loads(git_repo.git("notes", "--ref=refs/notes/wikigen", "show", "HEAD").stdout)
    assert note["status"] == "failed" and note["retryable"] is True and note["mode"] == "single"
    again = git_repo.wikigen("compile")
    assert "caps.input_bytes" in again.err and "failed before" not in again.err
    report = compiled(git_repo, batch=True)  # no --retry
    assert report.published and len(report.increments) > 1


def test_a_failure_refuses_only_the_same_attempt(git_repo: GitRepo):
    """R33: same sources tree, same settings, same mode — or it runs."""
    git_repo.commit({f"{K}/a.md": source("Alpha text.\n", title="A")})
    bad = {
        **empty_delta(),
        "articles": [{"title": "A", "sources": ["knowledge/a"],
                      "summary": [{"text": "x", "quotes": [{"source": "knowledge/a", "quote": "nope"}]}]}],
    }
    with pytest.raises(ValidationError):
        compiled(git_repo, ScriptedEngine([bad, empty_delta()]), batch=True)
    with pytest.raises(PreviousFailure) as caught:
        compiled(git_repo, ScriptedEngine(extract), batch=True)  # the same attempt
    assert "`wikigen compile --batch --retry`" in caught.value.message
    with pytest.raises(ValidationError):  # other settings make another attempt: it runs (and fails again)
        compiled(git_repo, ScriptedEngine([bad, empty_delta()]), batch=True, overrides={"caps.anchors": 99})
    assert compiled(git_repo, ScriptedEngine(extract), batch=False).published  # another mode runs


def test_batch_publishes_one_commit_per_increment(git_repo: GitRepo, monkeypatch):
    """R16."""
    files = {
        f"{K}/s{i:02}.md": source(f"Body of source number {i} with some words.\n" * 3, title=f"S{i}")
        for i in range(12)
    }
    git_repo.commit(files)
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", "2000")
    with pytest.raises(CapExceeded):
        compiled(git_repo)
    report = compiled(git_repo, batch=True, retry=True)
    assert len(report.increments) > 2 and report.version == len(report.increments)
    authors = git_repo.git("log", "--format=%an", f"-{len(report.increments)}").stdout.split()
    assert authors == ["wikigen"] * len(report.increments)
    snap = snapshot_at(git_repo)
    assert len([o for o in snap.objects if o.startswith("article/")]) == 12
    assert snap.sources_tree == git_repo.repo.revparse_single("HEAD:content/sources").id.__str__()
    assert git_repo.wikigen("verify").code == 0


BAD_DELTAS = {
    "ambiguous alias": (
        {
            "concepts": [
                {
                    "name": "Alpha",
                    "type": "concept",
                    "aliases": ["Shared"],
                    "definition": {"text": "a", "quotes": [{"source": "knowledge/a", "quote": "Alpha text"}]},
                },
                {
                    "name": "Beta",
                    "type": "concept",
                    "aliases": ["Shared"],
                    "definition": {"text": "b", "quotes": [{"source": "knowledge/a", "quote": "Alpha text"}]},
                },
            ]
        },
        "ambiguous concept name/alias",
    ),
    "self-loop": (
        {
            "concepts": [
                {
                    "name": "Alpha",
                    "type": "concept",
                    "definition": {"text": "a", "quotes": [{"source": "knowledge/a", "quote": "Alpha text"}]},
                }
            ],
            "relations": [
                {
                    "subject": "Alpha",
                    "predicate": "uses",
                    "object": "alpha",
                    "basis": "explicit",
                    "evidence": [{"source": "knowledge/a", "quote": "Alpha text"}],
                }
            ],
        },
        "self-loop",
    ),
    "unknown id": (
        {
            "relations": [
                {
                    "subject": "concept/nope",
                    "predicate": "uses",
                    "object": "Ghost",
                    "basis": "explicit",
                    "evidence": [{"source": "knowledge/a", "quote": "Alpha text"}],
                }
            ]
        },
        "unknown concept",
    ),
    "quote not provided": (
        {
            "articles": [
                {
                    "title": "A",
                    "sources": ["knowledge/a"],
                    "summary": [
                        {"text": "x", "quotes": [{"source": "knowledge/a", "quote": "not in the body"}]}
                    ],
                }
            ]
        },
        "quote not found verbatim",
    ),
    "source not in request": (
        {
            "articles": [
                {
                    "title": "Z",
                    "sources": ["knowledge/zzz"],
                    "summary": [{"text": "x", "quotes": [{"source": "knowledge/zzz", "quote": "Alpha"}]}],
                }
            ]
        },
        "not in the request",
    ),
    "duplicate relation": (
        {
            "concepts": [
                {
                    "name": "Alpha",
                    "type": "concept",
                    "definition": {"text": "a", "quotes": [{"source": "knowledge/a", "quote": "Alpha text"}]},
                },
                {
                    "name": "Gamma",
                    "type": "concept",
                    "definition": {"text": "g", "quotes": [{"source": "knowledge/a", "quote": "Gamma"}]},
                },
            ],
            "relations": [
                {
                    "subject": "Alpha",
                    "predicate": "uses",
                    "object": "Gamma",
                    "basis": "explicit",
                    "evidence": [{"source": "knowledge/a", "quote": "Alpha text"}],
                }
            ]
            * 2,
        },
        "duplicate relation",
    ),
    "type conflict": (
        {
            "concepts": [
                {
                    "name": "Pod",
                    "type": "animal",
                    "definition": {"text": "a", "quotes": [{"source": "knowledge/a", "quote": "Alpha text"}]},
                }
            ]
        },
        "type conflict",
    ),
}


def test_bad_deltas_fail_listing_every_problem_and_keep_head(git_repo: GitRepo):
    """R22, R26."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pod")})
    compiled(git_repo)
    git_repo.commit({f"{K}/a.md": source("Alpha text with Gamma and a Pod mention.\n", title="A")})
    head = git_repo.head()
    for name, (partial, words) in BAD_DELTAS.items():
        good_article = {
            "title": "A",
            "sources": ["knowledge/a"],
            "summary": [{"text": "a", "quotes": [{"source": "knowledge/a", "quote": "Alpha text"}]}],
        }
        answer = {**empty_delta(), "articles": [good_article], **partial}
        if name in ("quote not provided", "source not in request"):
            answer["articles"] = partial["articles"] + (
                [good_article] if name == "source not in request" else []
            )
        with pytest.raises(ValidationError) as caught:
            compile_repo(git_repo.root, engine=ScriptedEngine([answer, empty_delta()]), retry=True)
        assert words in caught.value.message, (name, caught.value.message)
        assert git_repo.head() == head, name
    # Several problems at once are all listed.
    many = {
        **empty_delta(),
        "articles": [
            {
                "title": "A",
                "sources": ["knowledge/a"],
                "summary": [
                    {"text": "a", "quotes": [{"source": "knowledge/a", "quote": "missing one"}]},
                    {"text": "b", "quotes": [{"source": "knowledge/a", "quote": "missing two"}]},
                ],
            }
        ],
    }
    result_engine = ScriptedEngine([many, empty_delta()])
    with pytest.raises(ValidationError) as caught:
        compile_repo(git_repo.root, engine=result_engine, retry=True)
    listed = "\n".join(caught.value.problems)
    assert "'missing one'" in listed and "'missing two'" in listed and len(caught.value.problems) == 3


def test_failure_is_a_note_and_not_retried_without_change(git_repo: GitRepo):
    """R33."""
    git_repo.commit({f"{K}/a.md": source("Alpha text.\n", title="A")})
    bad = {
        **empty_delta(),
        "articles": [
            {
                "title": "A",
                "sources": ["knowledge/a"],
                "summary": [{"text": "x", "quotes": [{"source": "knowledge/a", "quote": "nope"}]}],
            }
        ],
    }
    with pytest.raises(ValidationError):
        compiled(git_repo, ScriptedEngine([bad, empty_delta()]))
    note = git_repo.git("notes", "--ref=refs/notes/wikigen", "show", "HEAD").stdout
    assert '"status": "failed"' in note and "quote not found" in note
    engine = ScriptedEngine(extract)
    with pytest.raises(PreviousFailure):
        compiled(git_repo, engine)
    assert engine.calls == 0
    assert git_repo.wikigen("compile").code == 1
    assert compiled(git_repo, engine, retry=True).published  # --retry
    git_repo.commit({f"{K}/a.md": source("Alpha text changed.\n", title="A")})
    with pytest.raises(ValidationError):
        compiled(git_repo, ScriptedEngine([bad, empty_delta()]))
    git_repo.commit({f"{K}/a.md": source("Alpha text changed again.\n", title="A")})
    assert compiled(git_repo).published  # a relevant change retries


def test_verify_catches_hand_edited_quote_and_bad_manifest_blob(git_repo: GitRepo):
    """E5."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    compiled(git_repo)
    path = object_path("article/knowledge--pod")
    text = git_repo.read(path)
    git_repo.commit(
        {path: text.replace("quote: Intro line about pods.", "quote: Intro line about cats.")}, "hand edit"
    )
    result = git_repo.wikigen("verify")
    assert result.code == 1 and "not at" in result.out and "edited by hand" in result.out
    git_repo.git("reset", "--hard", "HEAD~1")
    other = git_repo.repo.create_blob(b"---\ntitle: Pods\n---\nsomething else entirely\n")
    git_repo.edit_manifest(lambda m: m["knowledge/pod"].update(blob=str(other)), "corrupt manifest")
    result = git_repo.wikigen("verify", "--json")
    data = json.loads(result.out)
    assert result.code == 1 and any("does not hold the body" in p for p in data["problems"])


def test_verify_with_citation_ids_checks_each_named_citation(git_repo: GitRepo):
    """E5: `verify ID…` re-checks just those citations, names each with its count, exits 0."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods"), f"{K}/node.md": source(NODE, title="Nodes")})
    compiled(git_repo)
    pod, node = (
        re.search(r"citation_id: ([0-9a-f]{12})", git_repo.read(object_path(f"article/knowledge--{name}")))
        for name in ("pod", "node")
    )
    assert pod and node
    result = git_repo.wikigen("verify", pod[1])
    assert result.code == 0 and f"{pod[1]}: 1 citation(s), ok" in result.out
    result = git_repo.wikigen("verify", "--json", pod[1], node[1])
    data = json.loads(result.out)
    assert result.code == 0 and data["ok"] and data["citations"] == 2
    assert {cid: v["ok"] for cid, v in data["citation_ids"].items()} == {pod[1]: True, node[1]: True}


def test_verify_with_a_citation_id_no_object_cites_fails_naming_it(git_repo: GitRepo):
    """E5: an id that no object of the snapshot cites is an error that names it, exit 1."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    compiled(git_repo)
    result = git_repo.wikigen("verify", "0123456789ab")
    assert result.code == 1 and "'0123456789ab'" in result.err and "Traceback" not in result.err


def test_files_people_put_in_generated_folders_are_left_alone(git_repo: GitRepo):
    """R38."""
    git_repo.commit(
        {
            f"{K}/pod.md": source(POD, title="Pods"),
            "content/wiki/articles/my-notes.md": "# mine\n",
            "content/wiki/links.txt": "http://example.invalid\n",
        }
    )
    compiled(git_repo)
    git_repo.commit({f"{K}/pod.md": source(POD + "\nMore.\n", title="Pods")})
    compiled(git_repo)
    assert git_repo.read("content/wiki/articles/my-notes.md") == "# mine\n"
    assert git_repo.read("content/wiki/links.txt") == "http://example.invalid\n"
    # A person's file where the compiler wants to write is a clear failure, not an overwrite.
    git_repo.commit(
        {
            object_path("article/knowledge--new"): "# a person's page\n",
            f"{K}/new.md": source("New text.\n", title="New"),
        }
    )
    with pytest.raises(ValidationError) as caught:
        compiled(git_repo)
    assert "is not the compiler's" in caught.value.message
    assert git_repo.read(object_path("article/knowledge--new")) == "# a person's page\n"


def test_unrelated_compile_keeps_r27_r37_objects_byte_identical(git_repo: GitRepo):
    """R24."""
    retro = "Failure: the import was slow.\n\nThe cause is a hypothesis: the disk was full.\n"

    def with_issues(stage, request):  # type: ignore[no-untyped-def]
        delta = extract(stage, request)
        for article in delta["articles"]:
            if article["sources"] == ["retrospectives/slow"]:
                q = [
                    {
                        "source": "retrospectives/slow",
                        "quote": "The cause is a hypothesis: the disk was full.",
                    }
                ]
                article["summary"].append({"text": "The disk was full.", "status": "hypothesis", "quotes": q})
                article["contradictions"] = [
                    {"text": "Two causes disagree", "scope": "import", "uncertainty": "high", "quotes": q}
                ]
                article["open_questions"] = [{"text": "Was the disk full?", "quotes": q}]
        return delta

    git_repo.commit(
        {
            "content/sources/retrospectives/slow.md": source(retro, title="Slow import"),
            f"{K}/pod.md": source(POD, title="Pods"),
        }
    )
    compiled(git_repo, ScriptedEngine(with_issues))
    path = object_path("article/retrospectives--slow")
    before = (git_repo.root / path).read_bytes()
    assert b"Hypothesis:" in before and b"Two causes disagree" in before and b"Was the disk full?" in before
    git_repo.commit({f"{K}/node.md": source(NODE, title="Nodes")})
    compiled(git_repo, ScriptedEngine(with_issues))
    assert (git_repo.root / path).read_bytes() == before

    # R37: a delta that states the hypothesis as a fact fails.
    def as_fact(stage, request):  # type: ignore[no-untyped-def]
        delta = with_issues(stage, request)
        for article in delta["articles"]:
            for claim in article["summary"]:
                claim["status"] = "stated"
        return delta

    git_repo.commit(
        {"content/sources/retrospectives/slow.md": source(retro + "\nMore.\n", title="Slow import")}
    )
    with pytest.raises(ValidationError) as caught:
        compiled(git_repo, ScriptedEngine(as_fact))
    assert "presents a hypothesis or suggestion as a stated fact" in caught.value.message


def test_late_result_is_rejected(git_repo: GitRepo):
    """R30."""
    git_repo.commit({f"{K}/a.md": source("Alpha text.\n", title="A")})

    def sneaky(stage, request):  # type: ignore[no-untyped-def]
        if stage == "analyze":
            # Another compile publishes while this one waits for its engine.
            compile_repo(git_repo.root, engine=ScriptedEngine(extract))
        return extract(stage, request)

    with pytest.raises(ConflictError) as caught:
        compiled(git_repo, ScriptedEngine(sneaky))
    assert "moved" in caught.value.message
    assert snapshot_at(git_repo).version == 1


def test_dirty_generated_files_are_refused_before_any_call(git_repo: GitRepo):
    git_repo.commit({f"{K}/a.md": source("Alpha text.\n", title="A")})
    compiled(git_repo)
    (git_repo.root / object_path("article/knowledge--a")).write_text("tampered\n")
    git_repo.commit({f"{K}/a.md": source("Alpha text 2.\n", title="A")})
    result = git_repo.wikigen("compile")
    assert result.code == 1 and "local changes" in result.err
    engine = ScriptedEngine(extract)
    head = git_repo.head()
    with pytest.raises(WikigenError, match="local changes"):
        compile_repo(git_repo.root, engine=engine)
    assert engine.calls == 0 and git_repo.head() == head


def test_a_staged_generated_file_is_reported_before_an_invalid_source(git_repo: GitRepo):
    """R5, R38: the index is read while the plan is; the refusal of the staged file still comes first."""
    git_repo.commit({f"{K}/a.md": source("Alpha text.\n", title="A")})
    compiled(git_repo)
    git_repo.commit({f"{K}/b.md": "---\ntitle: [unclosed\n---\nBody.\n"})
    git_repo.stage({object_path("article/knowledge--a"): "tampered\n"})
    with pytest.raises(WikigenError, match="local changes"):
        compile_repo(git_repo.root, engine=ScriptedEngine(extract))


def test_a_local_change_the_compile_would_not_overwrite_is_left_alone(git_repo: GitRepo):
    """R38: as git's checkout does, only the local changes a compile would overwrite are refused,
    so that it never stats the whole work tree; a hand edit of a file it does not write stays as it is."""
    git_repo.commit(
        {
            f"{K}/a.md": source("Concept Alpha: the first letter.\n", title="A"),
            f"{K}/b.md": source("Concept Beta: the second letter.\n", title="B"),
        }
    )
    compiled(git_repo)
    edited = git_repo.root / object_path("concept/beta")
    edited.write_text("edited by hand\n")
    git_repo.commit({f"{K}/a.md": source("Concept Alpha: the first letter, again.\n", title="A")})
    engine = ScriptedEngine(extract)
    report = compile_repo(git_repo.root, engine=engine)
    assert report.published and engine.calls >= 1
    assert edited.read_text() == "edited by hand\n"  # left alone, and still a local change
    assert git_repo.git("status", "--porcelain", "--", str(edited)).stdout.startswith(" M")


def test_a_local_change_the_compile_would_overwrite_is_refused_before_the_ref_moves(git_repo: GitRepo):
    """R38: A concept the engine's answer rewrites is known only then: its local change is refused before
    publishing (nothing published, the edit kept), and once restored the same compile runs without
    --retry (the refusal judged no source)."""
    git_repo.commit({f"{K}/a.md": source("Concept Alpha: the first letter.\n", title="A")})
    compiled(git_repo)
    edited = git_repo.root / object_path("concept/alpha")
    edited.write_text("edited by hand\n")
    git_repo.commit({f"{K}/b.md": source("Concept Alpha: the letter before Beta.\n", title="B")})
    head = git_repo.head()
    engine = ScriptedEngine(extract)
    with pytest.raises(LocalChangesError) as caught:
        compile_repo(git_repo.root, engine=engine)
    message = caught.value.message
    assert engine.calls >= 1 and object_path("concept/alpha") in message and "nothing was published" in message
    assert "git checkout --no-overlay HEAD -- content/wiki" in message
    assert git_repo.head() == head and edited.read_text() == "edited by hand\n"
    git_repo.git("checkout", "--no-overlay", "HEAD", "--", "content/wiki", "content/.wikigen")
    assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published and git_repo.head() != head
    assert edited.read_text() != "edited by hand\n"
    assert git_repo.git("status", "--porcelain", "--", "content/wiki", "content/.wikigen").stdout == ""


def test_legacy_snapshot_with_matching_fingerprint_gets_a_manifest_only_commit(git_repo: GitRepo):
    """R10."""
    from wikigen.model.hashing import fingerprint
    from wikigen.store.workspace import Workspace

    git_repo.commit({f"{K}/a.md": source("Alpha text.\n", title="A")})
    versions = {s: e.version for s, e in Workspace.open(git_repo.root).plan().manifest.items()}
    legacy = {
        "version": 7,
        "fingerprint": fingerprint(versions.items()),
        "objects": [{"citations": [{"source": "knowledge/a", "version": versions["knowledge/a"]}]}],
        "tool": "pre-manifest",
    }
    git_repo.commit({SNAPSHOT_PATH: json.dumps(legacy)})
    engine = ScriptedEngine(extract)
    report = compiled(git_repo, engine)
    assert engine.calls == 0 and report.bookkeeping and report.version == 7
    # The root record and the manifest (sharded), nothing else.
    assert {p.split("/")[1] for p in git_repo.changed_paths()} == {".wikigen"}
    assert {p for p in git_repo.changed_paths() if not p.startswith(MANIFEST_DIR + "/")} == {SNAPSHOT_PATH}
    data = json.loads(git_repo.read(SNAPSHOT_PATH))
    assert data["version"] == 7 and data["tool"] == "pre-manifest" and data["objects"] == legacy["objects"]
    assert git_repo.snapshot().manifest["knowledge/a"].version == versions["knowledge/a"]
    assert not compiled(git_repo, engine).published and engine.calls == 0


def test_retry_back_to_running_compiles_nothing_and_subtasks_batch(git_repo: GitRepo):
    """R36."""
    def task(status: str, attempt: int, text: str = "Task notes.") -> str:
        return source(f"{text}\n", title="T", task="T1", step="s", run="r", status=status, attempt=attempt)

    git_repo.commit({f"{K}/a.md": source("Alpha text.\n", title="A")})
    compiled(git_repo)
    git_repo.commit({"content/sources/tasks/t.md": task("accepted", 1)})
    assert compiled(git_repo).version == 2
    engine = ScriptedEngine(extract)
    git_repo.commit({"content/sources/tasks/t.md": task("running", 2, "Retrying.")})
    report = compiled(git_repo, engine)
    assert engine.calls == 0 and report.bookkeeping  # pending recorded, last checkpoint kept
    snap = snapshot_at(git_repo)
    assert snap.manifest["tasks/t"].pending is not None and "article/tasks--t" in snap.objects
    sub = source("Subtask notes.\n", title="Sub", task="T1-a", parent="T1", status="accepted")
    git_repo.commit({"content/sources/tasks/sub.md": sub})
    assert compiled(git_repo, engine).bookkeeping and engine.calls == 0
    git_repo.commit({"content/sources/tasks/t.md": task("accepted", 2, "Retried and accepted.")})
    report = compiled(git_repo, engine)
    assert engine.calls == 2 and sorted(report.added + report.updated) == ["tasks/sub", "tasks/t"]
    assert len(report.increments) == 1  # the subtask is batched with its parent's checkpoint


def test_plan_json_reports_revoked_fragments_bytes_and_calls_without_calling(git_repo: GitRepo):
    """R11."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods"), f"{K}/node.md": source(NODE, title="Nodes"),
                     f"{K}/node2.md": source(NODE2, title="More nodes")})
    compiled(git_repo)
    assert git_repo.json("plan")["engine_calls"] == 0
    git_repo.commit({f"{K}/node.md": source(NODE + "\nEdited.\n", title="Nodes")})
    plan = git_repo.json("plan")
    assert plan["updated"] == ["knowledge/node"] and plan["engine_calls"] == 2
    assert plan["revoked"] == {"article": 1, "concept": 1, "relation": 1, "topic": 0}
    assert plan["fragments"] >= 2 and plan["anchors"] >= 1
    assert plan["caps"]["input_bytes"][1] == 100_000 and 0 < plan["caps"]["input_bytes"][0] == plan["input_bytes"]
    assert plan["over_caps"] == []
    over = git_repo.wikigen("plan")
    assert "engine calls the next compile would make: 2" in over.out
    assert snapshot_at(git_repo).version == 1  # planning published nothing


def test_withdrawal_whose_topic_and_concept_cite_only_it_is_local(git_repo: GitRepo):
    """R29."""
    def with_topic(stage, request):  # type: ignore[no-untyped-def]
        delta = extract(stage, request)
        if stage == "analyze" and any(s["id"] == "knowledge/pod" for s in request["sources"]):
            q = [{"source": "knowledge/pod", "quote": "Concept Pod [type=resource]: a Pod is the smallest unit."}]
            delta["topics"] = [{"title": "Pods", "members": ["Pod", "Node", "Pods"], "summary": [{"text": "t", "quotes": q}]}]
        return delta

    git_repo.commit({f"{K}/pod.md": source("Concept Pod [type=resource]: a Pod is the smallest unit.\n", title="Pods"),
                     f"{K}/node.md": source(NODE, title="Nodes")})
    compiled(git_repo, ScriptedEngine(with_topic))
    assert any(o.startswith("topic/") for o in snapshot_at(git_repo).objects)
    git_repo.commit({f"{K}/pod.md": None})
    engine = ScriptedEngine(extract)
    report = compiled(git_repo, engine)
    assert engine.calls == 0 and report.published  # the live Node anchor's lines are not a reason to call
    assert not any(o.startswith(("topic/", "concept/pod")) for o in snapshot_at(git_repo).objects)


def test_one_size_rule_for_check_plan_and_batch(git_repo: GitRepo, monkeypatch):
    """R5, R15: a source that cannot fit one increment on its own, under the caps in force
    (here an environment override), is refused by check with its path and by how much, and a --batch
    run lists every such source before its first engine call."""
    from wikigen.compiler.sizes import alone_bytes
    from wikigen.store.workspace import Workspace

    small = {f"{K}/s{i}.md": source(f"Small source number {i} with a few words.\n", title=f"S{i}") for i in range(3)}
    big = {f"{K}/big{i}.md": source("A long line of words about nothing.\n" * 60, title=f"Big{i}") for i in range(2)}
    git_repo.commit({**small, **big})
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", "1500")
    checked = git_repo.wikigen("check")
    assert checked.code == 1
    lines = checked.out.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"{K}/big0.md", f"{K}/big1.md"]
    assert all("over caps.input_bytes (1,500)" in line for line in lines)
    plan = git_repo.json("plan")
    assert sorted(p["path"] for p in plan["invalid"]) == [f"{K}/big0.md", f"{K}/big1.md"]
    engine = ScriptedEngine(extract)
    with pytest.raises(SourceError) as caught:
        compile_repo(git_repo.root, engine=engine, batch=True)
    assert engine.calls == 0 and "big0.md" in caught.value.message and "big1.md" in caught.value.message

    # The same measure as compile's: a source exactly at the cap compiles, its request is that size.
    git_repo.commit({**dict.fromkeys(big)})
    ws = Workspace.open(git_repo.root)
    alone = alone_bytes(ws.plan().sources["knowledge/s0"])
    git_repo.commit({**dict.fromkeys(small), f"{K}/s0.md": small[f"{K}/s0.md"]})
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", str(alone))
    assert git_repo.wikigen("check").code == 0
    report = compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert report.increments[0].input_bytes == alone
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", str(alone - 1))
    assert git_repo.wikigen("check").code == 1


def test_recheck_is_sent_the_shared_blocks_as_analyze_got_them_and_what_analyze_found(git_repo: GitRepo):
    """R19: recheck gets the same sources, fragments, anchors and relations as analyze, byte for byte
    (a server's prompt cache serves them), and what analyze found; none of analyze's own blocks."""
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods"), f"{K}/node.md": source(NODE, title="Nodes")})
    compiled(git_repo)
    both = "Intro line about Nodes.\n\nConcept Kubelet [type=agent]: the Kubelet runs a Pod on a Node.\n\n" + (
        "REL Kubelet -watches-> Node.\n"
    )
    git_repo.commit({f"{K}/kubelet.md": source(both, title="Kubelet")})
    engine = ScriptedEngine(extract)
    report = compiled(git_repo, engine)
    (_, analyze), (_, recheck) = engine.requests
    analyzed = extract("analyze", analyze)
    assert set(recheck) == {"stage", "sources", "fragments", "anchors", "relations", "delta"}
    shared = ("sources", "fragments", "anchors", "relations")
    assert [canonical_bytes(recheck[k]) for k in shared] == [canonical_bytes(analyze[k]) for k in shared]
    assert len(recheck["fragments"]) == 2  # the lines that define the two anchors
    assert [a["id"] for a in analyze["articles"]] == ["article/knowledge--node"]  # "Nodes": a hit
    # R14: an anchor is its names; the lines its definition cites travel as fragments.
    assert recheck["anchors"][0].keys() == {"id", "name", "aliases", "type"}
    assert [a["id"] for a in recheck["anchors"]] == ["concept/node", "concept/pod"]
    assert recheck["relations"][0].keys() == {"id", "subject", "predicate", "object", "basis"}
    assert recheck["delta"] == {
        "concepts": [{"name": c["name"], "aliases": c.get("aliases", [])} for c in analyzed["concepts"]],
        "relations": [{"subject": "Kubelet", "predicate": "watches", "object": "Node"}],
    }
    # The bytes, pinned: recheck sends the shared blocks plus a few hundred bytes of what analyze
    # found, while analyze's request also carries rules, article hits, revoked and withdrawn.
    sent = report.as_json()["sent_bytes"]
    data = len(canonical_bytes({k: recheck[k] for k in shared}))
    assert sent["recheck"] == len(canonical_bytes(recheck)) and sent["recheck"] - data < 300
    # The request schema says the same, per stage: analyze's whole request would not pass as recheck's.
    schema = Draft202012Validator(load_schema("request"))
    assert schema.is_valid(analyze) and schema.is_valid(recheck)
    assert not schema.is_valid({**analyze, "stage": "recheck", "delta": recheck["delta"]})
    assert not schema.is_valid({**recheck, "stage": "analyze"})


def compiled_in_order(pages: dict[str, tuple[str, str]]) -> list[str]:
    """The source ids (title, body) in the order --batch compiles them (R16)."""
    from types import SimpleNamespace

    from wikigen.compiler.increments import batch_order

    plan = SimpleNamespace(
        changed=sorted(pages), sources={sid: SimpleNamespace(title=t, body=b) for sid, (t, b) in pages.items()}
    )
    order = batch_order(plan)  # type: ignore[arg-type]
    return sorted(order, key=order.__getitem__)


def test_batch_order_puts_first_the_pages_whose_title_names_the_others_use() -> None:
    """R16: --batch compiles first the sources whose titles the others mention, so that later
    increments can link to what they define; a title of several names ("Ploughs and harrows") is
    mentioned by a text naming any one of them, in either number; ties go by id."""
    pages = {
        "a-fields": ("Fields", "A field is sown each spring. Every plough and harrow works it."),
        "b-sheds": ("Sheds", "A shed keeps a plough dry."),
        "c-tools": ("Ploughs and harrows", "A plough turns the soil; a harrow breaks it."),
        "d-weather": ("Weather", "Rain falls on the field."),
    }
    assert compiled_in_order(pages) == ["c-tools", "a-fields", "b-sheds", "d-weather"]


def test_a_name_two_titles_share_credits_the_page_it_is_the_whole_title_of() -> None:
    """R16: a text naming ploughs mentions the page titled "Ploughs", not "Ploughs with mud guards",
    a page on a narrower topic that only starts with the name; so the page that the name titles comes
    first, and the narrower page waits with those nobody mentions."""
    pages = {
        "a-guards": ("Ploughs with mud guards", "A mud guard keeps a plough clean."),
        "b-ploughs": ("Ploughs", "A plough turns the soil."),
        "c-fields": ("Fields", "A plough works the soil."),
        "d-sheds": ("Sheds", "A shed keeps a plough dry."),
    }
    assert compiled_in_order(pages) == ["b-ploughs", "a-guards", "c-fields", "d-sheds"]


def test_a_concept_is_hit_by_its_name_in_the_other_number_an_article_by_its_title() -> None:
    """R14: a text naming "LimitRange" hits the concept named "LimitRanges" (and "pod disruption
    budgets" the one named "Pod disruption budget"), so the engine links to it instead of defining
    it again; an article is hit by its title as written."""
    from wikigen.compiler.context import hits
    from wikigen.compiler.lookup import IndexLookup

    index = {
        "concept/limitranges": {"kind": "concept", "names": ["LimitRanges"]},
        "concept/pod_disruption_budget": {"kind": "concept", "names": ["Pod disruption budget"]},
        "article/knowledge--pods": {"kind": "article", "names": ["Pods"]},
    }
    found = hits(IndexLookup(index), ["A LimitRange caps a Pod; see pod disruption budgets."], lambda _: True)
    assert found == {"concept/limitranges", "concept/pod_disruption_budget"}
    assert hits(IndexLookup(index), ["Pods run on nodes."], lambda _: True) == {"article/knowledge--pods"}


def test_a_title_with_a_preposition_names_what_comes_before_it() -> None:
    """R16: "Weather for fields and ploughs" is about the weather: a text that names ploughs does not
    mention it, so the page that defines ploughs comes first; the whole title still counts."""
    pages = {
        "a-weather": ("Weather for fields and ploughs", "Rain softens a field. A plough sticks in mud."),
        "b-ploughs": ("Ploughs", "A plough turns the soil of a field."),
        "c-sheds": ("Sheds", "A shed keeps a plough dry in any weather."),
        "d-barns": ("Barns", "A barn stores hay and a plough; see weather for fields and ploughs."),
    }
    assert compiled_in_order(pages) == ["b-ploughs", "a-weather", "c-sheds", "d-barns"]
