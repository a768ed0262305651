"""Sharded storage: a snapshot commit after one edit writes only the shards of what
changed — the edited source's manifest shard, the index and relation shards of the objects that
changed, the communities shards of the concepts whose community changed, the root record — never the
others (R24: nothing unaffected is rewritten)."""

from __future__ import annotations

import json

import pygit2

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.community_record import COMMUNITIES_DIR, COMMUNITIES_LEVELS
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.objects import RELATIONS_DIR, object_path
from wikigen.model.shards import ShardMap, changed_shards, decode_shard, encode_shard, shard_of
from wikigen.model.snapshot import INDEX_DIR, INDEX_LEVELS, MANIFEST_DIR, MANIFEST_LEVELS, SNAPSHOT_PATH
from wikigen.store.communities import read_record
from wikigen.store.git import GitStore

K = "content/sources/knowledge"
N = 40


def corpus() -> dict[str, str]:
    files = {}
    for i in range(N):
        body = f"Page {i} intro line of text.\n\nConcept Term{i}: term {i} is a thing of page {i}.\n"
        if i:
            body += f"\nREL Term{i} -depends on-> Term{i - 1}.\n"
        files[f"{K}/s{i:02d}.md"] = source(body, title=f"Page {i}")
    return files


def manifest_shard(source_id: str) -> str:
    return f"{MANIFEST_DIR}/{shard_of(source_id, MANIFEST_LEVELS)}"


def index_shard(object_id: str) -> str:
    return f"{INDEX_DIR}/{shard_of(object_id, INDEX_LEVELS)}"


def community_shard(concept_id: str) -> str:
    return f"{COMMUNITIES_DIR}/{shard_of(concept_id, COMMUNITIES_LEVELS)}"


def communities_at(repo: GitRepo, rev: str) -> dict[str, str]:
    store = GitStore(repo.root)
    return dict(read_record(store, store.commit_tree(store.resolve(rev))).assignment)


def moved_communities(repo: GitRepo) -> set[str]:
    """The concepts whose community the commit at HEAD changed (added, renamed or dropped)."""
    before, after = communities_at(repo, "HEAD~1"), communities_at(repo, "HEAD")
    return {c for c in set(before) | set(after) if before.get(c) != after.get(c)}


def test_one_edit_writes_only_the_shards_of_what_changed(git_repo: GitRepo):
    """R24."""
    files = corpus()
    git_repo.commit(files)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    before = git_repo.snapshot()
    assert len(before.manifest) == N

    edited = f"{K}/s07.md"
    git_repo.commit({edited: files[edited].replace("intro line of text.", "intro line of text, edited.")})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    after = git_repo.snapshot()
    changed = set(git_repo.changed_paths())

    # The manifest: exactly the edited source's shard.
    assert {p for p in changed if p.startswith(MANIFEST_DIR + "/")} == {manifest_shard("knowledge/s07")}
    # The index: exactly the shards of the entries that were added, changed or removed.
    moved = {oid for oid in set(before.objects) | set(after.objects) if before.objects.get(oid) != after.objects.get(oid)}
    assert moved and len(moved) < len(after.objects) // 4
    # An entry changes only with its object: one the edit repeated as it was keeps its provenance too.
    for oid in moved & set(before.objects) & set(after.objects):
        assert {**before.objects[oid], "provenance": 0} != {**after.objects[oid], "provenance": 0}, oid
    assert {p for p in changed if p.startswith(INDEX_DIR + "/")} == {index_shard(oid) for oid in moved}
    # Relations: only shards of relations whose entry changed (a relation rebuilt with the same line
    # leaves its shard as it was); object files: only the changed objects.
    relations = {object_path(oid) for oid in moved if oid.startswith("relation/")}
    assert {p for p in changed if p.startswith(RELATIONS_DIR + "/")} <= relations
    objects = {object_path(oid) for oid in moved if not oid.startswith("relation/")}
    # Communities (V3): only the shards of the concepts whose community changed.
    assert {p for p in changed if p.startswith(COMMUNITIES_DIR + "/")} == {
        community_shard(c) for c in moved_communities(git_repo)
    }
    others = changed - {p for p in changed if p.startswith((MANIFEST_DIR, INDEX_DIR, RELATIONS_DIR, COMMUNITIES_DIR))}
    assert others - objects <= {SNAPSHOT_PATH} and SNAPSHOT_PATH in others
    # Far fewer files than the knowledge base holds: O(change), not O(N).
    assert len(changed) <= 3 * len(moved) + 3

    # The same with pygit2: every shard the edit did not touch is the very same blob in both commits.
    repo = pygit2.Repository(str(git_repo.root))
    new_tree, old_tree = repo.revparse_single("HEAD").peel(pygit2.Commit).tree, repo.revparse_single("HEAD~1").peel(
        pygit2.Commit
    ).tree
    diff = old_tree.diff_to_tree(new_tree)
    assert {d.new_file.path if d.status != pygit2.enums.DeltaStatus.DELETED else d.old_file.path
            for d in diff.deltas} == changed
    untouched = 0
    for folder in (MANIFEST_DIR, INDEX_DIR):
        for path in _files(repo, old_tree[folder], folder):
            if path not in changed:
                assert new_tree[path].id == old_tree[path].id
                untouched += 1
    assert untouched >= N  # most shards stayed as they were
    assert git_repo.wikigen("verify").code == 0


