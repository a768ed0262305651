#!/usr/bin/env python3
"""Attacks on wikigen as an outsider makes them, each on a real git repo through the real CLI.

The long ones: random SIGKILLs and SIGINTs during compiles, racing compiles, a full disk at every
phase of a publish, stale locks and a read-only repository — each followed by the recovery its
messages advise, run as a user would paste it. The short ones, one scenario each, judged by the
rules they attack: privacy changes (R39), names (R40), non-Markdown files beside sources (R41),
YAML values PyYAML cannot build (R5), git's environment (R34, R42), settings and arguments (R5, R41).

Prints one table: attacks tried, handled cleanly, tracebacks, data lost, leaks; then a note for
every attack not handled cleanly. Not run by .ci/run (the cases are also tests in tests/attacks/).
The full disk is a size-limited tmpfs where this machine lets us mount one (root); otherwise
RLIMIT_FSIZE stands in (EFBIG instead of ENOSPC), and the table says which.

Usage: python scripts/attack.py [--kills 20] [--races 20] [--seed 15] [--only KEY,...] [--skip-long]
(keys: kill, int, race, disk, locks, readonly, privacy, names, files, yaml, gitenv, settings)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.attacks.test_git_environment import state as git_state  # noqa: E402
from tests.attacks.test_privacy import LEDGER, MENTION, VAULT  # noqa: E402
from tests.attacks.test_publish_truth import K, seeded  # noqa: E402
from tests.attacks.test_published_files import MKDOCS_YML as SITE_YML  # noqa: E402
from tests.conftest import GIT_ENV, GitRepo, source  # noqa: E402
from tests.engines import extract  # noqa: E402
from tests.fake_openai import FakeOpenAI  # noqa: E402
from wikigen.model.snapshot import SNAPSHOT_PATH  # noqa: E402
from wikigen.model.terminal import visible  # noqa: E402
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


# -- attacks on what a user writes (R5, R34, R39–R42) -----------------------------------------------
# Each attack is one scenario on a real git repo, through the real CLI in its own process (this
# checkout's wikigen first on PYTHONPATH, none of this process's GIT_ or WIKIGEN_ variables), judged
# by what the rules promise: the expected outcome, a message that names its file (and line), its
# variable or its fix, no traceback, nothing lost, nothing leaked.

TRACE_MARKS = ("Traceback", "internal error")
RAW_CONTROL = re.compile("[\x1b\x07\x9b]")  # ESC, BEL and CSI: what a terminal acts on (R41)
SECRET_MARKS = ("tangerine", "basement safe")  # from test_privacy's SECRET
QUESTION = "where does the vault passphrase live"
WIDE = "\U00020000"  # a CJK letter outside the BMP: a word character of four UTF-8 bytes
PWNED = "\x1b]0;pwned\x07"  # OSC 0: retitles the terminal window
SHOWN = "\\x1b]0;pwned\\x07"  # how R41 prints it
GOOD = source("# Pods\n\nA pod is a group of one or more containers that share storage and network.\n", title="Pods")
BODY = "\nThe pwned source is a test of what a terminal shows when a title holds an escape sequence.\n"
COMMANDS = (("check",), ("plan",), ("status",), ("hook",), ("compile", "-q"))


def outsider_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A user's shell: none of this process's GIT_ or WIKIGEN_ variables, this checkout's wikigen first
    on the import path, and ``extra`` on top."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WIKIGEN_"))}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env["NO_MKDOCS_2_WARNING"] = "1"
    return {**env, **(extra or {})}


def wikigen(repo: Path, *args: str, env: Mapping[str, str] | None = None) -> Run:
    """`wikigen -C REPO ARGS` as a user runs it, from the folder above the repository."""
    done = subprocess.run([sys.executable, "-m", "wikigen", "-C", str(repo), *args], cwd=repo.parent,
                          capture_output=True, encoding="utf-8", errors="backslashreplace",
                          env=outsider_env(env), timeout=600)
    return Run(done.returncode, done.stdout, done.stderr)


def git_as_user(repo: Path, *args: str) -> Run:
    """A git command as a user types it (their identity, no GIT_DIR): hooks run as they would."""
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, encoding="utf-8",
                          errors="backslashreplace", env=outsider_env(GIT_ENV), timeout=600)
    return Run(done.returncode, done.stdout, done.stderr)


def said(run: Run) -> str:
    return run.out + run.err


def shown(run: Run, size: int = 240) -> str:
    """The end of what a run printed, every control character made visible (never sent raw here)."""
    return visible((run.err.strip() or run.out.strip())[-size:])


@dataclass
class Attempt:
    """One attack: the runs it made, and what the judge found wrong with them."""

    runs: list[Run] = field(default_factory=list)
    unmet: list[str] = field(default_factory=list)  # promised outcomes that did not happen
    lost: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)

    def wikigen(self, repo: Path, *args: str, env: Mapping[str, str] | None = None) -> Run:
        run = wikigen(repo, *args, env=env)
        self.runs.append(run)
        return run

    def git(self, repo: Path, *args: str) -> Run:
        run = git_as_user(repo, *args)
        self.runs.append(run)
        return run

    def expect(self, ok: bool, what: str, run: Run | None = None) -> bool:
        if not ok:
            self.unmet.append(what + (f" (exit {run.code}: {shown(run)})" if run else ""))
        return ok

    def leak(self, found: bool, what: str) -> None:
        if found:
            self.leaked.append(what)

    def raw(self, run: Run, what: str) -> None:
        """R41: a control character from a source reaches the terminal raw."""
        match = RAW_CONTROL.search(said(run))
        self.leak(match is not None, f"raw {visible(match.group()) if match else ''} in the output of {what}")


def attack(tally: Tally, name: str, body: Callable[[Attempt], None]) -> None:
    """Run one attack and add its verdict to ``tally``: clean when every promise held, no run printed
    a traceback or an internal error, nothing was lost and nothing leaked."""
    attempt = Attempt()
    try:
        body(attempt)
    except Exception as exc:  # an attack that cannot run to its end is reported, never dropped
        attempt.unmet.append(f"the attack stopped: {type(exc).__name__}: {visible(str(exc))[:300]}")
    traced = [r for r in attempt.runs if any(mark in said(r) for mark in TRACE_MARKS)]
    clean = not (traced or attempt.unmet or attempt.lost or attempt.leaked)
    tally.tried += 1
    tally.clean += clean
    tally.tracebacks += bool(traced)
    tally.lost += bool(attempt.lost)
    tally.leaks += bool(attempt.leaked)
    if not clean:
        found = [*attempt.unmet, *(f"lost: {x}" for x in attempt.lost), *(f"leak: {x}" for x in attempt.leaked)]
        found += [f"traceback: {shown(r, 300)}" for r in traced[:1]]
        tally.notes.append(f"{name}: " + "; ".join(found))


@dataclass(frozen=True)
class Kept:
    """What a refused command must leave as it was: HEAD and the sources in it."""

    head: str
    sources: str


def kept(repo: Path) -> Kept:
    return Kept(git(repo, "rev-parse", "HEAD").stdout.strip(),
                git(repo, "rev-parse", "HEAD:content/sources").stdout.strip())


def check_kept(attempt: Attempt, repo: Path, before: Kept, *, published: bool = False) -> None:
    """Data lost: fsck fails, HEAD moved where nothing may be published (or, where a compile may
    publish, to a commit that does not descend from the old one), or HEAD's sources changed."""
    if git(repo, "fsck", "--strict", "--no-dangling").returncode != 0:
        attempt.lost.append(f"`git fsck` fails in {repo.name}")
    now = kept(repo)
    if now.head != before.head and not published:
        attempt.lost.append(f"HEAD moved in {repo.name} although nothing was to be published")
    elif now.head != before.head and git(repo, "merge-base", "--is-ancestor", before.head, now.head).returncode:
        attempt.lost.append(f"HEAD of {repo.name} no longer descends from the old snapshot")
    if now.sources != before.sources:
        attempt.lost.append(f"HEAD's content/sources changed in {repo.name}")


