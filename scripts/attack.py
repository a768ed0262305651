#!/usr/bin/env python3
"""The long attacks of issue 15 (item 8): random SIGKILLs and SIGINTs during compiles, racing
compiles, a full disk at every phase of a publish, stale locks and a read-only repository — each on
a real git repo, each followed by the recovery its messages advise, run as a user would paste it.

Prints one table: attacks tried, handled cleanly, tracebacks, data lost, leaks. Not run by .ci/run
(the short cases are tests in tests/attacks/). The full disk is a size-limited tmpfs where this
machine lets us mount one (root); otherwise RLIMIT_FSIZE stands in (EFBIG instead of ENOSPC), and
the table says which.

Usage: python scripts/attack.py [--kills 20] [--races 20] [--seed 15]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.attacks.test_publish_truth import K, seeded  # noqa: E402
from tests.conftest import GIT_ENV, GitRepo, source  # noqa: E402
from wikigen.model.snapshot import SNAPSHOT_PATH  # noqa: E402
from wikigen.store.git import GitStore  # noqa: E402
from wikigen.store.snapshot import load_snapshot  # noqa: E402


@dataclass
class Tally:
    tried: int = 0
    clean: int = 0
    tracebacks: int = 0
    lost: int = 0
    leaks: int = 0
    notes: list[str] = field(default_factory=list)
    published: int = 0  # runs after which the branch had moved (the rest left the old snapshot)


@dataclass
class Run:
    code: int
    out: str
    err: str


def compile_process(repo: Path, *, pause: float = 0.0, env: dict[str, str] | None = None,
                    limit: Callable[[], None] | None = None) -> subprocess.Popen[str]:
    """`wikigen compile` (the real CLI, the scripted engine) in its own process."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.compile_script", str(repo), str(pause)],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "WIKIGEN_TEST_CLI": "1", **(env or {})}, preexec_fn=limit,
    )


def compile_once(repo: Path, **kw: object) -> Run:
    proc = compile_process(repo, **kw)  # type: ignore[arg-type]
    out, err = proc.communicate(timeout=300)
    return Run(proc.returncode, out, err)


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, text=True, capture_output=True, env={**os.environ, **GIT_ENV})


def version_at(repo: Path, rev: str) -> int:
    return load_snapshot(subprocess.run(["git", "show", f"{rev}:{SNAPSHOT_PATH}"], cwd=repo,
                                        capture_output=True, check=True).stdout, GitStore(repo)).version


def advice(message: str) -> list[str]:
    return re.findall(r"`([^`]+)`", message)


def follow(repo: Path, message: str) -> bool:
    """Run every command a message advises, in order; False if one fails."""
    for command in advice(message):
        done = subprocess.run(command, shell=True, cwd=repo, text=True, capture_output=True,
                              env={**os.environ, **GIT_ENV})
        if done.returncode != 0:
            return False
    return True


def tells_what_to_do(run: Run) -> bool:
    """A failure names its fix (a command, or a file to act on); a warning gives its command."""
    if "Traceback" in run.err or "internal error" in run.err:
        return False
    if run.code == 0:
        return all(advice(line) for line in run.err.splitlines() if "warning:" in line)
    return bool(advice(run.err)) or "compile again" in run.err or "nothing was published" in run.err.lower()


def damage(repo: Path, old_head: str, old_version: int, sources_tree: str) -> list[str]:
    """What a run lost: fsck, a snapshot neither old nor new, sources changed, a failed verify."""
    lost = []
    if git(repo, "fsck", "--strict", "--no-dangling").returncode != 0:
        lost.append("fsck")
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    if head != old_head:
        parent = git(repo, "rev-parse", "HEAD^").stdout.strip()
        author = git(repo, "log", "-1", "--format=%an").stdout.strip()
        if parent != old_head or author != "wikigen" or version_at(repo, "HEAD") != old_version + 1:
            lost.append("snapshot neither old nor new")
    if git(repo, "rev-parse", "HEAD:content/sources").stdout.strip() != sources_tree:
        lost.append("sources changed")
    verify = subprocess.run([sys.executable, "-m", "wikigen", "-C", str(repo), "verify"], capture_output=True, text=True)
    if verify.returncode != 0:
        lost.append("verify")
    return lost


def leaks(repo: Path) -> list[str]:
    """What a run left behind once recovered: temporary files, lock files, stray refs, dirt."""
    found = [str(p.relative_to(repo)) for p in repo.rglob("*.wikigen-tmp")]
    # .git/wikigen.lock is the compiler's flock file, kept on purpose; any other lock is a leak.
    found += [str(p.relative_to(repo)) for p in (repo / ".git").rglob("*.lock") if p.name != "wikigen.lock"]
    refs = git(repo, "for-each-ref", "--format=%(refname)").stdout.split()
    found += [r for r in refs if not r.startswith(("refs/heads/", "refs/notes/wikigen"))]
    dirt = git(repo, "status", "--porcelain", "--", "content").stdout.strip()
    if dirt:
        found.append(f"status: {dirt.splitlines()[0]}")
    return found


