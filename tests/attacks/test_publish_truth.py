"""R31, R33: publish tells the truth. Once the branch ref has moved the snapshot is published
(exit 0), and what failed after it — the note, the work tree — is a warning with the command that
repairs it; before it moved, nothing was published. Every repair advice is tested by running it.

Each test builds a real git repo and runs the real CLI in its own process (tests.compile_script with
WIKIGEN_TEST_CLI=1: `wikigen compile` with the scripted engine), so a SIGKILL or a file-size limit
hits a real process.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import subprocess
import sys

import pytest

from tests.conftest import GIT_ENV, GitRepo, source
from tests.corpora import REPO_ROOT
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine

K = "content/sources/knowledge"


def seeded(repo: GitRepo, *, withdraw: bool = False) -> str:
    """A compiled repo with a new source commit on top (a withdrawal removes object files too)."""
    repo.commit(
        {
            f"{K}/s{i}.md": source(f"Concept Thing{i}: thing number {i}.\n\nREL Thing{i} -uses-> Thing{(i + 1) % 4}.\n",
                                   title=f"S{i}")
            for i in range(4)
        }
    )
    compile_repo(repo.root, engine=ScriptedEngine(extract))
    change: dict[str, str | None] = {f"{K}/s1.md": source("Concept Thing1: changed.\n", title="S1")}
    if withdraw:
        change[f"{K}/s3.md"] = None
    return repo.commit(change)


def cli_compile(repo: GitRepo, env: dict[str, str] | None = None, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if fsize is not None:  # a real kernel error (EFBIG) where a full disk gives ENOSPC
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "tests.compile_script", str(repo.root)],
        cwd=REPO_ROOT,
        text=True,
        capture_output=True,
        env={**os.environ, "WIKIGEN_TEST_CLI": "1", **(env or {})},
        preexec_fn=limit,
        timeout=120,
    )


def run_advice(repo: GitRepo, message: str) -> list[str]:
    """Run every `command` the message gives, in order, in the repo root, as a user would paste it."""
    commands = re.findall(r"`([^`]+)`", message)
    for command in commands:
        done = subprocess.run(command, shell=True, cwd=repo.root, text=True, capture_output=True,
                              env={**os.environ, **GIT_ENV})
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    return commands


def generated_status(repo: GitRepo) -> str:
    return repo.git("status", "--porcelain", "--", "content/wiki", "content/.wikigen").stdout


def note(repo: GitRepo, commit: str) -> dict:  # type: ignore[type-arg]
    return json.loads(repo.git("notes", "--ref=wikigen", "show", commit).stdout)


def assert_published_and_clean(repo: GitRepo, source_commit: str) -> None:
    assert generated_status(repo) == ""
    assert repo.wikigen("verify").code == 0
    again = cli_compile(repo)
    assert again.returncode == 0 and "nothing to compile" in again.stdout, again.stderr
    assert note(repo, source_commit)["status"] == "ok"


def test_stale_notes_lock_after_the_ref_moved_is_published_with_a_note_warning(git_repo: GitRepo):
    """R33: a stale refs/notes/wikigen.lock — the branch moves, so exit 0; the unwritten note
    is a warning whose commands (remove the lock, write the note) work when run."""
    source_commit = seeded(git_repo)
    lock = git_repo.root / ".git/refs/notes/wikigen.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")
    result = cli_compile(git_repo)
    assert result.returncode == 0, result.stderr
    assert git_repo.head() != source_commit
    assert "nothing was published" not in result.stderr.lower() and "internal error" not in result.stderr
    warning = result.stderr
    assert "warning: the snapshot is published, but its note" in warning and "wikigen.lock" in warning
    commands = run_advice(git_repo, warning)
    assert commands[0].startswith("rm ") and commands[-1].startswith("git notes --ref=wikigen add -f -m")
    assert_published_and_clean(git_repo, source_commit)


def test_stale_index_lock_after_the_ref_moved_is_published_with_a_work_tree_warning(git_repo: GitRepo):
    """R31: a stale .git/index.lock — exit 0, no "failed" note; the warning names the lock and
    `git checkout --no-overlay HEAD -- …`, and running them leaves a clean, verified work tree."""
    source_commit = seeded(git_repo, withdraw=True)
    (git_repo.root / ".git/index.lock").write_text("")
    result = cli_compile(git_repo)
    assert result.returncode == 0, result.stderr
    assert "work tree was not updated" in result.stderr and "index.lock" in result.stderr
    assert note(git_repo, source_commit)["status"] == "ok"  # not "failed": it published
    commands = run_advice(git_repo, result.stderr)
    assert commands[-1] == "git checkout --no-overlay HEAD -- content/wiki content/.wikigen"
    assert_published_and_clean(git_repo, source_commit)


def test_full_disk_during_the_work_tree_update_is_published_with_a_warning(git_repo: GitRepo):
    """R31: the kernel refuses a work-tree file (RLIMIT_FSIZE: EFBIG, as a full disk
    gives ENOSPC) after the ref moved — exit 0, worded as the machine's fault, no half file left."""
    seeded(git_repo)
    rng = random.Random(15)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(2000)]
    line = " ".join(rng.choice(words) for _ in range(4500)) + "."  # ~31 kB raw, ~15 kB as a git object
    source_commit = git_repo.commit({f"{K}/big.md": source(line + "\n", title="Big")})
    result = cli_compile(git_repo, fsize=30_000)
    assert result.returncode == 0, result.stderr
    assert "the disk is full" in result.stderr and "internal error" not in result.stderr
    assert not list(git_repo.root.glob("content/wiki/**/*.wikigen-tmp"))
    assert run_advice(git_repo, result.stderr) == ["git checkout --no-overlay HEAD -- content/wiki content/.wikigen"]
    assert_published_and_clean(git_repo, source_commit)


