"""Plan: R3–R11 and R35–R36 on real temporary git repos."""

from __future__ import annotations

import json

from tests.conftest import GitRepo, source
from wikigen.model.hashing import fingerprint
from wikigen.model.snapshot import SNAPSHOT_PATH

K = "content/sources/knowledge"
T = "content/sources/tasks"


def body(text: str = "Plain body text for a source, long enough to matter.") -> str:
    return f"\n{text}\n"


def test_identical_tree_reads_no_blob(git_repo: GitRepo):
    """R7."""
    git_repo.commit({f"{K}/a.md": source(body(), title="A"), f"{K}/b.md": source(body(), title="B")})
    git_repo.publish_baseline()
    plan = git_repo.json("plan")
    assert plan["blobs_read"] == 0
    assert plan["added"] == plan["updated"] == plan["withdrawn"] == []
    assert plan["unchanged"] == 2 and plan["baseline_version"] == 1


def test_only_changed_blobs_are_read(git_repo: GitRepo):
    """R7."""
    files = {f"{K}/s{i}.md": source(body(f"text {i}"), title=f"S{i}") for i in range(20)}
    files[f"{K}/image.png"] = b"\x89PNG\r\n\x00\x00"  # an asset beside sources, never read or compiled
    git_repo.commit(files)
    git_repo.publish_baseline()
    git_repo.commit({f"{K}/s3.md": source(body("edited"), title="S3")})
    plan = git_repo.json("plan")
    assert plan["updated"] == ["knowledge/s3"] and plan["blobs_read"] == 1 and plan["unchanged"] == 19


def test_the_plan_lists_added_updated_and_withdrawn_sources(git_repo: GitRepo):
    """R8: the plan lists the sources added, updated and withdrawn since the baseline, with the reason."""
    git_repo.commit({f"{K}/a.md": source(body(), title="A"), f"{K}/b.md": source(body(), title="B")})
    git_repo.publish_baseline()
    git_repo.commit(
        {f"{K}/a.md": source(body("new"), title="A"), f"{K}/b.md": None, f"{K}/c.md": "# C\n\nbody\n"}
    )
    plan = git_repo.json("plan")
    assert (plan["added"], plan["updated"], plan["withdrawn"]) == (
        ["knowledge/c"],
        ["knowledge/a"],
        ["knowledge/b"],
    )
    assert plan["reasons"]["knowledge/b"] == "removed from the sources"


def test_alias_only_and_verification_only_changes_are_bookkeeping(git_repo: GitRepo):
    """R3."""
    git_repo.commit(
        {
            f"{T}/d.md": source(body(), title="D", category="decisions"),
            f"{K}/v.md": source(body(), title="V", verification="unverified"),
        }
    )
    git_repo.publish_baseline()
    git_repo.commit(
        {
            f"{T}/d.md": source(body(), title="D", category="tasks"),
            f"{K}/v.md": source(body(), title="V", verification="verified"),
        }
    )
    plan = git_repo.json("plan")
    assert plan["added"] == plan["updated"] == plan["withdrawn"] == []
    assert {b["source"] for b in plan["bookkeeping"]} == {"tasks/d", "knowledge/v"}


def test_rejected_source_counts_as_withdrawn(git_repo: GitRepo):
    """R6."""
    git_repo.commit({f"{K}/a.md": source(body(), title="A")})
    git_repo.publish_baseline()
    git_repo.commit({f"{K}/a.md": source(body(), title="A", verification="rejected")})
    plan = git_repo.json("plan")
    assert plan["withdrawn"] == ["knowledge/a"] and plan["reasons"]["knowledge/a"] == "rejected (verification: rejected)"


def test_moved_file_without_id_is_withdrawal_plus_addition(git_repo: GitRepo):
    git_repo.commit({f"{K}/old.md": "# Old\n\nbody text\n"})
    git_repo.publish_baseline()
    git_repo.commit({f"{K}/old.md": None, f"{K}/sub/new.md": "# Old\n\nbody text\n"})
    plan = git_repo.json("plan")
    assert plan["withdrawn"] == ["knowledge/old"] and plan["added"] == ["knowledge/sub/new"]


def test_moved_file_with_id_is_the_same_source(git_repo: GitRepo):
    text = source(body(), id="stable", title="Stable")
    git_repo.commit({f"{K}/old.md": text})
    git_repo.publish_baseline()
    git_repo.commit({f"{K}/old.md": None, f"{K}/moved/here.md": text})
    plan = git_repo.json("plan")
    assert plan["added"] == plan["updated"] == plan["withdrawn"] == []
    assert plan["bookkeeping"] == [{"source": "stable", "reason": "recorded: path"}]
    assert plan["blobs_read"] == 1  # the rename is reported by the diff; only the moved blob is read