def recover(repo: Path, first: Run, sources_tree: str) -> tuple[bool, list[Run]]:
    """Follow the advice until a compile succeeds and nothing is left to compile (at most 3 rounds)."""
    runs = [first]
    message = first.err
    for _ in range(3):
        if not follow(repo, message):
            return False, runs
        again = compile_once(repo)
        runs.append(again)
        if again.code == 0:
            final = compile_once(repo)
            runs.append(final)
            ok = final.code == 0 and "nothing to compile" in final.out
            return ok and version_at(repo, "HEAD") >= 0 and sources_tree == git(
                repo, "rev-parse", "HEAD:content/sources").stdout.strip(), runs
        message = again.err
    return False, runs


def judge(tally: Tally, repo: Path, old: tuple[str, int, str], first: Run) -> None:
    old_head, old_version, tree = old
    tally.tried += 1
    tally.published += git(repo, "rev-parse", "HEAD").stdout.strip() != old_head
    lost = damage(repo, old_head, old_version, tree)
    recovered, runs = recover(repo, first, tree)
    traced = any("Traceback" in r.err or "Traceback" in r.out for r in runs)
    left = leaks(repo)
    clean = recovered and not lost and not traced and not left and all(
        # Killed by the signal itself (SIGKILL; SIGINT before Python's handler is set or after
        # the compile finished): nothing ran that could speak, so only the repo is judged.
        tells_what_to_do(r) for r in runs if r.code not in (-signal.SIGKILL, -signal.SIGINT)
    )
    tally.tracebacks += traced
    tally.lost += bool(lost)
    tally.leaks += bool(left)
    tally.clean += clean
    if not clean and len(tally.notes) < 3:
        tally.notes.append(f"code {first.code}; lost {lost}; leaks {left}; recovered {recovered}; "
                           f"{(runs[-1].err or first.err).strip()[:300]}")


def fresh(base: Path, name: str, *, withdraw: bool = True) -> tuple[Path, tuple[str, int, str]]:
    repo = GitRepo(base / name)
    head = seeded(repo, withdraw=withdraw)
    tree = git(repo.root, "rev-parse", "HEAD:content/sources").stdout.strip()
    return repo.root, (head, version_at(repo.root, "HEAD"), tree)


# -- the attacks ------------------------------------------------------------------------------------


def sigkill(base: Path, rng: random.Random, n: int) -> Tally:
    tally = Tally()
    for i in range(n):
        repo, old = fresh(base, f"kill{i}")
        proc = compile_process(repo)
        time.sleep(rng.uniform(0.05, 1.5))
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
        judge(tally, repo, old, Run(proc.returncode, out, err))
    return tally


def sigint(base: Path, rng: random.Random, n: int) -> Tally:
    """Ctrl-C at a random moment once the CLI runs (start-up imports are Python's, not wikigen's);
    once the engine was called, exit 130 must come with the failure note."""
    tally = Tally()
    for i in range(n):
        repo, old = fresh(base, f"int{i}")
        started, called = base / f"int{i}.started", base / f"int{i}.called"
        proc = compile_process(repo, pause=0.3, env={"WIKIGEN_TEST_STARTED": str(started),
                                                      "WIKIGEN_TEST_READY": str(called)})
        while not started.exists() and proc.poll() is None:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 1.2))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        first = Run(proc.returncode, out, err)
        noted = git(repo, "notes", "--ref=wikigen", "show", old[0]).returncode == 0
        if first.code == 130 and called.exists() and not noted:
            first.err += "\nTraceback: (stand-in) no failure note after Ctrl-C"
        judge(tally, repo, old, first)
    return tally


def races(base: Path, n: int) -> Tally:
    tally = Tally()
    for i in range(n):
        repo, old = fresh(base, f"race{i}")
        procs = [compile_process(repo, pause=0.5) for _ in range(2)]
        outs = [p.communicate(timeout=120) for p in procs]
        runs = [Run(p.returncode, out, err) for p, (out, err) in zip(procs, outs, strict=True)]
        published = git(repo, "rev-list", "--count", f"{old[0]}..HEAD").stdout.strip()
        note = git(repo, "notes", "--ref=wikigen", "show", old[0]).stdout
        first = runs[0] if runs[0].code else runs[1]
        if sorted(r.code for r in runs) != [0, 1] or published != "1" or '"ok"' not in note:
            first = Run(1, "", f"Traceback: (stand-in) codes {[r.code for r in runs]}, {published} commits, note {note!r}")
        judge(tally, repo, old, first)
    return tally


