#!/usr/bin/env python3
"""The offline engine's rule tables with how often each row fires per corpus. Prints; asserts nothing.

  python scripts/rule_table.py [CORPUS ...]      # default: the corpora of bench_quality.py

For each corpus (``scripts/bench_quality.py``'s: the Kubernetes concept docs, the Elixir guide, a
seeded 1,000 tldr pages, the Typer docs) it cuts every source into passages and sentences as the
engine does (a sentence that holds markup is left out there, so markup is counted on passages),
parses the sentences once, and counts per row:

- ``discourse.LEANS``: the sentences each leaning form fires on (a naming sentence is exempt, as
  :func:`wikigen.engines.offline.discourse.leaning` says), and the pages ``lists_events`` takes for
  release notes;
- ``markup.FORMS``: the passages each form of doc-tool markup occurs in.

A row that fires on no corpus is a candidate to go (issue the rule's removal with the judged
figures). The feature table of the fitted decision is printed by ``scripts/fit_decision.py fit``.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "scripts"))

import bench_quality as bq  # noqa: E402

from wikigen.engines.offline import markup  # noqa: E402
from wikigen.engines.offline.discourse import LEANS, leaning, lists_events  # noqa: E402
from wikigen.engines.offline.documents import read_document  # noqa: E402
from wikigen.engines.offline.parse import Parser  # noqa: E402
from wikigen.engines.offline.text import visible  # noqa: E402


def counts(name: str) -> tuple[Counter[str], Counter[str], int, int]:
    """Leaning forms per sentence and markup forms per passage of corpus ``name``, with the number of
    sentences and passages read."""
    leans: Counter[str] = Counter()
    forms: Counter[str] = Counter()
    sentences = passages = 0
    texts = []
    for path, data in sorted(bq.corpus_files(name).items()):
        source = path.removeprefix("content/sources/").removesuffix(".md")
        _, body = bq.split_source(data)
        document = read_document(source, source.rsplit("/", 1)[-1], body)
        if lists_events(document.source, document.title):
            leans["lists_events (pages)"] += 1
        for passage in document.passages:
            passages += 1
            for form in markup.forms_in(passage.text):
                forms[form] += 1
        texts.extend(s.clean.text for s in document.sentences)
    sentences = len(texts)
    parsed = Parser.shared().parse_all(visible(t) for t in texts)
    for text in texts:
        found = leaning(text, parsed.get(text))
        if found is not None:
            leans[found] += 1
    return leans, forms, sentences, passages


def main(argv: list[str]) -> int:
    names = [n for n in argv if n in bq.CORPORA] or list(bq.CORPORA)
    table = {name: counts(name) for name in names}
    print(f"| discourse row | {' | '.join(names)} |")
    print(f"| --- | {' | '.join('---' for _ in names)} |")
    for row in [*(lean.name for lean in LEANS), "lists_events (pages)"]:
        print(f"| {row} | {' | '.join(str(table[n][0][row]) for n in names)} |")
    print(f"| (sentences read) | {' | '.join(str(table[n][2]) for n in names)} |")
    print(f"\n| markup row | {' | '.join(names)} |")
    print(f"| --- | {' | '.join('---' for _ in names)} |")
    for form in markup.FORMS:
        print(f"| {form.name} ({form.kind}) | {' | '.join(str(table[n][1][form.name]) for n in names)} |")
    print(f"| (passages read) | {' | '.join(str(table[n][3]) for n in names)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
