"""The built site serves agents too (E6), browser-free: `llms.txt`, `objects.json` and one JSON
file per object page, each readable with json.loads, in the shape of the MCP tool `get`, and citing
what its page cites. Objects that cite a private source are not published."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents_repo import compiled_repo
from wikigen.search import Searcher
from wikigen.search.records import get_object

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MKDOCS_YML = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
CITED = re.compile(r'data-citation-id="([0-9a-f]{12})"')


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    repo = compiled_repo(tmp_path_factory.mktemp("agent-site") / "repo", mkdocs_yml=MKDOCS_YML)
    result = subprocess.run(
        [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "-f", str(repo.root / "mkdocs.yml")],
        cwd=repo.root, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return repo.root, repo.root / "site"


def test_llms_txt_and_the_json_index_list_every_public_object(built):
    _root, site = built
    index = json.loads((site / "objects.json").read_text(encoding="utf-8"))
    assert index["snapshot"] == 1
    ids = {o["id"] for o in index["objects"]}
    assert ids == {"article/knowledge--pods", "article/knowledge--containers", "concept/pod", "concept/container"}
    llms = (site / "llms.txt").read_text(encoding="utf-8")
    assert llms.startswith("# wikigen\n\n> ")
    for item in index["objects"]:
        assert f"]({item['json']})" in llms and item["id"] in llms
    assert "secrets" not in llms and "vault" not in llms.casefold()  # private: left out
    assert "`wikigen mcp`" in llms and "verify, file_answer (" in llms  # the MCP tools, named


def test_one_json_per_object_page_matching_its_citations(built):
    root, site = built
    searcher = Searcher(root)
    for item in json.loads((site / "objects.json").read_text(encoding="utf-8"))["objects"]:
        record = json.loads((site / item["json"]).read_text(encoding="utf-8"))
        assert record["id"] == item["id"] and record["page"] == item["page"]
        page = (site / item["page"] / "index.html").read_text(encoding="utf-8")
        on_page = set(CITED.findall(page))
        in_json = {c["citation_id"] for c in record["citations"]}
        assert in_json and in_json <= on_page
        if record["kind"] == "article":
            assert in_json == on_page  # a concept page also shows its relations' evidence
        for citation in record["citations"]:
            assert set(citation) == {"citation_id", "source", "version", "source_span", "lines", "quote"}
        # The same shape as the MCP tool `get`.
        expected = get_object(searcher, item["id"])
        assert {k: v for k, v in record.items() if k != "page"} == json.loads(json.dumps(expected))
    assert not list(site.rglob("*vault*.json"))
