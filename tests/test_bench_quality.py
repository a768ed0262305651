"""scripts/bench_quality.py's judged set: tests/data/judged/current/ holds each judged row once, with
its latest verdict, and a judged draw folds into it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_quality.py"
_spec = importlib.util.spec_from_file_location("bench_quality", SCRIPT)
assert _spec is not None and _spec.loader is not None
bench_quality = importlib.util.module_from_spec(_spec)
# dataclasses look the module up by name while the class is made
sys.modules[_spec.name] = bench_quality
_spec.loader.exec_module(bench_quality)


def _concept(name: str, sentence: str) -> dict[str, object]:
    return {
        "name": name,
        "type": "concept",
        "definition": {"text": sentence, "citations": ["c1"]},
        "citations": [{"citation_id": "c1", "quote": sentence, "source": "knowledge/k8s/pod"}],
    }


def test_the_judged_set_holds_each_judged_row_once_as_fold_writes_it(tmp_path: Path) -> None:
    """Folding the judged set into an empty folder writes it again byte for byte: one row per
    identity (id, quote, definition or predicate and object), in name order, csv-quoted. Every file
    of the set is one corpus and kind the script knows (a corpus no one has judged has none)."""
    folded = bench_quality.fold_judged(bench_quality.JUDGED_DIR, tmp_path)
    names = sorted(p.name for p in bench_quality.JUDGED_DIR.iterdir())
    known = {f"{c}-{k}.tsv" for c in bench_quality.CORPORA for k in ("concepts", "relations")}
    assert names and set(names) <= known
    assert len(folded) == len(names)
    for name in names:
        assert (tmp_path / name).read_bytes() == (bench_quality.JUDGED_DIR / name).read_bytes(), name


def _draw(folder: Path, *rows: str) -> Path:
    """A judged draw with its verdicts filled in (cells without quote marks, as csv writes them)."""
    folder.mkdir()
    lines = ["\t".join(bench_quality.CONCEPT_HEADER), *rows]
    (folder / "k8s-concepts.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_a_judged_draw_folds_in_and_a_row_judged_again_takes_its_new_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each judged draw folds into the set: a row the set holds takes the later draw's verdict, a new
    row is added, an unjudged one is left out, a cell with a quote mark is csv-quoted; judged_anywhere
    then counts the rows of a compile the set holds."""
    pod = 'A Pod is the smallest "deployable" unit.'
    node = "A Node is a worker machine."
    judged_set = tmp_path / "current"
    first = _draw(
        tmp_path / "first", f"concept/pod\tPod\t\tconcept\t{pod}\t{pod}\tknowledge/k8s/pod\twrong\tvague"
    )
    second = _draw(
        tmp_path / "second",
        f"concept/pod\tPod\t\tconcept\t{pod}\t{pod}\tknowledge/k8s/pod\tok\t",
        f"concept/node\tNode\t\tconcept\t{node}\t{node}\tknowledge/k8s/node\twrong\tan example",
        "concept/label\tLabel\t\tconcept\tLabels tag.\tLabels tag.\tknowledge/k8s/label\t\t",
    )

    bench_quality.fold_judged(first, judged_set)
    assert bench_quality.fold_judged(second, judged_set) == [
        f"folded 2 judged rows of {second / 'k8s-concepts.tsv'} into {judged_set / 'k8s-concepts.tsv'} (2 rows)"
    ]
    rows = bench_quality.read_judged(judged_set / "k8s-concepts.tsv")
    assert [(r["name"], r["verdict"], r["reason"]) for r in rows.values()] == [
        ("Node", "wrong", "an example"),
        ("Pod", "ok", ""),
    ]
    assert '"A Pod is the smallest ""deployable"" unit."' in (judged_set / "k8s-concepts.tsv").read_text()
    monkeypatch.setattr(bench_quality, "JUDGED_DIR", judged_set)
    concepts = {
        "concept/pod": _concept("Pod", pod),
        "concept/node": _concept("Node", node),
        "concept/node_2": _concept("Node 2", "A Node 2 is not judged."),
    }
    figures = bench_quality.judged_anywhere("k8s", concepts, [])
    assert figures["concepts"] == {"rows": 3, "judged": 2, "ok": 1, "precision": 0.5}


def test_a_draw_is_written_as_csv_so_a_cell_opening_on_a_quote_mark_reads_back_whole(tmp_path: Path) -> None:
    """A quote that opens on a quote mark ('"iodata" and "chardata" do not …') is csv-quoted in the
    draw, so a reader's csv module and the fold read the cell as written, marks and all."""
    quote = '"iodata" and "chardata" do not only contain strings.'
    path = tmp_path / "elixir-relations.tsv"
    row = ["relation/a1", "chardata", "contains", "String", quote, "knowledge/elixir/io"]
    assert bench_quality.write_tsv(path, bench_quality.RELATION_HEADER, [row], overwrite=False).startswith("wrote 1")
    assert not bench_quality.judged(path)
    text = path.read_text(encoding="utf-8").replace("knowledge/elixir/io\t\t", "knowledge/elixir/io\tok\t")
    path.write_text(text, encoding="utf-8")
    assert bench_quality.judged(path)
    [read] = bench_quality.read_judged(path).values()
    assert read["quote"] == quote and read["verdict"] == "ok"


def test_an_unseen_folder_is_a_corpus_of_its_own_that_is_never_folded(tmp_path: Path) -> None:
    """--unseen NAME=DIR compiles any folder of Markdown as one more corpus; a judged draw of it is
    not folded into the judged set, which holds only the corpora the engine is fitted on."""
    folder = tmp_path / "docs"
    (folder / "guide").mkdir(parents=True)
    (folder / "guide" / "intro.md").write_text("# Intro\n\nA gizmo is a small tool.\n", encoding="utf-8")
    saved = (bench_quality.CORPORA, dict(bench_quality.SOURCES))
    try:
        assert bench_quality.add_unseen(f"gizmo-docs={folder}") == "gizmo-docs"
        assert "gizmo-docs" in bench_quality.CORPORA and "gizmo-docs" not in bench_quality.JUDGED_CORPORA
        files = bench_quality.corpus_files("gizmo-docs")
        assert list(files) == ["content/sources/knowledge/gizmo-docs/guide/intro.md"]
        with pytest.raises(SystemExit, match="new lower-case name"):
            bench_quality.add_unseen(f"k8s={folder}")
        with pytest.raises(SystemExit, match="no Markdown"):
            bench_quality.add_unseen(f"empty={tmp_path / 'nowhere'}")
    finally:
        bench_quality.CORPORA, bench_quality.SOURCES = saved[0], saved[1]
