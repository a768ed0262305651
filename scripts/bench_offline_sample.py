"""Run the offline engine's analyze + recheck over a corpus in batches and print a sample to judge.

    .venv/bin/python scripts/bench_offline_sample.py [k8s|tldr] [--limit N] [--batch 10] [--sample 30]

No pipeline: requests are built here. The concepts of earlier batches come back as anchors (those
whose names occur in the batch, as R14 would send them) with the lines their definitions and
evidence cite as fragments; the accumulated wiki is checked for what the compiler would reject (R22
quotes, R26 ambiguous names/aliases, self-loops, duplicate relations). The sample (random.Random(7))
is printed for a person to judge. A source's id is its path without ``.md`` under the corpus
prefix; its body is the text after the YAML frontmatter; ``--limit`` on tldr samples pages with
random.Random(3).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wikigen.engines.offline.engine import OfflineEngine
from wikigen.evidence.rerank import Ranker
from wikigen.model.ids import concept_id, normalize_name, normalize_predicate

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
CORPORA = {
    "k8s": (SHARED / "k8s-concepts/content/en/docs/concepts", "knowledge/k8s/"),
    "tldr": (SHARED / "tldr-pages/pages", "knowledge/tldr/"),
}
FRONTMATTER = re.compile(r"\A---\r?\n(.*?)\r?\n---\r?\n", re.DOTALL)


def load(corpus: str, limit: int | None) -> list[dict[str, Any]]:
    root, prefix = CORPORA[corpus]
    files = sorted(root.rglob("*.md"))
    if limit is not None:
        files = random.Random(3).sample(files, min(limit, len(files))) if corpus == "tldr" else files[:limit]
        files.sort()
    sources = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        match = FRONTMATTER.match(text)
        body = text[match.end() :] if match else text
        title_match = re.search(r"(?m)^title:\s*(.+)$", match.group(1)) if match else None
        heading = re.search(r"(?m)^#\s+(.+)$", body)
        title = (
            (title_match.group(1) if title_match else heading.group(1) if heading else path.stem)
            .strip()
            .strip("\"'")
        )
        rel = path.relative_to(root).with_suffix("").as_posix()
        sources.append(
            {
                "id": prefix + rel,
                "version": "v1",
                "title": title,
                "category": "knowledge",
                "verification": "unverified",
                "body": body,
            }
        )
    return sources


def request_for(
    batch: list[dict[str, Any]],
    wiki: dict[str, dict[str, Any]],
    relations: list[dict[str, Any]],
    bodies: dict[str, str],
) -> dict[str, Any]:
    """The analyze request of one batch: anchors are earlier concepts named in the batch (R14), and
    the lines their definitions and evidence cite come along as fragments."""
    text = "\n".join(s["body"] for s in batch).casefold()
    anchors = []
    fragments: dict[tuple[str, int, int], dict[str, Any]] = {}
    for concept in wiki.values():
        forms = [concept["name"], *concept["aliases"]]
        if not any(re.search(r"(?<![\w-])" + re.escape(f.casefold()) + r"(?![\w-])", text) for f in forms):
            continue
        anchors.append(
            {
                "id": concept["id"],
                "name": concept["name"],
                "aliases": concept["aliases"],
                "type": concept["type"],
            }
        )
        for quote in [*concept["definition"]["quotes"], *concept.get("evidence", [])]:
            fragment = fragment_for(bodies[quote["source"]], quote["source"], quote["quote"])
            fragments[(fragment["source"], fragment["lines"]["start"], fragment["lines"]["end"])] = fragment
    ids = {a["id"] for a in anchors}
    existing = [
        {
            "id": r["id"],
            "subject": r["subject"],
            "predicate": r["predicate"],
            "object": r["object"],
            "basis": "explicit",
        }
        for r in relations
        if r["subject"] in ids and r["object"] in ids
    ]
    return {
        "stage": "analyze",
        "rules": "offline",
        "sources": batch,
        "fragments": [fragments[k] for k in sorted(fragments)],
        "anchors": anchors,
        "articles": [],
        "relations": existing,
        "revoked": [],
        "withdrawn": [],
    }


def fragment_for(body: str, source: str, quote: str) -> dict[str, Any]:
    """The whole lines of ``body`` that hold ``quote`` (first occurrence), as context.py cuts them."""
    start = body.index(quote)
    first = body.count("\n", 0, start) + 1
    last = body.count("\n", 0, start + len(quote)) + 1
    lines = body.split("\n")[first - 1 : last]
    return {
        "source": source,
        "version": "v1",
        "title": "",
        "lines": {"start": first, "end": last},
        "text": "\n".join(lines),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?", default="k8s", choices=sorted(CORPORA))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--sample", type=int, default=30)
    args = parser.parse_args()

    sources = load(args.corpus, args.limit)
    bodies = {s["id"]: s["body"] for s in sources}
    engine = OfflineEngine()
    started = time.monotonic()
    Ranker.shared()
    loaded = time.monotonic()
    embedded_before = Ranker.shared().passages_embedded
    wiki: dict[str, dict[str, Any]] = {}  # concept id → concept (+ first source)
    relations: list[dict[str, Any]] = []
    problems: list[str] = []
    from_recheck = 0
    cancel = threading.Event()
    for start in range(0, len(sources), args.batch):
        batch = sources[start : start + args.batch]
        request = request_for(batch, wiki, relations, bodies)
        deadline = time.monotonic() + 600
        analyzed = engine.run("analyze", request, deadline, cancel).data
        rechecked = engine.run(
            "recheck", {**request, "stage": "recheck", "delta": analyzed}, deadline, cancel
        ).data
        problems += check_quotes(analyzed, bodies) + check_quotes(rechecked, bodies)
        anchor_ids = {normalize_name(a["name"]): a["id"] for a in request["anchors"]}
        for concept in analyzed["concepts"]:
            cid = anchor_ids.get(normalize_name(concept["name"]), concept_id(concept["name"]))
            if cid in wiki:
                wiki[cid]["aliases"] = sorted(set(wiki[cid]["aliases"]) | set(concept.get("aliases", [])))
                continue
            wiki[cid] = {
                **concept,
                "id": cid,
                "aliases": list(concept.get("aliases", [])),
                "first": concept["definition"]["quotes"][0]["source"],
            }
        from_recheck += len(rechecked["relations"])
        for relation in [*analyzed["relations"], *rechecked["relations"]]:
            subject, obj = resolve(relation["subject"], anchor_ids), resolve(relation["object"], anchor_ids)
            relations.append(
                {
                    **relation,
                    "subject": subject,
                    "object": obj,
                    "id": f"{subject}|{normalize_predicate(relation['predicate'])}|{obj}",
                }
            )
    elapsed = time.monotonic() - loaded
    problems += check_wiki(wiki, relations)
    embedded = Ranker.shared().passages_embedded - embedded_before

    cross = [
        r
        for r in relations
        if r["subject"] in wiki
        and r["object"] in wiki
        and wiki[r["subject"]]["first"] != wiki[r["object"]]["first"]
    ]
    print(
        f"sources {len(sources)}  concepts {len(wiki)}  relations {len(relations)} ({from_recheck} from recheck)"
        f"  cross-source {len(cross)}"
    )
    print(
        f"model load {loaded - started:.1f}s  engine {elapsed:.1f}s  texts embedded {embedded}  ({embedded / elapsed:.1f}/s)"
    )
    print(f"problems {len(problems)}")
    for problem in problems[:20]:
        print("  !", problem)
    rng = random.Random(7)
    names = {cid: c["name"] for cid, c in wiki.items()}
    print("\n== concepts")
    for concept in rng.sample(sorted(wiki.values(), key=lambda c: c["id"]), min(args.sample, len(wiki))):
        quote = " ".join(concept["definition"]["quotes"][0]["quote"].split())[:220]
        print(f"- {concept['name']} [{concept['type']}] aliases={concept['aliases']}\n    {quote}")
    print("\n== relations")
    for relation in rng.sample(sorted(relations, key=lambda r: r["id"]), min(args.sample, len(relations))):
        quote = " ".join(relation["evidence"][0]["quote"].split())[:260]
        subject, obj = (
            names.get(relation["subject"], relation["subject"]),
            names.get(relation["object"], relation["object"]),
        )
        print(f"- {subject} —{relation['predicate']}→ {obj}\n    {quote}")
    return 1 if problems else 0


def resolve(ref: str, anchor_ids: dict[str, str]) -> str:
    """A relation endpoint → concept id, as the compiler resolves it (anchor name, id or new name)."""
    return ref if ref.startswith("concept/") else anchor_ids.get(normalize_name(ref), concept_id(ref))


def check_quotes(delta: Mapping[str, Any], bodies: dict[str, str]) -> list[str]:
    problems = []

    def check(quote: dict[str, str]) -> None:
        if quote["quote"] not in bodies.get(quote["source"], ""):
            problems.append(f"quote not verbatim in {quote['source']}: {quote['quote'][:60]!r}")

    for article in delta["articles"]:
        for claim in [*article["summary"], *(c for s in article.get("sections", []) for c in s["claims"])]:
            for quote in claim["quotes"]:
                check(quote)
    for concept in delta["concepts"]:
        for quote in [*concept["definition"]["quotes"], *concept.get("evidence", [])]:
            check(quote)
    for relation in delta["relations"]:
        for quote in relation["evidence"]:
            check(quote)
    return problems


def check_wiki(wiki: dict[str, dict[str, Any]], relations: list[dict[str, Any]]) -> list[str]:
    problems = []
    owner: dict[str, str] = {}
    for cid, concept in sorted(wiki.items()):
        for form in {normalize_name(f) for f in [concept["name"], *concept["aliases"]]}:
            if owner.setdefault(form, cid) != cid:
                problems.append(f"ambiguous name/alias {form!r}: {owner[form]} and {cid}")
    seen = set()
    for relation in relations:
        if relation["subject"] == relation["object"]:
            problems.append(f"self-loop {relation['id']}")
        if relation["id"] in seen:
            problems.append(f"duplicate relation {relation['id']}")
        seen.add(relation["id"])
    return problems


if __name__ == "__main__":
    sys.exit(main())
