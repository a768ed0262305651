"""R7: a change planned from its diff alone decides what the whole plan decides (R4–R9), and
gives way to the whole plan wherever sources outside the change take part."""

from __future__ import annotations

import random
from dataclasses import fields

import pygit2
import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.compiler.plan import Plan, make_plan
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.config import DEFAULT_SOURCES_DIR as SOURCES_DIR
from wikigen.model.hashing import fingerprint, pairs_text
from wikigen.model.shards import Overlay, ShardMap
from wikigen.model.snapshot import ManifestEntry
from wikigen.store.git import GitStore
from wikigen.store.manifest_cache import ManifestMirror
from wikigen.store.plan_from_diff import plan_from_diff
from wikigen.store.snapshot import read_waiting
from wikigen.store.workspace import Workspace

K = "content/sources/knowledge"
C = "content/sources/constraints"
CONFIG = "categories:\n  auto_archive:\n    constraints: false\n"


def page(i: int, extra: str = "", **front: object) -> str:
    body = f"Page {i} opens here.\n\nConcept Term{i}: term {i} is a thing of page {i}.\n"
    if i:
        body += f"\nREL Term{i} -depends on-> Term{i - 1}.\n"
    return source(body + extra, title=f"Page {i}", **front)


def task(status: str, attempt: int = 1) -> str:
    return source("Task notes and the decision taken.\n", title="Task", task="T1", step="s1", run="r1",
                  status=status, attempt=attempt)


def baseline(git_repo: GitRepo, n: int = 14) -> dict[str, str]:
    """n knowledge pages compiled, with versions waiting beside them: a page of a category that is
    not archived automatically (R4) and a task recorded as the baseline on the first run (R36)."""
    files = {f"{K}/p{i:02d}.md": page(i) for i in range(n)}
    waiting = {f"{C}/held.md": page(90), "content/sources/tasks/t.md": task("running")}
    git_repo.commit({"wikigen.yml": CONFIG, **files, **waiting})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert set((git_repo.snapshot().summary and read_waiting(GitStore(git_repo.root), git_repo.snapshot())) or ()) == {
        "constraints/held", "tasks/t"
    }
    return files


def both(git_repo: GitRepo) -> tuple[Plan | None, Plan]:
    """The plan from the diff (None where it gives way) and the whole plan, of HEAD."""
    ws = Workspace.open(git_repo.root)
    root = ws.store.commit_tree(ws.head)
    tree = ws.store.subtree(root, SOURCES_DIR)
    links = ws._links(root)
    whole = make_plan(ws.baseline, ws._read(root, links, include_deferred=False, parsed_cache=None), ws.config)
    return plan_from_diff(ws.store, ws.baseline, tree, ws.config, links), whole


def same(narrow: Plan, whole: Plan) -> None:
    for f in fields(Plan):
        a, b = getattr(narrow, f.name), getattr(whole, f.name)
        if f.name in ("manifest", "reasons", "sources"):
            a, b = dict(a), dict(b)
        assert a == b, f.name


def change(rng: random.Random, files: dict[str, str], n: int) -> dict[str, str | None]:
    """One to three random changes: an edit, a new page, a deletion, a move, a metadata-only edit,
    a page moved to a category that is not archived automatically (R4)."""
    out: dict[str, str | None] = {}
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(sorted(files))
        i = int(path[-5:-3])
        kind = rng.choice(["edit", "add", "delete", "move", "meta", "deferred"])
        if kind == "edit":
            out[path] = page(i, f"\nMore text {rng.random()}.\n")
        elif kind == "add":
            j = n + len(out) + rng.randint(0, 50)
            out[f"{K}/p{j:02d}.md"] = page(j)
        elif kind == "delete":
            out[path] = None
        elif kind == "move":
            out[path] = None
            out[path.replace("/p", "/moved-p")] = files[path]
        elif kind == "meta":
            out[path] = page(i, volatile_note=str(rng.random()))
        else:
            out[path] = None
            out[f"{C}/p{i:02d}.md"] = page(i)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_the_plan_from_the_diff_is_the_whole_plan(git_repo: GitRepo, seed: int):
    """Over seeded changes (edits, additions, deletions, moves, metadata, R4 deferrals), the plan
    made from the diff equals the whole plan, field by field; it is made, not given way, for most."""
    rng = random.Random(seed)
    files = baseline(git_repo)
    made = 0
    for _ in range(4):  # the changes add up against the same baseline
        changes = change(rng, files, 14)
        git_repo.commit(changes)
        files = {p: d for p, d in {**files, **changes}.items() if d is not None and p.startswith(K)}
        narrow, whole = both(git_repo)
        if narrow is not None:
            made += 1
            assert isinstance(narrow.manifest, Overlay)
            same(narrow, whole)
    assert made >= 1


def test_a_one_edit_plan_reads_no_unchanged_manifest_shard(git_repo: GitRepo, monkeypatch):
    """One edit is planned without reading the whole manifest: no shard map is iterated."""
    files = baseline(git_repo)
    path = sorted(files)[3]
    git_repo.commit({path: page(3, "\nAnother paragraph.\n")})

    def refuse(self: ShardMap[object]) -> object:
        raise AssertionError("the whole manifest was read")

    monkeypatch.setattr(ShardMap, "_everything", refuse)
    plan = Workspace.open(git_repo.root).plan()
    assert plan.updated == ("knowledge/p03",) and not plan.withdrawn
    assert plan.unchanged == len(files) - 1 and plan.pending == ("tasks/t",)