def test_full_disk_before_the_ref_moved_says_nothing_was_published(git_repo: GitRepo):
    """R31, R33: a git object the kernel refuses (before the ref moves) — exit 1, "the disk
    is full … Nothing was published", HEAD unchanged, and the next compile is not refused."""
    seeded(git_repo)
    rng = random.Random(7)
    text = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(30_000))
    source_commit = git_repo.commit({f"{K}/noise.md": source(text[:15_000] + ".\n", title="Noise")})
    result = cli_compile(git_repo, fsize=4_000)
    assert result.returncode == 1
    assert "the disk is full" in result.stderr and "Nothing was published" in result.stderr, result.stderr
    assert "internal error" not in result.stderr
    assert git_repo.head() == source_commit
    assert note(git_repo, source_commit)["retryable"] is True
    again = cli_compile(git_repo)  # no --retry: a full disk judges no source (R33)
    assert again.returncode == 0, again.stderr
    assert git_repo.head() != source_commit


@pytest.mark.parametrize("point", ["kill-after-ref", "kill-during-worktree"])
def test_kill_after_the_ref_moved_the_recovery_advice_works(git_repo: GitRepo, point: str):
    """R31: SIGKILL right after the ref moved (index and work tree still the old snapshot, and
    the new one withdrew files). The next compile refuses with `git checkout --no-overlay HEAD -- …`,
    which cleans the work tree; `git checkout -- …` and the overlay form leave it dirty."""
    source_commit = seeded(git_repo, withdraw=True)
    killed = cli_compile(git_repo, env={"WIKIGEN_FAULT": point})
    assert killed.returncode == -9
    assert git_repo.head() != source_commit  # the ref had moved: published
    refused = cli_compile(git_repo)
    assert refused.returncode == 1
    [advice] = re.findall(r"`([^`]+)`", refused.stderr)
    assert advice.startswith("git checkout --no-overlay HEAD -- content/wiki"), refused.stderr
    for wrong in (advice.replace("--no-overlay HEAD ", ""), advice.replace("--no-overlay ", "")):
        git_repo.git(*wrong.split()[1:])
        assert generated_status(git_repo) != "", wrong  # restores the stale index, or keeps withdrawn files
    run_advice(git_repo, refused.stderr)
    assert generated_status(git_repo) == ""
    assert repo_compiles_nothing(git_repo)
    assert git_repo.wikigen("verify").code == 0