def expect_named(attempt: Attempt, run: Run, code: int, *needles: str, what: str) -> bool:
    """``run`` exited ``code`` and its output holds every needle (a path:line, a variable, a fix)."""
    return attempt.expect(run.code == code and all(n in said(run) for n in needles),
                          f"{what}: expected exit {code} naming {', '.join(map(repr, needles))}", run)


# -- privacy changes (R39) --------------------------------------------------------------------------


def secret_in(text: str) -> bool:
    return any(mark in text for mark in SECRET_MARKS)


def published_secret(repo: Path) -> list[str]:
    """The files of HEAD outside content/sources/ that hold the secret (the compiled wiki)."""
    found = git(repo, "grep", "--text", "-l", "-F", *(f"-e{m}" for m in SECRET_MARKS), "HEAD", "--",
                ".", ":(exclude)content/sources")
    return found.stdout.split()


def searched(args: tuple[str, ...]) -> str:
    """How a note names a search: its options, the question left out."""
    return " ".join(["search", *(arg for arg in args if arg != QUESTION)])


def site_secret(site: Path) -> list[str]:
    return [str(p.relative_to(site)) for p in sorted(site.rglob("*"))
            if p.is_file() and secret_in(p.read_bytes().decode("utf-8", "replace"))]


def http_env(fake: FakeOpenAI) -> dict[str, str]:
    """The HTTP engine at the recording fake server, set as the manual says (content/manual/engines.md)."""
    return {"WIKIGEN_ENGINE": "http", "WIKIGEN_BASE_URL": fake.url, "WIKIGEN_MODEL": "fake-model",
            "WIKIGEN_API_KEY": "sk-attack-not-a-key"}


