#!/usr/bin/env python3
"""Fits the offline engine's decision (``wikigen/engines/offline/decision.json``) across corpora,
leaving one corpus out each time. Development only; the engine applies the weights by arithmetic.

  python scripts/fit_decision.py record [CORPUS ...] [--out DIR]     # compile, keep every scored item
  python scripts/fit_decision.py fit [--out DIR] [--write] [--commit] [--target P]
  python scripts/fit_decision.py fold CORPUS [--out DIR] [--sample-dir DIR]

``record`` compiles each corpus from empty (``scripts/bench_quality.py``'s corpora, one subprocess
each) with a decision that keeps everything and records every definition and relation the engine
scored with its features; each emitted concept and relation is looked up in the judged set
(``tests/data/judged/current/``), and the item that made it takes its verdict. It writes
``DIR/<corpus>-items.json``.

``fit`` reads the items of every recorded corpus and, for each corpus left out, fits a logistic
regression (scikit-learn, L2, balanced classes) on the judged items of the others, picks the lowest
threshold whose precision on those training items reaches ``--target`` (0.9), and measures the
left-out corpus's judged items: precision before and after, and the share of its ``ok`` items kept;
then the feature table (how often each feature fires per corpus, and its committed weight) and the
form table (the emitted definitions' judged verdicts by the reading that chose each one). A
corpus with no judged item is measured by counts only (judge a draw of ``fold``). ``--write``
writes each fold's weights into ``DIR/decision-without-<corpus>.json``; ``--commit`` fits on every
corpus and writes the weights into ``decision.json`` — only where the table shows that the folds
gain on the corpora left out.

``fold CORPUS`` compiles CORPUS with the weights fitted without it and writes a seeded draw of 30
concepts and 30 relations to judge (as ``bench_quality.py`` does) with the counts: a fresh draw of
what the left-out corpus gets, for readers who have not seen earlier verdicts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "scripts"))

import bench_quality as bq  # noqa: E402

from wikigen.engines.offline.decision import WEIGHTS, Decision  # noqa: E402
from wikigen.engines.offline.features import DEFINITION_FEATURES, RELATION_FEATURES  # noqa: E402

OUT = REPO_ROOT / ".bench" / "decision"
KINDS = {"definition": DEFINITION_FEATURES, "relation": RELATION_FEATURES}
TABLES = {"definition": "definitions", "relation": "relations"}
TARGET = 0.9
EMPTY = {"definitions": {}, "relations": {}}


# ---------------------------------------------------------------------------------------------
# record


def compile_recorded(name: str, root: Path, decision_path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Compiles corpus ``name`` from empty with the weights at ``decision_path``, recording every
    scored item; returns the items and ``bench_quality.compile_corpus``'s result."""
    from wikigen.engines.offline.engine import OfflineEngine

    items: list[dict[str, Any]] = []

    def record(kind: str, item: Mapping[str, Any], score: float, kept: bool) -> None:
        items.append({"kind": kind, **item, "score": score, "kept": kept})

    result = bq.compile_corpus(name, root, OfflineEngine(Decision.load(decision_path, record)))
    return items, result


def verdicts(name: str, result: Mapping[str, Any]) -> tuple[list[tuple[dict[str, str], str | None]], ...]:
    """Every emitted concept and relation row of the compile with its judged verdict (or None)."""
    concepts = {k: v for k, v in result["objects"].items() if v.get("kind") == "concept"}
    found = []
    for kind, header, rows in (
        ("concepts", bq.CONCEPT_HEADER, [bq.concept_row(cid, c) for cid, c in sorted(concepts.items())]),
        ("relations", bq.RELATION_HEADER, [bq.relation_row(r, concepts) for r in result["relations"]]),
    ):
        judged = {key: row["verdict"] for key, row in bq.read_judged(bq.JUDGED_DIR / f"{name}-{kind}.tsv").items()}
        cells = [dict(zip(header, [bq.collapse(c).replace("\t", " ") for c in row], strict=False)) for row in rows]
        found.append([(row, judged.get(bq._row_key(row))) for row in cells])
    return found[0], found[1]