def test_switch_off_defers_and_knowledge_is_always_explicit(git_repo: GitRepo):
    """R4."""
    git_repo.commit(
        {
            f"{K}/a.md": source(body(), title="A"),
            "content/sources/constraints/c.md": source(body(), title="C"),
        }
    )
    git_repo.publish_baseline()
    git_repo.commit(
        {
            "wikigen.yml": "categories:\n  auto_archive:\n    constraints: false\n",
            f"{K}/a.md": source(body("changed"), title="A"),
            "content/sources/constraints/c.md": source(body("changed"), title="C"),
        }
    )
    plan = git_repo.json("plan")
    assert plan["updated"] == ["knowledge/a"] and plan["deferred"] == ["constraints/c"]
    status = git_repo.json("status")
    assert status["deferred"] == ["constraints/c"]
    assert git_repo.json("plan", "--include-deferred")["updated"] == ["constraints/c", "knowledge/a"]


def test_knowledge_has_no_switch(git_repo: GitRepo):
    """R4."""
    git_repo.commit({"wikigen.yml": "categories:\n  auto_archive:\n    knowledge: false\n"})
    result = git_repo.wikigen("plan")
    assert result.code == 1 and "knowledge is always explicit" in result.err


def task(status: str, attempt: int = 1, **extra: object) -> str:
    return source(
        body("Task record body with its decision."),
        title="Task",
        task="T1",
        step="s1",
        run="r1",
        status=status,
        attempt=attempt,
        **extra,
    )


def test_first_run_records_tasks_as_baseline_and_knowledge_compiles(git_repo: GitRepo):
    """R36."""
    git_repo.commit({f"{T}/t.md": task("accepted"), f"{K}/a.md": source(body(), title="A")})
    plan = git_repo.json("plan")
    assert plan["added"] == ["knowledge/a"] and plan["pending"] == ["tasks/t"]
    assert plan["reasons"]["tasks/t"] == "first run: recorded as the task baseline"


def checkpointed(git_repo: GitRepo) -> None:
    """A repo whose task tasks/t is compiled at an accepted checkpoint."""
    git_repo.commit({f"{K}/a.md": source(body(), title="A")})
    git_repo.publish_baseline(1)
    git_repo.commit({f"{T}/t.md": task("accepted", updated_at="2026-01-01T00:00:00Z")})
    plan = git_repo.json("plan")
    assert plan["added"] == ["tasks/t"]
    git_repo.publish_baseline(2)


def test_volatile_field_changes_compile_nothing(git_repo: GitRepo):
    """R35."""
    checkpointed(git_repo)
    git_repo.commit(
        {f"{T}/t.md": task("accepted", updated_at="2026-05-05T00:00:00Z", usage={"tokens": 99}, tool_steps=7)}
    )
    plan = git_repo.json("plan")
    assert plan["added"] == plan["updated"] == []
    assert plan["bookkeeping"] == [{"source": "tasks/t", "reason": "recorded: volatile, blob"}]


def test_move_into_awaiting_acceptance_is_pending(git_repo: GitRepo):
    """R35."""
    checkpointed(git_repo)
    git_repo.commit({f"{T}/t.md": task("awaiting_acceptance", revision=2)})
    plan = git_repo.json("plan")
    assert plan["updated"] == [] and plan["pending"] == ["tasks/t"]
    assert "not a checkpoint" in plan["reasons"]["tasks/t"]


def test_failed_at_latest_attempt_is_a_checkpoint(git_repo: GitRepo):
    """R35."""
    checkpointed(git_repo)
    git_repo.commit({f"{T}/t.md": task("failed", attempt=2)})
    assert git_repo.json("plan")["updated"] == ["tasks/t"]


def test_only_the_latest_attempt_is_a_checkpoint(git_repo: GitRepo):
    """R35."""
    checkpointed(git_repo)
    git_repo.commit(
        {f"{T}/t-attempt2.md": task("running", attempt=2), f"{T}/t.md": task("failed", attempt=1)}
    )
    plan = git_repo.json("plan")
    assert plan["updated"] == [] and plan["pending"] == ["tasks/t", "tasks/t-attempt2"]
    assert plan["reasons"]["tasks/t"] == "attempt 1 is not the latest attempt"


def test_retry_back_to_running_keeps_last_checkpoint(git_repo: GitRepo):
    """R36."""
    checkpointed(git_repo)
    compiled = git_repo.snapshot().manifest["tasks/t"]
    git_repo.commit({f"{T}/t.md": task("running", attempt=2)})
    plan = git_repo.json("plan")
    assert plan["updated"] == [] and plan["pending"] == ["tasks/t"]
    from wikigen.store.workspace import Workspace

    entry = Workspace.open(git_repo.root).plan().manifest["tasks/t"]
    assert (
        entry.version == compiled.version and entry.pending is not None and entry.pending.reason == "waiting"
    )