def turned_private(tally: Tally, root: Path, how: str, fake: FakeOpenAI) -> None:
    """A compiled public source turned private (a new glob, or its frontmatter), then read, compiled,
    built and compiled again beside a source that mentions it, in that order."""
    env = http_env(fake)
    repo = GitRepo(root)
    repo.commit({"mkdocs.yml": SITE_YML, ".gitignore": "site/\n", f"{K}/vault.md": source(VAULT, title="Vault"),
                 f"{K}/ledger.md": source(LEDGER, title="Ledger")})
    first = wikigen(root, "compile", "-q", env=env)
    before = wikigen(root, "search", "--json", QUESTION)
    if first.code or not published_secret(root) or not secret_in(before.out):
        # Without the secret published and found first, the attacks below would prove nothing.
        raise RuntimeError(f"setup: the public source was not compiled and found ({shown(first)})")
    if how == "glob":
        repo.commit({"wikigen.yml": "private:\n  - knowledge/vault\n"})
    else:
        repo.commit({f"{K}/vault.md": source(VAULT, title="Vault", private=True)})
    private_commit = repo.head()

    def search_before(a: Attempt) -> None:
        start = kept(root)
        for args in (("--json", QUESTION), (QUESTION,)):
            run = a.wikigen(root, "search", *args)
            a.expect(run.code == 0, f"{searched(args)} exits 0", run)
            a.leak(secret_in(said(run)), f"the secret in `{searched(args)}` before the compile")
        check_kept(a, root, start)

    def search_at_1(a: Attempt) -> None:
        run = a.wikigen(root, "search", "--at", "1", "--json", QUESTION)
        a.expect(run.code == 0, "search --at 1 exits 0", run)
        a.leak(secret_in(said(run)), "the secret in `search --at 1` (the snapshot it was public in)")

    def compile_withdraws(a: Attempt) -> None:
        start, calls = kept(root), len(fake.requests)
        run = a.wikigen(root, "compile", "--json", "-q", env=env)
        report = json.loads(run.out) if run.code == 0 and run.out.strip() else {}
        a.expect(run.code == 0, "the compile exits 0", run)
        a.expect(report.get("withdrawn") == ["knowledge/vault"], f"withdrawn == ['knowledge/vault'], got {report.get('withdrawn')}")
        a.expect(report.get("engine_calls") == 0 and len(fake.requests) == calls,
                 f"0 engine calls, got {report.get('engine_calls')} reported and {len(fake.requests) - calls} received")
        a.leak(bool(leaked := published_secret(root)), f"the secret in HEAD's {leaked[:3]}")
        note = git(root, "notes", "--ref=wikigen", "show", private_commit).stdout
        a.leak(secret_in(note), "the secret in the compile's note")
        check_kept(a, root, start, published=True)

    def search_after(a: Attempt) -> None:
        for args in (("--json", QUESTION), (QUESTION,), ("--at", "1", "--json", QUESTION)):
            run = a.wikigen(root, "search", *args)
            a.expect(run.code == 0, f"{searched(args)} exits 0", run)
            a.leak(secret_in(said(run)), f"the secret in `{searched(args)}` after the compile")

    def build(a: Attempt) -> None:
        run = a.wikigen(root, "build")
        site = root / "site"
        a.expect(run.code == 0, "`wikigen build` exits 0", run)
        for name in ("llms.txt", "objects.json", "sources/knowledge/ledger/index.html"):
            a.expect((site / name).is_file(), f"site/{name} is built (the public source still ships)")
        a.leak(bool(leaked := site_secret(site)), f"the secret in site/ {leaked[:4]}")

    def http_mention(a: Attempt) -> None:
        repo.commit({f"{K}/audit.md": source(MENTION, title="Audit")})
        start, calls = kept(root), len(fake.requests)
        run = a.wikigen(root, "compile", "-q", env=env)
        bodies = [json.dumps(c.body, ensure_ascii=False) for c in fake.requests[calls:]]
        a.expect(run.code == 0 and bool(bodies), "the compile of the mention exits 0 after calling the engine", run)
        a.leak(any(secret_in(b) for b in bodies), "the secret in a request body sent to the HTTP engine")
        a.leak(bool(leaked := published_secret(root)), f"the secret in HEAD's {leaked[:3]}")
        check_kept(a, root, start, published=True)

    for name, body in (("search --json before the compile", search_before), ("search --at 1", search_at_1),
                       ("compile: withdrawn, 0 engine calls", compile_withdraws),
                       ("search after the compile", search_after), ("wikigen build", build),
                       ("http compile of a source mentioning it", http_mention)):
        attack(tally, f"private by {how}: {name}", body)