def test_an_edit_that_moves_concepts_rewrites_only_their_community_shards(git_repo: GitRepo):
    """R24: the communities record is sharded like the index, so a commit that moves a few
    concepts to another community rewrites their shards, not the record of every concept."""
    files = corpus()
    git_repo.commit(files)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    before = communities_at(git_repo, "HEAD")
    shards = {community_shard(c) for c in before}
    assert len(before) == N and len(shards) > N // 2  # every concept of the chain, spread over shards

    # Cut the chain: Term20 no longer depends on Term19, so the communities around the cut change.
    edited = f"{K}/s20.md"
    git_repo.commit({edited: files[edited].replace("\nREL Term20 -depends on-> Term19.\n", "\n")})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    moved = moved_communities(git_repo)
    written = {p for p in git_repo.changed_paths() if p.startswith(COMMUNITIES_DIR + "/")}
    assert moved and written == {community_shard(c) for c in moved}
    assert len(written) < len(shards)  # not the whole record
    after = communities_at(git_repo, "HEAD")
    assert {c: after[c] for c in after if c not in moved} == {c: before[c] for c in before if c not in moved}
    assert git_repo.wikigen("verify").code == 0


def _files(repo: pygit2.Repository, tree: pygit2.Object, prefix: str) -> list[str]:
    found = []
    for entry in repo[tree.id]:  # type: ignore[attr-defined]
        path = f"{prefix}/{entry.name}"
        found += _files(repo, entry, path) if entry.type_str == "tree" else [path]
    return found


def test_a_no_op_compile_writes_nothing_and_the_root_record_is_small(git_repo: GitRepo):
    git_repo.commit(corpus())
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    head = git_repo.head()
    assert not compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published
    assert git_repo.head() == head
    root = json.loads(git_repo.read(SNAPSHOT_PATH))
    assert {"sourceManifest", "objectIndex"}.isdisjoint(root)
    assert len(git_repo.read(SNAPSHOT_PATH)) < 4000  # the trace of the last compile and the layout


def test_shard_of_depends_on_the_id_alone():
    assert shard_of("knowledge/a", (2, 1)) == shard_of("knowledge/a", (2, 1))
    assert shard_of("knowledge/a", (2, 1)).count("/") == 1 and shard_of("x", (2, 2)).endswith(".json")
    assert len({shard_of(f"knowledge/s{i}", (2,)) for i in range(2000)}) == 256  # the hash spreads ids


def test_changed_shards_rewrites_only_shards_with_a_changed_record():
    old = {f"id{i}": {"n": i} for i in range(500)}
    assert len(changed_shards(old, None, (2,), dict)) == len({shard_of(k, (2,)) for k in old})
    new = {**old, "id7": {"n": -7}}
    del new["id9"]
    written = changed_shards(new, old, (2,), dict)
    assert set(written) == {shard_of("id7", (2,)), shard_of("id9", (2,))}
    for path, data in written.items():
        assert data is not None
        records = decode_shard(data)
        assert records == {k: v for k, v in new.items() if shard_of(k, (2,)) == path}
    assert changed_shards(old, old, (2,), dict) == {}
    last = {"only": {"n": 1}}
    assert changed_shards({}, last, (2,), dict) == {shard_of("only", (2,)): None}