def test_same_checkpoint_key_is_deduplicated(git_repo: GitRepo):
    """R35."""
    checkpointed(git_repo)
    # The body changed but the checkpoint (task, step, run, status, attempt, revision, ...) is the same one.
    git_repo.commit({f"{T}/t.md": task("accepted").replace("decision.", "decision!")})
    plan = git_repo.json("plan")
    assert plan["updated"] == [] and plan["reasons"]["tasks/t"] == "same checkpoint as the compiled version"


def test_subtask_waits_and_batches_with_parent_checkpoint(git_repo: GitRepo):
    """R36."""
    checkpointed(git_repo)
    sub = source(body("Subtask notes with detail."), title="Sub", task="T1-a", parent="T1", status="accepted")
    git_repo.commit({f"{T}/sub.md": sub})
    plan = git_repo.json("plan")
    assert plan["added"] == [] and plan["pending"] == ["tasks/sub"]
    git_repo.publish_baseline(3)  # records the waiting subtask in the manifest
    git_repo.commit({f"{T}/t.md": task("accepted", attempt=2)})
    plan = git_repo.json("plan")
    assert plan["added"] == ["tasks/sub"] and plan["updated"] == ["tasks/t"]


def test_staged_sees_the_index_not_the_work_tree(git_repo: GitRepo):
    git_repo.commit({f"{K}/a.md": source(body(), title="A")})
    git_repo.publish_baseline()
    git_repo.stage({f"{K}/b.md": source(body(), title="B")})
    git_repo.write({f"{K}/c.md": source(body(), title="C")})  # work tree only
    assert git_repo.json("plan", "--staged")["added"] == ["knowledge/b"]
    assert git_repo.json("plan")["added"] == []


def test_legacy_snapshot_with_matching_fingerprint_is_backfilled(git_repo: GitRepo):
    """R10."""
    git_repo.commit({f"{K}/a.md": source(body(), title="A"), f"{K}/b.md": source(body(), title="B")})
    from wikigen.store.workspace import Workspace

    versions = {sid: e.version for sid, e in Workspace.open(git_repo.root).plan().manifest.items()}
    legacy = {
        "version": 4,
        "fingerprint": fingerprint(versions.items()),
        "objects": {"article/a": {"citations": [{"source": s, "version": v} for s, v in versions.items()]}},
    }
    git_repo.commit({SNAPSHOT_PATH: json.dumps(legacy)})
    plan = git_repo.json("plan")
    assert plan["backfill"] is True and plan["baseline_version"] == 4
    assert plan["added"] == plan["updated"] == []


def test_stale_legacy_snapshot_recovers_only_cited_versions(git_repo: GitRepo):
    """R10."""
    git_repo.commit({f"{K}/a.md": source(body(), title="A"), f"{K}/b.md": source(body(), title="B")})
    from wikigen.store.workspace import Workspace

    versions = {sid: e.version for sid, e in Workspace.open(git_repo.root).plan().manifest.items()}
    legacy = {
        "version": 2,
        "objects": [{"citations": [{"source": "knowledge/a", "version": versions["knowledge/a"]}]}],
    }
    git_repo.commit({SNAPSHOT_PATH: json.dumps(legacy)})
    plan = git_repo.json("plan")
    assert plan["backfill"] is False and plan["added"] == ["knowledge/b"] and plan["updated"] == []


def test_settings_precedence_flag_env_file_default(git_repo: GitRepo, monkeypatch):
    from wikigen.model.config import load_config

    root = git_repo.root
    assert load_config(root, environ={}).caps.anchors == 100
    (root / "wikigen.yml").write_text("caps:\n  anchors: 50\nengine:\n  name: http\n")
    assert load_config(root, environ={}).caps.anchors == 50
    env = {"WIKIGEN_CAPS_ANCHORS": "40", "WIKIGEN_ENGINE": "offline"}
    assert load_config(root, environ=env).caps.anchors == 40
    assert load_config(root, environ=env).engine.name == "offline"
    flagged = load_config(root, environ=env, overrides={"caps.anchors": 30, "engine.name": "http"})
    assert (flagged.caps.anchors, flagged.engine.name) == (30, "http")


def test_config_validation_reports_every_problem(git_repo: GitRepo):
    from wikigen.model.config import load_config
    from wikigen.model.errors import ConfigError

    (git_repo.root / "wikigen.yml").write_text(
        "caps:\n  anchors: -1\n  bogus: 3\nengine:\n  name: gpt\nextra: 1\n"
    )
    try:
        load_config(git_repo.root, environ={})
    except ConfigError as exc:
        assert exc.message.count("\n") >= 4 and "4 problem(s)" in exc.message
    else:
        raise AssertionError("expected ConfigError")
