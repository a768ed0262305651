#!/usr/bin/env python3
"""Leave-one-corpus-out check of lint's rules against a reader's verdicts.

  python scripts/lint_loo.py VERDICTS_DIR NAME=REPO[:BEFORE.json] [NAME=REPO[:BEFORE.json] ...]

Each rule of :mod:`wikigen.lint.missing` (and the quieting of :data:`wikigen.lint.QUIET_KINDS`) is
tagged below with the corpora whose verdict rows motivated it. For each corpus left out, the rules
motivated by that corpus alone are switched off, lint runs on its repo, and the reader's rows of
VERDICTS_DIR/<NAME>-verdicts.tsv (columns corpus, kind, finding, file, what to do, verdict, reason)
are looked up: an ``act`` row *remains* when its finding is still listed by default, a ``no`` row
*goes* when it is not. BEFORE.json (`wikigen lint --json` before the change) gives the counts before
and each row's subject. Prints one table per left-out corpus.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any

from wikigen.commands.lint import lint_report
from wikigen.lint import LintSettings, missing
from wikigen.lint import findings as findings_module

# rule → the corpora whose verdict rows motivated it
MOTIVATED_BY = {
    ("marking", "heading"): {"k8s", "elixir", "typer"},
    ("marking", "identifier"): {"k8s", "elixir"},
    ("marking", "link text"): {"k8s"},
    ("marking", "label"): {"typer"},
    ("term", "heading"): {"k8s", "elixir", "typer"},
    ("term", "covered"): {"elixir"},
    ("term", "plain word"): {"k8s", "typer"},
    ("term", "shouted word"): {"k8s"},
    ("quiet", "orphan"): {"k8s", "elixir", "typer"},
    ("quiet", "no-concept"): {"k8s", "typer"},
}
MARKING, TERM, QUIET = dict(missing.MARKING_RULES), dict(missing.TERM_RULES), set(findings_module.QUIET_KINDS)


def run_without(left_out: str, repo: str) -> tuple[dict[str, Any], set[str]]:
    keep = {rule for rule, corpora in MOTIVATED_BY.items() if corpora - {left_out}}
    missing.MARKING_RULES = MappingProxyType({n: r for n, r in MARKING.items() if ("marking", n) in keep})
    missing.TERM_RULES = MappingProxyType({n: r for n, r in TERM.items() if ("term", n) in keep})
    quiet = {k for k in QUIET if ("quiet", k) in keep}
    _, data = lint_report(repo, settings=LintSettings(), everything=True)
    return data, quiet


def main() -> None:
    verdicts_dir = Path(sys.argv[1])
    for item in sys.argv[2:]:
        name, _, rest = item.partition("=")
        repo, _, before_path = rest.partition(":")
        before = json.loads(Path(before_path).read_text(encoding="utf-8"))
        after, quiet = run_without(name, repo)
        off = sorted(f"{a} {b}" for (a, b), c in MOTIVATED_BY.items() if not c - {name})
        print(f"## {name} left out (rules switched off: {', '.join(off) or 'none'})")
        print("| kind | before | after (JSON) | after (listed by default) |")
        print("| --- | --- | --- | --- |")
        for kind in sorted(before["counts"]):
            shown = 0 if kind in quiet else after["counts"][kind]
            print(f"| {kind} | {before['counts'][kind]} | {after['counts'][kind]} | {shown} |")
        subject = {(f["kind"], f["finding"], f["file"] + (f":{f['line']}" if f["line"] else "")): f["subject"] for f in before["findings"]}
        present = {(f["kind"], f["subject"]) for f in after["findings"]}
        tally: dict[tuple[str, str], list[int]] = {}
        with (verdicts_dir / f"{name}-verdicts.tsv").open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                key = (row["kind"], row["finding"], row["file"])
                listed = (row["kind"], subject[key]) in present and row["kind"] not in quiet
                counts = tally.setdefault((row["kind"], row["verdict"]), [0, 0])
                counts[0] += 1
                counts[1] += listed if row["verdict"] == "act" else not listed
        print("| reader's rows | act: remain / all | no: go / all |")
        print("| --- | --- | --- |")
        for kind in sorted({k for k, _ in tally}):
            act, no = tally.get((kind, "act"), [0, 0]), tally.get((kind, "no"), [0, 0])
            print(f"| {kind} | {act[1]} / {act[0]} | {no[1]} / {no[0]} |")
        print()


if __name__ == "__main__":
    main()