def label(items: list[dict[str, Any]], concepts: Sequence[tuple[dict[str, str], str | None]],
          relations: Sequence[tuple[dict[str, str], str | None]]) -> None:
    """Gives each scored item the verdict of the emitted row it made (same source, same quote)."""
    from wikigen.model.ids import normalize_name

    by_quote: dict[tuple[str, str], list[tuple[dict[str, str], str | None]]] = {}
    for row, verdict in concepts:
        by_quote.setdefault((row["source"], row["quote"]), []).append((row, verdict))
    for item in items:
        item["emitted"], item["verdict"] = False, None
        if item["kind"] == "definition":
            names = {normalize_name(item["term"]), normalize_name(item["name"])}
            for row, verdict in by_quote.get((item["source"], bq.collapse(item["quote"])), ()):
                forms = {normalize_name(row["name"]), *(normalize_name(a) for a in row["aliases"].split("; ") if a)}
                if names & forms or len(by_quote[(item["source"], bq.collapse(item["quote"]))]) == 1:
                    item["emitted"], item["verdict"] = True, verdict
                    break
    by_relation: dict[tuple[str, str], list[tuple[dict[str, str], str | None]]] = {}
    for row, verdict in relations:
        by_relation.setdefault((row["predicate"], row["quote"].split(" … ")[0]), []).append((row, verdict))
    for item in items:
        if item["kind"] != "relation":
            continue
        rows = by_relation.get((item["predicate"], bq.collapse(item["quote"])), [])
        ends = (_end_name(item["subject"]), _end_name(item["object"]))
        for row, verdict in rows:
            if len(rows) == 1 or (normalize_name(row["subject"]), normalize_name(row["object"])) == ends:
                item["emitted"], item["verdict"] = True, verdict
                break


def _end_name(end: str) -> str:
    """A relation end as a row names it: a concept of an earlier increment is written by its id
    ("concept/cli_option"), the row by its name ("CLI option")."""
    from wikigen.model.ids import normalize_name

    return normalize_name(end.removeprefix("concept/").replace("_", " "))


def record_child(name: str, out: Path) -> int:
    empty = out / "decision-empty.json"
    empty.write_text(json.dumps(EMPTY))
    with tempfile.TemporaryDirectory(prefix=f"fit-{name}-") as tmp:
        items, result = compile_recorded(name, Path(tmp) / "repo", empty)
        figures = dict(result["figures"])
        concepts, relations = verdicts(name, result)
        label(items, concepts, relations)
    labelled = {k: sum(1 for i in items if i["kind"] == k and i["verdict"]) for k in KINDS}
    figures |= {
        "items": len(items),
        "judged_items": labelled,
        "judged_rows": {"concepts": sum(1 for _, v in concepts if v), "relations": sum(1 for _, v in relations if v)},
        "rows": {"concepts": len(concepts), "relations": len(relations)},
    }
    (out / f"{name}-items.json").write_text(json.dumps({"figures": figures, "items": items}) + "\n")
    print(f"{name}: {json.dumps(figures)}")
    return 0


# ---------------------------------------------------------------------------------------------
# fit


def matrix(items: Sequence[Mapping[str, Any]], kind: str) -> tuple[list[list[float]], list[int]]:
    names = [f.name for f in KINDS[kind]]
    rows = [i for i in items if i["kind"] == kind and i.get("verdict") in ("ok", "wrong")]
    return [[i["features"][n] for n in names] for i in rows], [int(i["verdict"] == "ok") for i in rows]


def fitted(items: Sequence[Mapping[str, Any]], kind: str, target: float) -> dict[str, Any] | None:
    from sklearn.linear_model import LogisticRegression

    x, y = matrix(items, kind)
    if len(set(y)) < 2:
        return None
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=2000)
    model.fit(x, y)
    names = [f.name for f in KINDS[kind]]
    weights = {n: round(float(w), 4) for n, w in zip(names, model.coef_[0], strict=True) if round(float(w), 4)}
    table = {"bias": round(float(model.intercept_[0]), 4), "weights": weights, "threshold": 0.0}
    table["threshold"] = threshold(table, items, kind, target)
    return table


