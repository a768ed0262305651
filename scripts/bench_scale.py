#!/usr/bin/env python3
"""Scale benchmark: what one change costs at N = 1,000, 10,000 (and 100,000) sources.

For each N it commits the synthetic corpus of scripts/make_corpus.py into a temporary repo, builds
the baseline with the compiler itself (`--batch`, the scripted engine, the caps raised in the bench
repo's wikigen.yml so that the baseline takes tens of increments, not thousands), repacks, checks the
work tree out (as a clone has it: the dirty check then lists nothing) and then runs each measured
command in its own child process:

  lookup caches     the lookup mirror, the manifest mirror and the community record's cache
                    (wikigen.store.lookup_cache, manifest_cache, community_cache) built from every index, manifest and record shard, as a fresh
                    clone's first compile does once (the caches are removed first)
  no-op plan        `wikigen plan --json` with nothing changed
  one-edit compile  `wikigen compile` after one appended paragraph in one source (wall: the
                    median of 5 runs from the same parent)
  relation edit     then the same source with a line stating a new relation between two of its
                    concepts instead of that paragraph (the community record is updated by local
                    moves; median of 5 runs too)
  one withdrawal    `wikigen compile` after one source is deleted
  verify            `wikigen verify --json`
  status            `wikigen status --json`
  topic rule        the first compile with the topic rule on (the offline engine's), which plans
                    every anchor, then an edit adding a relation with it on (median of 5 runs),
                    which plans only the anchors near the change

and reports per command: wall time (child process, interpreter start-up included), peak RSS (the
child's own ru_maxrss), source blobs read (GitStore.blobs_read), bytes of snapshot manifest parsed
(the root record of every load_snapshot call and the manifest and index shards read), other
generated files read (relation shards, object files), and the git
objects the command wrote with their uncompressed bytes (new loose objects; the baseline is packed
first, so every loose object after it is new). The scripted engine answers from the request with
a small extractor of the corpus's definition and relation lines, so the figures measure the
compiler, not a model. Prints a table; asserts nothing. Not run by .ci/run.

Usage: python scripts/bench_scale.py [--sizes 1000 10000] [--seed 1] [--site] [--keep DIR]
       python scripts/bench_scale.py --sizes N --reuse DIR/wikigen-scale-N-…/repo   (measure again; a
       baseline an earlier run did not finish is compiled to its end first)
       (the --child form is this script's own child process)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import pygit2  # noqa: E402

from tests.engines import extractor  # noqa: E402

# The corpus's own lines (make_corpus.py): "A *term* is a …" and "*term* depends on *other*."
DEFINITION = re.compile(r"^An? \*(?P<name>[^*]+)\* is an? (?P<kind>[a-z ]+?) that .+$")
RELATION = re.compile(r"^\*(?P<s>[^*]+)\* (?P<p>[a-z ]+?) \*(?P<o>[^*]+)\*\.$")

# Caps for the bench repo: a baseline increment of ~1 MB of sources per 10,000 (the batch selection
# fills a quarter of input_bytes), so that any N takes ~40 increments (10,000 sources, ~37 MB).
BENCH_CAPS = {"anchors": 20000, "articles": 4000, "relations": 50000, "fragments": 50000, "input_bytes": 4000000}


def bench_yml(n: int) -> str:
    scale = max(1, n // 10_000)
    return "caps:\n" + "".join(f"  {key}: {value * scale}\n" for key, value in BENCH_CAPS.items())


# Analyze's delta limit (100,000 bytes, a constant, not a setting) is raised for the baseline only,
# in this process; the measured commands run with the compiler as shipped.
BASELINE_DELTA_BYTES = 50_000_000
BASELINE_TAG = "bench-baseline"  # the baseline commit, for --reuse
BASELINE_NOTES = "refs/bench/notes"  # refs/notes/wikigen at the baseline


# The scripted engine's answer (tests/engines.py), reading make_corpus's own lines.
extract = extractor(DEFINITION, RELATION)


def peak_rss_kb() -> int:
    """This process's peak RSS. Not getrusage's ru_maxrss: Linux carries that across fork and exec, so
    a child would report its parent's peak; /proc's VmHWM belongs to the exec'd program alone."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# -- the child process: one CLI command with counters -------------------------------------------------