def private_value(a: Attempt, root: Path, line: str, words: str, fake: FakeOpenAI) -> None:
    """R39, R5: `private` that is not a YAML boolean (or `Private:`) is an invalid source at its line;
    the compile refuses it and sends none of its text."""
    repo = GitRepo(root)
    repo.commit({f"{K}/vault.md": f"---\ntitle: Vault\n{line}\n---\n{VAULT}", f"{K}/ledger.md": source(LEDGER, title="Ledger")})
    start, calls = kept(root), len(fake.requests)
    expect_named(a, a.wikigen(root, "check"), 1, f"{K}/vault.md:3:", words, what="check")
    expect_named(a, a.wikigen(root, "compile", "-q", env=http_env(fake)), 1, f"{K}/vault.md:3:", what="compile")
    a.leak(any(secret_in(json.dumps(c.body, ensure_ascii=False)) for c in fake.requests[calls:]),
           "the secret in a request body sent to the HTTP engine")
    check_kept(a, root, start)


def privacy(base: Path) -> Tally:
    tally = Tally()
    with FakeOpenAI(extract) as fake:
        for how in ("glob", "frontmatter"):
            try:
                turned_private(tally, base / f"private-{how}", how, fake)
            except RuntimeError as exc:
                attack(tally, f"private by {how}", lambda a, exc=exc: a.expect(False, str(exc)))
        values = (('private: "true"', "private must be true or false"),
                  ("private: 1", "private must be true or false"), ("Private: true", "'Private'"))
        for i, (line, words) in enumerate(values):
            attack(tally, f"`{line}` in frontmatter",
                   lambda a, i=i, line=line, words=words: private_value(a, base / f"private-value{i}", line, words, fake))
    return tally


# -- names (R40) ------------------------------------------------------------------------------------


def checks_out(a: Attempt, root: Path, files: Mapping[str, str]) -> None:
    """R40: a long name passes check, compiles (its own work tree updated), and a clone checks out."""
    repo = GitRepo(root)
    repo.commit(files)
    start = kept(root)
    check = a.wikigen(root, "check")
    a.expect(check.code == 0, "check passes", check)
    compiled = a.wikigen(root, "compile", "-q")
    a.expect(compiled.code == 0 and "not updated" not in compiled.err, "the compile publishes and updates its work tree", compiled)
    a.expect(git(root, "status", "--porcelain").stdout == "", "`git status` is clean after the compile")
    paths = git(root, "ls-tree", "-r", "--name-only", "-z", "HEAD").stdout.split("\0")
    longest = max(len(part.encode()) for path in paths for part in path.split("/"))
    a.expect(longest <= 255, f"every path component within 255 bytes, the longest is {longest}")
    copy = root.parent / f"{root.name}-clone"
    cloned = a.git(root.parent, "clone", "-q", str(root), str(copy))
    a.expect(cloned.code == 0 and "checkout failed" not in cloned.err, "the clone checks out", cloned)
    a.expect(copy.is_dir() and git(copy, "status", "--porcelain").stdout == "", "the clone's `git status` is clean")
    check_kept(a, root, start, published=True)


def collide(a: Attempt, root: Path, first: str, second: str, *, compiled_first: bool = False) -> None:
    """R40, R5: two sources that would share a generated name are refused together, each problem
    naming the other file; nothing is published."""
    repo = GitRepo(root)
    one, two = f"{K}/{first}", f"{K}/{second}"
    repo.commit({one: source(f"# One\n{BODY}", title="One")})
    if compiled_first:  # the plan then reads only the diff (unchanged sources are never read)
        setup = a.wikigen(root, "compile", "-q")
        a.expect(setup.code == 0, "setup: the first source compiles", setup)
    repo.commit({two: source(f"# Two\n{BODY}", title="Two")})
    start = kept(root)
    for args in (("check",), ("check", "--staged"), ("plan",)):
        run = a.wikigen(root, *args)
        expect_named(a, run, 1, f"{one}:", f"{two}:", what=" ".join(args))
        line = next((x for x in run.out.splitlines() if x.startswith(f"{one}:")), "")
        a.expect(two in line, f"{' '.join(args)}: the problem of {one} names {two}")
    expect_named(a, a.wikigen(root, "compile", "-q"), 1, one, two, what="compile")
    check_kept(a, root, start)


def names(base: Path) -> Tally:
    tally = Tally()
    long_name = WIDE * 61 + ".md"  # 247 bytes
    attack(tally, "247-byte file name in 4-byte characters: compile, clone",
           lambda a: checks_out(a, base / "long-name", {f"{K}/{long_name}": source(f"# Wide\n{BODY}", title="Wide")}))
    attack(tally, "100-character id: compile, clone",
           lambda a: checks_out(a, base / "long-id", {f"{K}/long-id.md": source(f"# Long\n{BODY}", title="Long", id=WIDE * 100)}))
    pairs = {
        "Pods.md / pods.md": ("Pods.md", "pods.md"),
        "café.md NFC / NFD": (unicodedata.normalize("NFC", "café.md"), unicodedata.normalize("NFD", "café.md")),
        "a/b.md / a--b.md": ("a/b.md", "a--b.md"),
        "ﬁle.md / file.md": ("ﬁle.md", "file.md"),
    }
    for i, (label, (first, second)) in enumerate(pairs.items()):
        attack(tally, label, lambda a, i=i, first=first, second=second: collide(a, base / f"pair{i}", first, second))
    attack(tally, "Pods.md added beside a compiled pods.md",
           lambda a: collide(a, base / "pair-compiled", "pods.md", "Pods.md", compiled_first=True))
    return tally


