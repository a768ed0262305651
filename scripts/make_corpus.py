#!/usr/bin/env python3
"""A synthetic scale corpus: N Markdown sources, deterministic from a seed.

- sizes: log-normal bodies (median ~2 KB, a long tail, clipped below the 100,000-byte cap of R5);
- every source defines one to three invented terms ("A *valmori* is a …", one line each), so the
  vocabulary has about 2N terms;
- cross-mentions and relation lines ("*valmori* depends on *quentrax*.") pick their terms by a Zipf
  law over the vocabulary, so a few terms are mentioned everywhere and most rarely;
- the four categories of R2 (knowledge ~55%, tasks ~20%, retrospectives ~15%, constraints ~10%), in
  area sub-folders; about half of the tasks sources carry R35 task fields at a checkpoint.

Usage:
  python scripts/make_corpus.py N --seed 1 --out DIR     # writes DIR/content/sources/...
  python scripts/make_corpus.py N --seed 1 --repo PATH   # one commit in a git repo, no work-tree files

Benchmark data only: nothing it makes is committed to this project.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path

CATEGORIES = (("knowledge", 0.55), ("tasks", 0.20), ("retrospectives", 0.15), ("constraints", 0.10))
AREAS_TEXT = """storage network billing search identity render ingest audit scheduler cache ledger mobile reports gateway quota telemetry"""
AREAS = tuple(AREAS_TEXT.split())
SYLLABLES_TEXT = """va lo mir quen trax zo bel dra fen gli hor ix jun kra lum nor oph pli rus sel tor ul vek wyn xa yor zen ca dri el fo gar hes ith kel mav nex ost pra qui ron sta tev ur vin wal xer yth zul bra"""
SYLLABLES = tuple(SYLLABLES_TEXT.split())
KINDS_TEXT = """component process record policy service protocol queue schedule index format role ledger_entry checkpoint budget contract"""
KINDS = tuple(w.replace("_", " ") for w in KINDS_TEXT.split())
PREDICATES = ("uses", "depends on", "extends", "is part of", "replaces", "feeds", "validates")
WORDS_TEXT = """the system keeps each request within its limits and reports when a change arrives from upstream so that operators can trace what happened during rollout after every deploy we measured latency under load before the next review it stores one copy per region which makes recovery simple but costs space teams should prefer small steps over large batches because"""
WORDS = tuple(WORDS_TEXT.split())
MIN_BODY, MAX_BODY = 200, 90_000
ZIPF_S = 1.1


def term_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct invented words (two to four syllables), in a seeded order."""
    names: list[str] = []
    seen: set[str] = set()
    for size in (2, 3, 4):
        combos = ["".join(p) for p in itertools.product(SYLLABLES, repeat=size)]
        rng.shuffle(combos)
        for word in combos:
            if word not in seen:
                seen.add(word)
                names.append(word)
                if len(names) == count:
                    return names
    raise ValueError(f"cannot invent {count} distinct terms")


class Zipf:
    """Ranks 0..n-1 with P(r) ∝ 1/(r+1)^s, drawn by bisecting the cumulative weights."""

    def __init__(self, n: int, s: float = ZIPF_S) -> None:
        total = 0.0
        self.cum: list[float] = []
        for r in range(n):
            total += 1.0 / (r + 1) ** s
            self.cum.append(total)
        self.total = total

    def draw(self, rng: random.Random) -> int:
        return min(bisect.bisect_left(self.cum, rng.random() * self.total), len(self.cum) - 1)


def _category(rng: random.Random) -> str:
    x, acc = rng.random(), 0.0
    for name, share in CATEGORIES:
        acc += share
        if x < acc:
            return name
    return CATEGORIES[-1][0]


def _sentence(rng: random.Random, mention: str | None) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    if mention is not None:
        words.insert(rng.randrange(1, len(words)), mention)
    return " ".join(words).capitalize() + "."