def scored(table: Mapping[str, Any], items: Sequence[Mapping[str, Any]], kind: str) -> list[tuple[float, int]]:
    from wikigen.engines.offline.decision import Table

    model = Table(table["bias"], table["weights"], table["threshold"])
    x, y = matrix(items, kind)
    names = [f.name for f in KINDS[kind]]
    return [(model.score(dict(zip(names, row, strict=True))), label) for row, label in zip(x, y, strict=True)]


def threshold(table: Mapping[str, Any], items: Sequence[Mapping[str, Any]], kind: str, target: float) -> float:
    """The lowest score whose kept training items reach ``target`` precision (0 where all do)."""
    pairs = sorted(scored(table, items, kind))
    for i, (score, _) in enumerate(pairs):
        kept = [label for _, label in pairs[i:]]
        if kept and sum(kept) / len(kept) >= target:
            return score
    return 1.0


def measured(table: Mapping[str, Any] | None, items: Sequence[Mapping[str, Any]], kind: str) -> dict[str, Any]:
    pairs = scored(table, items, kind) if table else [(1.0, y) for y in matrix(items, kind)[1]]
    cut = table["threshold"] if table else 0.0
    kept = [y for s, y in pairs if s >= cut]
    ok = sum(y for _, y in pairs)
    all_items = [i for i in items if i["kind"] == kind]
    kept_all = [s for s, _ in scored(table, all_items_as_judged(all_items), kind)] if table else []
    return {
        "judged": len(pairs),
        "precision_before": round(ok / len(pairs), 3) if pairs else None,
        "precision_after": round(sum(kept) / len(kept), 3) if kept else None,
        "ok_kept": f"{sum(kept)}/{ok}",
        "items_kept": f"{sum(s >= cut for s in kept_all)}/{len(all_items)}" if table else f"{len(all_items)}/{len(all_items)}",
    }


def all_items_as_judged(items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{**i, "verdict": "ok"} for i in items]


def recorded_items(out: Path) -> dict[str, list[dict[str, Any]]]:
    """The items ``record`` wrote into ``out``, by corpus."""
    return {p.name.removesuffix("-items.json"): json.loads(p.read_text())["items"] for p in sorted(out.glob("*-items.json"))}


def print_left_out(
    recorded: Mapping[str, Sequence[Mapping[str, Any]]], target: float, write_to: Path | None = None
) -> None:
    """The leave-one-corpus-out table: for each corpus left out, the decision fitted on the others
    and the left-out corpus's judged items before and after it; ``write_to``: each fold's weights."""
    print(f"leave one corpus out (target precision {target} on the training corpora)\n")
    print("| left out | kind | judged | precision before | after | ok kept | items kept |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for left in recorded:
        training = [i for name, items in recorded.items() if name != left for i in items]
        tables = {}
        for kind in KINDS:
            table = fitted(training, kind, target)
            tables[TABLES[kind]] = table or {}
            m = measured(table, recorded[left], kind)
            print(
                f"| {left} | {kind} | {m['judged']} | {m['precision_before']} | {m['precision_after']} "
                f"| {m['ok_kept']} | {m['items_kept']} |"
            )
        if write_to is not None:
            (write_to / f"decision-without-{left}.json").write_text(json.dumps(tables, indent=1, sort_keys=True) + "\n")


def fit(out: Path, write: bool, commit: bool, target: float) -> int:
    recorded = recorded_items(out)
    if not recorded:
        print(f"no recorded items in {out}; run `record` first")
        return 2
    print_left_out(recorded, target, out if write else None)
    print_rules(recorded)
    print_forms(recorded)
    if commit:
        everything = [i for items in recorded.values() for i in items]
        data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
        for kind in KINDS:
            data[TABLES[kind]] = fitted(everything, kind, target) or {}
        data["fitted_on"] = sorted(recorded)
        WEIGHTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"\nwrote {WEIGHTS.relative_to(REPO_ROOT)} (fitted on {', '.join(sorted(recorded))})")
    return 0