# -- non-Markdown files (R41) -----------------------------------------------------------------------


def files(base: Path) -> Tally:
    """Active files beside sources, and an untracked and an ignored file under content/: check names
    each active file, and `wikigen build` publishes none of them."""
    tally = Tally()
    root = base / "files"
    repo = GitRepo(root)
    active = {  # each script names its file's extension, to be found wherever it lands in site/
        f"{K}/evil.mdown": "# Evil\n\n<script>window.__pwned_mdown = 1</script>\n",
        f"{K}/evil.markdown": "# Evil\n\n<script>window.__pwned_markdown = 1</script>\n",
        f"{K}/evil.html": "<html><script>window.__pwned_html = 1</script></html>\n",
        f"{K}/evil.svg": '<svg xmlns="http://www.w3.org/2000/svg"><script>window.__pwned_svg = 1</script></svg>\n',
    }
    repo.commit({"mkdocs.yml": SITE_YML, ".gitignore": "site/\ncontent/private/\n", "content/manual/index.md": "# Manual\n",
                 f"{K}/pods.md": GOOD, **active}, message="no hook ran")
    repo.write({"content/private/creds.txt": "password=hunter2-ignored\n",
                "content/manual/draft.md": "# Draft\n\nuntracked-draft-7781, not added yet.\n"})
    start = kept(root)
    shared = Attempt()
    check, compiled, built = (shared.wikigen(root, *args) for args in (("check",), ("compile", "-q"), ("build",)))
    check_kept(shared, root, start)
    site = root / "site"
    texts = {str(p.relative_to(site)): p.read_bytes().decode("utf-8", "replace") for p in site.rglob("*") if p.is_file()}

    def judged(a: Attempt) -> None:
        a.runs += shared.runs
        a.lost += shared.lost
        a.expect(built.code == 0 and "sources/knowledge/pods/index.html" in texts, "`wikigen build` builds the site", built)

    def refused(a: Attempt, rel: str) -> None:
        judged(a)
        expect_named(a, check, 1, f"{rel}:1: ", what="check")
        expect_named(a, compiled, 1, rel, what="compile")
        uri = rel.removeprefix("content/")
        stem, extension = uri.rsplit(".", 1)
        a.leak(uri in texts or f"{stem}/index.html" in texts, f"site/{uri} published")
        a.leak(any(f"__pwned_{extension}" in t for t in texts.values()), f"its script (__pwned_{extension}) in site/")

    def absent(a: Attempt, rel: str, mark: str) -> None:
        judged(a)
        a.leak(rel in texts or any(mark in t for t in texts.values()), f"{rel} (or its text) in site/")

    for rel in active:
        attack(tally, f"{rel.rsplit('/', 1)[1]} beside sources", lambda a, rel=rel: refused(a, rel))
    attack(tally, "untracked file under content/", lambda a: absent(a, "manual/draft/index.html", "untracked-draft-7781"))
    attack(tally, "ignored file under content/", lambda a: absent(a, "private/creds.txt", "hunter2-ignored"))
    return tally


# -- YAML values (R5) -------------------------------------------------------------------------------

YAML_VALUES = {
    "2024-02-30": "day: 2024-02-30",
    "!!float abc": "x: !!float abc",
    "!!int 0b102": "n: !!int 0b102",
    "a 4,301-digit integer": "n: " + "9" * 4301,
    '"\\ud800"': 's: "\\ud800"',
}


def bad_frontmatter(a: Attempt, root: Path, line: str) -> None:
    """The value on line 4 of a source: hook and check --staged (staged), then check, plan, compile
    and status (committed) name the file at that line; nothing is published."""
    repo = GitRepo(root)
    repo.commit({f"{K}/pods.md": GOOD})
    bad = f"{K}/bad.md"
    repo.stage({bad: f"---\ntitle: Bad\nauthor: me\n{line}\n---\n# Bad\n\nSome text of the source.\n"})
    for args in (("hook",), ("check", "--staged")):
        expect_named(a, a.wikigen(root, *args), 1, f"{bad}:4: ", what=" ".join(args))
    repo.commit(message="bad value")
    start = kept(root)
    for args in (("check",), ("plan",), ("compile", "-q")):
        expect_named(a, a.wikigen(root, *args), 1, f"{bad}:4: ", what=" ".join(args))
    # `status` is a report: it lists an invalid source with its line and exits 0 (commands.md;
    # test_yaml_values pins it), so only the naming is judged there.
    status = a.wikigen(root, "status")
    a.expect(f"{bad}:4: " in said(status), f"status names {bad}:4", status)
    check_kept(a, root, start)


