"""Sources in other languages (R20, R22, E2): the parser is English, so a German or
Chinese source is compiled by the language-independent rules only — emphasized terms, definition
lists, headings — never crashes, states no relation, and its article says which rules applied."""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GitRepo, source
from tests.test_offline import POD_DOC, make_request, run
from wikigen.compiler.driver import compile_repo
from wikigen.engines.contract import Delta
from wikigen.engines.offline import language as lang
from wikigen.engines.offline.documents import read_document
from wikigen.engines.offline.engine import OfflineEngine
from wikigen.engines.offline.text import sentences
from wikigen.model.ids import normalize_name
from wikigen.model.objects import object_path
from wikigen.views.knowledge import load_knowledge
from wikigen.views.layout import Layout
from wikigen.views.pages import all_pages

GERMAN = (
    "# Behälter und Knoten\n\n"
    "Ein **Behälter** ist eine abgeschlossene Laufzeitumgebung für eine Anwendung. Die Plattform "
    "startet jeden Behälter auf einem Knoten und überwacht ihn, solange er läuft.\n\n"
    "Die Verwaltung der Behälter übernimmt ein zentraler Dienst. Er verteilt die Arbeit auf alle "
    "Knoten im Verbund und startet ausgefallene Behälter neu.\n\n"
    "## Begriffe\n\n"
    "Knoten\n: Ein Rechner im Verbund, auf dem die Behälter der Anwendungen laufen.\n\n"
    "Verbund\n: Die Menge aller Knoten, die gemeinsam von der Plattform verwaltet werden.\n"
)
CHINESE = (
    "# 容器与节点\n\n"
    "**容器**是一个封闭的应用运行环境，它把应用程序和它所依赖的全部文件打包在一起。"
    "平台在节点上启动每个容器，并在它运行期间对其进行监控。\n\n"
    "容器的管理由一个中心服务负责。它把工作分配到集群中的所有节点上，并重新启动失败的容器，使应用保持可用。\n\n"
    "## 术语\n\n"
    "节点\n: 集群中的一台物理计算机或者虚拟计算机，应用的容器在其上运行，并由中心服务统一调度和监控。\n\n"
    "集群\n: 由平台共同管理的所有节点的集合，中心服务把它们当作一个整体来分配工作和存储资源。\n"
)
# English-looking text: only its frontmatter says it is German (test_offline's relation example).
DECLARED = POD_DOC + "\nA ReplicaSet is a controller object that keeps replicas running.\n"