def test_the_plan_gives_way_where_other_sources_take_part(git_repo: GitRepo):
    """A duplicate id with an unchanged source, a source that does not parse and a changed task
    (R35–R36 look across a task's sources) are planned whole, so that their problems and
    cross-source rules stay as they were; versions waiting elsewhere stay waiting in either plan."""
    files = baseline(git_repo)
    git_repo.commit({f"{K}/dup.md": page(40, id="knowledge/p02")})
    narrow, whole = both(git_repo)
    assert narrow is None and whole.invalid
    git_repo.commit({f"{K}/dup.md": None, f"{K}/broken.md": "---\ntitle: [unclosed\n---\nText.\n"})
    narrow, whole = both(git_repo)
    assert narrow is None and whole.invalid
    git_repo.commit({f"{K}/broken.md": None, "content/sources/tasks/t.md": task("accepted", 2)})
    narrow, whole = both(git_repo)
    assert narrow is None and whole.added == ("tasks/t",)
    git_repo.commit({"content/sources/tasks/t.md": task("running"), sorted(files)[0]: page(0, "\nEdited.\n")})
    narrow, whole = both(git_repo)
    assert narrow is not None and narrow.deferred == ("constraints/held",) and narrow.pending == ("tasks/t",)
    same(narrow, whole)


def test_the_manifest_mirror_follows_the_manifest(git_repo: GitRepo, tmp_path):
    """The mirror brought forward from an earlier manifest tree answers as one built from scratch."""
    baseline(git_repo)
    first = git_repo.snapshot().stored
    assert first is not None
    ws = Workspace.open(git_repo.root)
    ManifestMirror(ws.store, first.manifest_tree).close()  # the cache now holds the first tree
    git_repo.commit({f"{K}/p01.md": None, f"{K}/p02.md": page(2, "\nMore.\n"), f"{K}/new.md": page(50)})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    second = git_repo.snapshot().stored
    assert second is not None and second.manifest_tree != first.manifest_tree
    forward = ManifestMirror(ws.store, second.manifest_tree)
    fresh = ManifestMirror(ws.store, second.manifest_tree, path=tmp_path / "fresh.sqlite")
    try:
        assert not forward.rebuilt and fresh.rebuilt
        assert forward.latest() == fresh.latest() and forward.count() == fresh.count()
        manifest = git_repo.snapshot().manifest
        latest = {sid: e.pending.version if e.pending else e.version for sid, e in manifest.items()}
        assert forward.latest() == sorted((sid, v or "") for sid, v in latest.items())
        # the fingerprint's text, spliced forward with the rows, is the one built from scratch
        assert forward._pairs() == fresh._pairs() == pairs_text(forward.latest())
        assert forward.fingerprint({}) == fingerprint(forward.latest()) == git_repo.snapshot().fingerprint
        assert forward.fingerprint({"knowledge/p03": None}) == fingerprint(
            [p for p in forward.latest() if p[0] != "knowledge/p03"]
        )
        assert forward.ids_at(f"{K}/p02.md") == ["knowledge/p02"] and forward.ids_at(f"{K}/p01.md") == []
        # the count from the kept text is the rows' count; a fingerprint asked again is the same one
        rows = forward.db.execute("SELECT COUNT(*) FROM manifest").fetchone()[0]
        assert forward.count() == rows == len(manifest)
        assert forward.fingerprint({"knowledge/p03": None}) == fresh.fingerprint({"knowledge/p03": None})
        assert forward.fingerprint({"knowledge/p03": "x" * 16}) != forward.fingerprint({"knowledge/p03": None})
    finally:
        forward.close()
        fresh.close()


@pytest.mark.parametrize("seed", range(4))
def test_a_compile_planned_from_the_diff_commits_the_same_tree(git_repo: GitRepo, monkeypatch, seed: int):
    """The snapshot a compile publishes from the diff's plan (manifest shards, root record with its
    fingerprint and counts, waiting.json, objects) is byte for byte the one the whole plan gives."""
    rng = random.Random(100 + seed)
    files = baseline(git_repo)
    git_repo.commit(change(rng, files, 14))
    head = git_repo.repo.head.target
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    narrow = str(git_repo.repo.head.peel().tree.id)
    git_repo.repo.reset(head, pygit2.enums.ResetMode.HARD)
    monkeypatch.setattr("wikigen.store.workspace.plan_from_diff", lambda *args: None)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert str(git_repo.repo.head.peel().tree.id) == narrow


def test_a_one_edit_compile_reads_no_whole_manifest(git_repo: GitRepo, monkeypatch):
    """One edit compiles, publishes and counts its sources without iterating the stored manifest."""
    files = baseline(git_repo)
    git_repo.commit({sorted(files)[5]: page(5, "\nAnother paragraph.\n")})
    everything = ShardMap._everything

    def refuse(self: ShardMap[object]) -> object:
        assert self._decode is not ManifestEntry.from_json, "the whole manifest was read"
        return everything(self)

    monkeypatch.setattr(ShardMap, "_everything", refuse)
    report = compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert report.published and report.increments[0].sources == ["knowledge/p05"]
    assert git_repo.snapshot().summary["sources"] == len(files) + 2  # and the two waiting