def bad_settings(a: Attempt, root: Path, line: str) -> None:
    """The value on line 3 of wikigen.yml: every command refuses, naming wikigen.yml:3."""
    repo = GitRepo(root)
    repo.commit({"wikigen.yml": f"caps:\n  anchors: 10\n{line}\n", f"{K}/pods.md": GOOD})
    start = kept(root)
    for args in COMMANDS:
        expect_named(a, a.wikigen(root, *args), 1, "wikigen.yml:3: ", what=" ".join(args))
    check_kept(a, root, start)


def yaml_values(base: Path) -> Tally:
    tally = Tally()
    for i, (label, line) in enumerate(YAML_VALUES.items()):
        attack(tally, f"{label} in frontmatter", lambda a, i=i, line=line: bad_frontmatter(a, base / f"yaml-src{i}", line))
    for i, (label, line) in enumerate(YAML_VALUES.items()):
        attack(tally, f"{label} in wikigen.yml", lambda a, i=i, line=line: bad_settings(a, base / f"yaml-cfg{i}", line))
    return tally


# -- git environment (R34, R42) ---------------------------------------------------------------------

BROKEN = "---\ntitle: Broken\ntags: [a, b\n---\nA body long enough to be a passage of its own, it is.\n"
BETTER = source("Concept Alpha: the first letter of the alphabet, and a passage of its own.\n", title="A")


def git_dir_elsewhere(a: Attempt, base: Path) -> None:
    """R42: GIT_DIR at another repository during a compile: refused naming the variable, and neither
    repository's refs (notes included), index bytes or work tree moves."""
    one, other = GitRepo(base / "gitdir-one"), GitRepo(base / "gitdir-other")
    seeded(one)
    seeded(other)
    before = {"one": git_state(one), "other": git_state(other)}
    start = kept(one.root)
    run = a.wikigen(one.root, "compile", "-q", env={"GIT_DIR": str(other.root / ".git")})
    expect_named(a, run, 1, "GIT_DIR", "unset GIT_DIR", what="compile")
    for name, repo in (("one", one), ("other", other)):
        now = git_state(repo)
        a.lost += [f"{name}'s {part} changed" for part in now if now[part] != before[name][part]]
    check_kept(a, one.root, start)


def hooked_commit(a: Attempt, root: Path, command: tuple[str, ...]) -> None:
    """R34: a source broken in the work tree only, committed past the index through the real hook:
    refused naming the file and line, HEAD kept; the fixed source then goes in."""
    repo = GitRepo(root)
    hooks = root.parent / f"{root.name}-hooks"
    hooks.mkdir()
    hook = hooks / "pre-commit"
    hook.write_text(f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(ROOT))} exec {shlex.quote(sys.executable)} -m wikigen hook\n")
    hook.chmod(0o755)
    repo.commit({f"{K}/a.md": source("Concept Alpha: the first letter, and a body long enough to be a passage.\n", title="A")})
    git(root, "config", "core.hooksPath", str(hooks))
    start = kept(root)
    repo.write({f"{K}/a.md": BROKEN})
    refused = a.git(root, *command)
    expect_named(a, refused, 1, f"{K}/a.md:4: ", "commit refused", what=f"git {' '.join(command)}")
    check_kept(a, root, start)
    repo.write({f"{K}/a.md": BETTER})
    accepted = a.git(root, *command)
    a.expect(accepted.code == 0 and git(root, "show", f"HEAD:{K}/a.md").stdout == BETTER,
             "the fixed source is then committed", accepted)


def git_environment(base: Path) -> Tally:
    tally = Tally()
    attack(tally, "GIT_DIR at another repo during compile", lambda a: git_dir_elsewhere(a, base))
    commits = {"git commit -a": ("commit", "-a", "-m", "edit"), "git commit PATH": ("commit", "-m", "edit", f"{K}/a.md"),
               "git commit --only PATH": ("commit", "--only", "-m", "edit", f"{K}/a.md")}
    for i, (label, command) in enumerate(commits.items()):
        attack(tally, f"broken source by {label} through the hook",
               lambda a, i=i, command=command: hooked_commit(a, base / f"hooked{i}", command))
    return tally


# -- settings and arguments (R5, R41) ---------------------------------------------------------------


def refused_everywhere(a: Attempt, root: Path, files: Mapping[str, str | bytes], env: Mapping[str, str],
                       *needles: str, elsewhere: str | None = None) -> None:
    """Every command that reads the settings exits 1 naming ``needles`` (and never ``elsewhere``,
    where a problem would be blamed on the wrong place); HEAD kept."""
    repo = GitRepo(root)
    repo.commit({f"{K}/pods.md": GOOD, **files})
    start = kept(root)
    for args in COMMANDS:
        run = a.wikigen(root, *args, env=env)
        expect_named(a, run, 1, *needles, what=" ".join(args))
        a.expect(elsewhere is None or elsewhere not in run.err, f"{' '.join(args)}: not blamed on {elsewhere}", run)
    check_kept(a, root, start)


