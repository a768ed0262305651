"""R20, R24, R25: an article is a function of its source — compiled alone, in a batch, or after an
unrelated history, a source's article file is byte-identical (ids from source ids and names;
provenance in the manifest). And the same input compiled twice gives byte-identical files."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.corpora import corpus_available, corpus_files
from wikigen.compiler.driver import compile_repo
from wikigen.engines.offline.engine import OfflineEngine
from wikigen.model.objects import object_path

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not corpus_available("k8s"), reason="../shared/corpora/k8s-concepts is not beside the repo"),
]
TARGET = "content/sources/knowledge/k8s/workloads/controllers/daemonset.md"
ARTICLE = object_path("article/knowledge--k8s--workloads--controllers--daemonset")


@pytest.fixture(scope="module")
def engine() -> OfflineEngine:
    return OfflineEngine()


@pytest.fixture(scope="module")
def docs() -> dict[str, bytes]:
    files = corpus_files("k8s")
    names = [p for p in sorted(files) if "/workloads/" in p][:8]
    return {p: files[p] for p in {*names, TARGET}}


def test_article_is_a_function_of_its_source(make_repo, engine, docs):  # type: ignore[no-untyped-def]
    alone: GitRepo = make_repo()
    alone.commit({TARGET: docs[TARGET]})
    compile_repo(alone.root, engine=engine)
    expected = (alone.root / ARTICLE).read_bytes()

    batched: GitRepo = make_repo()
    batched.commit(dict(docs))
    compile_repo(batched.root, engine=engine, batch=True)
    assert (batched.root / ARTICLE).read_bytes() == expected

    history: GitRepo = make_repo()
    others = {p: d for p, d in docs.items() if p != TARGET}
    history.commit(others)
    compile_repo(history.root, engine=engine, batch=True)
    history.commit(dict.fromkeys(list(others)[:3]))  # an unrelated withdrawal
    compile_repo(history.root, engine=engine)
    history.commit({TARGET: docs[TARGET]})
    compile_repo(history.root, engine=engine)
    assert (history.root / ARTICLE).read_bytes() == expected

    again: GitRepo = make_repo()
    again.commit(dict(docs))
    compile_repo(again.root, engine=engine, batch=True)
    for path in sorted((batched.root / "content/wiki").rglob("*")):
        if path.is_file():
            twin = again.root / path.relative_to(batched.root)
            assert twin.read_bytes() == path.read_bytes(), path.name