def repo_compiles_nothing(repo: GitRepo) -> bool:
    again = cli_compile(repo)
    return again.returncode == 0 and "nothing to compile" in again.stdout


def test_stale_branch_lock_before_the_ref_moved_says_nothing_was_published(git_repo: GitRepo):
    """R31: refs/heads/main.lock left by a killed git — exit 1, the lock named with
    its `rm`, "Nothing was published", no internal error; after running the advice the compile lands."""
    source_commit = seeded(git_repo)
    (git_repo.root / ".git/refs/heads/main.lock").write_text("")
    result = cli_compile(git_repo)
    assert result.returncode == 1
    assert "main.lock exists" in result.stderr and "Nothing was published" in result.stderr, result.stderr
    assert "internal error" not in result.stderr and git_repo.head() == source_commit
    run_advice(git_repo, result.stderr)
    again = cli_compile(git_repo)  # no --retry: a stale lock judges no source (R33)
    assert again.returncode == 0, again.stderr
    assert git_repo.head() != source_commit


def test_ctrl_c_the_moment_the_ref_moved_is_published_with_a_warning(git_repo: GitRepo):
    """R31: SIGINT arrives as the ref moves (held until the move is recorded) — exit 0, a
    warning that Ctrl-C stopped the work-tree update with its command, which works when run."""
    source_commit = seeded(git_repo, withdraw=True)
    result = cli_compile(git_repo, env={"WIKIGEN_FAULT": "sigint-ref-moved"})
    assert result.returncode == 0, result.stderr
    assert "Ctrl-C stopped the work-tree update" in result.stderr and "nothing was published" not in result.stderr
    assert git_repo.head() != source_commit
    run_advice(git_repo, result.stderr)
    assert_published_and_clean(git_repo, source_commit)


def test_a_batch_that_fails_late_says_what_it_published(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch):
    """R16, R31: with --batch, an increment that fails after earlier ones published says that the
    run's snapshot stays published (exit 1: the run did not finish), not only "nothing was published"."""
    from wikigen.model.errors import EngineError

    git_repo.commit({f"{K}/s{i:02}.md": source(f"Body of source number {i} with some words.\n" * 3, title=f"S{i}")
                     for i in range(12)})
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", "2000")
    calls: list[str] = []

    def fails_third_increment(stage, request):  # type: ignore[no-untyped-def]
        calls.append(stage)
        if calls.count("analyze") == 3:
            raise EngineError("analyze: the server went away; nothing was published")
        return extract(stage, request)

    with pytest.raises(EngineError) as caught:
        compile_repo(git_repo.root, engine=ScriptedEngine(fails_third_increment), batch=True)
    assert "Snapshot 2 of this run's earlier increments stays published." in caught.value.message
    assert git_repo.git("log", "-1", "--format=%an").stdout.strip() == "wikigen"


def test_push_prints_the_warnings_of_what_it_published(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):  # type: ignore[no-untyped-def]
    """R31, R34: `wikigen push` (CI's checkpoint) with a stale .git/index.lock — the compile
    publishes, the push goes through (exit 0), and the work-tree warning with its command is printed."""
    import wikigen.compiler.driver
    from wikigen.cli import main

    bare, work = tmp_path / "remote.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    repo = GitRepo(work)
    repo.commit({f"{K}/a.md": source("Concept Alpha: first.\n", title="A")})
    repo.git("remote", "add", "origin", str(bare))
    repo.git("push", "-q", "origin", "HEAD:main")
    (work / ".git/index.lock").write_text("")
    monkeypatch.setattr(wikigen.compiler.driver, "make_engine", lambda config: ScriptedEngine(extract))
    code = main(["-C", str(work), "push"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "warning: snapshot commit" in err and "git checkout --no-overlay HEAD -- content/wiki" in err
    assert repo.git("rev-parse", "HEAD").stdout == subprocess.run(
        ["git", "rev-parse", "main"], cwd=bare, text=True, capture_output=True).stdout
