#!/usr/bin/env python3
"""Benchmark: the wikigen site next to a plain `mkdocs build` of the same Markdown.

For each corpus (the 115 Kubernetes concept docs, the 6,643 tldr pages) it commits the Markdown into
a temporary knowledge repo under content/sources/knowledge/…, compiles it (`--batch` semantics,
scripted engine by default: deterministic and fast, so the figures measure the site, not a model),
then times `mkdocs build` with the wikigen plugin and a plain `mkdocs build` (Material, search, no
plugin) of the very same files, and prints build time, pages and output bytes per page.

The plain build of the tldr corpus uses `navigation.prune` too: without it every one of the 6,643
pages embeds the whole 6,643-entry navigation (gigabytes of HTML); the k8s plain build shows the
default. Prints figures; asserts nothing. Not run by .ci/run.

Usage: python scripts/bench_site.py [--corpus k8s|tldr|all] [--engine scripted|offline|none] [--keep DIR]
                                    [--skip-plain]
The tldr run takes about 15 minutes on 2 cores (compile ~4 min, wikigen site ~1.5 min, plain ~9 min).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygit2

from tests.corpora import commit_files, corpus_available, corpus_files
from tests.engines import extract

ROOT = Path(__file__).resolve().parents[1]
MKDOCS = Path(sys.executable).parent / "mkdocs"
WIKIGEN_YML = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
PLAIN_YML = """site_name: plain
docs_dir: docs
theme:
  name: material
  font: false
{features}plugins:
  - search
"""


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def build(config: Path, site: Path) -> tuple[float, str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    started = time.perf_counter()
    out = subprocess.run(
        [str(MKDOCS), "build", "-q", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        env=env,
        cwd=config.parent,
    )
    elapsed = time.perf_counter() - started
    if out.returncode != 0:
        raise SystemExit(f"mkdocs build failed for {config}:\n{out.stderr[-3000:]}")
    return elapsed, out.stderr


def site_figures(site: Path) -> dict[str, float]:
    pages = [p.stat().st_size for p in site.rglob("*.html") if p.name != "404.html"]
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return {
        "pages": len(pages),
        "html_bytes": sum(pages),
        "total_bytes": total,
        "mean": statistics.mean(pages) if pages else 0,
        "median": statistics.median(pages) if pages else 0,
        "max": max(pages) if pages else 0,
    }


def compile_corpus(root: Path, engine_name: str) -> tuple[float, str]:
    from wikigen.compiler.driver import compile_repo
    from wikigen.engines.scripted import ScriptedEngine

    if engine_name == "none":
        return 0.0, "not compiled (sources pages only)"
    engine = ScriptedEngine(extract) if engine_name == "scripted" else None
    started = time.perf_counter()
    report = compile_repo(root, engine=engine, batch=True)
    return time.perf_counter() - started, report.message


def line(label: str, seconds: float, fig: dict[str, float]) -> str:
    return (
        f"  {label:<26} {seconds:7.1f} s  {fig['pages']:6d} pages  "
        f"{fig['html_bytes'] / 1e6:8.1f} MB html  {fig['total_bytes'] / 1e6:8.1f} MB total  "
        f"per page: mean {fig['mean'] / 1e3:6.1f} kB, median {fig['median'] / 1e3:6.1f} kB, "
        f"max {fig['max'] / 1e3:7.1f} kB  ({seconds / max(fig['pages'], 1) * 1e3:.1f} ms/page)"
    )


def bench(name: str, engine_name: str, workdir: Path, plain: bool = True) -> None:
    files = corpus_files(name)
    print(f"\n{name}: {len(files)} Markdown sources", flush=True)
    repo_root = workdir / f"{name}-repo"
    repo = pygit2.init_repository(str(repo_root), initial_head="main")
    base = {"mkdocs.yml": WIKIGEN_YML.encode(), ".gitignore": b"site/\n"}
    write_tree(repo_root, {**base, **files})
    commit_files(repo, {**base, **files})
    seconds, message = compile_corpus(repo_root, engine_name)
    print(f"  compile ({engine_name}, batch): {seconds:.1f} s — {message}", flush=True)

    from wikigen.views.knowledge import load_knowledge

    k = load_knowledge(repo_root)
    kinds = {kind: len(k.of_kind(kind)) for kind in ("article", "concept", "relation", "topic")}
    print(f"  snapshot {k.version}: {len(k.sources)} sources, {kinds}", flush=True)

    wikigen_site = workdir / f"{name}-wikigen-site"
    seconds, _ = build(repo_root / "mkdocs.yml", wikigen_site)
    wikigen_fig = site_figures(wikigen_site)
    print(line("mkdocs build + wikigen", seconds, wikigen_fig), flush=True)
    source_pages = list((wikigen_site / "sources").rglob("index.html"))
    raw_views = sum(1 for p in source_pages if 'class="wikigen-raw"' in p.read_text(encoding="utf-8"))
    kinds_of_pages = {
        "sources": len(source_pages) - raw_views,
        "raw views": raw_views,
        "compiled": len(list((wikigen_site / "wiki").rglob("index.html"))),
    }
    graph = wikigen_site / "graph" / "graph.json"
    print(f"  pages by kind: {kinds_of_pages}; graph.json {graph.stat().st_size:,} bytes", flush=True)

    if not plain:
        return
    plain_root = workdir / f"{name}-plain"
    docs = plain_root / "docs"
    write_tree(docs, {rel.removeprefix("content/"): data for rel, data in files.items()})
    prune = name == "tldr"
    features = "  features: [navigation.prune]\n" if prune else ""
    (plain_root / "mkdocs.yml").write_text(PLAIN_YML.format(features=features), encoding="utf-8")
    plain_site = workdir / f"{name}-plain-site"
    seconds, _ = build(plain_root / "mkdocs.yml", plain_site)
    label = "plain mkdocs build" + (" (pruned)" if prune else "")
    print(line(label, seconds, site_figures(plain_site)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=["k8s", "tldr", "all"], default="all")
    parser.add_argument("--engine", choices=["scripted", "offline", "none"], default="scripted")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it")
    parser.add_argument("--skip-plain", action="store_true", help="skip the plain mkdocs build")
    args = parser.parse_args()
    names = ["k8s", "tldr"] if args.corpus == "all" else [args.corpus]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPU(s)")
    for name in names:
        if not corpus_available(name):
            print(f"{name}: corpus not found under ../shared/corpora; skipped")
            continue
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            bench(name, args.engine, args.keep, not args.skip_plain)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                bench(name, args.engine, Path(tmp), not args.skip_plain)


if __name__ == "__main__":
    main()