class _Recording(OfflineEngine):
    """The offline engine, keeping the requests it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Mapping[str, Any]] = []

    def run(self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event) -> Delta:
        self.requests.append(request)
        return super().run(stage, request, deadline, cancel)


def _quotes(delta: Mapping[str, Any]) -> list[dict[str, str]]:
    found = []
    for concept in delta["concepts"]:
        found += concept["definition"]["quotes"] + concept["evidence"]
    for article in delta["articles"]:
        for claim in [*article["summary"], *(c for s in article.get("sections", []) for c in s["claims"])]:
            found += claim["quotes"]
    return found


def _verbatim(delta: Mapping[str, Any], bodies: Mapping[str, str]) -> None:
    """E2/R22: every quote is a span of its body, so that body[start:end] == quote."""
    for quote in _quotes(delta):
        body = bodies[quote["source"]]
        start = body.find(quote["quote"])
        assert start >= 0, quote
        assert body[start : start + len(quote["quote"])] == quote["quote"]


def _concept(delta: Mapping[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in delta["concepts"] if normalize_name(c["name"]) == normalize_name(name))


def test_detection_rule_tells_german_and_chinese_from_english():
    """R20: the deterministic rule (CJK share; function-word shares) names the language."""
    assert lang.detect(GERMAN) == "de"
    assert lang.detect(CHINESE) == "zh"
    assert lang.detect(DECLARED) == "en"
    assert lang.detect("`kubectl get pods`") == "en"  # too little prose to tell: English, as before
    assert lang.detect("Print one line per individual modified block (rather than ranges).") == "en"
    assert lang.notes("en") == [] and lang.notes("en-US") == []
    assert "lang: de" in lang.notes("de")[0]


def test_chinese_full_stops_end_sentences_and_quotes_stay_verbatim():
    """E2: a Chinese passage is cut after 。！？ (no space follows them); each sentence is verbatim."""
    text = "容器是一个封闭的运行环境。节点是一台计算机！集群是什么？它是节点的集合。"
    cut = sentences("s", text)
    assert [s.text for s in cut] == [
        "容器是一个封闭的运行环境。",
        "节点是一台计算机！",
        "集群是什么？",
        "它是节点的集合。",
    ]
    assert all(text[s.start : s.start + len(s.text)] == s.text for s in cut)
    english = "A Pod is the smallest unit. A Node runs Pods."
    assert [s.text for s in sentences("s", english)] == ["A Pod is the smallest unit.", "A Node runs Pods."]


def test_german_and_chinese_sources_compile_by_language_independent_rules():
    """R20/R22/E2: emphasized and listed terms become concepts with verbatim quotes;
    no relation comes from a source the parser cannot read; each article says which rules applied."""
    request = make_request(GERMAN, CHINESE, titles=["Behälter", "容器"])
    bodies = {s["id"]: s["body"] for s in request["sources"]}
    delta = run(request)
    names = {normalize_name(c["name"]) for c in delta["concepts"]}
    assert {"behälter", "knoten", "verbund", "容器", "节点", "集群"} <= names
    assert _concept(delta, "Behälter")["definition"]["quotes"][0]["quote"].startswith("Ein **Behälter** ist")
    assert _concept(delta, "容器")["definition"]["quotes"][0]["quote"].startswith("**容器**是")
    assert _concept(delta, "节点")["definition"]["quotes"][0]["quote"].startswith("节点\n: 集群中")
    assert _concept(delta, "Verbund")["definition"]["quotes"][0]["quote"].startswith("Verbund\n: Die Menge")
    _verbatim(delta, bodies)
    assert delta["relations"] == []
    notes = {a["sources"][0]: a.get("notes") for a in delta["articles"]}
    assert set(notes) == {"knowledge/s0", "knowledge/s1"}
    for source_id, code in (("knowledge/s0", "de"), ("knowledge/s1", "zh")):
        (note,) = notes[source_id]
        assert f"lang: {code}" in note
        assert "emphasized terms" in note and "definition lists" in note and "headings" in note
    recheck = run({**request, "delta": delta}, stage="recheck")
    assert recheck["relations"] == []
    assert run(request) == delta  # deterministic


def test_frontmatter_lang_wins_over_detection_and_english_articles_carry_no_notes():
    """R20: a source whose frontmatter says ``lang: de`` is German even if its text looks
    English: no parse, no relation, a note on its article. The same text without ``lang`` is English."""
    english = run(make_request(DECLARED))
    assert "notes" not in english["articles"][0]
    assert any(r["predicate"] == "manages" for r in english["relations"])  # parsed: "A Deployment manages …"
    request = make_request(DECLARED)
    request["sources"][0]["lang"] = "de"
    declared = run(request)
    assert declared["relations"] == []
    assert "lang: de" in declared["articles"][0]["notes"][0]
    assert {"pod", "deployment"} <= {normalize_name(c["name"]) for c in declared["concepts"]}  # emphasized
    _verbatim(declared, {"knowledge/s0": DECLARED})
    document = lang.with_language(read_document("knowledge/s0", "Pods", DECLARED), "de")
    assert lang.language(document) == "de" and document.body == DECLARED


@pytest.mark.parametrize("corpus", ["k8s-concepts", "elixir-guide", "tldr-pages"])
def test_english_corpora_are_detected_as_english(corpus: str):
    """R20: the thresholds keep every file of the English corpora English, so the English rules still
    apply to them."""
    root = Path(__file__).resolve().parents[2] / "shared" / "corpora" / corpus
    if not root.is_dir():
        pytest.skip(f"corpus {corpus} is not checked out beside the repository")
    files = [p for p in sorted(root.rglob("*.md")) if "gold" not in p.parts]
    if corpus == "tldr-pages":
        files = files[::10]  # a fixed tenth of the 6,600 pages keeps the test fast
    wrong = []
    for path in files:
        body = re.sub(r"\A---\n.*?\n---\n", "", path.read_text(encoding="utf-8"), flags=re.S)
        if lang.language(read_document(path.stem, path.stem, body)) != "en":
            wrong.append(path.name)
    assert files and wrong == []


def test_end_to_end_compile_of_german_and_chinese_sources_verifies(git_repo: GitRepo):
    """R20/E2/E5: compiled through the pipeline with the offline engine, published,
    ``wikigen verify`` passes, the request carries ``lang`` only where the frontmatter declares it, and
    the site shows the note under the article's title."""
    k = "content/sources/knowledge"
    git_repo.commit(
        {
            f"{k}/behaelter.md": source(GERMAN, title="Behälter"),
            f"{k}/rongqi.md": source(CHINESE, title="容器", lang="zh"),
        }
    )
    engine = _Recording()
    report = compile_repo(git_repo.root, engine=engine)
    assert report.published
    sent = {s["id"]: s for request in engine.requests for s in request["sources"]}
    assert sent["knowledge/rongqi"]["lang"] == "zh"
    assert set(sent["knowledge/behaelter"]) == {"id", "version", "title", "category", "verification", "body"}
    assert git_repo.wikigen("verify").code == 0
    knowledge = load_knowledge(git_repo.root)
    objects = list(knowledge.objects.values())
    articles = [o for o in objects if o["kind"] == "article"]
    assert len(articles) == 2
    for article in articles:
        (note,) = article["notes"]
        assert "language-independent rules" in note
    assert {"behälter", "容器"} <= {normalize_name(o["name"]) for o in objects if o["kind"] == "concept"}
    assert not [o for o in objects if o["kind"] == "relation"]
    layout = Layout(
        source_ids=knowledge.sources,
        object_files={oid: object_path(oid) for oid in knowledge.objects if not oid.startswith("relation/")},
    )
    shown = [p.html for p in all_pages(knowledge, layout) if "wikigen-article-note" in p.html]
    assert len(shown) == 2 and any("lang: zh" in html for html in shown)
