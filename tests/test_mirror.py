"""The lookup mirror (R7): a compile asks who depends on what, which names start with a word and
which concept holds a name of a SQLite cache of the sharded index, brought from one index tree to the
next by diffing the two — so that a one-edit compile reads the shards it needs, never the whole
knowledge base, and answers exactly as the whole index would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.engines import extract
from tests.test_shards import K, corpus
from wikigen.compiler.driver import compile_repo
from wikigen.compiler.lookup import IndexLookup, Lookup, name_tokens
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.shards import ShardMap
from wikigen.store import lookup_cache as mirror
from wikigen.store import snapshot as snapshot_module
from wikigen.store.git import GitStore
from wikigen.store.lookup_cache import MIRROR_FILE, Mirror


def index_tree(repo: GitRepo, rev: str = "HEAD") -> str:
    stored = repo.snapshot(rev).stored
    assert stored is not None
    return stored.index_tree


def refuse_the_whole_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, reading every shard of an object index (iterating it) fails the test."""
    everything = ShardMap._everything

    def refuse(self: ShardMap[Any]) -> Any:
        assert self._decode is not snapshot_module._record, "the whole object index was read"
        return everything(self)

    monkeypatch.setattr(ShardMap, "_everything", refuse)


def answers(lookup: Lookup, index: dict[str, Any]) -> dict[str, Any]:
    """Every question a compile asks, for every key the index could be asked about."""
    keys = set(index) | {f"source:{s}" for e in index.values() for s in e.get("sources", {})}
    words = {w for e in index.values() for n in e.get("names", []) for w in name_tokens(n)}
    names = {n.lower() for e in index.values() for n in e.get("names", [])}
    concepts = [oid for oid in index if oid.startswith("concept/")]
    return {
        "dependents": {k: lookup.dependents(k) for k in sorted(keys)},
        "names": {w: sorted(lookup.names_from(w)) for w in sorted(words)},
        "concepts": {n: lookup.concepts_named(n) for n in sorted(names)},
        "relations": {c: lookup.relations_at(c) for c in concepts},
        # every concept with a relation, then some of them: a hub's relations are not all among them
        "among": [lookup.relations_among(concepts[:n]) for n in range(len(concepts) + 1)],
        "among_many": _among_many(lookup, concepts),
        "graph": lookup.graph(),
        "edges": lookup.graph(full=False),
        # the local updates' questions (the partition's and the topic rule's)
        "degrees": lookup.degrees(concepts),
        "relation_count": lookup.relation_count(),
        "entries": lookup.entries([*sorted(index), "concept/absent"]),
        "engine_topics": lookup.engine_topics(),
        "labels": lookup.labels([*sorted(index), "concept/absent"]),
        "linked": lookup.linked_concepts(),
        "topic_ids": lookup.topic_ids(),
        "present": lookup.present([*sorted(index), "concept/absent", "article/absent"]),
    }


def _among_many(lookup: Lookup, concepts: list[str]) -> list[tuple[str, str, str]]:
    """relations_among past the mirror's pair seeks (a large increment): the same answer."""
    padded = concepts + [f"concept/absent-{i}" for i in range(mirror.PAIR_SEEKS)]
    return lookup.relations_among(padded)


def test_the_mirror_brought_forward_answers_as_the_whole_index(git_repo: GitRepo, tmp_path: Path):
    files = corpus()
    git_repo.commit(files)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    store = GitStore(git_repo.root)
    first = Mirror(store, index_tree(git_repo))
    assert first.rebuilt  # no cache yet: built from every shard
    first.close()

    # One edit, one withdrawal and one new source in one compile; the cache follows by the diff alone.
    git_repo.commit(
        {
            f"{K}/s07.md": files[f"{K}/s07.md"].replace("intro line", "intro line, edited,"),
            f"{K}/s12.md": None,
            f"{K}/s99.md": files[f"{K}/s12.md"].replace("Page 12", "Page 99"),
        }
    )
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    whole = dict(git_repo.snapshot().objects)
    forward = Mirror(store, index_tree(git_repo))
    assert not forward.rebuilt and 0 < forward.shards_read < len(whole) // 4
    fresh = Mirror(store, index_tree(git_repo), path=tmp_path / "fresh.sqlite")
    assert fresh.rebuilt
    expected = answers(IndexLookup(whole), whole)
    assert expected["dependents"] and expected["names"] and expected["relations"]
    assert answers(forward, whole) == expected
    assert answers(fresh, whole) == expected
    assert any(expected["among"])
    # The relations among an increment's anchors: one seek per endpoint pair, never a hub's relations.
    plan = " ".join(
        str(row[-1])
        for row in forward.db.execute("EXPLAIN QUERY PLAN " + mirror.among_query(2), ("a", "b", "a", "b"))
    )
    assert "graph_by_ends (subject=? AND object=?)" in plan or "graph_by_object (object=? AND subject=?)" in plan, plan
    forward.close()
    fresh.close()

    # Back to the first snapshot's tree (a checkout of an older commit): the diff runs the other way.
    back = Mirror(store, index_tree(git_repo, "HEAD~2"))
    earlier = dict(git_repo.snapshot("HEAD~2").objects)
    assert not back.rebuilt and answers(back, earlier) == answers(IndexLookup(earlier), earlier)
    back.close()