def test_shard_map_reads_one_shard_for_a_lookup_and_all_for_an_iteration():
    records = {f"id{i}": {"n": i} for i in range(100)}
    shards = {path: data for path, data in changed_shards(records, None, (1,), dict).items() if data}
    reads: list[str] = []

    def read(path: str) -> bytes | None:
        reads.append(path)
        return shards.get(path)

    mapping: ShardMap[dict[str, int]] = ShardMap(read, lambda: list(shards.items()), (1,), dict)
    assert mapping["id5"] == {"n": 5} and reads == [shard_of("id5", (1,))]
    assert mapping.get("nope") is None and "id6" in mapping
    assert len(reads) <= 3
    assert dict(mapping) == records and list(mapping) == sorted(records)
    assert encode_shard({"b": 1, "a": 2}) == b'{\n"a":2,\n"b":1\n}\n'


def test_an_unchanged_tree_is_planned_from_the_root_record_and_the_waiting_list(git_repo: GitRepo, monkeypatch):
    """R7: with the sources tree unchanged, `plan` and `status` answer from the root record
    and waiting.json — no source blob, no manifest shard — and say exactly what the full plan says."""
    from wikigen.commands import status as status_module
    from wikigen.commands.plan import plan_json
    from wikigen.compiler.plan import make_plan
    from wikigen.model.snapshot import WAITING_PATH
    from wikigen.store import workspace as workspace_module
    from wikigen.store.workspace import Workspace

    task = source("Task record body with its decision.\n", title="Task", task="T1", step="s1", run="r1",
                  status="accepted", attempt=1)
    git_repo.commit(
        {
            "wikigen.yml": "categories:\n  auto_archive:\n    constraints: false\n",
            f"{K}/a.md": source("Intro line.\n\nConcept Alpha: the first letter.\n", title="A"),
            "content/sources/tasks/t.md": task,
            "content/sources/constraints/c.md": source("A rule for the environment of the build.\n", title="C"),
        }
    )
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    waiting = json.loads(git_repo.read(WAITING_PATH))
    assert {sid: w["reason"] for sid, w in waiting.items()} == {"tasks/t": "baseline", "constraints/c": "deferred"}

    ws = Workspace.open(git_repo.root)
    fast = ws.plan()
    assert ws.store.generated_bytes_read == len(git_repo.read(WAITING_PATH).encode())  # no shard read
    slow = make_plan(ws.baseline, ws.read(), ws.config)
    assert plan_json(fast) == plan_json(slow)
    assert fast.deferred == ("constraints/c",) and fast.pending == ("tasks/t",) and fast.unchanged == 1
    assert dict(fast.manifest) == dict(slow.manifest)

    opened = Workspace.open(git_repo.root)
    quick = status_module.status_report(opened)
    assert opened.store.generated_bytes_read == len(git_repo.read(WAITING_PATH).encode())  # read once
    monkeypatch.setattr(workspace_module, "unchanged_plan", lambda baseline, tree, waiting: None)
    full = status_module.status_report(Workspace.open(git_repo.root))
    assert quick == full and quick["objects"] == len(ws.baseline.objects)


def test_a_no_op_plan_loads_neither_the_compile_driver_nor_an_http_client(git_repo: GitRepo):
    """R7, R9: `plan` with nothing to compile answers from the root record; the modules a compile
    needs (the driver, merge, the schema validator) and the HTTP client are never imported. Its figures
    are those of the full plan."""
    import subprocess
    import sys

    git_repo.commit({f"{K}/a.md": source("Intro line.\n\nConcept Alpha: the first letter.\n", title="A")})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    probe = (
        "import io, json, sys, contextlib\n"
        "from wikigen.cli import cli\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    cli(['-C', sys.argv[1], 'plan', '--json'], standalone_mode=False)\n"
        "loaded = sorted(m for m in ('wikigen.compiler.driver', 'wikigen.compiler.merge', 'httpx', 'jsonschema') if m in sys.modules)\n"
        "print(json.dumps({'loaded': loaded, 'plan': json.loads(out.getvalue())}))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(git_repo.root)], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    assert result["loaded"] == []
    plan = result["plan"]
    assert plan["engine_calls"] == 0 and plan["revoked"] == {"article": 0, "concept": 0, "relation": 0, "topic": 0}
    assert plan["route"]["engine"] == "offline" and plan["blobs_read"] == 0
