"""`wikigen export okf` (V6): the committed snapshot as an Open Knowledge Format v0.2 bundle —
one document per article, concept and topic with its citations as `sources`, `verified` only where
every citation holds against its git blob, the same bytes for the same snapshot, private sources
(R39) left out, and a folder that is not its own never overwritten."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.agents_repo import K, compiled_repo
from tests.conftest import GitRepo, source
from wikigen.commands.verify import verify_snapshot
from wikigen.model.objects import parse_object, render_object
from wikigen.store.git import GitStore
from wikigen.store.workspace import Workspace
from wikigen.views.knowledge import load_knowledge
from wikigen.views.okf.body import Neighbours, footnotes, render_body
from wikigen.views.okf.bundle import load_bundle
from wikigen.views.okf.documents import describe
from wikigen.views.okf.paths import document_paths

PROBLEM_ID = re.compile(r"^((?:article|concept|topic|relation)/[^:\s]+): ")


def front(text: str) -> dict[str, Any]:
    assert text.startswith("---\n")
    loaded = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
    assert isinstance(loaded, dict)
    return loaded


def bundle_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return compiled_repo(tmp_path / "repo")


def test_each_article_concept_and_topic_is_one_document_with_its_citations(repo: GitRepo, tmp_path: Path):
    """V6: `type`, `title`, a one-sentence `description`, `generated` (route and the snapshot commit's
    time), `sources` carrying each citation's file, version, blob, span and quote."""
    result = repo.wikigen("export", "okf", str(tmp_path / "okf"))
    assert result.code == 0, result.err
    assert "exported snapshot 1 as OKF 0.2" in result.out
    files = bundle_files(tmp_path / "okf")
    assert {"index.md", "articles/index.md", "concepts/index.md"} <= set(files)
    pod = front(files["concepts/pod.md"].decode())
    assert pod["type"] == "Concept" and pod["title"] == "Pod"
    assert pod["description"].endswith("a group of containers that share storage and network.")
    assert pod["generated"]["by"] == str(load_knowledge(repo.root).provenance["concept/pod"]["route"])
    compiled_at = datetime.fromtimestamp(repo.repo[repo.head()].commit_time, UTC)
    assert pod["generated"]["at"] == compiled_at.strftime("%Y-%m-%dT%H:%M:%SZ")  # the compile's commit
    cited = pod["sources"][0]
    assert cited["resource"] == f"{K}/pods.md" and cited["source"] == "knowledge/pods"
    body = load_knowledge(repo.root).sources["knowledge/pods"].body
    assert body is not None and body[cited["span"]["start"] : cited["span"]["end"]] == cited["quote"]
    assert cited["blob"] == GitStore(repo.root).blob_at(repo.head(), f"{K}/pods.md")
    text = files["concepts/pod.md"].decode()
    assert "Pod *groups* [Container](container.md)" in text  # a relation: a link, the predicate in prose
    assert f"[^{cited['id']}]: " in text  # each footnote keyed by a `sources` id (OKF §5.1)
    root = files["index.md"].decode()
    assert root.startswith('---\nokf_version: "0.2"\n---\n')
    assert "[Concepts](concepts/)" in root and "[Topics]" not in root  # no topic: no folder


def test_the_same_snapshot_exports_byte_identical_files(repo: GitRepo, tmp_path: Path):
    """V6: no clock — a later commit that changes no snapshot exports the same bytes, folder and zip."""
    assert repo.wikigen("export", "okf", str(tmp_path / "a")).code == 0
    assert repo.wikigen("export", "okf", str(tmp_path / "a.zip")).code == 0
    repo.commit({"notes.md": "a commit after the compile, at another time\n"})
    assert repo.wikigen("export", "okf", str(tmp_path / "b")).code == 0
    assert repo.wikigen("export", "okf", str(tmp_path / "b.zip")).code == 0
    assert bundle_files(tmp_path / "a") == bundle_files(tmp_path / "b")
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()


def test_verified_marks_exactly_the_documents_whose_citations_all_verify(repo: GitRepo, tmp_path: Path):
    """V6, E5: `verified` on a document iff `wikigen verify` finds no problem with the object nor with
    a relation whose evidence the document shows."""
    bundle = load_bundle(repo.root)
    assert not verify_snapshot(Workspace.open(repo.root))["problems"]
    assert bundle.verified == frozenset(bundle.documents)
    marked = {oid for oid, path in bundle.documents.items() if "verified" in front(bundle.files[path].decode())}
    assert marked == bundle.verified


@pytest.mark.parametrize("how", ["quote", "blob"])
def test_a_citation_that_no_longer_holds_turns_verified_off(repo: GitRepo, how: str):
    """V6, E5: an object file whose quote is not at its span, or a manifest whose blob holds another
    body, leaves `verified` off exactly where `wikigen verify` reports the object."""
    store = GitStore(repo.root)
    if how == "quote":
        file = str(Workspace.open(repo.root).baseline.objects["concept/pod"]["file"])
        obj = parse_object(store.read_file(store.commit_tree(repo.head()), file) or b"")
        obj["citations"][0]["quote"] = obj["citations"][0]["quote"].replace("smallest", "largest")
        repo.commit({file: render_object(obj)}, message="tampered quote")
    else:
        other = store.blob_at(repo.head(), f"{K}/containers.md")
        repo.edit_manifest(lambda m: m["knowledge/pods"].update(blob=other), message="tampered blob")
    problems = verify_snapshot(Workspace.open(repo.root))["problems"]
    bad = {m.group(1) for p in problems if (m := PROBLEM_ID.match(p))}
    assert "concept/pod" in bad
    bundle = load_bundle(repo.root)
    knowledge = load_knowledge(repo.root)
    shows = {
        oid: {oid} | {r for r, o in knowledge.objects.items() if o.get("kind") == "relation" and o.get("subject") == oid}
        for oid in bundle.documents
    }
    expected = {oid for oid, shown in shows.items() if not shown & bad}
    assert bundle.verified == frozenset(expected)
    assert "verified" not in front(bundle.files[bundle.documents["concept/pod"]].decode())
    assert "concept/container" in bundle.verified  # cites only containers.md, which still holds