def test_a_warm_compile_never_reads_the_whole_index(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch):
    """With the cache at the baseline, a one-edit compile looks up single index entries only: iterating
    the index (which reads every shard) fails the test."""
    files = corpus()
    git_repo.commit(files)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    refuse_the_whole_index(monkeypatch)
    git_repo.commit({f"{K}/s20.md": files[f"{K}/s20.md"].replace("intro line", "intro line, edited,")})
    report = compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    assert report.published and report.increments[0].objects["article"]["updated"] == 1
    git_repo.commit({f"{K}/s21.md": None})
    assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published
    monkeypatch.undo()
    assert git_repo.wikigen("verify").code == 0


def test_a_damaged_or_foreign_cache_is_rebuilt_from_git(git_repo: GitRepo):
    git_repo.commit(corpus())
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    store = GitStore(git_repo.root)
    path = store.cache_path(MIRROR_FILE)
    whole = dict(git_repo.snapshot().objects)
    expected = answers(IndexLookup(whole), whole)

    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"not a database at all" * 100)
    damaged = Mirror(store, index_tree(git_repo))
    assert damaged.rebuilt and answers(damaged, whole) == expected
    # A cache recorded for a tree this clone does not have (copied from elsewhere): rebuilt, not diffed.
    damaged.db.execute("ROLLBACK")
    damaged.db.execute("UPDATE meta SET value = ? WHERE key = 'tree'", ("1" * 40,))
    damaged.close()
    foreign = Mirror(store, index_tree(git_repo))
    assert foreign.rebuilt and answers(foreign, whole) == expected
    foreign.close()


def test_verify_streams_the_index_and_reads_each_body_once(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch):
    """E5 at scale: `verify` never holds the whole index (it reads it shard by shard), checks objects
    grouped by the source they cite, so each body is read once while only two are held, and finds
    what it found before."""
    from wikigen.commands import verify
    from wikigen.commands.verify import verify_snapshot
    from wikigen.store.workspace import Workspace

    git_repo.commit(corpus())
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    refuse_the_whole_index(monkeypatch)
    monkeypatch.setattr(verify, "BODIES_KEPT", 2)
    ws = Workspace.open(git_repo.root)
    result = verify_snapshot(ws)
    compiled = sum(1 for e in ws.baseline.manifest.values() if e.version is not None)
    assert result["problems"] == [] and result["citations"] >= result["objects"] > compiled
    assert ws.store.blobs_read == compiled  # every cited body once, though only two are kept

    # A quote changed in one object file is still found (and only there).
    path = next(p for p in git_repo.git("ls-files", "content/wiki/concepts").stdout.split())
    text = (git_repo.root / path).read_text()
    git_repo.commit({path: text.replace("is a thing of page", "is a thing on page")}, message="hand edit")
    problems = verify_snapshot(Workspace.open(git_repo.root))["problems"]
    assert problems and all(path in p or "concept/" in p for p in problems)


def test_an_edit_that_moves_no_concept_or_relation_never_runs_the_partition(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """R24: the partition runs only when the increment added or removed a concept or a
    relation; otherwise the parent's record stands, unrewritten. When it runs on a stored record it
    is the local update (local moves from the changed relations), never a partition of the whole graph."""
    from wikigen.compiler import communities

    files = corpus()
    git_repo.commit(files)
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    runs: list[str] = []
    partition, local_moves = communities.partition, communities.local_moves

    def counted(*args: Any, **kwargs: Any) -> dict[str, str]:
        runs.append("whole")
        return partition(*args, **kwargs)

    def counted_local(*args: Any, **kwargs: Any) -> dict[str, str | None]:
        runs.append("local")
        return local_moves(*args, **kwargs)

    monkeypatch.setattr(communities, "partition", counted)
    monkeypatch.setattr(communities, "local_moves", counted_local)
    git_repo.commit({f"{K}/s30.md": files[f"{K}/s30.md"].replace("intro line", "intro line, edited,")})
    assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published
    assert runs == [] and not any(p.startswith("content/.wikigen/communities/") for p in git_repo.changed_paths())
    # A new relation changes the graph: the local update runs.
    git_repo.commit({f"{K}/s31.md": files[f"{K}/s31.md"] + "\nREL Term31 -depends on-> Term5.\n"})
    assert compile_repo(git_repo.root, engine=ScriptedEngine(extract)).published
    assert runs == ["local"]
