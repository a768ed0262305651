"""R7: two branches that each compiled can be merged. The user resolves the conflicts in the
generated files by taking either side (`git checkout --ours|--theirs content/wiki content/.wikigen`),
and `wikigen compile` reconciles with no other step: the generated files come back to the snapshot
kept, and what the other side brought compiles as changes (R7: the plan diffs the sources tree
against the one the snapshot records, not a commit range).

Before the fix, the compile failed whichever side was kept ("… exists but is not the compiler's").
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo, source
from wikigen.model.objects import object_path
from wikigen.model.snapshot import SNAPSHOT_PATH

K = "content/sources/knowledge"
BASE = "# Storage\n\nThe storage engine keeps every page in a log-structured merge tree on disk.\n"
OURS = "# Planner\n\nThe query planner turns a parsed statement into a tree of physical operators.\n"
THEIRS = "# Recovery\n\nThe write-ahead log lets the database replay committed work after a crash.\n"


def compile_ok(repo: GitRepo) -> None:
    result = repo.wikigen("compile", "--engine", "offline")
    assert result.code == 0, result


def two_compiled_branches(repo: GitRepo, theirs_edits_base: bool = False) -> None:
    repo.commit({f"{K}/base.md": source(BASE, title="Storage")})
    compile_ok(repo)
    repo.git("branch", "feature")
    repo.commit({f"{K}/ours.md": source(OURS, title="Planner")}, message="ours")
    compile_ok(repo)
    repo.git("checkout", "-q", "feature")
    files = {f"{K}/theirs.md": source(THEIRS, title="Recovery")}
    if theirs_edits_base:
        files[f"{K}/base.md"] = source(BASE + "\nCompaction merges the sorted runs in the background.\n",
                                       title="Storage")
    repo.commit(files, message="theirs")
    compile_ok(repo)
    repo.git("checkout", "-q", "main")


def merge_taking(repo: GitRepo, side: str) -> None:
    merged = repo.git("merge", "--no-edit", "feature", check=False)
    assert merged.returncode == 1 and SNAPSHOT_PATH in merged.stdout  # both branches changed the snapshot
    repo.git("checkout", f"--{side}", "content/wiki", "content/.wikigen")
    repo.git("add", "content")
    repo.git("commit", "--no-edit", "-q")


def covered_sources(repo: GitRepo) -> set[str]:
    index = repo.snapshot().objects
    return {sid for e in index.values() if e["kind"] == "article" for sid in e["sourceIds"]}


@pytest.mark.parametrize("side", ["ours", "theirs"])
def test_a_merge_keeping_either_side_compiles_what_the_other_brought(git_repo: GitRepo, side: str):
    """R7: keeping either side, `compile` reconciles and compiles what the other side
    brought; `verify` passes and every source has its article (R28)."""
    two_compiled_branches(git_repo)
    merge_taking(git_repo, side)
    brought = "knowledge/theirs" if side == "ours" else "knowledge/ours"
    assert git_repo.json("plan")["added"] == [brought]
    compile_ok(git_repo)
    assert covered_sources(git_repo) == {"knowledge/base", "knowledge/ours", "knowledge/theirs"}
    assert git_repo.wikigen("verify").code == 0
    authors = git_repo.git("log", "-2", "--format=%an %s").stdout.splitlines()
    assert authors[0].startswith("wikigen wikigen: snapshot")
    assert authors[1].startswith("wikigen wikigen: reconcile") and "no engine call" in authors[1]
    assert git_repo.git("status", "--porcelain").stdout == ""
    # R9: nothing left to do.
    again = git_repo.wikigen("compile", "--engine", "offline")
    assert again.code == 0 and "nothing to compile" in again.out


def test_a_source_the_other_side_updated_is_recompiled(git_repo: GitRepo):
    """R12: their branch updated a source both share; keeping our snapshot, the compile
    revokes our article of it and compiles their version — the article cites the merged body."""
    two_compiled_branches(git_repo, theirs_edits_base=True)
    merge_taking(git_repo, "ours")
    ours = git_repo.snapshot().manifest["knowledge/base"].version
    plan = git_repo.json("plan")
    assert plan["updated"] == ["knowledge/base"] and plan["added"] == ["knowledge/theirs"]
    compile_ok(git_repo)
    assert git_repo.wikigen("verify").code == 0
    merged = git_repo.snapshot().manifest["knowledge/base"].version
    article = git_repo.read(object_path("article/knowledge--base"))
    assert merged != ours and f"@ {merged}" in article and f"@ {ours}" not in article


def test_verify_before_the_compile_says_the_compile_reconciles(git_repo: GitRepo):
    """E5: between the merge and the compile, `verify` names the merged files and the fix."""
    two_compiled_branches(git_repo)
    merge_taking(git_repo, "ours")
    result = git_repo.wikigen("verify")
    assert result.code == 1
    assert f"{object_path('article/knowledge--theirs')}: brought by merging another compiled branch" in result.out
    assert "`wikigen compile` reconciles it" in result.out
