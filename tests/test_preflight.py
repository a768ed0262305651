"""Every source too large to compile — alone or with the context the snapshot gives it — is found
before any engine call, by `check`, `plan` and `compile` alike; a --batch run that meets one its
grown context makes too large goes on with what does not depend on it (R5, R15, R16, R33)."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.errors import CapExceeded, EngineError, SourceError

K = "content/sources/knowledge"
NAMES = ("Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel")
# Eight concepts whose definitions are long lines: a source naming them all gets eight anchors and
# eight fragments of about 200 bytes each as context.
GLOSSARY = "".join(
    f"Concept {name}: {name} is a term of this glossary, defined here at length so that its defining "
    f"line, sent as a fragment and as the anchor's definition, weighs about two hundred bytes.\n\n"
    for name in NAMES
)
NAMES_ALL = "This page uses " + ", ".join(NAMES) + " together.\n"
CAP = "2000"


def refused_paths(text: str) -> list[str]:
    """The files named at the start of `path:line: message` lines."""
    return sorted({m[1] for m in re.finditer(r"^(?:wikigen: )?(content/sources/\S+\.md):\d+: ", text, re.MULTILINE)})


def test_a_batch_lists_both_the_oversized_source_and_the_one_its_context_makes_too_big(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """R5, R15: with one source too large alone and one that only its context (eight anchors and
    their fragments, from the committed snapshot) makes too large, `compile --batch` lists both
    before its first engine call and publishes nothing; `check`, `check --staged` and `plan` name
    the same two, and each message gives the value of caps.input_bytes that would fit."""
    git_repo.commit({f"{K}/glossary.md": source(GLOSSARY, title="Glossary")})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    git_repo.commit({
        f"{K}/big.md": source("A long line of words about nothing at all.\n" * 60, title="Big"),
        f"{K}/uses-all.md": source(NAMES_ALL, title="Uses all"),
        f"{K}/small.md": source("A small page that names no term of the glossary.\n", title="Small"),
    })
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", CAP)
    head, version = git_repo.head(), git_repo.snapshot().version
    both = [f"{K}/big.md", f"{K}/uses-all.md"]

    engine = ScriptedEngine(extract)
    with pytest.raises(SourceError) as caught:
        compile_repo(git_repo.root, engine=engine, batch=True)
    assert engine.calls == 0 and refused_paths(caught.value.message) == both
    assert git_repo.head() == head and git_repo.snapshot().version == version

    result = git_repo.wikigen("compile", "--batch")
    assert result.code == 1 and refused_paths(result.err) == both, result.err
    assert "nothing was published" in result.err and git_repo.head() == head
    with_context = next(line for line in result.err.splitlines() if f"{K}/uses-all.md:" in line)
    assert "too large to compile with its context" in with_context and "8 concept anchors" in with_context
    assert "split this file" in with_context
    fits = re.search(r"raise caps\.input_bytes to at least ([\d,]+)", with_context)
    assert fits is not None

    for args in (("check",), ("check", "--staged")):
        checked = git_repo.wikigen(*args)
        assert checked.code == 1 and refused_paths(checked.out) == both, (args, checked.out)
    plan = git_repo.json("plan")
    assert sorted(p["path"] for p in plan["invalid"]) == both

    # The value named is the least that fits: with it check passes both, with one byte less not.
    value = int(fits[1].replace(",", ""))
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", str(value))
    assert git_repo.wikigen("check").code == 0
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", str(value - 1))
    assert refused_paths(git_repo.wikigen("check").out) == [f"{K}/uses-all.md"]


def test_a_batch_goes_on_past_a_source_its_grown_context_makes_too_large(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """R15, R16, R33: on a first import the snapshot gives no context, so the preflight passes a
    source that only the concepts of this run's earlier increments make too large. The batch
    refuses that source alone, leaves out the source that names its title, compiles the one that
    does not depend on it, and fails listing both left-out sources with why — in its message and in
    the failure note. The next compile then refuses it before any engine call."""
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", CAP)
    git_repo.commit({
        f"{K}/a-glossary.md": source(GLOSSARY, title="Glossary"),
        f"{K}/b-uses-all.md": source("The Glossary terms.\n" + NAMES_ALL, title="Overview"),
        f"{K}/c-follows.md": source("This page follows the Overview page.\n", title="Follows"),
        f"{K}/d-apart.md": source("A page that names nothing else here.\n", title="Apart"),
    })
    engine = ScriptedEngine(extract)
    with pytest.raises(CapExceeded) as caught:
        compile_repo(git_repo.root, engine=engine, batch=True)
    message = caught.value.message
    assert "2 source(s) of this batch were not compiled" in message, message
    # measured against the snapshot the run published last, as check and the next compile measure it
    refusal = next(line for line in message.splitlines() if line.startswith("  knowledge/b-uses-all: "))
    assert "too large to compile with its context" in refusal and "8 concept anchors" in refusal
    assert "raise caps.input_bytes to at least" in refusal and "split this file" in refusal
    assert "knowledge/c-follows: it names the title of knowledge/b-uses-all, which was not compiled" in message
    snapshot = git_repo.snapshot()
    assert "stays published" in message and snapshot.version >= 2
    compiled = {sid for sid, entry in snapshot.manifest.items() if entry.version is not None}
    assert compiled == {"knowledge/a-glossary", "knowledge/d-apart"}
    note = json.loads(git_repo.git("notes", "--ref=refs/notes/wikigen", "show", "HEAD").stdout)
    assert note["status"] == "failed" and note["retryable"] is True
    assert sorted(note["notCompiled"]) == ["knowledge/b-uses-all", "knowledge/c-follows"]

    # Now the snapshot holds the glossary: the same measure names the source before any engine call.
    checked = git_repo.wikigen("check").out
    assert refused_paths(checked) == [f"{K}/b-uses-all.md"]
    assert refusal.split(": ", 1)[1] in checked and note["notCompiled"]["knowledge/b-uses-all"] in checked
    again = ScriptedEngine(extract)
    with pytest.raises(SourceError) as refused:
        compile_repo(git_repo.root, engine=again, batch=True)
    assert again.calls == 0 and refused_paths(refused.value.message) == [f"{K}/b-uses-all.md"]


def test_a_batch_stopped_by_a_failure_names_every_source_it_did_not_compile(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """R16, R33: a failure that is not one source's (here the engine going away) stops the batch;
    the message and the note name each source not compiled, and why."""
    git_repo.commit({f"{K}/s{i}.md": source(f"Body of source number {i} with some words.\n" * 3, title=f"S{i}")
                     for i in range(6)})
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", "2000")
    calls: list[str] = []

    def fails_second_increment(stage, request):  # type: ignore[no-untyped-def]
        calls.append(stage)
        if calls.count("analyze") == 2:
            raise EngineError("analyze: the server went away; nothing was published")
        return extract(stage, request)

    with pytest.raises(EngineError) as caught:
        compile_repo(git_repo.root, engine=ScriptedEngine(fails_second_increment), batch=True)
    compiled = {sid for sid, e in git_repo.snapshot().manifest.items() if e.version is not None}
    left = sorted({f"knowledge/s{i}" for i in range(6)} - compiled)
    assert compiled and left
    assert "Not compiled in this run:" in caught.value.message
    assert all(f"  {sid}: " in caught.value.message for sid in left)
    note = json.loads(git_repo.git("notes", "--ref=refs/notes/wikigen", "show", "HEAD").stdout)
    assert sorted(note["notCompiled"]) == left
    assert "its increment failed" in note["notCompiled"].values()