def big_source(repo: Path) -> None:
    rng = random.Random(15)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(2000)]
    line = " ".join(rng.choice(words) for _ in range(4500)) + "."  # ~31 kB raw, ~15 kB as a git object
    GitRepo(repo).commit({f"{K}/big.md": source(line + "\n", title="Big")})


def can_mount(base: Path) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    probe = base / "probe"
    probe.mkdir()
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(probe)], capture_output=True).returncode == 0
    if ok:
        subprocess.run(["umount", str(probe)], check=True)
    return ok


def full_disk(base: Path, mount: bool) -> Tally:
    """The disk fills at each phase: free space swept from none to enough, on a tmpfs (ENOSPC), or
    a per-file size limit swept the same way (EFBIG) where no tmpfs can be mounted."""
    tally = Tally()
    steps = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 96, 128]  # KiB
    for i, kib in enumerate(steps):
        disk = base / f"disk{i}"
        disk.mkdir()
        if mount:
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)], check=True)
        try:
            repo, old = fresh(disk, "repo", withdraw=False)
            big_source(repo)
            old = (git(repo, "rev-parse", "HEAD").stdout.strip(), old[1],
                   git(repo, "rev-parse", "HEAD:content/sources").stdout.strip())
            filler = disk / "filler"
            limit = None
            if mount:
                free = shutil.disk_usage(disk).free
                with open(filler, "wb") as handle:
                    handle.truncate(0)
                    handle.write(b"\0" * max(0, free - kib * 1024))
            else:
                size = 4096 + kib * 1024

                def limit(size: int = size) -> None:
                    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
            first = compile_once(repo, limit=limit)
            if mount:
                filler.unlink()  # the user frees space, then follows the advice
            judge(tally, repo, old, first)
        finally:
            if mount:
                subprocess.run(["umount", "-l", str(disk)], check=False)
    return tally


def stale_locks(base: Path) -> Tally:
    tally = Tally()
    for i, lock in enumerate([".git/index.lock", ".git/refs/notes/wikigen.lock", ".git/refs/heads/main.lock"]):
        repo, old = fresh(base, f"lock{i}")
        (repo / lock).parent.mkdir(parents=True, exist_ok=True)
        (repo / lock).write_text("")
        judge(tally, repo, old, compile_once(repo))
    return tally


def read_only(base: Path) -> Tally | None:
    tally = Tally()
    repo, old = fresh(base, "ro")
    view = base / "ro-view"
    view.mkdir()
    if subprocess.run(["mount", "--bind", str(repo), str(view)], capture_output=True).returncode != 0:
        return None
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        first = compile_once(view)
    finally:
        subprocess.run(["umount", str(view)], check=True)
    ok = first.code == 1 and "read-only file system" in first.err and "Nothing was published" in first.err
    if not ok:
        first.err += "\nTraceback: (stand-in) not worded as a read-only file system"
    judge(tally, repo, old, first)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows: list[tuple[str, Tally]] = []
    with tempfile.TemporaryDirectory(prefix="wikigen-attack-") as tmp:
        base = Path(tmp)
        mount = can_mount(base)
        rows.append((f"SIGKILL at random moments ×{args.kills}", sigkill(base, rng, args.kills)))
        rows.append((f"SIGINT at random moments ×{args.kills}", sigint(base, rng, args.kills)))
        rows.append((f"two compiles racing ×{args.races}", races(base, args.races)))
        kind = "tmpfs, ENOSPC" if mount else "RLIMIT_FSIZE stand-in, EFBIG"
        rows.append((f"disk full at each phase ({kind})", full_disk(base, mount)))
        rows.append(("stale .lock files (index, notes, branch)", stale_locks(base)))
        ro = read_only(base) if mount else None
        if ro is not None:
            rows.append(("read-only repository (bind mount)", ro))
    width = max(len(name) for name, _ in rows)
    header = f"{'attack':<{width}}  tried  handled cleanly  tracebacks  data lost  leaks"
    print(header)
    print("-" * len(header))
    for name, t in rows:
        print(f"{name:<{width}}  {t.tried:>5}  {t.clean:>15}  {t.tracebacks:>10}  {t.lost:>9}  {t.leaks:>5}")
    total = Tally(*(sum(getattr(t, k) for _, t in rows) for k in ("tried", "clean", "tracebacks", "lost", "leaks")))
    print("-" * len(header))
    print(f"{'total':<{width}}  {total.tried:>5}  {total.clean:>15}  {total.tracebacks:>10}  {total.lost:>9}  {total.leaks:>5}")
    print("published / old snapshot kept, per attack: "
          + "; ".join(f"{name.split(' ')[0]} {t.published}/{t.tried - t.published}" for name, t in rows))
    for name, t in rows:
        for note in t.notes:
            print(f"  {name}: {note}")
    return 0 if total.clean == total.tried else 1


if __name__ == "__main__":
    raise SystemExit(main())