def _body(rng: random.Random, title: str, own: list[str], size: int, mention) -> str:  # type: ignore[no-untyped-def]
    """A body of about ``size`` bytes: H1, definitions of ``own``, then sections of prose with Zipf
    mentions and an occasional relation line."""
    parts = [f"# {title}", ""]
    for term in own:
        parts += [
            f"A *{term}* is a {rng.choice(KINDS)} that {' '.join(rng.choice(WORDS) for _ in range(8))}.",
            "",
        ]
    used = sum(len(p) + 1 for p in parts)
    section = 0
    while used < size:
        section += 1
        heading = f"## Part {section}"
        lines = [heading, ""]
        for _ in range(rng.randint(2, 5)):
            para = " ".join(
                _sentence(rng, mention() if rng.random() < 0.5 else None) for _ in range(rng.randint(2, 5))
            )
            lines += [para, ""]
        if rng.random() < 0.6:
            subject, obj = rng.choice(own), mention()
            if obj != subject:  # a relation of a term to itself is refused (R26)
                lines += [f"*{subject}* {rng.choice(PREDICATES)} *{obj}*.", ""]
        used += sum(len(p) + 1 for p in lines)
        parts += lines
    return "\n".join(parts).rstrip() + "\n"


def generate(n: int, seed: int = 1) -> Iterator[tuple[str, bytes]]:
    """(path below the repo root, file bytes) for ``n`` sources, the same for the same (n, seed)."""
    rng = random.Random(seed)
    own_counts = [rng.choice((1, 1, 2, 2, 3)) for _ in range(n)]
    terms = term_names(sum(own_counts), rng)
    popularity = list(range(len(terms)))  # rank -> term index: popular terms spread over the sources
    rng.shuffle(popularity)
    zipf = Zipf(len(terms))

    def mention() -> str:
        return terms[popularity[zipf.draw(rng)]]

    start = 0
    mu, sigma = math.log(2000), 0.9
    for i in range(n):
        own = terms[start : start + own_counts[i]]
        start += own_counts[i]
        category = _category(rng)
        area = rng.choice(AREAS)
        slug = f"{own[0]}-{i:06d}"
        title = f"{own[0].capitalize()} {rng.choice(KINDS)}"
        size = int(min(MAX_BODY, max(MIN_BODY, rng.lognormvariate(mu, sigma))))
        front = [
            "---",
            f"id: {category}/{area}/{slug}",
            f"title: {title}",
            f"category: {category}",
            f"verification: {'verified' if rng.random() < 0.3 else 'unverified'}",
            f"tags: [{area}, {own[0]}]",
        ]
        if category == "tasks" and rng.random() < 0.5:
            front += [
                f"task: T-{i:06d}",
                "step: result",
                "run: r1",
                "status: final",
                "attempt: 1",
                f"updated_at: '2026-01-{1 + i % 28:02d}T10:00:00Z'",
            ]
        front.append("---")
        body = _body(rng, title, own, size, mention)
        yield (
            f"content/sources/{category}/{area}/{slug}.md",
            ("\n".join(front) + "\n\n" + body).encode("utf-8"),
        )


def write_folder(out: Path, files: Iterator[tuple[str, bytes]]) -> int:
    count = 0
    for path, data in files:
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        count += 1
    return count


def commit_to_repo(root: Path, files: Iterator[tuple[str, bytes]], message: str = "synthetic corpus") -> str:
    """One commit on HEAD with every file, built in memory (blobs and trees via pygit2, no checkout)."""
    import pygit2

    from tests.corpora import commit_files

    repo = (
        pygit2.Repository(str(root))
        if (root / ".git").exists()
        else pygit2.init_repository(str(root), initial_head="main")
    )
    blobs = {path: str(repo.create_blob(data)) for path, data in files}  # ids: build_tree takes them as is
    return commit_files(repo, blobs, message)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="number of sources")
    parser.add_argument("--seed", type=int, default=1)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", type=Path, help="folder to write content/sources/... into")
    where.add_argument("--repo", type=Path, help="git repo (created if missing) to commit the sources into")
    args = parser.parse_args(argv)
    files = generate(args.n, args.seed)
    if args.out is not None:
        print(f"wrote {write_folder(args.out, files)} sources under {args.out}")
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        print(f"committed {args.n} sources: {commit_to_repo(args.repo, files)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
