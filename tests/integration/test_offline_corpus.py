"""R20 and R24 on the 115 Kubernetes concept docs, through the real pipeline and the offline engine:
a batch compile from empty, the counts that matter, verify, one edited doc compiled incrementally,
and the result exported as an OKF bundle that okf-cli validates (V6)."""

from __future__ import annotations

import json

import pytest
from okf import api as okf_api

from tests.conftest import GitRepo
from tests.corpora import commit_files, corpus_available, corpus_files
from wikigen.compiler.community_record import COMMUNITIES_DIR
from wikigen.compiler.driver import compile_repo
from wikigen.compiler.topics import TOPIC_ROUTE
from wikigen.engines.offline.engine import OfflineEngine
from wikigen.model.ids import normalize_name
from wikigen.model.objects import object_path, parse_object
from wikigen.model.snapshot import SHARDED_DIRS, SNAPSHOT_PATH

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not corpus_available("k8s"), reason="../shared/corpora/k8s-concepts is not beside the repo"),
]


def test_k8s_batch_compile_then_one_edit(git_repo: GitRepo):
    files = corpus_files("k8s")
    corpus_bytes = sum(len(v) for v in files.values())
    commit_files(git_repo.repo, dict(files))
    engine = OfflineEngine()
    report = compile_repo(git_repo.root, engine=engine, batch=True)
    assert report.published and len(report.increments) > 1

    snapshot = git_repo.snapshot()
    concepts = {oid: e for oid, e in snapshot.objects.items() if e["kind"] == "concept"}
    relations = [json.loads(line) for line in git_repo.relations()]
    first = {oid: min(e["sources"]) for oid, e in concepts.items()}
    cross = [r for r in relations if first[r["subject"]] != first[r["object"]]]
    assert len(concepts) >= 100
    assert len(relations) >= 50 and all(r["evidence"] and r["basis"] == "explicit" for r in relations)
    assert len(cross) >= 10
    assert len([o for o in snapshot.objects if o.startswith("article/")]) == 115
    assert git_repo.wikigen("verify").code == 0
    # Topics by meaning (R20): derived from the objects, one per anchor concept, titled by it;
    # no two topics share a title and none is without a summary.
    topics = [parse_object(git_repo.repo.revparse_single(f"HEAD:{e['file']}").data)
              for e in snapshot.objects.values() if e["kind"] == "topic"]
    titles = [normalize_name(t["title"]) for t in topics]
    assert len(titles) == len(set(titles))
    assert all(t["summary"] and t["title"] == concepts[t["anchor"]]["label"] for t in topics)
    assert all(snapshot.objects[t["id"]]["provenance"]["route"] == TOPIC_ROUTE for t in topics)

    path = "content/sources/knowledge/k8s/workloads/controllers/replicaset.md"
    commit_files(git_repo.repo, {path: files[path] + b"\n\nA Pod is the unit that the kubelet runs on a node.\n"})
    before = git_repo.head()
    report = compile_repo(git_repo.root, engine=engine)
    data = report.as_json()
    inc = report.increments[0]
    assert data["engine_calls"] <= 2
    assert data["input_bytes"] <= corpus_bytes // 10
    doc = len(files[path].split(b"\n---\n", 1)[-1])  # the body; the frontmatter is not sent as text
    # R14/R15: the request is the changed body, its fragments and metadata (anchors, article hits and
    # the live relations among the anchors, id + predicate + basis); the metadata grows with the
    # graph around the edited page, never with the library.
    relations_sent = inc.caps["relations"][0]
    assert inc.fragment_bytes > 0 and relations_sent <= 300
    assert data["input_bytes"] <= 2 * (doc + inc.fragment_bytes) + 250 * (relations_sent + inc.anchors)
    changed = git_repo.git("diff", "--name-only", before, "HEAD").stdout.split()
    after = git_repo.snapshot()
    rewritten = {e["file"] for oid, e in after.objects.items() if e["provenance"].get("snapshot") == after.version
                 or e["provenance"].get("extended", {}).get("snapshot") == after.version}
    removed = {e["file"] for oid, e in snapshot.objects.items() if oid not in after.objects}
    # the communities record (V3) follows the relations: the shards of the concepts that moved; the
    # manifest and index shards are the compiler's bookkeeping
    changed_objects = {p for p in changed if not p.startswith((*SHARDED_DIRS, COMMUNITIES_DIR + "/"))}
    assert changed_objects <= rewritten | removed | {SNAPSHOT_PATH}
    assert len([p for p in changed if p.startswith(SHARDED_DIRS)]) <= 2 * len(rewritten | removed) + 2
    assert object_path("article/knowledge--k8s--workloads--controllers--replicaset") in changed
    assert len(changed) < 40  # only affected objects, not the 459 of the snapshot

    # V6: the compiled corpus, exported as an OKF bundle, passes someone else's validator (okf-cli)
    # and every document is verified against its blobs
    exported = git_repo.wikigen("export", "okf", str(git_repo.root.parent / "okf"), "--json")
    assert exported.code == 0, exported.err
    checked = okf_api.validate(git_repo.root.parent / "okf")
    assert checked.errors == [] and checked.total_files > 300