def child(argv: list[str]) -> int:
    """Run ``wikigen -C ROOT ARGS…`` with the scripted engine and counters; write them to $BENCH_OUT."""
    import wikigen.cli
    import wikigen.engines
    from wikigen.store import git as gitstore
    from wikigen.store import snapshot

    # The counters and the engine are bound before the modules that use them are loaded: the command
    # loads those itself, in its own order, as the command line does (a compile starts the work
    # tree's status before it loads the compile driver; the other commands never load it).
    compiling = argv[2:3] == ["compile"]

    counters = {"blobs_read": 0, "manifest_bytes": 0, "manifest_loads": 0, "generated_bytes": 0}
    stores: list[Any] = []
    init = gitstore.GitStore.__init__

    def tracked_init(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        init(self, *args, **kwargs)
        stores.append(self)

    read_file = gitstore.GitStore.read_file

    def counted_read_file(self, tree, path):  # type: ignore[no-untyped-def]
        data = read_file(self, tree, path)
        if data is not None and path != snapshot.SNAPSHOT_PATH:
            counters["generated_bytes"] += len(data)
        return data

    original_load = snapshot.load_snapshot

    def counted_load(data, store=None):  # type: ignore[no-untyped-def]
        counters["manifest_bytes"] += len(data or b"")  # the root record; its shards are counted below
        counters["manifest_loads"] += 1
        return original_load(data, store)

    gitstore.GitStore.__init__ = tracked_init  # type: ignore[method-assign]
    gitstore.GitStore.read_file = counted_read_file  # type: ignore[method-assign]
    # wikigen.store.snapshot's own name too: the modules loaded later bind the counted one
    for module in list(sys.modules.values()):
        if module is not None and getattr(module, "load_snapshot", None) is original_load:
            module.load_snapshot = counted_load  # type: ignore[attr-defined]
    if compiling:
        topics = bool(os.environ.get(TOPICS_ENV))  # the topic rule, as the offline engine has it

        def scripted(config: Any) -> Any:
            from wikigen.engines.scripted import ScriptedEngine

            return ScriptedEngine(extract, derives_topics=topics)

        wikigen.engines.make_engine = scripted  # type: ignore[assignment]
        if "wikigen.compiler.driver" in sys.modules:  # loaded already: its own name too
            sys.modules["wikigen.compiler.driver"].make_engine = scripted  # type: ignore[attr-defined]
    started = time.perf_counter()
    code = build_mirror(Path(argv[1])) if argv[2:] == [MIRROR] else wikigen.cli.main(argv)
    counters["command_s"] = time.perf_counter() - started
    counters["blobs_read"] = sum(s.blobs_read for s in stores)
    # Shards of the manifest and the object index and waiting.json are manifest bytes.
    counters["manifest_bytes"] += sum(s.generated_bytes_read for s in stores)
    counters["exit"] = code
    # `wikigen build` runs MkDocs in a child process: its peak counts too (the larger of the two).
    counters["maxrss_kb"] = max(peak_rss_kb(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    Path(os.environ["BENCH_OUT"]).write_text(json.dumps(counters))
    return 0


MIRROR = "lookup-cache"  # the child's own command: build the lookup mirror of HEAD's snapshot


def build_mirror(root: Path) -> int:
    """What a fresh clone's first compile pays once: the lookup mirror built from every index shard of
    HEAD's snapshot, the manifest mirror from every manifest shard and the communities record's cache
    from every record shard (``wikigen.store.community_cache``), with no earlier tree to diff from."""
    from wikigen.compiler.community_record import COMMUNITIES_DIR
    from wikigen.store.community_cache import CommunityMirror
    from wikigen.store.lookup_cache import Mirror
    from wikigen.store.manifest_cache import ManifestMirror
    from wikigen.store.workspace import Workspace

    ws = Workspace.open(root)
    stored = ws.baseline.stored
    if stored is None:
        return 1
    record = ws.store.subtree(ws.store.commit_tree(ws.store.resolve("HEAD")), COMMUNITIES_DIR)
    mirrors = [
        Mirror(ws.store, stored.index_tree),
        ManifestMirror(ws.store, stored.manifest_tree),
        CommunityMirror(ws.store, record),
    ]
    for mirror in mirrors:
        mirror.close()
    return 0 if all(mirror.rebuilt for mirror in mirrors) else 1


# -- the parent ----------------------------------------------------------------------------------------


def loose_objects(root: Path) -> set[str]:
    objects = root / ".git" / "objects"
    found = set()
    for d in objects.iterdir():
        if len(d.name) == 2 and d.is_dir():
            found.update(d.name + f.name for f in d.iterdir())
    return found


def tree_changes(repo: pygit2.Repository, new: Any, old: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(path, object) of ``new`` and of every tree and blob in it that ``old`` does not have at its
    path (a tree's path ends in "/")."""
    yield prefix + "/", new
    olds = {e.name: e for e in old} if old is not None else {}
    for entry in new:
        before = olds.get(entry.name)
        if before is not None and before.id == entry.id:
            continue
        path = f"{prefix}/{entry.name}" if prefix else str(entry.name)
        if entry.type_str == "tree":
            former = repo[before.id] if before is not None and before.type_str == "tree" else None
            yield from tree_changes(repo, repo[entry.id], former, path)
        else:
            yield path, repo[entry.id]


def brought(repo: pygit2.Repository, parent: str) -> set[str]:
    """The objects HEAD's commits since ``parent`` hold that ``parent``'s tree does not: each commit,
    and the trees and blobs its tree changed (none when HEAD did not move)."""
    found: set[str] = set()
    commit = repo.head.peel(pygit2.Commit)
    while str(commit.id) != parent and commit.parents:
        found.add(str(commit.id))
        found.update(str(obj.id) for _, obj in tree_changes(repo, commit.tree, commit.parents[0].tree))
        commit = commit.parents[0]
    return found


TOPICS_ENV = "BENCH_TOPICS"  # set: the child's scripted engine has the compiler derive the topics


def measure(root: Path, *args: str, topics: bool = False) -> dict[str, Any]:
    repo = pygit2.Repository(str(root))
    before = loose_objects(root)
    before_head = str(repo.head.target)
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        started = time.perf_counter()
        proc = subprocess.run(
            ["nice", "-n", "10", sys.executable, __file__, "--child", "-C", str(root), *args],
            capture_output=True,
            text=True,
            env={**os.environ, "BENCH_OUT": out.name, **({TOPICS_ENV: "1"} if topics else {})},
        )
        wall = time.perf_counter() - started
        data = json.loads(Path(out.name).read_text() or "{}")
    if data.get("exit") not in (0, None) or proc.returncode != 0:
        print(
            f"  ! {' '.join(args)}: exit {data.get('exit')}/{proc.returncode}: {proc.stderr[-800:]}{proc.stdout[-400:]}"
        )
    new = loose_objects(root) - before
    if args[:1] == ("compile",):
        # A repeat of an edit compiled before in this repo (a kept baseline) finds its trees and blobs
        # there already and writes none of them loose: what the commit brings counts all the same.
        new |= brought(repo, before_head)
    kinds: dict[str, int] = {}
    size = 0
    for oid in new:
        kind, raw = repo.odb.read(oid)
        name = {1: "commit", 2: "tree", 3: "blob", 4: "tag"}.get(int(kind), str(kind))
        kinds[name] = kinds.get(name, 0) + 1
        size += len(raw)
    data.update(wall_s=wall, objects=len(new), object_bytes=size, kinds=kinds, stdout=proc.stdout)
    return data


def written(root: Path, top: int = 5) -> list[tuple[str, int]]:
    """The largest new objects of HEAD's snapshot commit against its parent, by path (trees too):
    where a commit's bytes go."""
    repo = pygit2.Repository(str(root))
    head = repo.head.peel(pygit2.Commit)
    old = head.parents[0].tree if head.parents else None
    found = [(path, len(obj.read_raw())) for path, obj in tree_changes(repo, head.tree, old)]
    return sorted(found, key=lambda item: -item[1])[:top]


def commit(repo: pygit2.Repository, files: dict[str, bytes | None], message: str) -> None:
    from tests.corpora import commit_files

    commit_files(repo, files, message)
    if not repo.is_bare and Path(repo.workdir, CHECKED_OUT).exists():
        check_out(Path(repo.workdir))


# A user's repo has its files checked out: the compile's check of local changes (the index against
# HEAD, and the files it writes) then finds none, where a repo of commits alone would have every file
# deleted. The measured commands run
# on a checked-out work tree; the baseline's compile (not measured) does not need one.
CHECKED_OUT = ".git/wikigen-bench-checked-out"
EDIT_RUNS = 5  # the one-edit compile's wall time is the median of this many runs


def check_out(root: Path) -> None:
    """The work tree and the index brought to HEAD, as after a clone."""
    subprocess.run(["git", "-C", str(root), "reset", "-q", "--hard"], check=True)
    root.joinpath(CHECKED_OUT).touch()


def measure_edit(
    root: Path, repo: pygit2.Repository, change: dict[str, bytes | None], topics: bool = False
) -> dict[str, Any]:
    """``compile`` after ``change``, EDIT_RUNS times from the same parent: one sample of a ~1 s command
    moves by a fifth on a shared machine, so the wall time is their median; what it read and wrote
    are the first run's (a repeat writes the same blobs and trees again). The repo is left at the
    first run's snapshot."""
    parent = str(repo.head.target)
    commit(repo, change, "edit")
    row = measure(root, "compile", topics=topics)
    row["written"] = written(root)
    compiled = str(repo.head.target)
    walls = [row["wall_s"]]
    for _ in range(EDIT_RUNS - 1):
        subprocess.run(["git", "-C", str(root), "reset", "-q", "--hard", parent], check=True)
        commit(repo, change, "edit again")
        walls.append(measure(root, "compile", topics=topics)["wall_s"])
    subprocess.run(["git", "-C", str(root), "reset", "-q", "--hard", compiled], check=True)
    row["wall_runs_s"] = walls
    row["wall_s"] = statistics.median(walls)
    return row


def build_baseline(root: Path, n: int, seed: int) -> dict[str, Any]:
    import make_corpus

    pygit2.init_repository(str(root), initial_head="main")
    yml = bench_yml(n)
    (root / "wikigen.yml").write_text(yml)
    started = time.perf_counter()
    files = dict(make_corpus.generate(n, seed))
    make_corpus.commit_to_repo(root, iter([*files.items(), ("wikigen.yml", yml.encode())]))
    return finish_baseline(root, n, files, time.perf_counter() - started)


def finish_baseline(root: Path, n: int, files: dict[str, bytes], generated: float | None) -> dict[str, Any]:
    """Compile what is left to compile (all of it, or the rest of a baseline an earlier run did not
    finish: ``generated`` None), tag it, repack, and measure what it stores."""
    import wikigen.compiler.increment_run
    from wikigen.compiler.driver import compile_repo
    from wikigen.engines.scripted import ScriptedEngine

    repo = pygit2.Repository(str(root))
    wikigen.compiler.increment_run.MAX_DELTA_BYTES = BASELINE_DELTA_BYTES * max(1, n // 10_000)  # type: ignore[misc]
    started = time.perf_counter()
    report = compile_repo(root, engine=ScriptedEngine(extract), batch=True)
    compiled = time.perf_counter() - started
    started = time.perf_counter()
    subprocess.run(["git", "-C", str(root), "tag", "-f", BASELINE_TAG], check=True, capture_output=True)
    notes = subprocess.run(["git", "-C", str(root), "rev-parse", "-q", "--verify", "refs/notes/wikigen"],
                           capture_output=True, text=True).stdout.strip()
    if notes:
        subprocess.run(["git", "-C", str(root), "update-ref", BASELINE_NOTES, notes], check=True)
    subprocess.run(["git", "-C", str(root), "repack", "-adq"], check=True)
    subprocess.run(["git", "-C", str(root), "prune-packed"], check=True)
    subprocess.run(["git", "-C", str(root), "update-index", "--refresh", "-q"], capture_output=True)
    packed = time.perf_counter() - started
    from wikigen.model.objects import RELATIONS_DIR
    from wikigen.model.snapshot import INDEX_DIR, MANIFEST_DIR, SNAPSHOT_PATH
    from wikigen.store.git import GitStore
    from wikigen.store.snapshot import read_snapshot

    head = repo.head.peel(pygit2.Commit).tree
    store = GitStore(root)
    snap = read_snapshot(store, str(head.id))

    def folder(path: str) -> list[int]:
        """The sizes of the files below ``path`` at HEAD."""
        tree = store.subtree(str(head.id), path)
        return [len(data) for _, data in store.generated_files(tree)]

    shards = {"manifest": folder(MANIFEST_DIR), "index": folder(INDEX_DIR), "relations": folder(RELATIONS_DIR)}
    kinds: dict[str, int] = {}
    for entry in snap.objects.values():
        kinds[entry["kind"]] = kinds.get(entry["kind"], 0) + 1
    trees = {}
    for folder in ("articles", "concepts", "topics"):
        try:
            trees[folder] = len(repo[head[f"content/wiki/{folder}"].id].read_raw())
        except KeyError:
            trees[folder] = 0
    return {
        "files": files,
        "corpus_bytes": sum(len(v) for v in files.values()),
        "generate_s": generated,
        "baseline_s": compiled,
        "increments": len(report.increments),
        "repack_s": packed,
        "root_bytes": len(head[SNAPSHOT_PATH].data),
        "manifest_bytes": len(head[SNAPSHOT_PATH].data) + sum(shards["manifest"]) + sum(shards["index"]),
        "relations_bytes": sum(shards["relations"]),
        "shards": {k: (len(v), max(v, default=0)) for k, v in shards.items()},
        "objects": kinds,
        "tree_bytes": trees,
    }


def reuse_baseline(root: Path, n: int, seed: int) -> dict[str, Any]:
    """A repo kept by an earlier run (--keep) back at its baseline: the branch and the notes reset to
    what the baseline compile left, the work tree cleaned, every loose object (all written by the
    measured commands after the repack) removed, so that they count again."""
    import make_corpus

    git = ["git", "-C", str(root)]
    tagged = subprocess.run([*git, "rev-parse", "-q", "--verify", BASELINE_TAG], capture_output=True, text=True)
    if not tagged.stdout.strip():
        # An earlier run stopped inside the baseline (strict incrementality: what it published stays):
        # compile the rest, then measure. Its time and increments are the rest's alone.
        print("  the baseline was not finished: compiling the rest of it", flush=True)
        base = finish_baseline(root, n, dict(make_corpus.generate(n, seed)), None)
        (root.parent / "baseline.json").write_text(
            json.dumps({k: v for k, v in base.items() if k != "files"}, default=str)
        )
        return base
    subprocess.run([*git, "reset", "-q", "--hard", BASELINE_TAG], check=True)
    subprocess.run([*git, "clean", "-fdq"], check=True)
    notes = subprocess.run([*git, "rev-parse", "-q", "--verify", BASELINE_NOTES], capture_output=True, text=True)
    if notes.stdout.strip():
        subprocess.run([*git, "update-ref", "refs/notes/wikigen", notes.stdout.strip()], check=True)
    subprocess.run([*git, "reflog", "expire", "--expire=now", "--all"], check=True)
    objects = root / ".git" / "objects"
    for oid in loose_objects(root):
        (objects / oid[:2] / oid[2:]).unlink()
    base = json.loads((root.parent / "baseline.json").read_text())
    base["files"] = dict(make_corpus.generate(n, seed))
    return base


def run_size(n: int, seed: int, keep: Path | None, site: bool, reuse: Path | None = None) -> dict[str, Any]:
    if reuse is not None:
        root = reuse
        print(f"\n== N = {n:,}  ({root}, the kept baseline)  load {os.getloadavg()[0]:.2f}", flush=True)
        base = reuse_baseline(root, n, seed)
    else:
        root = Path(tempfile.mkdtemp(prefix=f"wikigen-scale-{n}-", dir=keep)) / "repo"
        print(f"\n== N = {n:,}  ({root})  load {os.getloadavg()[0]:.2f}", flush=True)
        base = build_baseline(root, n, seed)
        (root.parent / "baseline.json").write_text(
            json.dumps({k: v for k, v in base.items() if k != "files"}, default=str)
        )
    print(
        f"  corpus {base['corpus_bytes']:,} bytes "
        + (f"(made in {base['generate_s']:.1f} s); baseline compile " if base["generate_s"] is not None
           else "(an earlier run's); the rest of the baseline compiled in ")
        + f"{base['baseline_s']:.1f} s in {base['increments']} increments; repack {base['repack_s']:.1f} s",
        flush=True,
    )
    print(
        f"  snapshot.json {base['root_bytes']:,} B; root + manifest + index shards {base['manifest_bytes']:,} B; "
        f"relation shards {base['relations_bytes']:,} B; shards (files, largest B) {base['shards']}; "
        f"objects {base['objects']}, wiki tree objects {base['tree_bytes']}",
        flush=True,
    )
    check_out(root)
    repo = pygit2.Repository(str(root))
    files = base.pop("files")
    paths = sorted(files)
    results = {"baseline": base}
    # Every compile reads the index through its lookup mirror and plans from the manifest mirror
    # (caches under .git/wikigen/); a fresh clone builds them once from every shard — measured on its
    # own, so that the rows below are what each later command costs.
    for stale in [*root.joinpath(".git", "wikigen").glob("lookup.sqlite*"),
                  *root.joinpath(".git", "wikigen").glob("manifest.sqlite*"),
                  *root.joinpath(".git", "wikigen").glob("communities.sqlite*")]:
        stale.unlink()
    results["mirror"] = measure(root, MIRROR)
    results["noop_plan"] = measure(root, "plan", "--json")
    edited = paths[len(paths) // 2]
    text = files[edited]
    paragraph = b"\nOne more paragraph, appended by the benchmark, about nothing in particular.\n"
    results["edit_compile"] = measure_edit(root, repo, {edited: text + paragraph})
    # An edit that states a new relation between two of the source's own concepts: the community
    # record is updated (V3: local moves from the two), which an edit that changes no concept or
    # relation skips.
    # The first source from the middle on that defines two concepts (not every generated one does).
    related = next(
        p for p in paths[len(paths) // 2 :] + paths if len(re.findall(rb"^An? \*([^*]+)\* is ", files[p], re.M)) >= 2
    )
    related_text = text + paragraph if related == edited else files[related]
    a, b = re.findall(rb"^An? \*([^*]+)\* is ", related_text, re.M)[:2]
    relation = b"\n*" + a + b"* relies on *" + b + b"*.\n"
    results["relation_edit_compile"] = measure_edit(root, repo, {related: related_text + relation})
    withdrawn = paths[len(paths) // 3]
    commit(repo, {withdrawn: None}, "withdraw")
    results["withdraw_compile"] = measure(root, "compile")
    results["withdraw_compile"]["written"] = written(root)
    results["verify"] = measure(root, "verify", "--json")
    results["status"] = measure(root, "status", "--json")
    # The topic rule (the offline engine's; the scripted engine leaves topics to its deltas, which
    # return none): the first compile that runs it plans every anchor of the graph, an edit after
    # that only the anchors near it. Both are edits adding a relation, in two other sources.
    for name, start in (("topics_first_compile", len(paths) // 4), ("topics_edit_compile", len(paths) // 5)):
        source = next(p for p in paths[start:] if len(re.findall(rb"^An? \*([^*]+)\* is ", files[p], re.M)) >= 2)
        body = files[source]
        a, b = re.findall(rb"^An? \*([^*]+)\* is ", body, re.M)[:2]
        change = {source: body + b"\n*" + a + b"* relies on *" + b + b"*.\n"}
        if name == "topics_first_compile":
            commit(repo, change, "topics")
            results[name] = measure(root, "compile", topics=True)
            results[name]["written"] = written(root)
        else:
            results[name] = measure_edit(root, repo, change, topics=True)
    for name in (
        "mirror", "noop_plan", "edit_compile", "relation_edit_compile", "withdraw_compile", "verify", "status",
        "topics_first_compile", "topics_edit_compile",
    ):
        r = results[name]
        print(
            f"  {name}: {r['wall_s']:.2f} s, {r['maxrss_kb'] / 1024:.0f} MB, blobs {r['blobs_read']}, "
            f"manifest {r['manifest_bytes']:,} B ({r['manifest_loads']} loads), objects {r['objects']} "
            f"{r['kinds']} {r['object_bytes']:,} B",
            flush=True,
        )
        if "wall_runs_s" in r:
            print("    wall of each run: " + ", ".join(f"{w:.2f} s" for w in r["wall_runs_s"]) + " (the median above)")
        if "written" in r:
            print(
                "    largest objects written: "
                + ", ".join(f"{path} {size:,} B" for path, size in r["written"])
            )
    if site:
        results["site"] = build_site(root, n)
    return results


def build_site(root: Path, n: int) -> dict[str, Any]:
    (root / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        started = time.perf_counter()
        proc = subprocess.run(
            ["nice", "-n", "10", sys.executable, __file__, "--child", "-C", str(root), "build"],
            capture_output=True,
            text=True,
            env={**os.environ, "BENCH_OUT": out.name, "NO_MKDOCS_2_WARNING": "1"},
        )
        wall = time.perf_counter() - started
        data = json.loads(Path(out.name).read_text() or "{}")
    pages = sum(1 for _ in (root / "site").rglob("index.html")) if (root / "site").is_dir() else 0
    if proc.returncode or data.get("exit"):
        print(f"  ! build: {proc.stderr[-1500:]}")
    print(
        f"  site build: {wall:.1f} s, {pages:,} pages, {pages / wall:.0f} pages/s, peak RSS "
        f"{data.get('maxrss_kb', 0) / 1024:.0f} MB",
        flush=True,
    )
    return {"wall_s": wall, "pages": pages, "maxrss_kb": data.get("maxrss_kb", 0)}


ROWS = (
    ("mirror", "lookup caches, first build"),
    ("noop_plan", "no-op plan"),
    ("edit_compile", "one-edit compile"),
    ("relation_edit_compile", "one edit adding a relation"),
    ("withdraw_compile", "one withdrawal"),
    ("verify", "verify"),
    ("status", "status"),
    ("topics_first_compile", "topic rule, first compile (every anchor)"),
    ("topics_edit_compile", "one edit adding a relation, topic rule on"),
)
FIGURES = (
    ("wall_s", "wall s", lambda v: f"{v:.2f}"),
    ("maxrss_kb", "peak RSS MB", lambda v: f"{v / 1024:.0f}"),
    ("blobs_read", "source blobs read", str),
    ("manifest_bytes", "manifest bytes read", lambda v: f"{v:,}"),
    ("generated_bytes", "other generated bytes read", lambda v: f"{v:,}"),
    ("objects", "git objects written", str),
    ("object_bytes", "bytes written", lambda v: f"{v:,}"),
)


def table(results: dict[int, dict[str, Any]], skipped: dict[int, str]) -> str:
    sizes = sorted(results)
    head = [
        "row",
        *[f"N={n:,}" for n in sizes],
        *[f"N={n:,}" for n in skipped],
        f"ratio {sizes[-1] // 1000}k/1k" if len(sizes) > 1 else "ratio",
    ]
    rows = [head]

    def add(label: str, values: list[float | int], fmt) -> None:  # type: ignore[no-untyped-def]
        ratio = f"{values[-1] / values[0]:.1f}x" if len(values) > 1 and values[0] else "-"
        rows.append([label, *[fmt(v) for v in values], *["not run"] * len(skipped), ratio])

    add("corpus bytes", [results[n]["baseline"]["corpus_bytes"] for n in sizes], lambda v: f"{v:,}")
    add("snapshot.json (root) bytes", [results[n]["baseline"]["root_bytes"] for n in sizes], lambda v: f"{v:,}")
    add("manifest + index bytes (all shards)", [results[n]["baseline"]["manifest_bytes"] for n in sizes],
        lambda v: f"{v:,}")
    add(
        "relation shards bytes",
        [results[n]["baseline"]["relations_bytes"] for n in sizes],
        lambda v: f"{v:,}",
    )
    add("baseline compile s", [results[n]["baseline"]["baseline_s"] for n in sizes], lambda v: f"{v:.0f}")
    for key, label in ROWS:
        for fig, fig_label, fmt in FIGURES:
            add(f"{label}: {fig_label}", [results[n][key][fig] for n in sizes], fmt)
    if all("site" in results[n] for n in sizes):
        add("site build: wall s", [results[n]["site"]["wall_s"] for n in sizes], lambda v: f"{v:.1f}")
        add(
            "site build: pages/s",
            [results[n]["site"]["pages"] / results[n]["site"]["wall_s"] for n in sizes],
            lambda v: f"{v:.0f}",
        )
        add(
            "site build: peak RSS MB",
            [results[n]["site"]["maxrss_kb"] for n in sizes],
            lambda v: f"{v / 1024:.0f}",
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [
        " | ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        return child(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument(
        "--skip", type=int, nargs="*", default=[100000], help="sizes printed as 'not run' (with --why)"
    )
    parser.add_argument(
        "--why",
        default="not run here (the baseline compile at 100,000 sources takes hours on a small machine); "
        "run it with --sizes 100000 --skip",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--site", action="store_true", help="also `wikigen build` the site at each N")
    parser.add_argument("--keep", type=Path, help="make the repos under this folder and keep them")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument(
        "--reuse", type=Path, help="measure on the baseline repo an earlier --keep run left (one size: its N)"
    )
    args = parser.parse_args()
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    started = time.perf_counter()
    floor = subprocess.run([sys.executable, "-m", "wikigen", "--version"], capture_output=True, text=True)
    print(
        f"{floor.stdout.strip()}; `wikigen --version` (start-up floor) {time.perf_counter() - started:.2f} s"
    )
    if args.reuse is not None and len(args.sizes) != 1:
        parser.error("--reuse measures one size: give --sizes N, the N of the kept repo")
    results = {n: run_size(n, args.seed, args.keep, args.site, args.reuse) for n in args.sizes}
    if args.json:
        args.json.write_text(json.dumps({str(k): v for k, v in results.items()}, indent=1, default=str))
    skipped = {n: args.why for n in args.skip if n not in results}
    print(f"\nuptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}\n")
    print(table(results, skipped))
    for n, why in skipped.items():
        print(f"N={n:,}: not run{': ' + why if why else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
