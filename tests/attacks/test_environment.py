"""R33: environmental failures (read-only repo, locks, full disk) are worded as the
machine's fault with the fix, never "internal error … report it"; and every failure path writes the
note the manual promises (content/manual/engines.md: "Ctrl-C or the deadline stops the request in
flight; nothing is published either way, and the failure is recorded as a git note") — a hostile
server's deeply nested JSON and SIGINT included.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.attacks.test_publish_truth import K, cli_compile, run_advice, seeded
from tests.conftest import GitRepo, source
from tests.corpora import REPO_ROOT
from tests.fake_openai import FakeOpenAI, Reply


def note(repo: GitRepo, commit: str) -> dict:  # type: ignore[type-arg]
    return json.loads(repo.git("notes", "--ref=wikigen", "show", commit).stdout)


def test_deeply_nested_json_from_a_server_fails_cleanly_with_a_note(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
):
    """R33: a server answers 100,000 nested arrays — an engine failure that says what to
    check (no "internal error", no RecursionError), exit 1, HEAD kept, and the failure note written."""
    head = git_repo.commit({f"{K}/a.md": source("Concept Alpha: the first thing.\n", title="A")})
    for var in ("WIKIGEN_ENGINE", "WIKIGEN_DEADLINE"):
        monkeypatch.delenv(var, raising=False)
    depth = 100_000
    with FakeOpenAI() as server:
        monkeypatch.setenv("WIKIGEN_BASE_URL", server.url)
        monkeypatch.setenv("WIKIGEN_MODEL", "m")
        server.push(Reply(200, "[" * depth + "]" * depth))
        result = git_repo.wikigen("compile", "--engine", "http")
    assert result.code == 1, result.err
    assert "nested too deeply" in result.err and "internal error" not in result.err
    assert git_repo.head() == head
    recorded = note(git_repo, head)
    assert recorded["status"] == "failed" and "nested too deeply" in recorded["error"]


def test_sigint_during_a_compile_writes_the_failure_note(git_repo: GitRepo, tmp_path: Path):
    """R33: Ctrl-C (SIGINT) while the engine works — exit 130, "interrupted; nothing was
    published", a note on the source commit; Ctrl-C judges no source, so the next compile runs
    without --retry."""
    source_commit = seeded(git_repo)
    ready = tmp_path / "engine-called"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.compile_script", str(git_repo.root), "30"],
        cwd=REPO_ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "WIKIGEN_TEST_CLI": "1", "WIKIGEN_TEST_READY": str(ready)},
    )
    deadline = time.monotonic() + 60
    while not ready.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "nothing was published" in err and "Traceback" not in err
    assert git_repo.head() == source_commit
    recorded = note(git_repo, source_commit)
    assert recorded["status"] == "failed" and recorded["retryable"] is True and "interrupted" in recorded["error"]
    again = cli_compile(git_repo)
    assert again.returncode == 0, again.stderr
    assert git_repo.head() != source_commit and note(git_repo, source_commit)["status"] == "ok"


def test_sigint_outside_the_compile_is_interrupted_not_aborted(capsys: pytest.CaptureFixture[str]):
    """A Ctrl-C outside the compile's own handling (start-up, printing), which click turns into
    Abort, exits 130 as "interrupted" with what to do — never "aborted", exit 1, with nothing to do
    (scripts/attack.py, SIGINT row)."""
    import click

    from wikigen.cli import run

    @click.command()
    def slow() -> None:
        raise KeyboardInterrupt

    assert run(slow, []) == 130
    err = capsys.readouterr().err
    assert "interrupted (Ctrl-C)" in err and "`wikigen status`" in err and "aborted" not in err


@pytest.fixture
def read_only(git_repo: GitRepo, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The repo seen through a read-only bind mount (needs root, as a CI container usually is)."""
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    view = tmp_path / "read-only"
    view.mkdir()
    mounted = subprocess.run(["mount", "--bind", str(git_repo.root), str(view)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"mount --bind is not permitted here: {mounted.stderr!r}")
    try:
        remount = subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], capture_output=True)
        if remount.returncode != 0:
            pytest.skip(f"a read-only remount is not permitted here: {remount.stderr!r}")
        yield view
    finally:
        subprocess.run(["umount", str(view)], check=True)


def test_read_only_repo_is_worded_as_the_machines_fault(git_repo: GitRepo, read_only: Path):
    """R31: compile in a repo on a read-only file system — exit 1, "read-only file system" and
    what to do, "Nothing was published"; never "internal error … report it"."""
    source_commit = seeded(git_repo)
    view = GitRepo.__new__(GitRepo)
    view.root = read_only
    result = cli_compile(view)
    assert result.returncode == 1
    assert "read-only file system" in result.stderr and "writable clone" in result.stderr, result.stderr
    assert "Nothing was published" in result.stderr and "internal error" not in result.stderr
    assert git_repo.head() == source_commit


@pytest.fixture
def small_disk(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A 16 MiB tmpfs: a real file system that fills up (needs root, as a CI container usually is)."""
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("mounting a tmpfs is not permitted here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


@pytest.mark.parametrize("free_kib", [0, 8, 24])
def test_a_really_full_disk_is_worded_as_such_at_every_phase(small_disk: Path, free_kib: int):
    """R31: ENOSPC from a full tmpfs, with 0, 8 or 24 KiB left — libgit2 reports some
    of these as "object not found"; either way the message says the disk is full and whether it was
    published, never "internal error", and after freeing space one compile lands."""
    repo = GitRepo(small_disk / "repo")
    seeded(repo)
    rng = random.Random(15)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 9))) for _ in range(2000)]
    source_commit = repo.commit({f"{K}/big.md": source(" ".join(rng.choice(words) for _ in range(4500)) + ".\n",
                                                       title="Big")})
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * max(0, shutil.disk_usage(small_disk).free - free_kib * 1024))
    result = cli_compile(repo)
    filler.unlink()
    assert "the disk is full" in result.stderr and "internal error" not in result.stderr, result.stderr
    if result.returncode == 0:
        assert "is published" in result.stderr and repo.head() != source_commit
    else:
        assert result.returncode == 1 and "Nothing was published" in result.stderr and repo.head() == source_commit
    run_advice(repo, result.stderr)
    again = cli_compile(repo)
    assert again.returncode == 0, again.stderr
    assert repo.git("status", "--porcelain", "--", "content").stdout == ""
    assert repo.git("fsck", "--strict", "--no-dangling").returncode == 0
