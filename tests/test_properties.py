"""No stale knowledge (R12, R24, R28, E5), as a property over random sequences of edits, additions,
withdrawals, renames and title changes, compiled one step at a time."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.compiler.revocation import revoke
from wikigen.engines.scripted import ScriptedEngine
from wikigen.store.workspace import Workspace

K = "content/sources/knowledge"
NAMES = ["Alpha", "Beta", "Gamma", "Delta"]

line = st.one_of(
    st.builds(lambda n, i: f"Concept {n}: {n.lower()} fact {i}.", st.sampled_from(NAMES), st.integers(0, 3)),
    st.builds(lambda a, b: f"REL {a} -uses-> {b}.", st.sampled_from(NAMES), st.sampled_from(NAMES)).filter(
        lambda s: s.split()[1] != s.split()[3].rstrip(".")
    ),
    st.builds(lambda i: f"Plain words number {i}.", st.integers(0, 9)),
)
body = st.lists(line, min_size=1, max_size=4, unique=True).map(lambda ls: "\n\n".join(ls) + "\n")
step = st.one_of(
    st.tuples(st.just("edit"), st.integers(0, 4), body),
    st.tuples(st.just("add"), st.integers(0, 4), body),
    st.tuples(st.just("withdraw"), st.integers(0, 4), st.none()),
    st.tuples(st.just("rename"), st.integers(0, 4), st.none()),
    # a blank title is an invalid source (R5, its own tests): the sequences here are of valid ones
    st.tuples(st.just("title"), st.integers(0, 4), st.text("abcdef ", min_size=1, max_size=8).filter(str.strip)),
)


def snapshot(repo: GitRepo):  # type: ignore[no-untyped-def]
    return repo.snapshot()


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=6))
def test_no_stale_knowledge_after_any_sequence(tmp_path_factory, steps):  # type: ignore[no-untyped-def]
    repo = GitRepo(Path(tmp_path_factory.mktemp("prop")) / "repo")
    files: dict[int, tuple[str, str, str]] = {}  # slot → (path, title, body)
    repo.commit({f"{K}/seed.md": source("Concept Alpha: alpha seed.\n", title="Seed")})
    compile_repo(repo.root, engine=ScriptedEngine(extract))
    for kind, slot, arg in steps:
        change: dict[str, str | None] = {}
        if kind in ("edit", "add"):
            path, title, _ = files.get(slot, (f"{K}/s{slot}.md", f"Source {slot}", ""))
            files[slot] = (path, title, arg)
            change[path] = source(arg, title=title)
        elif slot in files:
            path, title, text = files[slot]
            if kind == "withdraw":
                del files[slot]
                change[path] = None
            elif kind == "rename":
                new_path = (
                    path.replace(".md", "-moved.md") if "-moved" not in path else path.replace("-moved", "")
                )
                files[slot] = (new_path, title, text)
                change[path] = None
                change[new_path] = source(text, title=title)
            else:
                files[slot] = (path, arg, text)
                change[path] = source(text, title=arg)
        if not change:
            continue
        before = snapshot(repo)
        repo.commit(change)
        plan = Workspace.open(repo.root).plan()
        touched = set(plan.updated) | set(plan.withdrawn)
        revoked = revoke(before.objects, touched)
        compile_repo(repo.root, engine=ScriptedEngine(extract))
        after = snapshot(repo)

        assert repo.wikigen("verify").code == 0  # E5: every citation holds at its version
        compiled = {sid: e.version for sid, e in after.manifest.items() if e.version}
        covered: set[str] = set()
        for oid, entry in after.objects.items():
            for _cid, sid, version, *_ in entry["citations"]:
                assert compiled.get(sid) == version, (oid, sid)  # no withdrawn source, no stale version
            if entry["kind"] == "article":
                covered |= set(entry["sources"])
        assert set(compiled) <= covered  # R28: every compiled source has an article
        for oid, entry in before.objects.items():
            if oid in revoked or oid not in after.objects:
                continue
            if (
                "extended" in after.objects[oid].get("provenance", {})
                and after.objects[oid]["provenance"]["extended"]["snapshot"] == after.version
            ):
                continue  # R25: a known concept gained new evidence in this step
            assert after.objects[oid]["sha"] == entry["sha"], oid  # R24: byte-identical
