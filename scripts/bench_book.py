#!/usr/bin/env python3
"""Peak memory and wall time of an offline compile of a book. Prints figures; asserts nothing.

  python scripts/bench_book.py [--chapters N] [--keep DIR] [--sample SECONDS]

The book is the dev corpora side by side in one repo, as chapters of one work: the Elixir guide
(24 chapters), the Kubernetes concept docs (115) and the Typer docs (75), from
``../shared/corpora`` (``WIKIGEN_SHARED`` to point elsewhere), each under its own folder of
``content/sources/knowledge/``. ``--chapters N`` keeps the first N of them in that order. The repo
gets the ``wikigen.yml`` of ``scripts/bench_quality.py``'s Typer corpus (its ``release-notes.md``
is over the default ``caps.input_bytes``).

The compile is the real CLI (``python -m wikigen -C REPO compile --batch --engine offline``) in a
child process; the figures are the child's: wall time, peak RSS (``ru_maxrss`` from ``wait4``), and
with ``--sample`` its resident size read from ``/proc`` every SECONDS, printed as a profile over
time, and its own high-water mark (``VmHWM``) as last sampled. It prints the compiled ``content/wiki`` tree id too, so two runs can be compared for
byte-identical output. Not run by CI (minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "scripts"))

import bench_quality as bq  # noqa: E402
import pygit2  # noqa: E402

from tests.corpora import commit_files  # noqa: E402

BOOK = ("elixir", "k8s", "typer")  # bench_quality.py's corpora, in this order
SETTINGS = bq.SETTINGS["typer"].encode()  # Typer's release notes need the raised caps.input_bytes
# A fixed identity and clock so that two runs commit byte-identical trees.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "T",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "T",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
}


def book_files(chapters: int | None) -> dict[str, bytes]:
    """The book's Markdown files keyed by their path in the repo, first ``chapters`` of them."""
    files = {path: data for name in BOOK for path, data in bq.corpus_files(name).items()}
    paths = list(files)[:chapters] if chapters else list(files)
    return {p: files[p] for p in paths}


def status_mb(pid: int, field: str) -> float | None:
    """A size field of ``/proc/PID/status`` (``VmRSS``, ``VmHWM``) in MB; None once the process is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return None


def compile_book(
    root: Path, every: float | None
) -> tuple[int, float, float, float, list[tuple[float, float]]]:
    """Runs the compile in a child; (exit status, wall s, peak RSS MB, sampled VmHWM MB, [(t, RSS MB)])."""
    env = {**os.environ, **GIT_ENV, "PYTHONPATH": str(REPO_ROOT)}
    command = [sys.executable, "-m", "wikigen", "-C", str(root), "compile", "--batch", "--engine", "offline"]
    log = (root.parent / "compile.log").open("wb")
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    samples: list[tuple[float, float]] = []
    done = threading.Event()
    high = [0.0]  # the child's own high-water mark (VmHWM), as last sampled

    def sample() -> None:
        while not done.wait(every):
            mb, top = status_mb(child.pid, "VmRSS"), status_mb(child.pid, "VmHWM")
            if mb is not None and top is not None:
                samples.append((time.perf_counter() - started, mb))
                high[0] = max(high[0], top)

    sampler = threading.Thread(target=sample, daemon=True) if every else None
    if sampler:
        sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    child.returncode = os.waitstatus_to_exitcode(status)
    log.close()
    return child.returncode, wall, usage.ru_maxrss / 1024, high[0], samples


def run(root: Path, chapters: int | None, every: float | None) -> int:
    files = book_files(chapters)
    repo = pygit2.init_repository(str(root), initial_head="main")
    (root / "wikigen.yml").write_bytes(SETTINGS)
    commit_files(repo, {**files, "wikigen.yml": SETTINGS})
    load = os.getloadavg()
    print(
        f"sources: {len(files)} ({sum(map(len, files.values())) // 1024} KiB); "
        f"load before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        flush=True,
    )
    code, wall, peak, high, samples = compile_book(root, every)
    if code != 0:
        print(f"compile failed (exit {code}); see {root.parent / 'compile.log'}")
        return 1
    repo = pygit2.Repository(str(root))
    wiki = repo.revparse_single("HEAD:content/wiki").id
    load = os.getloadavg()
    print(f"wall: {wall:.1f} s; peak RSS: {peak:.0f} MB; load after: {load[0]:.2f}")
    if samples:
        print(f"the child's own high-water mark (VmHWM) at the last sample: {high:.0f} MB")
    print(f"content/wiki tree: {wiki}")
    if samples:
        print("RSS over time (s: MB):")
        step = max(1, len(samples) // 40)
        print("  " + "  ".join(f"{t:.0f}:{mb:.0f}" for t, mb in samples[::step]))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--chapters", type=int, default=None, help="keep the first N chapters (default: all)")
    parser.add_argument("--keep", type=Path, default=None, help="compile in DIR (must not exist) and keep it")
    parser.add_argument("--sample", type=float, default=None, metavar="SECONDS", help="sample RSS this often")
    args = parser.parse_args(argv)
    if args.keep is not None:
        if args.keep.exists():
            parser.error(f"--keep target {args.keep} exists; remove it or choose another")
        (args.keep / "repo").mkdir(parents=True)
        return run(args.keep.resolve() / "repo", args.chapters, args.sample)
    with tempfile.TemporaryDirectory(prefix="bench-book-") as tmp:
        return run(Path(tmp) / "repo", args.chapters, args.sample)


if __name__ == "__main__":
    sys.exit(main())