def escaped_file_name(a: Attempt, root: Path) -> None:
    """R41: a file name holding OSC 0 is printed escaped by check (invalid) and plan (valid)."""
    repo = GitRepo(root)
    name = f"{K}/{PWNED}.md"
    repo.commit({f"{K}/pods.md": GOOD, name: ""})  # empty: an invalid source
    start = kept(root)
    check = a.wikigen(root, "check")
    expect_named(a, check, 1, f"{K}/{SHOWN}.md:1: ", what="check")
    check_kept(a, root, start)
    repo.commit({name: source(f"# Pwned\n{BODY}", title="Pwned")})
    start = kept(root)
    plan = a.wikigen(root, "plan")
    expect_named(a, plan, 0, f"knowledge/{SHOWN}", what="plan")
    plan_json = a.wikigen(root, "plan", "--json")
    a.expect(plan_json.code == 0, "plan --json exits 0", plan_json)
    for run, what in ((check, "check"), (plan, "plan"), (plan_json, "plan --json")):
        a.raw(run, what)
    check_kept(a, root, start)


def titled(a: Attempt, root: Path) -> Path:
    """A compiled repository whose source's title holds OSC 0 (made by the first attack that asks)."""
    if not root.exists():
        GitRepo(root).commit({f"{K}/pods.md": GOOD, f"{K}/pwned.md": source(f"# Pwned\n{BODY}", title=PWNED)})
        compiled = a.wikigen(root, "compile", "-q")
        a.expect(compiled.code == 0, "setup: the source with the title compiles", compiled)
        a.raw(compiled, "compile")
    return root


def escaped_title(a: Attempt, root: Path) -> None:
    """R41: a title holding OSC 0 is printed escaped by search, and `search --json` holds no raw
    control character."""
    start = kept(titled(a, root))
    text = a.wikigen(root, "search", "what does a terminal show for a pwned title")
    expect_named(a, text, 0, SHOWN, what="search")
    as_json = a.wikigen(root, "search", "pwned title", "--json")
    a.expect(as_json.code == 0, "search --json exits 0", as_json)
    a.raw(text, "search")
    a.raw(as_json, "search --json")
    check_kept(a, root, start)


def search_at_garbage(a: Attempt, root: Path) -> None:
    """`search --at garbage` says it names no snapshot version or commit, and how to list them."""
    start = kept(titled(a, root))
    run = a.wikigen(root, "search", "--at", "garbage", "pods")
    expect_named(a, run, 2, "no snapshot version or commit 'garbage'", "`git log --oneline`", what="search --at garbage")
    check_kept(a, root, start)


