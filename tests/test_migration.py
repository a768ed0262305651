"""The move of a schema-1 snapshot (one snapshot.json, one relations.jsonl, one communities.json) to the
sharded storage layout (R9: a bookkeeping commit, no engine call, every object's
bytes unchanged, every concept's community unchanged; R10: older snapshots load as they are)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from tests.old_layout import RELATIONS_PATH, WHOLE_RECORD_PATH, dump_single, dump_whole_communities, flat_path
from wikigen.compiler.community_record import COMMUNITIES_DIR
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.errors import SnapshotError, WikigenError
from wikigen.model.objects import RELATIONS_DIR, object_path
from wikigen.model.snapshot import EMPTY_TREE, INDEX_DIR, MANIFEST_DIR, SNAPSHOT_PATH, Snapshot
from wikigen.store.communities import read_record
from wikigen.store.git import GitStore
from wikigen.store.migration import moved
from wikigen.store.object_writer import COMPILER_NAME
from wikigen.store.snapshot import load_snapshot

K = "content/sources/knowledge"
SOURCES = {
    f"{K}/pod.md": source(
        "Intro line about pods.\n\nConcept Pod [type=resource]: a Pod is the smallest unit.\n\n"
        "REL Pod -runs on-> Node.\n",
        title="Pods",
    ),
    f"{K}/node.md": source("Intro line about nodes.\n\nConcept Node [type=resource]: a Node is a worker.\n", title="Nodes"),
    f"{K}/cat.md": source("Other.\n\nConcept Cat: a cat.\n\nREL Cat -sits on-> Node.\n", title="Cats"),
}


def old_layout_repo(repo: GitRepo) -> Snapshot:
    """A repo as the schema-1 wikigen left it: compiled, then its snapshot rewritten by a compiler commit
    into one snapshot.json, one relations.jsonl, one communities.json and flat object folders (the
    objects' bytes and the communities are the same in both layouts)."""
    repo.commit(SOURCES)
    compile_repo(repo.root, engine=ScriptedEngine(extract))
    snapshot = repo.snapshot()
    lines = repo.relations()
    index = {
        oid: {**entry, "file": RELATIONS_PATH if entry["kind"] == "relation" else flat_path(oid)}
        for oid, entry in snapshot.objects.items()
    }
    store = GitStore(repo.root)
    head = store.head_commit()
    tree = store.commit_tree(head)
    communities = read_record(store, tree).assignment
    assert communities  # relations were found, so communities were recorded
    files: dict[str, bytes | str | None] = {
        SNAPSHOT_PATH: dump_single(Snapshot(**{**_fields(snapshot), "objects": index})),
        RELATIONS_PATH: "".join(line + "\n" for line in lines).encode(),
        WHOLE_RECORD_PATH: dump_whole_communities(communities),
        MANIFEST_DIR: None,
        INDEX_DIR: None,
        RELATIONS_DIR: None,
        COMMUNITIES_DIR: None,
    }
    for oid, entry in snapshot.objects.items():
        if entry["kind"] != "relation":
            files[entry["file"]] = None
            files[flat_path(oid)] = store.blob_in(tree, entry["file"])
    tree = store.build_tree(tree, files)
    commit = store.create_commit(tree, [head] if head else [], "wikigen: snapshot 1 (schema 1)\n")
    store.move_ref(store.head_ref(), commit, head)
    repo.git("reset", "-q", "--hard")
    return repo.snapshot()


def _fields(snapshot: Snapshot) -> dict[str, object]:
    return {
        "version": snapshot.version,
        "rules": snapshot.rules,
        "sources_tree": snapshot.sources_tree,
        "fingerprint": snapshot.fingerprint,
        "manifest": dict(snapshot.manifest),
        "trace": snapshot.trace,
        "exists": True,
    }


def object_bytes(repo: GitRepo, rev: str, snapshot: Snapshot) -> dict[str, bytes]:
    """Each object's own bytes at ``rev``: its file, or its line for a relation."""
    store = GitStore(repo.root)
    tree = store.commit_tree(store.resolve(rev))
    found: dict[str, bytes] = {}
    for oid, entry in snapshot.objects.items():
        data = store.read_file(tree, entry["file"])
        assert data is not None, (oid, entry["file"])
        if entry["kind"] == "relation":
            line = next(ln for ln in data.decode().splitlines() if json.loads(ln)["id"] == oid)
            found[oid] = line.encode()
        else:
            found[oid] = data
    return found


def test_a_schema_1_snapshot_still_loads_as_it_is(git_repo: GitRepo):
    """R10."""
    old = old_layout_repo(git_repo)
    assert not old.sharded and old.schema == 1 and old.version == 1
    assert set(old.manifest) == {"knowledge/pod", "knowledge/node", "knowledge/cat"}
    assert all(e["file"] == RELATIONS_PATH for e in old.objects.values() if e["kind"] == "relation")
    assert all(e["file"] == flat_path(oid) for oid, e in old.objects.items() if e["kind"] != "relation")
    assert (git_repo.root / flat_path("concept/pod")).is_file()
    # plan, status and verify read the old layout as it is: nothing to compile, every citation holds.
    assert git_repo.json("plan")["added"] == [] and git_repo.json("plan")["updated"] == []
    assert git_repo.json("status")["snapshot_version"] == 1
    assert git_repo.wikigen("verify").code == 0


def communities_at(repo: GitRepo, rev: str = "HEAD") -> dict[str, str]:
    store = GitStore(repo.root)
    return dict(read_record(store, store.commit_tree(store.resolve(rev))).assignment)


def test_the_old_layout_moves_in_one_bookkeeping_commit_with_no_engine_call(git_repo: GitRepo):
    """R9."""
    old = old_layout_repo(git_repo)
    before_head = git_repo.head()
    before = object_bytes(git_repo, "HEAD", old)
    communities = communities_at(git_repo)  # read from the whole communities.json
    assert communities and (git_repo.root / WHOLE_RECORD_PATH).is_file()
    assert git_repo.wikigen("verify").code == 0

    engine = ScriptedEngine(extract)
    report = compile_repo(git_repo.root, engine=engine)
    assert engine.calls == 0 and report.published and report.version == 1
    assert git_repo.git("rev-list", "--count", f"{before_head}..HEAD").stdout.strip() == "1"
    author, subject = git_repo.git("log", "-1", "--format=%an%n%s").stdout.splitlines()
    assert author == COMPILER_NAME and "sharded storage layout" in subject and "no engine call" in subject

    new = git_repo.snapshot()
    assert new.sharded and new.version == old.version and new.sources_tree == old.sources_tree
    assert new.fingerprint == old.fingerprint and dict(new.trace) == dict(old.trace)
    assert dict(new.manifest) == dict(old.manifest)
    assert set(new.objects) == set(old.objects)
    # R9: every object's content is byte-identical; only the relations' place changed.
    assert object_bytes(git_repo, "HEAD", new) == before
    for oid, entry in new.objects.items():
        assert entry == {**old.objects[oid], "file": object_path(oid)}  # only the place changed
    changed = git_repo.changed_paths()
    assert RELATIONS_PATH in changed and not (git_repo.root / RELATIONS_PATH).exists()
    assert flat_path("concept/pod") in changed and object_path("concept/pod") in changed
    assert not (git_repo.root / flat_path("concept/pod")).exists()
    assert all(p.startswith(("content/.wikigen/", "content/wiki/")) for p in changed)
    # V3: the communities record moved into its shards in the same commit, every concept's
    # community (so its colour) unchanged.
    assert WHOLE_RECORD_PATH in changed and not (git_repo.root / WHOLE_RECORD_PATH).exists()
    assert any(p.startswith(COMMUNITIES_DIR + "/") for p in changed)
    assert communities_at(git_repo) == communities
    assert git_repo.wikigen("verify").code == 0
    assert git_repo.git("status", "--porcelain").stdout == ""

    # R9: and then nothing more to do.
    again = compile_repo(git_repo.root, engine=engine)
    assert not again.published and engine.calls == 0


def test_a_change_waiting_in_the_old_layout_compiles_after_the_move(git_repo: GitRepo):
    """R9."""
    old_layout_repo(git_repo)
    before_head = git_repo.head()
    git_repo.commit({f"{K}/dog.md": source("Dogs.\n\nConcept Dog: a dog.\n\nREL Dog -chases-> Cat.\n", title="Dogs")})
    engine = ScriptedEngine(extract)
    report = compile_repo(git_repo.root, engine=engine)
    assert report.version == 2 and engine.calls == 2
    log = git_repo.git("log", "--format=%an %s", f"{before_head}..HEAD").stdout.splitlines()
    assert len(log) == 3 and "sharded storage layout" in log[1] and "snapshot 2" in log[0]
    assert git_repo.wikigen("verify").code == 0
    assert "concept/dog" in git_repo.snapshot().objects


def test_a_sharded_repo_with_a_whole_communities_record_moves_it_at_the_next_compile(git_repo: GitRepo):
    """A repo in the sharded layout whose communities record is still one communities.json (compiled by
    a wikigen that sharded the snapshot but not this record): read as the parent record, moved into
    shards by the next compile, no colour lost."""
    from wikigen.views.knowledge import load_knowledge

    git_repo.commit(SOURCES)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    store = GitStore(git_repo.root)
    head = store.head_commit()
    tree = store.commit_tree(head)
    communities = communities_at(git_repo)
    root = json.loads(store.read_file(tree, SNAPSHOT_PATH) or b"")
    del root["layout"]["communities"]  # that wikigen's root record had no communities header
    files: dict[str, bytes | str | None] = {
        SNAPSHOT_PATH: (json.dumps(root, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode(),
        WHOLE_RECORD_PATH: dump_whole_communities(communities),
        COMMUNITIES_DIR: None,
    }
    commit = store.create_commit(store.build_tree(tree, files), [head], "wikigen: snapshot 1 (whole record)\n")
    store.move_ref(store.head_ref(), commit, head)
    git_repo.git("reset", "-q", "--hard")
    assert git_repo.snapshot().sharded and communities_at(git_repo) == communities
    assert load_knowledge(git_repo.root).communities == communities  # the site reads it as it is
    assert git_repo.wikigen("verify").code == 0

    git_repo.commit({f"{K}/dog.md": source("Dogs.\n\nConcept Dog: a dog.\n", title="Dogs")})
    assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published
    changed = git_repo.changed_paths()
    assert WHOLE_RECORD_PATH in changed and not (git_repo.root / WHOLE_RECORD_PATH).exists()
    assert communities_at(git_repo) == communities  # warm-started from it: nothing moved
    assert json.loads(git_repo.read(SNAPSHOT_PATH))["layout"]["communities"]["folder"] == COMMUNITIES_DIR
    assert git_repo.wikigen("verify").code == 0


def test_the_move_spreads_every_relation_line_over_shards():
    """R9: the move writes every line of the old relations file into the shards, each relation's file
    at its new place, and removes the old file."""
    lines = [
        json.dumps({"id": f"relation/{i:04x}", "subject": "concept/a", "predicate": "p", "object": "concept/b"},
                   sort_keys=True, separators=(",", ":"))
        for i in range(40)
    ]
    index = {json.loads(ln)["id"]: {"kind": "relation", "file": RELATIONS_PATH, "sha": "x"} for ln in lines}
    old = Snapshot(version=3, objects=index, exists=True)
    new, files, moves = moved(old, "".join(ln + "\n" for ln in lines).encode())
    assert files[RELATIONS_PATH] is None and not new.sharded and moves == {}
    written = [ln for path, data in files.items() if data for ln in data.decode().splitlines()]
    assert sorted(written) == sorted(lines)
    assert all(new.objects[oid]["file"] == object_path(oid) for oid in index)
    assert len(files) > 2  # spread over shards


def test_a_schema_2_root_without_a_repository_is_refused_with_what_to_do(git_repo: GitRepo):
    git_repo.commit(SOURCES)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    root = (git_repo.root / SNAPSHOT_PATH).read_bytes()
    data = json.loads(root)
    assert data["schema"] == 2 and "sourceManifest" not in data and "objectIndex" not in data
    assert data["layout"]["manifest"]["tree"] != EMPTY_TREE
    with pytest.raises(SnapshotError, match="only be read from the repository"):
        load_snapshot(root)


def test_page_urls_stay_the_same_after_the_move(git_repo: GitRepo):
    """R9: objects' files move into prefix folders, but every page keeps its URL — with the
    readable names the site uses and with the file-name fallback alike."""
    from wikigen.views.knowledge import load_knowledge
    from wikigen.views.layout import Layout, readable_names

    def urls(named: bool) -> dict[str, str | None]:
        k = load_knowledge(git_repo.root)
        index = git_repo.snapshot().objects
        layout = Layout(
            source_ids=k.sources,
            object_files={oid: e["file"] for oid, e in index.items() if e["kind"] != "relation"},
            names=readable_names(k.objects) if named else None,
        )
        return {oid: layout.url(layout.object(oid) or "") for oid in index if not oid.startswith("relation/")}

    old_layout_repo(git_repo)
    before = {named: urls(named) for named in (True, False)}
    assert before[True]["concept/pod"] == before[False]["concept/pod"] == "wiki/concepts/pod/"
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert git_repo.snapshot().sharded
    assert {named: urls(named) for named in (True, False)} == before


def test_a_dirty_work_tree_is_refused_before_the_move_writes(git_repo: GitRepo):
    """R38: the work tree's status is read while the plan is, but answered before the move's
    bookkeeping commit: a local edit to a generated file is refused, not overwritten."""
    old_layout_repo(git_repo)
    before = git_repo.head()
    edited = git_repo.root / flat_path("concept/pod")
    edited.write_text("a local edit\n")
    engine = ScriptedEngine(extract)
    with pytest.raises(WikigenError) as caught:
        compile_repo(git_repo.root, engine=engine)
    assert "local changes" in caught.value.message and flat_path("concept/pod") in caught.value.message
    assert git_repo.head() == before and engine.calls == 0
    assert edited.read_text() == "a local edit\n"
