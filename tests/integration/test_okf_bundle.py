"""The OKF bundle as other people's code reads it (V6): the project's own knowledge base exported and
checked by okf-cli's validator (OKF v0.2 §11: 0 errors) and loaded by astromesh-okf, a consumer; the
built site carries the same bundle as okf/ and okf.zip, and llms.txt points to it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from astromesh_okf import Bundle as ConsumerBundle
from okf import api as okf_api

from tests.agents_repo import compiled_repo
from tests.conftest import GitRepo
from wikigen.views.okf.bundle import load_bundle

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MKDOCS_YML = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def own_knowledge_repo(root: Path) -> GitRepo:
    """A repo holding the project's own committed content/ (sources, compiled wiki, snapshot) as HEAD
    has it: the same blobs, so the snapshot reads exactly as in the project."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD", "content"], capture_output=True, check=False
    )
    if archive.returncode != 0:
        pytest.skip("not run from a git checkout of wikigen")
    repo = GitRepo(root)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(root, filter="data")
    repo.git("add", "-A")
    repo.commit(message="the project's own content")
    return repo


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, Path]:
    tmp = tmp_path_factory.mktemp("own-okf")
    repo = own_knowledge_repo(tmp / "repo")
    result = repo.wikigen("export", "okf", str(tmp / "okf"), "--json")
    assert result.code == 0, result.err
    return repo, tmp / "okf"


def test_the_projects_own_bundle_passes_the_okf_validator(own):
    """V6: okf-cli's `validate` (OKF v0.2 §11) finds no error and no warning in any file."""
    _repo, folder = own
    checked = okf_api.validate(folder)
    assert checked.errors == [] and checked.warnings == []
    assert checked.total_files == len(list(folder.rglob("*.md"))) > 3


def test_a_consumer_reads_every_concept_with_its_trust_and_links(own):
    """V6: astromesh-okf finds every concept, reads `verified` as machine-confirmed (OKF §5.3) and
    resolves every relation link to a document that exists."""
    repo, folder = own
    bundle = load_bundle(repo.root)
    consumer = ConsumerBundle(folder)
    found = consumer.find(type_="Concept", limit=100)
    concepts = bundle.counts()["concept"]
    assert found["skipped_invalid"] == 0 and len(found["results"]) == min(concepts, 100) > 0
    for kind, count in bundle.counts().items():
        assert len(consumer.find(type_=kind.capitalize(), limit=100)["results"]) == min(count, 100)
    trusted = {r["id"] for r in found["results"] if r["trust"] == "machine-confirmed"}
    assert trusted == {p[:-3] for oid, p in bundle.documents.items() if oid in bundle.verified and p.startswith("concepts/")}
    for result in found["results"]:
        for link in consumer.read(result["id"])["links"]:
            assert link.get("exists"), (result["id"], link)


def test_the_site_carries_the_bundle_as_a_folder_and_a_zip(tmp_path: Path):
    """V6, E6: `mkdocs build` writes site/okf/ (the same bytes as `wikigen export okf`) and okf.zip
    (the same files, in sorted entries with one fixed time); llms.txt links both."""
    repo = compiled_repo(tmp_path / "repo", mkdocs_yml=MKDOCS_YML)
    result = subprocess.run(
        [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "-f", str(repo.root / "mkdocs.yml")],
        cwd=repo.root, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    site = repo.root / "site"
    exported = tmp_path / "exported"
    assert repo.wikigen("export", "okf", str(exported)).code == 0
    files = {p.relative_to(exported).as_posix(): p.read_bytes() for p in exported.rglob("*") if p.is_file()}
    in_site = {p.relative_to(site / "okf").as_posix(): p.read_bytes() for p in (site / "okf").rglob("*") if p.is_file()}
    assert in_site == files
    assert not list((site / "okf").rglob("*.html"))  # plain Markdown, never rendered as pages
    with zipfile.ZipFile(site / "okf.zip") as archive:
        names = archive.namelist()
        assert names == sorted(names) == sorted(f"okf/{p}" for p in files)
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert {n[4:]: archive.read(n) for n in names} == files
    llms = (site / "llms.txt").read_text(encoding="utf-8")
    assert "](okf/index.md)" in llms and "](okf.zip)" in llms
    assert json.loads((site / "objects.json").read_text(encoding="utf-8"))["snapshot"] == 1