def files_in(root: Path) -> list[str]:
    """Every path of the work tree, .git left out."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.relative_to(root).parts[0] != ".git")


def init_link(a: Attempt, base: Path) -> None:
    """`wikigen init` into a repo whose .gitignore links to a file outside: refused naming the link and
    its target; nothing written, outside or in the repo."""
    outside = base / "init-outside"
    outside.mkdir()
    victim = outside / "victim.txt"
    victim.write_text("someone else's file\n", encoding="utf-8")
    root = base / "init-repo"
    GitRepo(root)
    os.symlink(victim, root / ".gitignore")
    listing = files_in(root)
    run = a.wikigen(root, "init", str(root), "--install-spec", "wikigen-compiler==0.1.0")
    expect_named(a, run, 1, f".gitignore is a symbolic link to {victim}", "wrote nothing", what="init")
    if victim.read_text(encoding="utf-8") != "someone else's file\n":
        a.lost.append(f"init wrote through the link into {victim}")
    after = files_in(root)
    a.expect(after == listing, f"init wrote nothing in the repo, yet it holds {sorted(set(after) - set(listing))}")


def settings(base: Path) -> Tally:
    tally = Tally()
    for value in ("nan", "inf"):
        attack(tally, f"WIKIGEN_DEADLINE={value}", lambda a, value=value: refused_everywhere(
            a, base / f"deadline-{value}", {}, {"WIKIGEN_DEADLINE": value}, "WIKIGEN_DEADLINE", f"got {value!r}",
            elsewhere="wikigen.yml"))
    attack(tally, "WIKIGEN_CAPS_INPUT_BYTES=abc", lambda a: refused_everywhere(
        a, base / "caps", {}, {"WIKIGEN_CAPS_INPUT_BYTES": "abc"}, "the environment variable WIKIGEN_CAPS_INPUT_BYTES",
        elsewhere="wikigen.yml"))
    attack(tally, "non-UTF-8 wikigen.yml", lambda a: refused_everywhere(
        a, base / "latin1", {"wikigen.yml": b"caps:\n  anchors: 10\n# caf\xe9\n"}, {},
        "wikigen.yml:3: not valid UTF-8"))
    attack(tally, "wikigen.yml is a folder", lambda a: refused_everywhere(
        a, base / "folder", {"wikigen.yml/notes.txt": "settings go here?\n"}, {},
        f"{base / 'folder' / 'wikigen.yml'} is a folder"))

    def outside(a: Attempt) -> None:
        root = base / "outside-repo"
        GitRepo(root).commit({f"{K}/pods.md": GOOD})
        stray = base / "outside.md"
        stray.write_text("---\ntitle: [\n---\nbody\n", encoding="utf-8")
        expect_named(a, a.wikigen(root, "check", str(stray)), 2, f"{stray} is outside the repository", what="check")

    attack(tally, "check /tmp/…/outside.md", outside)
    attack(tally, "search --at garbage", lambda a: search_at_garbage(a, base / "titled"))
    attack(tally, "ESC in a file name: check, plan", lambda a: escaped_file_name(a, base / "escaped-name"))
    attack(tally, "ESC in a title: search", lambda a: escaped_title(a, base / "titled"))
    attack(tally, "init with .gitignore linked outside", lambda a: init_link(a, base))
    return tally


# Family keys for --only, in the table's order; the long ones are what --skip-long leaves out.
LONG = ("kill", "int", "race", "disk")
COMPILES = (*LONG, "locks", "readonly")  # families judged by judge(): a published row applies


def families(args: argparse.Namespace, base: Path) -> dict[str, tuple[str, Callable[[], Tally | None]]]:
    """Every family: its key → (its row's name, the function that runs it)."""
    rng = random.Random(args.seed)
    mount = can_mount(base)
    kind = "tmpfs, ENOSPC" if mount else "RLIMIT_FSIZE stand-in, EFBIG"
    return {
        "kill": (f"SIGKILL at random moments ×{args.kills}", lambda: sigkill(base, rng, args.kills)),
        "int": (f"SIGINT at random moments ×{args.kills}", lambda: sigint(base, rng, args.kills)),
        "race": (f"two compiles racing ×{args.races}", lambda: races(base, args.races)),
        "disk": (f"disk full at each phase ({kind})", lambda: full_disk(base, mount)),
        "locks": ("stale .lock files (index, notes, branch)", lambda: stale_locks(base)),
        "readonly": ("read-only repository (bind mount)", lambda: read_only(base) if mount else None),
        "privacy": ("privacy changes (R39)", lambda: privacy(base)),
        "names": ("names (R40)", lambda: names(base)),
        "files": ("non-Markdown files (R41)", lambda: files(base)),
        "yaml": ("YAML values (R5)", lambda: yaml_values(base)),
        "gitenv": ("git environment (R34, R42)", lambda: git_environment(base)),
        "settings": ("settings and arguments (R5, R41)", lambda: settings(base)),
    }


def run_family(run: Callable[[], Tally | None]) -> Tally | None:
    try:
        return run()
    except Exception as exc:  # a family that stops is a row that says so, not a lost table
        return Tally(tried=1, notes=[f"the family stopped: {type(exc).__name__}: {visible(str(exc))[:300]}"])


def print_table(rows: list[tuple[str, str, Tally]]) -> Tally:
    width = max(len(name) for _, name, _ in rows)
    header = f"{'attack':<{width}}  tried  handled cleanly  tracebacks  data lost  leaks"
    print(header)
    print("-" * len(header))
    for _, name, t in rows:
        print(f"{name:<{width}}  {t.tried:>5}  {t.clean:>15}  {t.tracebacks:>10}  {t.lost:>9}  {t.leaks:>5}")
    total = Tally(*(sum(getattr(t, k) for _, _, t in rows) for k in ("tried", "clean", "tracebacks", "lost", "leaks")))
    print("-" * len(header))
    print(f"{'total':<{width}}  {total.tried:>5}  {total.clean:>15}  {total.tracebacks:>10}  {total.lost:>9}  {total.leaks:>5}")
    compiles = [(name, t) for key, name, t in rows if key in COMPILES]
    if compiles:
        print("published / old snapshot kept, per attack: "
              + "; ".join(f"{name.split(' ')[0]} {t.published}/{t.tried - t.published}" for name, t in compiles))
    for _, name, t in rows:
        for note in t.notes:
            print(f"  {name}: {note}")
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--only", metavar="NAMES", help="a comma list of family keys to run, of: kill, int, "
                        "race, disk, locks, readonly, privacy, names, files, yaml, gitenv, settings")
    parser.add_argument("--skip-long", action="store_true", help=f"leave out the long families ({', '.join(LONG)})")
    args = parser.parse_args(argv)
    rows: list[tuple[str, str, Tally]] = []
    with tempfile.TemporaryDirectory(prefix="wikigen-attack-") as tmp:
        every = families(args, Path(tmp))
        chosen = [k.strip() for k in args.only.split(",") if k.strip()] if args.only else list(every)
        unknown = [k for k in chosen if k not in every]
        if unknown:
            parser.error(f"unknown family {', '.join(unknown)}; the families are {', '.join(every)}")
        for key in every:
            if key in chosen and not (args.skip_long and key in LONG):
                name, run = every[key]
                tally = run_family(run)
                if tally is not None:
                    rows.append((key, name, tally))
    if not rows:
        parser.error("no family left to run")
    total = print_table(rows)
    return 0 if total.clean == total.tried else 1


if __name__ == "__main__":
    raise SystemExit(main())