def test_private_sources_and_what_cites_them_are_left_out(repo: GitRepo, tmp_path: Path):
    """R39, V6: a source private by the `private` setting, and one marked private at HEAD before the
    next compile, leave no document, link, citation or text in the bundle."""
    repo.commit({f"{K}/pods.md": source("# Pods\n\nA Pod is a group of containers.\n", title="Pods", private=True)})
    assert repo.wikigen("export", "okf", str(tmp_path / "okf")).code == 0
    files = bundle_files(tmp_path / "okf")
    text = "\n".join(data.decode() for data in files.values())
    for leaked in ("vault", "secrets", "smallest deployable", "knowledge/pods", "pod.md"):
        assert leaked not in text.casefold(), leaked
    assert "concepts/container.md" in files


def test_paths_are_readable_and_a_taken_or_reserved_name_gets_a_short_suffix():
    """V6: `concepts/<name>.md`; two topics with one title, or a concept named `log` (a file name OKF
    reserves), get a suffix made from the object's id — the same one every time."""
    objects = {
        "concept/log": {"id": "concept/log", "kind": "concept", "name": "Log"},
        "concept/control_plane": {"id": "concept/control_plane", "kind": "concept", "name": "Control plane"},
        "topic/pods-1111": {"id": "topic/pods-1111", "kind": "topic", "title": "Pods"},
        "topic/pods-2222": {"id": "topic/pods-2222", "kind": "topic", "title": "Pods"},
        "article/knowledge--pods": {"id": "article/knowledge--pods", "kind": "article", "sources": ["knowledge/pods"]},
        "relation/abc": {"id": "relation/abc", "kind": "relation"},
    }
    paths = document_paths(objects)
    assert paths["concept/control_plane"] == "concepts/control_plane.md"
    assert paths["article/knowledge--pods"] == "articles/knowledge--pods.md"
    assert paths["topic/pods-1111"] == "topics/pods.md"
    assert re.fullmatch(r"topics/pods-[0-9a-f]{6}\.md", paths["topic/pods-2222"])
    assert re.fullmatch(r"concepts/log-[0-9a-f]{6}\.md", paths["concept/log"])
    assert "relation/abc" not in paths
    assert document_paths(dict(reversed(list(objects.items())))) == paths


def test_a_description_is_the_first_sentence_without_emphasis():
    obj = {"id": "concept/pod", "name": "Pod", "definition": {"text": "A **Pod** is a group. It runs on a node."}}
    assert describe(obj) == "A Pod is a group."
    assert describe({"id": "topic/x", "title": "Pods", "summary": []}) == "Pods."


def test_a_folder_that_is_not_a_bundle_it_wrote_is_refused_and_kept(repo: GitRepo, tmp_path: Path):
    """V6: export replaces only an empty folder or its own earlier bundle; anything else is refused
    with a message naming the folder, and left as it was."""
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "todo.md").write_text("keep me\n", encoding="utf-8")
    result = repo.wikigen("export", "okf", str(mine))
    assert result.code != 0 and str(mine) in result.err and "never overwritten" in result.err
    assert "Traceback" not in result.err
    assert [p.name for p in mine.iterdir()] == ["todo.md"]
    out = tmp_path / "okf"
    assert repo.wikigen("export", "okf", str(out)).code == 0
    (out / "concepts" / "stale.md").write_text("---\ntype: Concept\n---\n", encoding="utf-8")
    assert repo.wikigen("export", "okf", str(out)).code == 0  # its own bundle: replaced whole
    assert not (out / "concepts" / "stale.md").exists()


def test_a_repo_with_no_snapshot_has_nothing_to_export(git_repo: GitRepo, tmp_path: Path):
    git_repo.commit({f"{K}/pods.md": source("# Pods\n\nText.\n", title="Pods")})
    result = git_repo.wikigen("export", "okf", str(tmp_path / "okf"))
    assert result.code != 0 and "wikigen compile" in result.err
    assert not (tmp_path / "okf").exists()


def test_a_sources_own_links_become_their_text_so_no_link_leaves_the_bundle():
    """V6: a claim quoting `[Node](/docs/nodes/)` or `[ref][r]` links nowhere in the bundle (OKF §6.1
    reads every link as a relation); a link to a URL stays, and the footnote marks are the bundle's."""
    obj = {
        "id": "concept/kubelet",
        "name": "kubelet",
        "definition": {
            "text": "An agent on each [Node](/docs/nodes/#x) that runs [pods][p] ([docs](https://k8s.io)).[^1]",
            "citations": ["abcdef012345"],
        },
    }
    body = render_body(obj, "concepts/kubelet.md", Neighbours(), ["abcdef012345"])
    assert "An agent on each Node that runs pods ([docs](https://k8s.io)). [^abcdef012345]" in body
    assert "/docs/" not in body and "[^1]" not in body
    notes = footnotes([{"citation_id": "abcdef012345", "source": "k/x", "version": "v", "quote": "on [Node](/docs/n/)",
                        "lines": {"start": 1, "end": 1}}], {})
    assert "on \\[Node\\]\\(/docs/n/\\)" in notes  # shown as written, read as no link
    assert describe(obj) == "An agent on each Node that runs pods ([docs](https://k8s.io))."
