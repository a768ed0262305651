#!/usr/bin/env python3
"""A seeded sample of `wikigen lint --json` findings per corpus, as TSV for a reader to judge.

  python scripts/lint_sample.py OUT_DIR NAME=LINT.json [NAME=LINT.json ...] [--per-corpus 20] [--seed 7] [--listed]

Each LINT.json is the output of `wikigen -C REPO lint --json --fail-on never` on a compiled corpus
(scripts/compile_trees.sh makes the repos). Kinds are mixed: each kind's findings are shuffled with
``random.Random(seed)``, then taken one kind after another (kinds in name order) until the sample is
full, so a kind with few findings is still seen. With ``--listed`` only the findings the text output
lists by default are sampled (the kinds in ``settings.quiet_kinds`` left out). Writes OUT_DIR/<NAME>.tsv with the columns corpus,
kind, finding, file, what to do (``file`` is ``path:line`` where there is a line; cells unquoted, one
line each), and prints the findings per kind per corpus.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any


def sample(findings: list[dict[str, Any]], size: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for finding in findings:
        by_kind.setdefault(finding["kind"], []).append(finding)
    queues = []
    for kind in sorted(by_kind):
        items = list(by_kind[kind])
        rng.shuffle(items)
        queues.append(items)
    chosen: list[dict[str, Any]] = []
    while len(chosen) < size and any(queues):
        for queue in queues:
            if queue and len(chosen) < size:
                chosen.append(queue.pop(0))
    return chosen


def _cell(value: str) -> str:
    """A TSV cell: no tab or line break inside, no quoting (findings are one line already)."""
    return " ".join(str(value).split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("reports", nargs="+", help="NAME=path/to/lint.json")
    parser.add_argument("--per-corpus", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--listed", action="store_true", help="sample only the findings listed by default")
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for item in args.reports:
        name, _, path = item.partition("=")
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        counts = ", ".join(f"{kind} {n}" for kind, n in sorted(data["counts"].items()))
        more = f" (left out of the list: {data['left_out']})" if data["left_out"] else ""
        print(f"{name}: {len(data['findings'])} findings listed; {counts}{more}")
        quiet = set(data["settings"].get("quiet_kinds", [])) if args.listed else set()
        rows = sample([f for f in data["findings"] if f["kind"] not in quiet], args.per_corpus, args.seed)
        target = args.out_dir / f"{name}.tsv"
        lines = ["corpus\tkind\tfinding\tfile\twhat to do"]
        for f in rows:
            where = f"{f['file']}:{f['line']}" if f["line"] else f["file"]
            lines.append("\t".join(_cell(v) for v in (name, f["kind"], f["finding"], where, f["action"])))
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"  {len(rows)} sampled into {target}")


if __name__ == "__main__":
    main()