def print_rules(recorded: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """The feature table: each feature, how often it fires per corpus, and its committed weight."""
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    names = sorted(recorded)
    for kind, table in KINDS.items():
        weights = data.get(TABLES[kind], {}).get("weights", {})
        print(f"\n{kind} features ({len(table)}): fires on items per corpus; committed weight")
        print(f"| feature | {' | '.join(names)} | weight |")
        print(f"| --- | {' | '.join('---' for _ in names)} | --- |")
        for feature in table:
            counts = [
                sum(1 for i in recorded[n] if i["kind"] == kind and i["features"][feature.name] > 0) for n in names
            ]
            print(f"| {feature.name} | {' | '.join(map(str, counts))} | {weights.get(feature.name, 0)} |")


def print_forms(recorded: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """The definition table by form (the reading that chose each emitted concept's sentence): its
    judged ok and not-ok rows per corpus and, for each corpus left out, the form's precision on the
    others. A form whose precision is below 0.5 on the others in every fold is one the judged set
    says to drop (weigh what the concepts it keeps anchor before doing so)."""
    names = sorted(recorded)
    tally: dict[str, dict[str, list[int]]] = {}
    for name in names:
        for item in recorded[name]:
            if item["kind"] != "definition" or not item.get("emitted") or not item.get("verdict"):
                continue
            row = tally.setdefault(item.get("form") or item["pattern"], {}).setdefault(name, [0, 0])
            row[0 if item["verdict"] == "ok" else 1] += 1
    print("\nemitted definitions by form: ok/not ok per corpus; precision on the other corpora per fold")
    print(f"| form | {' | '.join(names)} | {' | '.join('without ' + n for n in names)} |")
    print(f"| --- | {' | '.join('---' for _ in names)} | {' | '.join('---' for _ in names)} |")
    for form in sorted(tally):
        cells = [f"{tally[form].get(n, [0, 0])[0]}/{sum(tally[form].get(n, [0, 0]))}" for n in names]
        folds = []
        for left in names:
            ok = sum(v[0] for n, v in tally[form].items() if n != left)
            judged = sum(sum(v) for n, v in tally[form].items() if n != left)
            folds.append(f"{ok / judged:.2f}" if judged else "-")
        print(f"| {form} | {' | '.join(cells)} | {' | '.join(folds)} |")


# ---------------------------------------------------------------------------------------------
# fold: a fresh draw of the left-out corpus


def fold_child(name: str, out: Path, sample_dir: Path) -> int:
    weights = out / f"decision-without-{name}.json"
    if not weights.is_file():
        print(f"{weights} not found; run `fit --write` first")
        return 2
    with tempfile.TemporaryDirectory(prefix=f"fold-{name}-") as tmp:
        _, result = compile_recorded(name, Path(tmp) / "repo", weights)
        figures = dict(result["figures"])
        objects, relations = result["objects"], result["relations"]
        concepts = {k: v for k, v in objects.items() if v.get("kind") == "concept"}
        related = {e for r in relations for e in (r["subject"], r["object"])}
        figures |= {
            "concepts": len(concepts),
            "relations": len(relations),
            "concepts_in_a_relation": round(sum(c in related for c in concepts) / max(1, len(concepts)), 3),
        }
        sample_dir.mkdir(parents=True, exist_ok=True)
        written = bq.write_samples(name, concepts, relations, sample_dir, False)
    print(f"{name} (fitted without it): {json.dumps(figures)}")
    print("\n".join(written))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("command", choices=("record", "fit", "fold"))
    parser.add_argument("corpora", nargs="*")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--sample-dir", type=Path, default=None)
    parser.add_argument("--write", action="store_true", help="write each fold's weights into DIR")
    parser.add_argument(
        "--commit", action="store_true", help="fit on every corpus and write the weights into decision.json"
    )
    parser.add_argument("--target", type=float, default=TARGET)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.command == "fit":
        return fit(out, args.write, args.commit, args.target)
    names = args.corpora or list(bq.CORPORA)
    unknown = [c for c in names if c not in bq.CORPORA]
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(bq.CORPORA)}")
    sample_dir = (args.sample_dir or out / "draws").resolve()
    if args.child:
        return record_child(names[0], out) if args.command == "record" else fold_child(names[0], out, sample_dir)
    failed = 0
    for name in names:
        print(f"{name}: compiling from empty ...", flush=True)
        command = [sys.executable, __file__, args.command, name, "--child", "--out", str(out), "--sample-dir", str(sample_dir)]
        failed += subprocess.run(command, cwd=REPO_ROOT).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
