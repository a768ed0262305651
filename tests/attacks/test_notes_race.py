"""R33: a failed attempt never overwrites another process's note of success on the same source
commit — the note is set by compare-and-swap on refs/notes/wikigen, re-read and re-decided when
another writer moved the ref. And a lost race, like Ctrl-C or a full disk, is recorded but
never makes the next compile of the same sources refuse as "failed before".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.attacks.test_publish_truth import seeded
from tests.conftest import GitRepo
from tests.corpora import REPO_ROOT
from wikigen.model.errors import ConflictError, LockHeld, ValidationError
from wikigen.store.git import GitStore
from wikigen.store.notes import NOTES_REF
from wikigen.store.publish import record_failure, record_outcome

OK = {"status": "ok", "snapshot": 2}


def spawn(repo: GitRepo, pause: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.compile_script", str(repo.root), str(pause)],
        cwd=REPO_ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ),
    )


def note(repo: GitRepo, commit: str) -> dict:  # type: ignore[type-arg]
    return json.loads(repo.git("notes", "--ref=wikigen", "show", commit).stdout)


def test_the_losing_racer_never_overwrites_the_winners_ok_note(make_repo):  # type: ignore[no-untyped-def]
    """R30, R33: two compiles race from one source commit, five times; exactly one publishes and
    the source commit's note stays the winner's "ok", never the loser's "failed"."""
    for _ in range(5):
        repo = make_repo()
        source_commit = seeded(repo)
        racers = [spawn(repo, 0.5), spawn(repo, 0.5)]
        outs = [p.communicate(timeout=120) for p in racers]
        assert sorted(p.returncode for p in racers) == [0, 1], outs
        assert repo.git("rev-list", "--count", f"{source_commit}..HEAD").stdout.strip() == "1"
        assert note(repo, source_commit)["status"] == "ok", outs
        assert repo.git("fsck", "--strict", "--no-dangling").returncode == 0


def test_a_failure_rereads_the_note_when_another_writer_moved_the_ref(git_repo: GitRepo):
    """R33: the winner's "ok" lands between the loser's read and its write: the loser's
    compare-and-swap fails, it reads the note again, sees the success and writes nothing."""
    commit = git_repo.commit({"a.txt": "a\n"})
    loser, winner = GitStore(git_repo.root), GitStore(git_repo.root)
    decisions: list[str | None] = []

    def replaces(current: str | None) -> bool:
        decisions.append(current)
        if len(decisions) == 1:  # the other process's success lands now
            record_outcome(winner, commit, OK)
        return current is None or json.loads(current)["status"] != "ok"

    assert loser.write_note(commit, '{"status": "failed"}\n', replaces=replaces) is False
    assert decisions[0] is None and json.loads(decisions[1] or "")["status"] == "ok"
    assert note(git_repo, commit) == OK
    record_failure(loser, commit, {"sourcesTree": "t"}, ConflictError("the snapshot moved; compile again"))
    assert note(git_repo, commit) == OK
    record_outcome(loser, commit, {**OK, "snapshot": 3})  # a success replaces anything
    assert note(git_repo, commit)["snapshot"] == 3
    log = git_repo.git("log", "--format=%P", NOTES_REF).stdout.split("\n")
    assert len([p for p in log if p]) == 1  # one linear history: each write has the one before as parent


def test_a_lock_another_writer_holds_a_moment_is_waited_for(git_repo: GitRepo):
    """R33: the other compile holds refs/notes/wikigen.lock for a moment while it writes its
    note; this writer waits and writes its own, instead of giving up on a "stale lock" (the CI run
    where the winner's "ok" was never written)."""
    commit = git_repo.commit({"a.txt": "a\n"})
    store = GitStore(git_repo.root)
    record_outcome(store, commit, {"status": "failed"})
    lock = Path(store.repo.path) / (NOTES_REF + ".lock")
    lock.write_text("")
    threading.Timer(0.05, lock.unlink).start()
    assert record_outcome(store, commit, OK) is None
    assert note(git_repo, commit) == OK


def test_a_lock_left_by_a_killed_writer_is_still_the_machines_error(git_repo: GitRepo):
    """R33: a lock nobody releases is named, with its repair, once the waits run out."""
    commit = git_repo.commit({"a.txt": "a\n"})
    store = GitStore(git_repo.root)
    record_outcome(store, commit, {"status": "failed"})
    lock = Path(store.repo.path) / (NOTES_REF + ".lock")
    lock.write_text("")
    with pytest.raises(LockHeld, match=r"wikigen\.lock exists"):
        store.write_note(commit, "{}\n")
    assert note(git_repo, commit) == {"status": "failed"}


def test_a_note_in_a_fanned_out_notes_tree_is_replaced_not_doubled(git_repo: GitRepo):
    """R33 (a guard for the compare-and-swap writer, which builds the notes tree itself): git
    fans notes out (`ab/cdef…`) in large notes trees; the note there is replaced, never doubled."""
    commit = git_repo.commit({"a.txt": "a\n"})
    store = GitStore(git_repo.root)
    tree = store.build_tree(store.commit_tree(None), {f"{commit[:2]}/{commit[2:]}": b'{"status": "failed"}\n'})
    notes = store.create_commit(tree, [], "fanned out\n")
    store.move_ref(NOTES_REF, notes, None)
    assert note(git_repo, commit) == {"status": "failed"}
    record_outcome(store, commit, OK)
    assert note(git_repo, commit) == OK
    listed = git_repo.git("ls-tree", "-r", "--name-only", NOTES_REF).stdout.split()
    assert [path.replace("/", "") for path in listed] == [commit]
    assert git_repo.git("fsck", "--strict", "--no-dangling").returncode == 0


def test_a_lost_race_is_recorded_but_never_refuses_the_same_sources(git_repo: GitRepo):
    """R33: the loser's note says what happened (retryable), and the next compile of
    the same sources runs without --retry; a real failure (validation) still refuses."""
    source_commit = seeded(git_repo)
    store = GitStore(git_repo.root)
    record_failure(store, source_commit, {"sourcesTree": "x"}, ConflictError("the snapshot moved; compile again"))
    assert note(git_repo, source_commit)["retryable"] is True
    from wikigen.compiler.driver import config_key
    from wikigen.store.publish import previous_failure
    from wikigen.store.workspace import Workspace

    ws = Workspace.open(git_repo.root)
    tree = ws.plan().sources_tree
    key = config_key(ws.config)
    record = {"sourcesTree": tree, "configKey": key, "mode": "single"}
    record_failure(store, source_commit, record, ConflictError("moved"))
    assert previous_failure(store, source_commit, tree, key, "single", sources_dir="content/sources") is None
    record_failure(store, source_commit, record, ValidationError(["bad quote"]))
    refused = previous_failure(store, source_commit, tree, key, "single", sources_dir="content/sources")
    assert refused is not None and refused["retryable"] is False and "bad quote" in refused["error"]
